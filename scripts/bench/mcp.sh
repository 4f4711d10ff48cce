#!/usr/bin/env bash
# Our MCP server against the Python reference (agentskills-mcp-server 0.7.0)
# over the same skills (testdata/skills), in one run: requests per second and
# p50/p99 latency over stdio for resources/read and tools/call, one request
# at a time, from the same Python driver. Ours is examples/mcp-server in the
# release profile. The reference has no tools: its tools/call answers
# "Unknown tool" (an isError reply), which is still one full round trip.
#
#   scripts/bench/mcp.sh [REQUESTS]     # default 5000
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-5000}
python=$(scripts/record/setup-core-venv.sh)
cargo build --quiet --release -p mcp-server
"$python" scripts/bench/mcp.py "$count" \
    "ours=$PWD/target/release/mcp-server" \
    "python=$python scripts/record/reference-mcp-server.py testdata/skills/csv-report testdata/skills/git-rebase testdata/skills/pdf-forms"
