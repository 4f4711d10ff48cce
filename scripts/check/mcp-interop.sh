#!/usr/bin/env bash
# Our MCP server driven by real clients: the Python `mcp` 2.3.0 client
# (from the git-ignored .venv-core) end to end over `skills mcp SRC...`,
# `skills mcp --bundle FILE` and examples/mcp-server, over Streamable HTTP
# (`skills mcp --http`, then with --bearer-token-file: refused without the
# token, served with it; each server must exit 0 on SIGTERM), then the
# @modelcontextprotocol/inspector 2.12.0 CLI's --verify (installed from npm
# into the git-ignored .node-mcp), which checks the Skills extension's rules
# and every digest and exits non-zero on a failure, and its
# resources/directory/read of a skill (the entries checked against its
# schema) and of a file (refused).
#
#   scripts/check/mcp-interop.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/wait.sh

python=$(scripts/record/setup-core-venv.sh)
inspector=.node-mcp/node_modules/.bin/mcp-inspector
if [ ! -x "$inspector" ]; then
    mkdir -p .node-mcp
    npm install --prefix .node-mcp --no-audit --no-fund --loglevel=error \
        @modelcontextprotocol/inspector@2.12.0 >/dev/null
fi
cargo build --quiet -p skills-cmd --bin skills
cargo build --quiet -p mcp-server
skills=$PWD/target/debug/skills
example=$PWD/target/debug/mcp-server
work=$(mktemp -d)
http_pid=
# A server left by a failed step is stopped with the script.
trap '[ -z "$http_pid" ] || kill "$http_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$skills" build testdata/skills testdata/mcp/skills -o "$work/skills.bin" 2>/dev/null

echo "== Python mcp client: skills mcp SRC... (pages of 2)"
"$python" scripts/check/mcp-client-e2e.py "$skills" mcp --page-size 2 testdata/skills testdata/mcp/skills
echo "== Python mcp client: skills mcp --bundle FILE"
"$python" scripts/check/mcp-client-e2e.py "$skills" mcp --bundle "$work/skills.bin"
echo "== Python mcp client: examples/mcp-server"
"$python" scripts/check/mcp-client-e2e.py "$example"
# Starts `skills mcp --http 127.0.0.1:0 ARGS...` in the background and sets
# http_pid, and url from the server's first stderr line once it is there.
serve_http() {
    # Emptied first, so the line found is this server's, not the last one's.
    : >"$work/http.err"
    "$skills" mcp --http 127.0.0.1:0 "$@" 2>"$work/http.err" &
    http_pid=$!
    # As long as it runs, however loaded the machine (scripts/wait.sh).
    url=$(serving_url "$http_pid" "$work/http.err") || exit 1
}
# Stops it as an orchestrator does; it must exit 0.
stop_http() {
    kill -TERM "$http_pid"
    wait "$http_pid" || { echo "mcp-interop: the HTTP server did not exit 0 on SIGTERM" >&2; exit 1; }
    http_pid=
}
echo "== Python mcp client over Streamable HTTP: skills mcp --http 127.0.0.1:0 --bundle FILE"
serve_http --page-size 2 --bundle "$work/skills.bin"
"$python" scripts/check/mcp-client-e2e.py "$url"
stop_http
echo "== Python mcp client over Streamable HTTP with a bearer token: --bearer-token-file"
python3 -c 'import secrets; print(secrets.token_hex(32))' >"$work/token"
serve_http --bearer-token-file "$work/token" --bundle "$work/skills.bin"
status=$(python3 - "$url" <<'PY'
import http.client, sys, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
conn.request("POST", url.path, body='{"jsonrpc":"2.0","id":1,"method":"ping"}', headers={"Content-Type": "application/json"})
print(conn.getresponse().status)
PY
)
[ "$status" = 401 ] || { echo "mcp-interop: without the token: $status, not 401" >&2; exit 1; }
if "$python" scripts/check/mcp-client-e2e.py "$url" >/dev/null 2>&1; then
    echo "mcp-interop: a client without the token was served" >&2
    exit 1
fi
MCP_BEARER_TOKEN=$(cat "$work/token") "$python" scripts/check/mcp-client-e2e.py "$url"
stop_http

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
    echo "== inspector resources/directory/read: $server"
    # shellcheck disable=SC2086
    HOME="$work/home" MCP_CATALOG_PATH="$work/home/catalog.json" \
        "$inspector" --cli --protocol-era modern --format json -q \
        --method resources/directory/read --uri skill://pdf-forms $server >"$work/directory.json"
    python3 -c '
import json, sys
resources = json.load(open(sys.argv[1]))["result"]["resources"]
kinds = [(r["name"], r["mimeType"]) for r in resources]
assert kinds == [("pdf-forms", "text/markdown"), ("assets", "inode/directory"), ("reference.md", "text/markdown"), ("scripts", "inode/directory")], kinds
assert all(r["size"] > 0 and r["_meta"]["io.agentskills/digest"].startswith("sha256:") for r in resources if r["mimeType"] != "inode/directory")
print(f"read {len(resources)} entries of skill://pdf-forms")
' "$work/directory.json"
    # shellcheck disable=SC2086
    if HOME="$work/home" MCP_CATALOG_PATH="$work/home/catalog.json" \
        "$inspector" --cli --protocol-era modern --format json -q \
        --method resources/directory/read --uri skill://pdf-forms/SKILL.md $server >"$work/file.json" 2>&1; then
        echo "mcp-interop: a SKILL.md was read as a directory" >&2
        exit 1
    fi
    grep -q "is not a directory resource" "$work/file.json"
done
echo "mcp-interop: ok"
