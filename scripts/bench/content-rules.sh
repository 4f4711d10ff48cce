#!/usr/bin/env bash
# What the audit and lint rules cost `skills check` on the scale corpus
# (scripts/gen/corpus.py: N skills shaped like a public registry), side by
# side in one run, each RUNS times in turn (default 5), the median wall time
# reported:
#
# - base: `skills check` of BASE_REF (default main), built from `git
#   archive` into target/bench-base (its own target directory);
# - rules off: this tree's `skills check` with every audit and lint rule
#   allowed by name (an allowed rule does not run);
# - rules on: this tree's `skills check`, as users run it.
#
# On every core (`check` reads skills on all of them). The ratios are what
# the issues bound:
# rules on / rules off (the audit's and lints' own cost) and rules on /
# base (against the gate as it was).
#
#   scripts/bench/content-rules.sh 31000 [BASE_REF]
#
# BASE_BIN=path skips building the base (a `skills` built from BASE_REF
# already); CORPUS=dir takes a corpus scripts/gen/corpus.py wrote already.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/gen/scale-corpus.sh
n=${1:?usage: scripts/bench/content-rules.sh N [BASE_REF]}
base_ref=${2:-main}
runs=${RUNS:-5}
corpus=${CORPUS:-$(scale_corpus "$n")}
cargo build --quiet --release -p skills-cmd --bin skills
ours=target/release/skills
base=${BASE_BIN:-}
if [ -z "$base" ]; then
    base_src=target/bench-base/src
    rm -rf "$base_src" && mkdir -p "$base_src"
    git archive "$base_ref" | tar -x -C "$base_src"
    (cd "$base_src" && CARGO_TARGET_DIR=../target cargo build --quiet --release -p skills-cmd --bin skills)
    base=target/bench-base/target/release/skills
fi
# Every audit and lint rule, by name (docs/rule-codes.md's table).
allow=()
for code in $(sed -nE 's/^\| `([a-z0-9-]+)` \| (audit|lint) \|.*/\1/p' docs/rule-codes.md); do
    allow+=(--allow "$code")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
time_of() { # LABEL BINARY ARGS... -> appends seconds to $work/LABEL
    local label=$1 bin=$2
    shift 2
    # Exit 1 is expected: the corpus holds invalid skills.
    /usr/bin/time -f '%e %M %U %S' -o "$work/t" "$bin" check "$corpus" --format json "$@" >"$work/out-$label.json" 2>/dev/null || true
    tail -n 1 "$work/t" >>"$work/$label"
    tail -n 1 "$work/t" | awk '{print $3 + $4}' >>"$work/$label-cpu"
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
rss() { awk '{print $2}' "$1" | sort -n | tail -n 1; }
echo "corpus: $n skills ($corpus); base: ${BASE_BIN:-$base_ref ($(git rev-parse --short "$base_ref"))}; $runs runs each, interleaved; $(nproc) cores; $(uptime | sed 's/.*load average/load average/')"
"$ours" check "$corpus" >/dev/null 2>&1 || true # warm the page cache
for _ in $(seq "$runs"); do
    time_of base "$base"
    time_of off "$ours" "${allow[@]}"
    time_of on "$ours"
done
b=$(median "$work/base") off=$(median "$work/off") on=$(median "$work/on")
printf 'wall (median): base %.2f s, rules off %.2f s, rules on %.2f s; on/off %.3fx, on/base %.3fx\n' \
    "$b" "$off" "$on" "$(echo "$on / $off" | bc -l)" "$(echo "$on / $b" | bc -l)"
b=$(median "$work/base-cpu") off=$(median "$work/off-cpu") on=$(median "$work/on-cpu")
printf 'CPU, user + system (median): base %.2f s, rules off %.2f s, rules on %.2f s; on/off %.3fx, on/base %.3fx\n' \
    "$b" "$off" "$on" "$(echo "$on / $off" | bc -l)" "$(echo "$on / $b" | bc -l)"
printf 'peak RSS: base %s KiB, rules off %s KiB, rules on %s KiB\n' "$(rss "$work/base")" "$(rss "$work/off")" "$(rss "$work/on")"
python3 - "$work/out-on.json" <<'PY'
import collections, json, sys
report = json.load(open(sys.argv[1]))
hits = collections.Counter(p["code"] for p in report["problems"] if p["rule"] in ("audit", "lint"))
print("audit and lint hits on the corpus:", ", ".join(f"{code} {n}" for code, n in hits.most_common()) or "none")
PY
echo "after: $(uptime | sed 's/.*load average/load average/')"
