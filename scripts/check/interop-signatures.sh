#!/usr/bin/env bash
# Interop with the Python agentskills-core 0.7.0 SDK: revisions computed here
# equal the SDK's for testdata/skills, signatures made here verify in its
# TrustPolicy.verify, and signatures made with Python verify here.
#
#   scripts/check/interop-signatures.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

python=$(scripts/record/setup-core-venv.sh)
cargo build --quiet -p skills-cmd --bin skills
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" scripts/check/interop-signatures.py "$PWD/target/debug/skills" testdata/skills "$work"
