#!/usr/bin/env python3
"""Measure the body-token estimate (`body-too-many-tokens`: characters over four,
rounded up, as agentskills-core estimates) against real tokenizers, on the
bodies of every real skill within reach (what scripts/bench/audit-corpora.py fetched,
and the repository's testdata/ and examples/).

    python3 scripts/bench/audit-corpora.py      # fetches the public corpora first
    python3 scripts/bench/token-estimate.py

The tokenizers come from npm at pinned versions, into target/token-estimate/:
Claude's (@anthropic-ai/tokenizer, the vocabulary Anthropic published) and
OpenAI's cl100k_base and o200k_base (js-tiktoken, which ships its ranks).
Bodies under 200 characters are left out (a relative error of a handful of
tokens says nothing). Prints, per tokenizer, the mean signed error and the
median, 90th-percentile and largest absolute error of the estimate.
"""

import json
import math
import os
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, "target/token-estimate")
PACKAGES = ["@anthropic-ai/tokenizer@0.0.4", "js-tiktoken@1.0.21"]


def bodies():
    found = {}
    for top in ("testdata", "examples", "target/audit-corpora"):
        for base, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules"))
            if "SKILL.md" not in files:
                continue
            try:
                text = open(os.path.join(base, "SKILL.md"), encoding="utf-8").read()
            except (OSError, UnicodeDecodeError):
                continue
            parts = text.split("---", 2)
            if len(parts) == 3 and len(parts[2].strip()) >= 200:
                found[os.path.relpath(base, ROOT)] = parts[2].strip()
    return found


def main():
    os.makedirs(WORK, exist_ok=True)
    if not os.path.isdir(os.path.join(WORK, "node_modules/js-tiktoken")):
        subprocess.run(["npm", "install", "--silent", "--prefix", WORK, *PACKAGES], check=True)
    texts = bodies()
    with open(os.path.join(WORK, "bodies.jsonl"), "w") as out:
        for path, body in texts.items():
            out.write(json.dumps({"path": path, "body": body}) + "\n")
    script = os.path.join(WORK, "count.mjs")
    with open(os.path.join(ROOT, "scripts/bench/token-count.mjs")) as src, open(script, "w") as dst:
        dst.write(src.read())
    subprocess.run(["node", script, os.path.join(WORK, "bodies.jsonl"), os.path.join(WORK, "counts.jsonl")],
                   check=True, cwd=WORK)
    rows = [json.loads(line) for line in open(os.path.join(WORK, "counts.jsonl"))]
    print(f"{len(rows)} bodies of 200 characters or more")
    for tokenizer in ("claude", "cl100k", "o200k"):
        errors = [(math.ceil(len(texts[r["path"]]) / 4) - r[tokenizer]) / r[tokenizer] for r in rows if r[tokenizer]]
        absolute = sorted(abs(e) for e in errors)
        print(f"estimate vs {tokenizer:7}: mean {statistics.mean(errors) * 100:+.1f} %, "
              f"median |error| {statistics.median(absolute) * 100:.1f} %, "
              f"p90 {absolute[int(0.9 * len(absolute))] * 100:.1f} %, max {absolute[-1] * 100:.1f} %")


if __name__ == "__main__":
    main()
