#!/usr/bin/env bash
# What `Installer::refresh` costs a program's start when nothing changed,
# with 50 installed skills shaped like a public registry's
# (scripts/gen/corpus.py, all valid), compiled by `skills build`: each
# start is a process, with and without the refresh, alternating (see
# skills-install/benches/refresh.rs). Release (`bench`) profile. Prints
# the load average beside the figures: read them on a quiet machine, or
# as the ratio.
#
#   scripts/bench/refresh.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=target/bench-refresh
rm -rf "$out"
mkdir -p "$out"
python3 scripts/gen/corpus.py 50 "$out/skills" --invalid 0 >/dev/null
cargo build --quiet --release -p skills-cmd --bin skills
target/release/skills build "$out/skills" -o "$out/skills.bin" 2>/dev/null
cargo bench --quiet -p skills-install --bench refresh -- "$PWD/$out/skills.bin"
echo "load: $(uptime)"
