import { countTokens } from '@anthropic-ai/tokenizer';
import { getEncoding } from 'js-tiktoken';
import fs from 'fs';
const cl = getEncoding('cl100k_base');
const o2 = getEncoding('o200k_base');
// Counts the tokens of each body with Claude's tokenizer and OpenAI's
// cl100k_base and o200k_base (scripts/bench/token-estimate.py runs it).
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
const out = [];
for (const line of lines) {
  const { path, body } = JSON.parse(line);
  out.push(JSON.stringify({ path, claude: countTokens(body), cl100k: cl.encode(body, 'all').length, o200k: o2.encode(body, 'all').length }));
}
fs.writeFileSync(process.argv[3], out.join('\n') + '\n');
