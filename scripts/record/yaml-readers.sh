#!/usr/bin/env bash
# Records what PyYAML (YAML 1.1) and ruamel.yaml (YAML 1.2) read each
# candidate plain scalar as, into testdata/yaml-readers/ (see
# scripts/check/yaml-readers.py); skills-cmd's `recorded_readers` test checks the
# canonical form's quoting rule against it.
#
#   scripts/record/yaml-readers.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(scripts/record/setup-yaml-venv.sh)
"$python" scripts/check/yaml-readers.py record
