#!/usr/bin/env bash
# What the audit and lint rules cost `skills check` on the scale corpus
# (scripts/gen-corpus.py: N skills shaped like a public registry), side by
# side in one run, each RUNS times in turn (default 5), the median wall time
# reported:
#
# - base: `skills check` of BASE_REF (default main), built from `git
#   archive` into target/bench-base (its own target directory);
# - rules off: this tree's `skills check` with every audit and lint rule
#   allowed by name (an allowed rule does not run);
# - rules on: this tree's `skills check`, as users run it.
#
# On every core and on one thread. The ratios are what the issues bound:
# rules on / rules off (the audit's and lints' own cost) and rules on /
# base (against the gate as it was).
#
#   scripts/bench-content-rules.sh 31000 [BASE_REF]
#
# BASE_BIN=path skips building the base (a `skills` built from BASE_REF
# already); CORPUS=dir takes a corpus gen-corpus.py wrote already.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/scale-corpus.sh
n=${1:?usage: scripts/bench-content-rules.sh N [BASE_REF]}
base_ref=${2:-main}
runs=${RUNS:-5}
corpus=${CORPUS:-$(scale_corpus "$n")}
cargo build --quiet --release -p skills-cli --bin skills
ours=target/release/skills
base=${BASE_BIN:-}
if [ -z "$base" ]; then
    base_src=target/bench-base/src
    rm -rf "$base_src" && mkdir -p "$base_src"
    git archive "$base_ref" | tar -x -C "$base_src"
    (cd "$base_src" && CARGO_TARGET_DIR=../target cargo build --quiet --release -p skills-cli --bin skills)
    base=target/bench-base/target/release/skills
fi
allow=()
for code in $("$ours" check --format json "$corpus" 2>/dev/null | python3 -c '
import json, sys
print(" ".join(sorted({p["code"] for p in json.load(sys.stdin)["problems"] if p["rule"] in ("audit", "lint")})))'); do
    allow+=(--allow "$code")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
time_of() { # LABEL THREADS BINARY ARGS... -> appends seconds to $work/LABEL-THREADS
    local label=$1 threads=$2 bin=$3
    shift 3
    /usr/bin/time -f '%e' -o "$work/t" "$bin" check "$corpus" --threads "$threads" --format json "$@" >/dev/null 2>&1 || true
    cat "$work/t" >>"$work/$label-$threads"
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
cores=$(nproc)
echo "corpus: $n skills ($corpus); base: $base_ref ($(git rev-parse --short "$base_ref")); $runs runs each, interleaved; $(uptime | sed 's/.*load average/load average/')"
for threads in "$cores" 1; do
    "$ours" check "$corpus" --threads "$threads" >/dev/null 2>&1 || true # warm the page cache
    for _ in $(seq "$runs"); do
        time_of base "$threads" "$base"
        time_of off "$threads" "$ours" "${allow[@]}"
        time_of on "$threads" "$ours"
    done
    b=$(median "$work/base-$threads") off=$(median "$work/off-$threads") on=$(median "$work/on-$threads")
    printf 'threads %s: base %.2f s, rules off %.2f s, rules on %.2f s; on/off %.3fx, on/base %.3fx\n' \
        "$threads" "$b" "$off" "$on" "$(echo "$on / $off" | bc -l)" "$(echo "$on / $b" | bc -l)"
done
echo "after: $(uptime | sed 's/.*load average/load average/')"
