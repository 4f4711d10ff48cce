#!/usr/bin/env bash
# Creates the git-ignored .venv-core with the Python agentskills-core 0.7.0 SDK
# (and its file-system provider, MCP server and the `verification` extra), on
# Python 3.12 as the SDK requires. Used by the interop and recording scripts.
#
#   scripts/record/setup-core-venv.sh        # idempotent; prints the venv's python
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.venv-core
want="agentskills-core[verification]==0.7.0 agentskills-fs==0.7.0 agentskills-mcp-server==0.7.0"

find_python() {
    for candidate in python3.12 "$HOME/.pyenv/versions/3.12.1/bin/python3" /root/.pyenv/versions/3.12.1/bin/python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    if command -v pyenv >/dev/null 2>&1; then
        for version in $(pyenv versions --bare | grep '^3\.12'); do
            echo "$(pyenv root)/versions/$version/bin/python3"
            return 0
        done
    fi
    echo "setup-core-venv: Python 3.12 not found (agentskills-core 0.7.0 needs it)" >&2
    return 1
}

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import agentskills_core, agentskills_fs, cryptography' 2>/dev/null; then
    python=$(find_python)
    "$python" -m venv "$venv"
    # shellcheck disable=SC2086
    "$venv/bin/pip" install --quiet --disable-pip-version-check $want
fi
echo "$PWD/$venv/bin/python"
