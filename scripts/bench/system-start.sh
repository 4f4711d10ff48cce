#!/usr/bin/env bash
# What a start with nothing to do costs the example that writes its six
# system skills into $APP_HOME/skills/.system (examples/system-skills),
# against the hand-written start it replaces (include_dir!, a
# DefaultHasher fingerprint in a marker file): each start a process,
# timed in itself as its thread's CPU time, the two alternating (see
# examples/system-skills/benches/no_change_start.rs). Release (`bench`)
# profile, Linux. Prints the load average beside the figures.
#
#   scripts/bench/system-start.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo bench --quiet -p system-skills --bench no_change_start
echo "load: $(uptime)"
