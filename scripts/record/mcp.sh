#!/usr/bin/env bash
# Records agentskills-mcp-server 0.7.0's replies to testdata/mcp/requests.json
# over testdata/skills and testdata/mcp/skills into testdata/mcp/recorded.json
# (the reference server comes in the git-ignored .venv-core, on Python 3.12).
#
#   scripts/record/mcp.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(scripts/record/setup-core-venv.sh)
"$python" scripts/record/mcp.py testdata/mcp/recorded.json -- \
    "$python" scripts/record/reference-mcp-server.py testdata/skills/* testdata/mcp/skills/*
