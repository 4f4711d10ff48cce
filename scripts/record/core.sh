#!/usr/bin/env bash
# Records agentskills-core 0.7.0's catalogs, outlines, sections, fast-path
# prompts, resource listings and envelopes, and manifests over the testdata
# skills into testdata/core/ (see scripts/record/core.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
python=$(scripts/record/setup-core-venv.sh)
rm -rf testdata/core/catalog testdata/core/outline testdata/core/section testdata/core/fastpath \
    testdata/core/resources testdata/core/envelope testdata/core/manifest
"$python" scripts/record/core.py
