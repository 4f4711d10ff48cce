#!/usr/bin/env bash
# Builds the two packages into target/dist/ (docs/ci.md):
#
# * skills-cmd-VERSION.tgz, the npm package: packaging/npm/ (the node:wasi
#   launcher) with skills.wasm, the command built for wasm32-wasip1 without
#   the default features (no MCP server, no installer);
# * skills_cmd-VERSION-…whl, the PyPI wheel for this platform: the native
#   release binary as `skills` and as `agentskills` (packaging/pypi/).
#
# Both are release builds of the CLI, cached in target/ (a second run costs
# seconds). Installs the wasm32-wasip1 target with rustup when it is missing,
# and maturin into the git-ignored .venv-dist (scripts/dist/setup-venv.sh).
#
#   scripts/dist/build.sh        # prints the paths of the two artifacts
set -euo pipefail
cd "$(dirname "$0")/../.."

dist=target/dist
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
npm_version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' packaging/npm/package.json)
if [ "$npm_version" != "$version" ]; then
    echo "build.sh: packaging/npm/package.json says version $npm_version, the workspace $version" >&2
    exit 1
fi
exe=
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) exe=.exe ;; esac

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

# The native binary, built as maturin builds it (the same command, so
# maturin's own build below finds it fresh), copied as `agentskills`.
cargo build --quiet --release -p skills-cmd --bin skills
rm -rf "$dist/pypi-data" "$dist"/skills_cmd-*.whl
mkdir -p "$dist/pypi-data/scripts"
cp "target/release/skills$exe" "$dist/pypi-data/scripts/agentskills$exe"
bin=$(scripts/dist/setup-venv.sh)
(cd packaging/pypi && "$bin/maturin" build --quiet --release --out "../../$dist" >&2)

ls "$PWD/$dist"/skills-cmd-"$version".tgz "$PWD/$dist"/skills_cmd-"$version"-*.whl
