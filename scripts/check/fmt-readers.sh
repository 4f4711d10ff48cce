#!/usr/bin/env bash
# The property test of `skills fmt` against other YAML readers: every
# SKILL.md under testdata/ and thousands of generated frontmatters,
# formatted, must read the same under strictyaml, PyYAML (YAML 1.1) and
# ruamel.yaml (YAML 1.2) as the original reads under strictyaml.
#
#   scripts/check/fmt-readers.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(scripts/record/setup-yaml-venv.sh)
cargo build --quiet -p skills-cmd --bin skills
"$python" scripts/check/yaml-readers.py fmt-check "$PWD/target/debug/skills"
