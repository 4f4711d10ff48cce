#!/usr/bin/env bash
# Creates the git-ignored .venv-yaml with the YAML readers `skills fmt` is
# checked against: PyYAML 6.0.3 (YAML 1.1, the reader agentskills-core
# uses), ruamel.yaml 0.18.16 (YAML 1.2 core schema) and strictyaml 1.7.3
# (the reference validator's reader). Test-only tools: nothing ships them.
#
#   scripts/record/setup-yaml-venv.sh        # idempotent; prints the venv's python
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.venv-yaml
want="PyYAML==6.0.3 ruamel.yaml==0.18.16 strictyaml==1.7.3"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c '
import yaml, ruamel.yaml, strictyaml, sys
sys.exit(yaml.__version__ != "6.0.3" or ruamel.yaml.__version__ != "0.18.16")' 2>/dev/null; then
    python3 -m venv "$venv"
    # shellcheck disable=SC2086
    "$venv/bin/pip" install --quiet --disable-pip-version-check $want
fi
echo "$PWD/$venv/bin/python"
