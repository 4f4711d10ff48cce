#!/usr/bin/env bash
# Records the reference notes on where coding agents read skills
# (shared/reference/agents.md, beside the repository) into
# testdata/agents/agents.md, which the installer's agent table is tested
# against (skills-install/tests/it/install_agents.rs). Run it when the notes
# change, then update skills-install/src/agents.rs to match.
#
#   scripts/record/agents.sh [PATH-TO-agents.md]
set -euo pipefail
cd "$(dirname "$0")/../.."
source="${1:-../shared/reference/agents.md}"
if [ ! -f "$source" ]; then
    echo "error: $source not found (give the path to agents.md)" >&2
    exit 1
fi
mkdir -p testdata/agents
cp "$source" testdata/agents/agents.md
chmod 644 testdata/agents/agents.md
echo "recorded $source -> testdata/agents/agents.md"
