#!/usr/bin/env bash
# Builds the two packages into target/dist/ (docs/ci.md):
#
# * skills-cmd-VERSION.tgz, the npm package: packaging/npm/ (the node:wasi
#   launcher) with skills.wasm, the command built for wasm32-wasip1 without
#   the default features (no MCP server, no installer);
# * skills_cmd-VERSION-…whl, the PyPI wheel for this platform: the native
#   release binary as `skills` and as `agentskills` (packaging/pypi/,
#   scripts/dist/add-agentskills.py).
#
# Both are release builds of the CLI, cached in target/ (a second run costs
# seconds). Installs the wasm32-wasip1 target with rustup when it is missing,
# and maturin into the git-ignored .venv-dist (scripts/dist/setup-venv.sh).
#
#   scripts/dist/build.sh [npm|wheel]   # both by default; prints their paths
set -euo pipefail
cd "$(dirname "$0")/../.."
what=${1:-both}

dist=target/dist
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
npm_version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' packaging/npm/package.json)
if [ "$npm_version" != "$version" ]; then
    echo "build.sh: packaging/npm/package.json says version $npm_version, the workspace $version" >&2
    exit 1
fi

if [ "$what" != wheel ]; then
    # The WASI module. rust-toolchain.toml names no targets (every rustup user
    # would download this one); the scripts that need it add it.
    if ! rustup target list --installed | grep -qx wasm32-wasip1; then
        rustup target add wasm32-wasip1 >&2
    fi
    cargo build --quiet --release -p skills-cmd --target wasm32-wasip1 --no-default-features
    stage="$dist/npm"
    rm -rf "$stage" "$dist"/skills-cmd-*.tgz
    mkdir -p "$stage"
    cp -R packaging/npm/. "$stage/"
    cp target/wasm32-wasip1/release/skills.wasm LICENSE "$stage/"
    (cd "$stage" && npm pack --silent --pack-destination .. >/dev/null)
    ls "$PWD/$dist/skills-cmd-$version.tgz"
fi

if [ "$what" != npm ]; then
    # The native binary, in the wheel as `skills` and, copied, as `agentskills`.
    # MATURIN_ARGS: more options for maturin (the release workflow's `--zig
    # --compatibility manylinux2014`, `--target`).
    rm -f "$dist"/skills_cmd-*.whl
    bin=$(scripts/dist/setup-venv.sh)
    # shellcheck disable=SC2086
    (cd packaging/pypi && "$bin/maturin" build --quiet --release --out "../../$dist" ${MATURIN_ARGS:-} >&2)
    for wheel in "$dist"/skills_cmd-*.whl; do
        python3 scripts/dist/add-agentskills.py "$wheel"
        ls "$PWD/$wheel"
    done
fi
