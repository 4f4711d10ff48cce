#!/usr/bin/env bash
# What action.yml runs to put the `skills` CLI on the PATH, in seconds when
# it can:
#
#   scripts/action/install-cli.sh download   # the release asset for the action's own ref
#   scripts/action/install-cli.sh compile    # else: `cargo install` with the pinned toolchain
#
# `download` fetches `skills-<target>` and `SHA256SUMS` from the release
# named by the action's ref (a tag `v<version>` equal to skills-cmd's
# version: any other ref, a branch or a commit, is code no release was
# built from), checks the asset's SHA-256 against SHA256SUMS, and installs
# it as $SKILLS_ROOT/bin/skills. It prints `installed=download` (or
# `installed=` when no asset fits: the ref is no release, the release has
# no asset for this runner, or it cannot be reached) to $GITHUB_OUTPUT. A
# checksum that differs, or an asset missing from SHA256SUMS, is an error:
# nothing is installed and nothing falls back.
#
# `compile` installs skills-cmd from the action's own sources with
# `cargo install --locked`, with the toolchain the action's own
# rust-toolchain.toml pins (rustup reads the toolchain file of the
# directory it runs in, which is the user's repository, not the action's),
# unless $SKILLS_ROOT/bin/skills is there already (restored from the cache
# action.yml keys on `cache-key`, which `download` prints too).
#
# Environment (action.yml sets them; the test, scripts/check/action-install.py, too):
#   SKILLS_ACTION_PATH   the action's files (default: this repository)
#   SKILLS_ACTION_REF    the ref the workflow named the action at (github.action_ref)
#   SKILLS_REPOSITORY    owner/name of the action (github.action_repository)
#   SKILLS_ROOT          where bin/skills goes
#   SKILLS_RELEASES      the releases' download URL (default https://github.com/$SKILLS_REPOSITORY/releases/download)
#   RUNNER_OS, RUNNER_ARCH  the runner (Linux/macOS/Windows, X64/ARM64)
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
action=${SKILLS_ACTION_PATH:-$here}
root=${SKILLS_ROOT:?SKILLS_ROOT names where bin/skills goes}
output=${GITHUB_OUTPUT:-/dev/null}

say() { echo "skills action: $*" >&2; }

# github.action_ref and github.action_repository are not promised to a
# composite action (actions/runner#2473); the runner keeps an action's
# files at _actions/OWNER/NAME/REF, which says the same.
if [ -z "${SKILLS_ACTION_REF:-}" ] && [ -n "${SKILLS_ACTION_PATH:-}" ]; then
    SKILLS_ACTION_REF=$(basename "$action")
    SKILLS_REPOSITORY=${SKILLS_REPOSITORY:-$(basename "$(dirname "$(dirname "$action")")")/$(basename "$(dirname "$action")")}
fi

# skills-cmd's version: the workspace's, in its manifest's [workspace.package].
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' "$action/Cargo.toml" | head -n 1)
[ -n "$version" ] || { say "no [workspace.package] version in $action/Cargo.toml"; exit 1; }

# The Rust target of the release asset for this runner.
target_of_runner() {
    case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
        Linux/X64) echo x86_64-unknown-linux-gnu ;;
        Linux/ARM64) echo aarch64-unknown-linux-gnu ;;
        macOS/X64) echo x86_64-apple-darwin ;;
        macOS/ARM64) echo aarch64-apple-darwin ;;
        Windows/X64) echo x86_64-pc-windows-msvc ;;
        *) return 1 ;;
    esac
}

# The SHA-256 tool: coreutils' on Linux and Windows, Perl's on macOS.
if command -v sha256sum >/dev/null; then hasher=(sha256sum); else hasher=(shasum -a 256); fi

sha256_of() {
    "${hasher[@]}" "$1" | cut -d ' ' -f 1
}

# A key for the compiled CLI's cache: the runner, the version, and the
# digest of every source file the CLI is built from (one pass of the
# hasher over them all).
cache_key() {
    local digest
    digest=$(cd "$action" && find Cargo.toml Cargo.lock rust-toolchain.toml skills-* -type f \
        -not -path '*/target/*' -print0 | LC_ALL=C sort -z | xargs -0 "${hasher[@]}" \
        | "${hasher[@]}" | cut -d ' ' -f 1)
    echo "skills-cli-${RUNNER_OS:-unknown}-${RUNNER_ARCH:-unknown}-$version-$digest"
}

download() (
    echo "cache-key=$(cache_key)" >> "$output"
    local ref=${SKILLS_ACTION_REF:-}
    if [ "$ref" != "v$version" ]; then
        say "the action's ref '${ref}' is not the release v$version; compiling skills-cmd from it"
        echo "installed=" >> "$output"
        return 0
    fi
    local target
    if ! target=$(target_of_runner); then
        say "no release asset for a ${RUNNER_OS:-?} ${RUNNER_ARCH:-?} runner; compiling skills-cmd"
        echo "installed=" >> "$output"
        return 0
    fi
    local exe="" && [ "${RUNNER_OS:-}" = Windows ] && exe=.exe
    local asset="skills-$target$exe"
    local base=${SKILLS_RELEASES:-https://github.com/${SKILLS_REPOSITORY:?SKILLS_REPOSITORY names the action\'s repository}/releases/download}
    local scratch
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    # -f: an HTTP error is a failure; a missing release falls back.
    if ! curl -fsSL --retry 3 --max-time 120 -o "$scratch/$asset" "$base/$ref/$asset" \
        || ! curl -fsSL --retry 3 --max-time 60 -o "$scratch/SHA256SUMS" "$base/$ref/SHA256SUMS"; then
        say "no $asset in the release $ref at $base; compiling skills-cmd"
        echo "installed=" >> "$output"
        return 0
    fi
    local expected actual
    expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1 }' "$scratch/SHA256SUMS")
    if [ -z "$expected" ]; then
        say "error: SHA256SUMS of $ref lists no $asset; not installing it"
        exit 1
    fi
    actual=$(sha256_of "$scratch/$asset")
    if [ "$actual" != "$expected" ]; then
        say "error: $asset of $ref has SHA-256 $actual, but SHA256SUMS says $expected; not installing it"
        exit 1
    fi
    mkdir -p "$root/bin"
    install -m 0755 "$scratch/$asset" "$root/bin/skills$exe"
    say "installed $asset of $ref (SHA-256 $actual checked)"
    echo "installed=download" >> "$output"
)

compile() {
    local exe="" && [ "${RUNNER_OS:-}" = Windows ] && exe=.exe
    if [ -x "$root/bin/skills$exe" ]; then
        say "skills-cmd compiled earlier (from the cache): $("$root/bin/skills$exe" --version)"
        return 0
    fi
    local toolchain
    toolchain=$(sed -n 's/^channel = "\(.*\)"$/\1/p' "$action/rust-toolchain.toml")
    [ -n "$toolchain" ] || { say "no channel in $action/rust-toolchain.toml"; exit 1; }
    say "compiling skills-cmd $version with Rust $toolchain (the action's rust-toolchain.toml)"
    rustup toolchain install "$toolchain" --profile minimal --no-self-update
    RUSTUP_TOOLCHAIN=$toolchain cargo install --locked --quiet --path "$action/skills-cmd" --root "$root"
}

case "${1:-}" in
    download) download ;;
    compile) compile ;;
    *) echo "usage: $0 download|compile" >&2; exit 2 ;;
esac
