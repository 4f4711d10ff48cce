#!/usr/bin/env bash
# The test command's cost at two commits, one after the other (docs/ci.md,
# "Building the tests"): for each, a fresh `git clone` of this repository at
# that commit, `scripts/test.sh` timed from an empty target/, then in the
# same clone `cargo clean -p` of every workspace member and
# `cargo test --workspace --no-run` timed, with the number of artifacts that
# have an executable and the tests listed. Run it on an idle machine.
#
#   scripts/bench/test-command.sh BEFORE AFTER [OUT]   # OUT: target/test-command
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
before=${1:?name the commit before}
after=${2:?name the commit after}
out=${3:-$root/target/test-command}
mkdir -p "$out"
log="$out/results.txt"
: > "$log"
load() { cut -d' ' -f1-3 /proc/loadavg; }
for pair in "before $before" "after $after"; do
    set -- $pair
    name=$1 rev=$2 dir="$out/$1"
    rm -rf "$dir"
    git clone -q "$root" "$dir" && git -C "$dir" checkout -q "$rev"
    echo "== $name $rev scripts/test.sh, load at start: $(load)" >> "$log"
    (cd "$dir" && /usr/bin/time -o "$out/$name.time" -f "wall %e s, user %U s, sys %S s" \
        scripts/test.sh > "$out/$name.log" 2>&1)
    echo "exit status $?" >> "$log"
    cat "$out/$name.time" >> "$log"
done
for name in before after; do
    cd "$out/$name"
    members=$(cargo metadata --no-deps --format-version 1 |
        python3 -c 'import json, sys; print(" ".join("-p " + p["name"] for p in json.load(sys.stdin)["packages"]))')
    cargo clean $members --quiet
    echo "== $name cargo test --workspace --no-run, load at start: $(load)" >> "$log"
    /usr/bin/time -o "$out/$name.no-run" -f "wall %e s, user %U s, sys %S s" \
        cargo test --workspace --no-run --message-format json > "$out/$name.no-run.json" 2> "$out/$name.no-run.err"
    cat "$out/$name.no-run" >> "$log"
    python3 -c 'import json, sys; print("artifacts with an executable", sum(1 for l in open(sys.argv[1]) if l.startswith("{") and json.loads(l).get("executable")))' \
        "$out/$name.no-run.json" >> "$log"
    echo "tests listed $(cargo test --workspace -- --list 2>/dev/null | grep -c ': test$')" >> "$log"
    echo "of them ignored $(cargo test --workspace -- --list --ignored 2>/dev/null | grep -c ': test$')" >> "$log"
done
cat "$log"
