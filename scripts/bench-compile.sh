#!/usr/bin/env bash
# Compile-time benchmark: build a crate that embeds a generated tree of 200
# skills (about 20 MB of files) four ways, side by side in one run:
#   include_skills!   the macro (validates, compiles), with the one-line
#                     build.rs, and without it (the bundle as one literal)
#   build.rs          skills_build::Builder into OUT_DIR + include_bundle!
#   include_dir!      include_dir's macro over the same tree (no validation)
#   none              the same crate embedding nothing
# For each: wall time of `cargo build` after one skill file changes, and the
# peak resident memory of the largest process (rustc or the build script),
# as the median of RUNS builds; then ratios against include_dir!.
#   scripts/bench-compile.sh            # RUNS=3 SKILLS=200 by default
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
skills=${SKILLS:-200}
work=${BENCH_DIR:-"$root/target/bench-compile"}
export CARGO_TARGET_DIR="$work/target"
mkdir -p "$work"

tree="$work/skills"
stamp="$tree/.done-$skills-${BINARY:-1}"
if [ ! -f "$stamp" ]; then
    rm -rf "$tree"
    python3 - "$tree" "$skills" <<'PY'
import os, random, sys
root, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
words = "skill agent model tool file read write parse check build embed serve prompt".split()
for i in range(count):
    name = f"skill-{i:03d}"
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "scripts"), exist_ok=True)
    os.makedirs(os.path.join(d, "assets"), exist_ok=True)
    body = "\n".join(" ".join(rng.choice(words) for _ in range(12)) for _ in range(60))
    with open(os.path.join(d, "SKILL.md"), "w") as f:
        f.write(f"---\nname: {name}\ndescription: Generated skill {i} for the compile benchmark. Use when measuring.\n---\n\n{body}\n")
    with open(os.path.join(d, "reference.md"), "w") as f:
        f.write("\n".join(" ".join(rng.choice(words) for _ in range(14)) for _ in range(600)))
    with open(os.path.join(d, "scripts", "run.py"), "w") as f:
        f.write("".join(f"print({j})\n" for j in range(800)))
    with open(os.path.join(d, "assets", "data.bin"), "wb") as f:
        if os.environ.get("BINARY", "1") == "1":
            f.write(rng.randbytes(48_000))
        else:
            f.write(("".join(rng.choice(words) + " " for _ in range(6000)))[:48_000].encode())
PY
    touch "$stamp"
fi
size=$(find "$tree" -type f ! -name '.done-*' -printf '%s\n' | awk '{ total += $1 } END { print total }')

# Build scripts and proc macros run unoptimised by default; the README
# recommends optimising them (as sqlx does for its macros). OPTIMIZE_BUILD=0
# measures the default instead.
if [ "${OPTIMIZE_BUILD:-1}" = 1 ]; then
    profile='[profile.dev.build-override]\nopt-level = 3\n'
else
    profile=''
fi

make_crate() { # name, [dependencies] lines, main.rs body, build.rs body ("" for none)
    local dir="$work/$1"
    mkdir -p "$dir/src"
    printf '[package]\nname = "bench-%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%b\n[workspace]\n\n%b' "$1" "$2" "$profile" > "$dir/Cargo.toml"
    printf '%s\n' "$3" > "$dir/src/main.rs"
    if [ -n "$4" ]; then
        printf '[build-dependencies]\nskills-build = { path = "%s/skills-build", default-features = false }\n' "$root" >> "$dir/Cargo.toml"
        printf '%s\n' "$4" > "$dir/build.rs"
    fi
}
rt="skills-runtime = { path = \"$root/skills-runtime\" }"
make_crate macro "$rt" "static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(\"../skills\");
fn main() { println!(\"{}\", SKILLS.bytes().len()); }" ""
make_crate macro_literal "$rt" "static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(\"../skills\");
fn main() { println!(\"{}\", SKILLS.bytes().len()); }" ""
# The one-line build.rs the README asks include_skills! users to add (and
# which lets a large bundle go through OUT_DIR; macro_literal has none).
printf 'fn main() {\n    println!("cargo:rerun-if-changed=../skills");\n}\n' > "$work/macro/build.rs"
make_crate buildrs "$rt" "static SKILLS: skills_runtime::Embedded = skills_runtime::include_bundle!(\"skills.bin\");
fn main() { println!(\"{}\", SKILLS.bytes().len()); }" "fn main() { skills_build::Builder::new().source(\"../skills\").emit(); }"
make_crate include_dir 'include_dir = "0.7.4"' "static SKILLS: include_dir::Dir<'static> = include_dir::include_dir!(\"\$CARGO_MANIFEST_DIR/../skills\");
fn main() { println!(\"{}\", SKILLS.entries().len()); }" ""
make_crate none "" "fn main() { println!(\"{}\", 0); }" ""

measure() { # crate -> "seconds kilobytes" (median of $runs)
    local dir="$work/$1" times=() mems=()
    (cd "$dir" && cargo build --quiet 2>/dev/null) # dependencies, first expansion
    for _ in $(seq "$runs"); do
        if [ "$1" = none ]; then touch "$dir/src/main.rs"; else touch "$tree/skill-000/SKILL.md"; fi
        local out
        (cd "$dir" && /usr/bin/time -f '%e %M' -o "$work/time.txt" cargo build --quiet >/dev/null 2>&1)
        out=$(tail -n 1 "$work/time.txt")
        times+=("${out% *}"); mems+=("${out#* }")
    done
    local t m
    t=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
    m=$(printf '%s\n' "${mems[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
    echo "$t $m"
}

declare -A secs mem
for crate in none include_dir buildrs macro macro_literal; do
    read -r s m < <(measure "$crate")
    secs[$crate]=$s; mem[$crate]=$m
done

printf '\nCompile benchmark: %s skills, %s bytes of files, median of %s builds after one skill file changes (rustc %s, build scripts and macros %s)\n\n' \
    "$skills" "$size" "$runs" "$(rustc --version | cut -d' ' -f2)" "$([ -n "$profile" ] && echo 'at opt-level 3' || echo 'unoptimised')"
printf '| route | build time (s) | peak memory (MB) | time vs include_dir! | memory vs include_dir! |\n|---|---|---|---|---|\n'
for crate in macro macro_literal buildrs include_dir none; do
    label=$crate
    case $crate in macro) label='include_skills! (with the build.rs line)' ;; macro_literal) label='include_skills!, no build.rs (one literal)' ;; buildrs) label='build.rs + include_bundle!' ;; include_dir) label='include_dir!' ;; none) label='no embedding' ;; esac
    awk -v l="$label" -v s="${secs[$crate]}" -v m="${mem[$crate]}" -v bs="${secs[include_dir]}" -v bm="${mem[include_dir]}" \
        'BEGIN { printf "| %s | %.2f | %.0f | %.2fx | %.2fx |\n", l, s, m / 1024, s / bs, m / bm }'
done
