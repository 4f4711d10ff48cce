#!/usr/bin/env bash
# What a well-kept crate would add to a user's cold build, for each
# component docs/dependencies.md says is written here: a scratch crate
# depending on the crate alone (`fn main() {}`), built from an empty target
# directory in Cargo's default dev profile (crates.io sources already
# downloaded), wall and CPU (user + system) time, the best of RUNS builds,
# and the number of crates compiled. Against it: an empty crate, the same
# way, in the same run.
#
#   scripts/bench/deps.sh              # RUNS=2
#   RUNS=3 scripts/bench/deps.sh sha2 # some of them
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-2}
work=${BENCH_DIR:-"$root/target/measure-deps"}
unset CARGO_TARGET_DIR RUSTFLAGS CARGO_BUILD_RUSTFLAGS
command -v /usr/bin/time >/dev/null || { echo "measure-deps: needs GNU time at /usr/bin/time" >&2; exit 1; }

# name | dependency lines | what it would replace
candidates=(
  'empty||(nothing: the baseline)'
  'sha2|sha2 = "0.11"|sha256'
  'postcard|postcard = { version = "1", default-features = false, features = ["alloc"] }\nserde = { version = "1", default-features = false, features = ["derive", "alloc"] }|wire::postcard and wire::codec'
  'serde_json|serde_json = "1"|encoding::json (and the tool-argument parser)'
  'zip|zip = { version = "4", default-features = false, features = ["deflate"] }|skills-build archive/zip.rs'
  'base64|base64 = { version = "0.22", default-features = false, features = ["alloc"] }|encoding::base64'
  'globset|globset = "0.4"|skills-build filter.rs (exclude globs)'
  'rayon|rayon = "1"|skills-build parallel.rs'
  'annotate-snippets|annotate-snippets = "0.12"|skills-build diagnostic.rs'
  'tempfile|tempfile = "3"|skills-cmd atomic.rs'
  'clap|clap = { version = "4", features = ["derive"] }|skills-cmd python/click.rs (argument parsing)'
  'syn|syn = { version = "2", features = ["full"] }\nquote = "1"\nproc-macro2 = "1"|skills-macros args.rs, literal.rs, tokens.rs'
  'yaml-rust2|yaml-rust2 = "0.10"|skills-pycompat yaml (a YAML reader)'
  'pulldown-cmark|pulldown-cmark = { version = "0.13.6", default-features = false }\nmemchr = "2.7"|(taken: the lints read links with it; the audit searches with memchr)'
  'aho-corasick|aho-corasick = "1"|(not taken: one pass for many byte patterns; the audit prepares one memchr searcher each)'
  'difflib|difflib = "0.4"|skills_core::text::difflib (close names)'
  'similar|similar = { version = "2", default-features = false, features = ["text"] }|skills_core::text::difflib (close names)'
  'rawzip|rawzip = "0.5"|skills-build archive/zip.rs (records only: no inflating)'
  'tinyzip|tinyzip = "0.4"|skills-build archive/zip.rs (records only: no inflating)'
  'litrs|litrs = "1"|skills-macros literal.rs'
)
[ $# -gt 0 ] && wanted=" $* " || wanted=""

printf '| crate | wall | CPU | crates compiled | replaces |\n| --- | --- | --- | --- | --- |\n'
for entry in "${candidates[@]}"; do
  IFS='|' read -r name deps what <<<"$entry"
  [ -n "$wanted" ] && [[ "$wanted" != *" $name "* ]] && [ "$name" != empty ] && continue
  dir="$work/$name"
  mkdir -p "$dir/src"
  printf '[package]\nname = "measure-%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%b\n\n[workspace]\n' \
    "$name" "$deps" > "$dir/Cargo.toml"
  echo 'fn main() {}' > "$dir/src/main.rs"
  (cd "$dir" && cargo fetch --quiet)
  best_wall=""; best_cpu=""; units=0
  for _ in $(seq "$runs"); do
    rm -rf "$dir/target"
    (cd "$dir" && /usr/bin/time -f '%e %U %S' -o "$work/time.txt" cargo build --quiet --offline 2>/dev/null)
    read -r wall user sys < "$work/time.txt"
    cpu=$(echo "$user + $sys" | bc)
    if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc)" = 1 ]; then best_wall=$wall; fi
    if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc)" = 1 ]; then best_cpu=$cpu; fi
    units=$(find "$dir/target/debug/deps" -name '*.rlib' -o -name '*.so' | wc -l)
  done
  printf '| %s | %.2f s | %.2f s | %s | %s |\n' "$name" "$best_wall" "$best_cpu" "$units" "$what"
done
echo
echo "Settings: $(rustc --version); default dev profile; best of $runs cold builds each; $(nproc) cores; load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
