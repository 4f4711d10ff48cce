#!/usr/bin/env bash
# Every test: the workspace's tests (unit, conformance recordings, UI,
# behaviour), the publish dry run and `cargo install`, then the checks that
# need more than cargo: interop with the
# Python agentskills-core SDK (it installs a git-ignored venv from PyPI),
# `skills fmt` read back by PyYAML and ruamel.yaml (another venv), and
# the rebuild behaviour of include_skills!, and our MCP server driven by the
# Python mcp client and the MCP inspector (an npm package, git-ignored), and
# the deploy/ recipes.
# First, no import loop between the modules of any crate.
#
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

python3 scripts/check-module-cycles.py --self-test
python3 scripts/check-module-cycles.py
cargo test --workspace
# Every crate packages and builds from its package alone, in publishing
# order (no dependency cycle, no file outside a package). Cargo unpacks the
# packages of the dry run's local registry once per version and keeps them:
# the copies an earlier run left (same version, older files) go first.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/skills-*
# Cargo takes a package from its temporary registry for immutable, so after
# a change to a crate (same version) it would verify against the artifacts
# of the last run: our crates' are dropped first, in a target of its own.
rm -rf target/publish-check/debug/.fingerprint/skills-*
cargo publish --workspace --dry-run --allow-dirty --quiet --target-dir target/publish-check
# `cargo install` gives a working `skills` (in the dev profile, reusing this
# build's artifacts, so it costs seconds).
cargo install --quiet --debug --locked --path skills-cli --root target/install-check --target-dir target --force
target/install-check/bin/skills --version
target/install-check/bin/skills check testdata/skills
# The macro's signing options, which need the `sign` feature.
cargo test -p skills-tests --features sign --test ui
scripts/interop-signatures.sh
scripts/fmt-readers.sh
scripts/rebuild-demo.sh
scripts/mcp-interop.sh
# deploy/: the Kubernetes YAML and the Containerfile agree, and their
# command serves, answers its readiness probe and stops on SIGTERM.
cargo build --quiet -p skills-cli --bin skills
"$(scripts/setup-core-venv.sh)" scripts/check-deploy.py target/debug/skills
