#!/usr/bin/env bash
# Our MCP server driven by real clients: the Python `mcp` 2.3.0 client
# (from the git-ignored .venv-core) end to end over `skills mcp SRC...`,
# `skills mcp --bundle FILE` and examples/mcp-server, then the
# @modelcontextprotocol/inspector 2.12.0 CLI's --verify (installed from npm
# into the git-ignored .node-mcp), which checks the Skills extension's rules
# and every digest and exits non-zero on a failure.
#
#   scripts/mcp-interop.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/wait.sh

python=$(scripts/setup-core-venv.sh)
inspector=.node-mcp/node_modules/.bin/mcp-inspector
if [ ! -x "$inspector" ]; then
    mkdir -p .node-mcp
    npm install --prefix .node-mcp --no-audit --no-fund --loglevel=error \
        @modelcontextprotocol/inspector@2.12.0 >/dev/null
fi
cargo build --quiet -p skills-cli --bin skills
cargo build --quiet -p mcp-server
skills=$PWD/target/debug/skills
example=$PWD/target/debug/mcp-server
work=$(mktemp -d)
http_pid=
trap '[ -z "$http_pid" ] || kill "$http_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$skills" build testdata/skills testdata/mcp/skills -o "$work/skills.bin" 2>/dev/null

echo "== Python mcp client: skills mcp SRC... (pages of 2)"
"$python" scripts/mcp-client-e2e.py "$skills" mcp --page-size 2 testdata/skills testdata/mcp/skills
echo "== Python mcp client: skills mcp --bundle FILE"
"$python" scripts/mcp-client-e2e.py "$skills" mcp --bundle "$work/skills.bin"
echo "== Python mcp client: examples/mcp-server"
"$python" scripts/mcp-client-e2e.py "$example"
echo "== Python mcp client over Streamable HTTP: skills mcp --http 127.0.0.1:0 --bundle FILE"
"$skills" mcp --http 127.0.0.1:0 --page-size 2 --bundle "$work/skills.bin" 2>"$work/http.err" &
http_pid=$!
url=$(serving_url "$http_pid" "$work/http.err")
"$python" scripts/mcp-client-e2e.py "$url"
kill "$http_pid"
wait "$http_pid" 2>/dev/null || true
http_pid=

mkdir -p "$work/home"
for server in "$example" "$skills mcp testdata/skills testdata/mcp/skills"; do
    echo "== inspector --verify: $server"
    # shellcheck disable=SC2086
    HOME="$work/home" MCP_CATALOG_PATH="$work/home/catalog.json" \
        "$inspector" --cli --protocol-era modern --format json -q --method skills/list --verify $server \
        >"$work/verify.json"
    python3 -c '
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
bad = [row for row in rows if not row.get("ok")]
assert rows and not bad, bad or "no skills verified"
files = sum(len(row["files"]) for row in rows)
print(f"verified {len(rows)} skills, {files} files")
' "$work/verify.json"
done
echo "mcp-interop: ok"
