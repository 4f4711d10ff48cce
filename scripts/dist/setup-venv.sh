#!/usr/bin/env bash
# Creates the git-ignored .venv-dist with what building and checking the
# PyPI wheel takes: maturin (builds it), twine (`twine check`, the publish
# dry run) and wasmtime (the WASI runtime the wheel was measured against,
# docs/benchmarks.md). Pinned; idempotent; prints the venv's bin folder.
#
#   scripts/dist/setup-venv.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.venv-dist
want="maturin==1.16.0 twine==7.0.0 wasmtime==50.0.1"

# A venv's programs are in bin/, on Windows in Scripts/.
bin="$venv/bin"
[ -d "$venv/Scripts" ] && bin="$venv/Scripts"
if [ ! -x "$bin/maturin" ] || ! "$bin/python" -c 'import wasmtime, twine' 2>/dev/null; then
    python3 -m venv "$venv" 2>/dev/null || python -m venv "$venv"
    [ -d "$venv/Scripts" ] && bin="$venv/Scripts"
    # shellcheck disable=SC2086
    "$bin/python" -m pip install --quiet --disable-pip-version-check $want
fi
echo "$PWD/$bin"
