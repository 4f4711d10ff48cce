#!/usr/bin/env bash
# Fuzzes the runtime for SECONDS per target (default 60): the bundle decoder
# (`bundle`: any bytes opened as a catalog, then every call it can serve) and
# the tool call path (`tool_call`: any arguments to a real catalog's tool).
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# Not part of CI's default run; a crash leaves its input under
# fuzz/artifacts/TARGET/ and fails the script.
#
#   scripts/check/fuzz.sh 300
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-60}"
case "$seconds" in
    '' | *[!0-9]*) echo "usage: scripts/check/fuzz.sh SECONDS" >&2; exit 2 ;;
esac

# Seeds (git-ignored): bundles compiled from the recorded skill folders.
mkdir -p fuzz/corpus/bundle fuzz/corpus/tool_call
cargo build -q -p skills-cmd --bin skills
target/debug/skills build testdata/bundle -o fuzz/corpus/bundle/seed-bundle >/dev/null
printf '{"name":"pdf","path":"reference.md"}' > fuzz/corpus/tool_call/seed-json
printf 'pdf\0assets/logo.png' > fuzz/corpus/tool_call/seed-direct

for target in bundle tool_call; do
    echo "fuzzing $target for ${seconds}s" >&2
    # -rss_limit_mb and -malloc_limit_mb: a decode that allocates without
    # bound counts as a crash, not just one that panics.
    (cd fuzz && cargo +nightly fuzz run "$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=1024 -malloc_limit_mb=256 -print_final_stats=1)
done
