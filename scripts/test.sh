#!/usr/bin/env bash
# Every test: the workspace's tests (unit, conformance recordings, UI,
# behaviour), skills-rig's workspace, the publish dry run and `cargo install`, then the checks that
# need more than cargo: interop with the
# Python agentskills-core SDK (it installs a git-ignored venv from PyPI),
# `skills fmt` read back by PyYAML and ruamel.yaml (another venv), and
# the rebuild behaviour of include_skills!, and our MCP server driven by the
# Python mcp client, the MCP inspector and the MCP conformance suite (npm
# packages, git-ignored), the published index and a built plugin taken by the
# npm `skills` CLI and `plugins` (npm packages, git-ignored:
# scripts/check/publish-e2e.sh), the deploy/ recipes, and the npm and PyPI packages.
# First, no import loop between the modules of any crate (nor an import
# against skills-core's wings), and docs/architecture.md's arrows drawn
# from the code.
#
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

python3 scripts/check/module-cycles.py --self-test
python3 scripts/check/module-cycles.py --max-chain 'skills-install: 11'
# No function in skills-install over 80 lines.
python3 scripts/check/function-length.py --self-test
python3 scripts/check/function-length.py skills-install
# skills-build's door to the CLI holds what only the CLI uses: with it
# private, no unused item outside it.
scripts/check/door.sh
# docs/architecture.md's crate graph and skills-core's wings, as the code has them.
python3 scripts/gen/architecture.py
cargo test --workspace
# The slow tests, ignored by default and named slow_*, run here too (each
# crate's integration tests are one binary, already built): the trybuild
# matrix of include_skills!, ship-skills' upgrade over a nested cargo
# build, the installer's record of 100,001 entries.
cargo test --workspace --tests -- --ignored slow_
# The public faces docs/runtime-public-items.md and docs/build-public-items.md
# list, from the crates' documentation (SKILLS_BLESS=1 rewrites the lists).
python3 scripts/gen/public-items.py --check
# skills-rig and its example: a workspace of their own (skills-rig/Cargo.toml
# says why), so the line above builds no rig and no TLS stack.
cargo test --manifest-path skills-rig/Cargo.toml --workspace --target-dir target/rig
# Every crate packages and builds from its package alone, in publishing
# order (no dependency cycle, no file outside a package), in a target
# directory of its own. Cargo treats a registry package as immutable, so
# what an earlier dry run left of ours (same version, older files) goes
# first: its local registry, its builds of our crates, and the copies it
# unpacked. Third-party builds stay for the next run.
#
# It runs with a CARGO_HOME of its own, inside target/, so those copies
# are unpacked (and removed) there and never in the user's ~/.cargo. The
# user's crates.io index and downloaded crates are linked into it (and
# their cargo config, for a mirror or offline setting), so the check needs
# no network once the crates are downloaded; the third-party sources are
# unpacked again into it on its first run.
publish=target/publish-check
publish_home="$publish/cargo-home"
user_home="${CARGO_HOME:-$HOME/.cargo}"
mkdir -p "$publish_home/registry/index" "$publish_home/registry/cache"
for kind in index cache; do
    for dir in "$user_home/registry/$kind"/*; do
        name=$(basename "$dir")
        # A dry run's own local registry (`-<hash>`) is not the user's to share.
        case "$name" in -* | '*') continue ;; esac
        [ -e "$publish_home/registry/$kind/$name" ] || ln -s "$(cd "$dir" && pwd)" "$publish_home/registry/$kind/$name"
    done
done
for config in config.toml config; do
    if [ -f "$user_home/$config" ] && [ ! -e "$publish_home/$config" ]; then
        ln -s "$(cd "$user_home" && pwd)/$config" "$publish_home/$config"
    fi
done
rm -rf "$publish/package" "$publish"/debug/.fingerprint/skills-* "$publish"/debug/deps/*skills_* \
    "$publish_home"/registry/src/-*/skills-*
CARGO_HOME="$publish_home" cargo publish --workspace --dry-run --allow-dirty --quiet --target-dir "$publish"
# skills-rig, from a workspace of its own, is packaged without a lock file
# (cargo cannot resolve our unpublished crates there) and checked from its
# package alone against our crates as the dry run above packaged them
# (checked, not built: it finds a file missing from the package all the
# same, and reuses what the rig workspace's lint already checked).
rig_check="$publish/rig"
rm -rf "$rig_check" && mkdir -p "$rig_check"
cargo package --manifest-path skills-rig/Cargo.toml -p skills-rig --allow-dirty --no-verify \
    --exclude-lockfile --quiet --target-dir "$rig_check"
packaged=$(ls "$rig_check"/package/skills-rig-*.crate)
tar -xzf "$packaged" -C "$rig_check"
{
    echo '[workspace]'
    echo "members = [\"$(basename "$packaged" .crate)\"]"
    echo '[patch.crates-io]'
    for crate in "$publish"/package/skills-*; do
        [ -d "$crate" ] || continue
        name=$(basename "$crate")
        echo "${name%-*} = { path = \"$PWD/$crate\" }"
    done
} > "$rig_check/Cargo.toml"
cp skills-rig/Cargo.lock "$rig_check/Cargo.lock"
cargo check --manifest-path "$rig_check/Cargo.toml" --quiet --target-dir target/rig
# `cargo install` gives a working `skills` (in the dev profile, reusing this
# build's artifacts, so it costs seconds).
cargo install --quiet --debug --locked --path skills-cmd --root target/install-check --target-dir target --force
target/install-check/bin/skills --version
target/install-check/bin/skills --help >/dev/null
target/install-check/bin/skills check testdata/skills
# The macro's signing options, which need the `sign` feature.
cargo test -p skills-tests --features sign --test ui -- --ignored slow_
scripts/check/interop-signatures.sh
scripts/check/fmt-readers.sh
scripts/check/rebuild-demo.sh
scripts/check/mcp-interop.sh
scripts/check/mcp-conformance.sh
scripts/check/publish-e2e.sh
# The GitHub Action's way to the CLI (release asset, checksum, fallback),
# against a release served on 127.0.0.1.
python3 scripts/check/action-install.py
# deploy/: the Kubernetes YAML and the Containerfile agree, and their
# command serves, answers its readiness probe and stops on SIGTERM.
cargo build --quiet -p skills-cmd --bin skills
"$(scripts/record/setup-core-venv.sh)" scripts/check/deploy.py target/debug/skills
# The npm package (the WASI build under node:wasi) and the PyPI wheel, built
# into target/dist/, installed as users install them, run through the
# reference recordings and compared with the native binary; publish dry runs.
scripts/check/packages.sh
