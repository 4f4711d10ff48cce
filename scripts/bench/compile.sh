#!/usr/bin/env bash
# Compile-time benchmark: what embedding skills costs a user's `cargo build`,
# against include_dir! 0.7.4 embedding the same tree, in one run. Two cases:
#
# registry: three one-line crates over the corpus scripts/gen/bench-corpus.py
# writes (30 skills shaped like a public skills repository, 8.5 MB, a quarter
# of it binary):
#   macro        include_skills!("../skills") with the one-line build.rs the
#                README recommends (cargo:rerun-if-changed=../skills)
#   buildrs      skills_build::Builder in build.rs + include_bundle!
#   include_dir  include_dir!("$CARGO_MANIFEST_DIR/../skills") (no validation)
#   committed    the committed-bundle route: `skills build` wrote skills.bin
#                beforehand (not timed), the crate takes skills-runtime
#                without default features and embeds it with
#                Embedded::new(include_bytes!("../skills.bin")); cold builds
#                only (an edit rebuilds nothing until `skills build` runs)
# each in two profiles:
#   default      Cargo's default dev profile, no overrides (what a user gets)
#   override     [profile.dev.build-override] opt-level = 3
# The scratch crates take every dependency as a user takes it from
# crates.io: this workspace's crates are packaged (`cargo package`, the
# files a publish uploads) and, with the third-party crates they need (the
# versions of the workspace's Cargo.lock), put in a vendored directory that
# replaces crates.io for them. So our crates build as registry crates do
# (no incremental compilation, warnings capped), not as path dependencies.
# For each: a cold `cargo build --timings` (an empty target directory), then
# rebuilds after one SKILL.md edit.
#
# real: the registry case's routes over a folder of real skills, REAL_SKILLS
# (the issue's "16 real skills": github.com/anthropics/skills' skills/
# without claude-api, whose description is over the limit), default profile.
# Skipped when REAL_SKILLS is unset.
#
# small: a small app, as someone trying the crates from a clone writes it:
# three small skills (a SKILL.md of a few dozen lines, one with a script,
# one with a reference file), this workspace's crates as path dependencies
# (so Cargo compiles them incrementally and shows their warnings), the
# third-party crates from the same vendored directory. Two routes,
# `include_skills!` (with the one-line build.rs) and `include_dir!`, in
# Cargo's default dev profile: cold builds, then one `cargo build --release`
# of each, whose binary sizes are compared (Cargo's default release profile).
# Two more release binaries, sizes only: `installer` (the same skills with
# skills-runtime's `install` feature, the program calling
# Installer::intercept) and `committed` (the committed-bundle route, the
# runtime without default features).
#
# Runs are paired and interleaved (every repetition builds every route back
# to back, in rotating order), and each ratio is the median of the
# per-repetition ratios, so a busy machine skews little. CPU is user +
# system time of the whole build. Peak memory is the largest process's
# (rustc, a build script) resident set. Cargo runs with its defaults:
# CARGO_INCREMENTAL, CARGO_TARGET_DIR and RUSTFLAGS are unset.
#
#   scripts/bench/compile.sh                  # RUNS=3 EDITS=5, both profiles, both cases
#   RUNS=1 EDITS=3 PROFILES=default scripts/bench/compile.sh
#   CASES=small RUNS=3 scripts/bench/compile.sh
#
# Scratch crates, target directories, the packages and the corpus live
# under target/bench-compile (BENCH_DIR to move them). The cargo --timings
# reports of the last cold builds stay in each crate's target/cargo-timings/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-3}
edits=${EDITS:-5}
profiles=${PROFILES:-default override}
cases=${CASES:-registry small}
[ -n "${REAL_SKILLS:-}" ] && case " $cases " in *" real "*) ;; *) [ -z "${CASES:-}" ] && cases="$cases real" ;; esac
routes=(macro buildrs include_dir)
cold_routes=(macro buildrs include_dir committed)
work=${BENCH_DIR:-"$root/target/bench-compile"}
unset CARGO_TARGET_DIR RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL CARGO_INCREMENTAL
mkdir -p "$work"
# The machine's load when the run starts and ends, printed with the figures.
load_start=$(cat /proc/loadavg)
command -v /usr/bin/time >/dev/null || { echo "bench-compile: needs GNU time at /usr/bin/time" >&2; exit 1; }

has_case() { case " $cases " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
for case in $cases; do
    case $case in registry | small | real) ;; *) echo "bench-compile: unknown case '$case' (registry, small, real)" >&2; exit 2 ;; esac
done
if has_case real && [ ! -d "${REAL_SKILLS:-}" ]; then
    echo "bench-compile: the real case needs REAL_SKILLS, a folder of skill folders" >&2
    exit 2
fi

summary=
edited=
if has_case registry; then
    tree="$work/skills"
    summary=$(python3 "$root/scripts/gen/bench-corpus.py" "$tree")
    edited="$tree/csv-report/SKILL.md"
    cp "$edited" "$work/SKILL.md.orig"
fi
real_edited=
if has_case real; then
    rm -rf "$work/real-skills"
    cp -r "$REAL_SKILLS" "$work/real-skills"
    real_edited=$(find "$work/real-skills" -mindepth 2 -maxdepth 2 -name SKILL.md | sort | head -n 1)
    cp "$real_edited" "$work/real-SKILL.md.orig"
fi
restore() {
    if [ -n "$edited" ]; then cp "$work/SKILL.md.orig" "$edited"; fi
    if [ -n "$real_edited" ]; then cp "$work/real-SKILL.md.orig" "$real_edited"; fi
}
trap restore EXIT

# Our crates as a registry gives them: packaged, then unpacked beside the
# third-party crates they need into one vendored directory. Every crate a
# packaged crate names goes in, optional ones too (skills-runtime's
# `install` feature names skills-install): packaging resolves them all.
vendor="$work/vendor"
rm -rf "$vendor" "$work/probe" "$work/packages"
echo "packaging the workspace's crates" >&2
(cd "$root" && cargo package --quiet --no-verify --allow-dirty --target-dir "$work/packages" \
    -p skills-core -p skills-pycompat -p skills-build -p skills-macros -p skills-runtime -p skills-install >&2)
mkdir -p "$work/probe/src"
printf '[package]\nname = "bench-probe"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\nskills-runtime = { path = "%s", features = ["macros", "sign", "archive", "install"] }\nskills-build = { path = "%s", features = ["sign", "archive", "include-dir"] }\ninclude_dir = "0.7.4"\n\n[workspace]\n' \
    "$root/skills-runtime" "$root/skills-build" > "$work/probe/Cargo.toml"
echo 'fn main() {}' > "$work/probe/src/main.rs"
cp "$root/Cargo.lock" "$work/probe/Cargo.lock"
(cd "$work/probe" && cargo vendor --quiet --versioned-dirs "$vendor" >/dev/null)
for crate in "$work"/packages/package/*.crate; do
    name=$(basename "$crate" .crate)
    tar -xzf "$crate" -C "$vendor"
    printf '{"files":{},"package":"%s"}' "$(sha256sum "$crate" | cut -d' ' -f1)" \
        > "$vendor/$name/.cargo-checksum.json"
done
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
# The CLI that writes (and checks) the committed bundles, built once.
(cd "$root" && cargo build --quiet -p skills-cmd >&2)
skills_cli="$root/target/debug/skills"
commit_bundle() { # skills dir, crate dir: skills build, then --check must pass
    "$skills_cli" build "$1" -o "$2/skills.bin" >/dev/null 2>&1 \
        || { "$skills_cli" build "$1" -o "$2/skills.bin"; echo "bench-compile: skills build $1 failed" >&2; exit 1; }
    "$skills_cli" build --check "$1" -o "$2/skills.bin" 2>/dev/null \
        || { echo "bench-compile: skills build --check $1 failed after a build" >&2; exit 1; }
}
committed_main='static SKILLS: skills_runtime::Embedded = skills_runtime::Embedded::new(include_bytes!("../skills.bin"));
fn main() { println!("{}", SKILLS.bytes().len()); }'


make_crate() { # dir, profile, [dependencies] lines, main.rs, build.rs, [build-dependencies] lines
    local dir=$1
    mkdir -p "$dir/src"
    {
        printf '[package]\nname = "bench-%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n' "$(basename "$dir" | tr _ -)"
        printf '[dependencies]\n%s\n\n' "$3"
        [ -n "$6" ] && printf '[build-dependencies]\n%s\n\n' "$6"
        printf '[workspace]\n\n'
        [ "$2" = override ] && printf '[profile.dev.build-override]\nopt-level = 3\n'
    } > "$dir/Cargo.toml"
    printf '%s\n' "$4" > "$dir/src/main.rs"
    if [ -n "$5" ]; then printf '%s\n' "$5" > "$dir/build.rs"; else rm -f "$dir/build.rs"; fi
    mkdir -p "$dir/.cargo"
    printf '[source.crates-io]\nreplace-with = "vendored"\n\n[source.vendored]\ndirectory = "%s"\n' \
        "$vendor" > "$dir/.cargo/config.toml"
    rm -f "$dir/Cargo.lock"
}

if has_case registry; then
    for profile in $profiles; do
        base="$work/$profile"
        make_crate "$base/macro" "$profile" "skills-runtime = \"$version\"" \
            'static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("../../skills");
fn main() { println!("{}", SKILLS.bytes().len()); }' \
            'fn main() { println!("cargo:rerun-if-changed=../../skills"); }' ""
        make_crate "$base/buildrs" "$profile" "skills-runtime = { version = \"$version\", default-features = false }" \
            'static SKILLS: skills_runtime::Embedded = skills_runtime::include_bundle!("skills.bin");
fn main() { println!("{}", SKILLS.bytes().len()); }' \
            'fn main() { skills_build::Builder::new().source("../../skills").emit(); }' \
            "skills-build = \"$version\""
        make_crate "$base/include_dir" "$profile" 'include_dir = "0.7.4"' \
            'static SKILLS: include_dir::Dir<'"'"'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/../../skills");
fn main() { println!("{}", SKILLS.entries().len()); }' "" ""
        make_crate "$base/committed" "$profile" "skills-runtime = { version = \"$version\", default-features = false }" \
            "$committed_main" "" ""
        commit_bundle "$tree" "$base/committed"
    done
fi
if has_case real; then
    base="$work/real"
    make_crate "$base/macro" default "skills-runtime = \"$version\"" \
        'static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("../../real-skills");
fn main() { println!("{}", SKILLS.bytes().len()); }' \
        'fn main() { println!("cargo:rerun-if-changed=../../real-skills"); }' ""
    make_crate "$base/buildrs" default "skills-runtime = { version = \"$version\", default-features = false }" \
        'static SKILLS: skills_runtime::Embedded = skills_runtime::include_bundle!("skills.bin");
fn main() { println!("{}", SKILLS.bytes().len()); }' \
        'fn main() { skills_build::Builder::new().source("../../real-skills").emit(); }' \
        "skills-build = \"$version\""
    make_crate "$base/include_dir" default 'include_dir = "0.7.4"' \
        'static SKILLS: include_dir::Dir<'"'"'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/../../real-skills");
fn main() { println!("{}", SKILLS.entries().len()); }' "" ""
    make_crate "$base/committed" default "skills-runtime = { version = \"$version\", default-features = false }" \
        "$committed_main" "" ""
    commit_bundle "$work/real-skills" "$base/committed"
fi

# The small app: three small skills, our crates by path.
small_skills="$work/small-skills"
if has_case small; then
    rm -rf "$small_skills"
    mkdir -p "$small_skills/pdf-forms/scripts" "$small_skills/csv-report" "$small_skills/release-notes"
    for skill in pdf-forms csv-report release-notes; do
        {
            printf -- '---\nname: %s\ndescription: Helps with %s tasks. Use when the user asks for %s work.\n---\n\n# %s\n\n' \
                "$skill" "$skill" "$skill" "$skill"
            for step in $(seq 1 30); do printf '%s. Step %s of the %s procedure: check the input, then go on.\n' "$step" "$step" "$skill"; done
        } > "$small_skills/$skill/SKILL.md"
    done
    printf 'import sys\n\nprint("filled", sys.argv[1:])\n' > "$small_skills/pdf-forms/scripts/fill.py"
    for line in $(seq 1 40); do printf 'Column %s: what it holds and how it is summed.\n' "$line"; done > "$small_skills/csv-report/reference.md"
    make_crate "$work/small/macro" default "skills-runtime = { path = \"$root/skills-runtime\" }" \
        'static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("../../small-skills");
fn main() {
    let catalog = SKILLS.catalog().expect("the embedded skills decode");
    println!("{}", catalog.len());
    println!("{}", catalog.system_prompt());
}' \
        'fn main() { println!("cargo:rerun-if-changed=../../small-skills"); }' ""
    make_crate "$work/small/installer" default "skills-runtime = { path = \"$root/skills-runtime\", features = [\"install\"] }" \
        'static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("../../small-skills");
fn main() {
    skills_runtime::install::Installer::new(&SKILLS).tool_name("bench-installer").intercept();
    let catalog = SKILLS.catalog().expect("the embedded skills decode");
    println!("{}", catalog.len());
    println!("{}", catalog.system_prompt());
}' \
        'fn main() { println!("cargo:rerun-if-changed=../../small-skills"); }' ""
    make_crate "$work/small/committed" default "skills-runtime = { path = \"$root/skills-runtime\", default-features = false }" \
        'static SKILLS: skills_runtime::Embedded = skills_runtime::Embedded::new(include_bytes!("../skills.bin"));
fn main() {
    let catalog = SKILLS.catalog().expect("the embedded skills decode");
    println!("{}", catalog.len());
    println!("{}", catalog.system_prompt());
}' "" ""
    commit_bundle "$small_skills" "$work/small/committed"
    make_crate "$work/small/include_dir" default 'include_dir = "0.7.4"' \
        'static SKILLS: include_dir::Dir<'"'"'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/../../small-skills");
fn main() {
    println!("{}", SKILLS.entries().len());
    for dir in SKILLS.dirs() {
        let text = dir.get_file(dir.path().join("SKILL.md")).and_then(|f| f.contents_utf8()).unwrap_or("");
        println!("{}: {}", dir.path().display(), text.lines().nth(2).unwrap_or(""));
    }
}' "" ""
fi

results="$work/results.tsv"
: > "$results"
build() { # profile, route, kind, rep, [cargo args]
    local dir="$work/$1/$2" t m u s
    if ! (cd "$dir" && /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" cargo build --quiet "${@:5}" >"$work/build.log" 2>&1); then
        cat "$work/build.log" >&2
        echo "bench-compile: building $1/$2 failed" >&2
        exit 1
    fi
    read -r t m u s < <(tail -n 1 "$work/time.txt")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$t" "$m" "$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" >> "$results"
}
bundle_of() { # profile, route -> the bundle file the last build wrote
    local pattern=skills.bin
    [ "$2" = macro ] && pattern='include_skills-*.bin'
    find "$work/$1/$2/target/debug/build" -path '*/out/*' -name "$pattern" -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-
}
rotated() { # rep, routes... -> the routes, rotated by rep
    local rep=$1 n i
    shift
    n=$#
    local all=("$@")
    for i in $(seq 0 $((n - 1))); do printf '%s ' "${all[$(( (i + rep) % n ))]}"; done
}
edit() { # a real change of one SKILL.md's body, different every time; [file]
    restore
    printf '\nEdited for the compile benchmark, edit %s.\n' "$1" >> "${2:-$edited}"
}

if has_case registry; then
    for profile in $profiles; do
        for rep in $(seq "$runs"); do
            for route in $(rotated "$rep" "${cold_routes[@]}"); do
                rm -rf "$work/$profile/$route/target"
                echo "cold build $profile/$route ($rep of $runs)" >&2
                build "$profile" "$route" cold "$rep" --timings
            done
        done
        cp "$(bundle_of "$profile" buildrs)" "$work/cold-$profile.bin"
        edit warm-up
        for route in "${routes[@]}"; do build "$profile" "$route" warm 0; done
        for rep in $(seq "$edits"); do
            edit "$profile-$rep"
            echo "rebuild $profile ($rep of $edits)" >&2
            for route in $(rotated "$rep" "${routes[@]}"); do build "$profile" "$route" rebuild "$rep"; done
        done
        # Reverted and rebuilt, with every cache in place: the cold build's bytes.
        restore
        for route in macro buildrs; do
            build "$profile" "$route" revert 0
            if ! cmp -s "$(bundle_of "$profile" "$route")" "$work/cold-$profile.bin"; then
                echo "bench-compile: $profile/$route: after edits and a revert the bundle differs from the cold build's" >&2
                exit 1
            fi
        done
        echo "$profile: after $edits edits and a revert, both routes' bundles equal the cold build's" >&2
    done
    restore
fi
if has_case real; then
    for rep in $(seq "$runs"); do
        for route in $(rotated "$rep" "${cold_routes[@]}"); do
            rm -rf "$work/real/$route/target"
            echo "cold build real/$route ($rep of $runs)" >&2
            build real "$route" cold "$rep" --timings
        done
    done
    edit warm-up "$real_edited"
    for route in "${routes[@]}"; do build real "$route" warm 0; done
    for rep in $(seq "$edits"); do
        edit "real-$rep" "$real_edited"
        echo "rebuild real ($rep of $edits)" >&2
        for route in $(rotated "$rep" "${routes[@]}"); do build real "$route" rebuild "$rep"; done
    done
    restore
fi

sizes="$work/sizes.tsv"
: > "$sizes"
if has_case small; then
    for rep in $(seq "$runs"); do
        for route in $(rotated "$rep" macro include_dir committed); do
            rm -rf "$work/small/$route/target"
            echo "cold build small/$route ($rep of $runs)" >&2
            build small "$route" cold "$rep" --timings
        done
    done
    for route in macro include_dir installer committed; do
        echo "release build small/$route" >&2
        build small "$route" release 0 --release
        binary="$work/small/$route/target/release/bench-$(echo "$route" | tr _ -)"
        stripped="$work/small/$route/stripped"
        strip -o "$stripped" "$binary"
        printf '%s\t%s\t%s\n' "$route" "$(stat -c %s "$binary")" "$(stat -c %s "$stripped")" >> "$sizes"
        # The app runs and sees its three skills.
        "$binary" > "$work/small/$route/out.txt"
        [ "$(head -n 1 "$work/small/$route/out.txt")" = 3 ] || { echo "bench-compile: small/$route does not list 3 skills" >&2; exit 1; }
    done
fi

# Tables, then where the last cold builds spent their time.
python3 - "$results" "$sizes" "$work" "$summary" "$runs" "$edits" "$(rustc --version)" "$load_start" "$(cat /proc/loadavg)" "$(nproc)" <<'PY'
import json, os, re, statistics, sys
results, sizes, work, summary, runs, edits, rustc, load_start, load_end, cores = sys.argv[1:]
rows = [line.rstrip("\n").split("\t") for line in open(results)]
data = {}
for profile, route, kind, rep, secs, kb, cpu in rows:
    data.setdefault((profile, kind), {}).setdefault(rep, {})[route] = (float(secs), int(kb) / 1024, float(cpu))

def med(values):
    return statistics.median(values) if values else float("nan")

def column(profile, kind, route, index):
    return med([r[route][index] for r in data.get((profile, kind), {}).values() if route in r])

def ratio(profile, kind, route, against, index):
    return med([r[route][index] / r[against][index]
                for r in data.get((profile, kind), {}).values() if route in r and against in r])

labels = {
    "macro": "`include_skills!` (with the one-line build.rs)",
    "buildrs": "build.rs + `include_bundle!`",
    "committed": "committed bundle, `Embedded::new(include_bytes!(..))`",
    "include_dir": "`include_dir!` 0.7.4 (no validation)",
}
titles = {
    "real": "Real skills (REAL_SKILLS), registry crates, Cargo's default dev profile",
    "default": "Cargo's default dev profile, no overrides",
    "override": "`[profile.dev.build-override] opt-level = 3`",
}
print(f"\nCompile benchmark; {rustc}; {cores} cores; /proc/loadavg at the start {load_start}, at the end {load_end}; "
      f"medians of {runs} cold builds and {edits} one-edit rebuilds per route, paired and interleaved\n")
profiles = sorted({p for p, _ in data if p != "small"}, key=lambda p: (p == "real", p != "default"))
if profiles:
    print(f"Registry case: {summary}; our crates packaged and taken as registry crates.\n")
for profile in profiles:
    print(f"{titles.get(profile, profile)}:\n")
    print("| route | cold build | cold build CPU | rebuild after one SKILL.md edit | rebuild peak memory |")
    print("| --- | --- | --- | --- | --- |")
    for route in labels:
        if not any(route in r for r in data.get((profile, "cold"), {}).values()):
            continue
        cells = []
        for kind, index, unit in (("cold", 0, "s"), ("cold", 2, "s"), ("rebuild", 0, "s"), ("rebuild", 1, "MB")):
            value = column(profile, kind, route, index)
            if value != value:  # no such builds (the committed route is not rebuilt)
                cells.append("")
                continue
            text = f"{value:.2f} s" if unit == "s" else f"{value:.0f} MB"
            if route != "include_dir":
                text += f" ({ratio(profile, kind, route, 'include_dir', index):.2f}x)"
            cells.append(text)
        print(f"| {labels[route]} | " + " | ".join(cells) + " |")
    print(f"\nbuild.rs route vs macro route: cold {ratio(profile, 'cold', 'buildrs', 'macro', 0):.2f}x, "
          f"rebuild {ratio(profile, 'rebuild', 'buildrs', 'macro', 0):.2f}x, "
          f"rebuild memory {ratio(profile, 'rebuild', 'buildrs', 'macro', 1):.2f}x\n")

if ("small", "cold") in data:
    size = {line.split("\t")[0]: line.rstrip("\n").split("\t")[1:] for line in open(sizes)}
    labels["installer"] = "`include_skills!` and `Installer::intercept` (feature `install`)"
    print("Small-app case: 3 small skills, our crates as path dependencies, Cargo's default dev profile;"
          " release binaries of Cargo's default release profile, and stripped (`strip`):\n")
    print("| route | cold build | cold build CPU | cold peak memory | release binary | stripped |")
    print("| --- | --- | --- | --- | --- | --- |")
    for route in ("macro", "installer", "committed", "include_dir"):
        cells = []
        for index, unit in ((0, "s"), (2, "s"), (1, "MB")):
            value = column("small", "cold", route, index)
            if value != value:
                cells.append("")
                continue
            text = f"{value:.2f} s" if unit == "s" else f"{value:.0f} MB"
            if route != "include_dir":
                text += f" ({ratio('small', 'cold', route, 'include_dir', index):.2f}x)"
            cells.append(text)
        for at in (0, 1):
            bytes_ = int(size[route][at])
            base = int(size["include_dir"][at])
            text = f"{bytes_:,} bytes"
            if route != "include_dir":
                text += f" ({bytes_ / base:.2f}x, {(bytes_ - base) / 1000:+,.0f} KB)"
            cells.append(text)
        print(f"| {labels[route]} | " + " | ".join(cells) + " |")
    print()

print("Slowest units of the last cold builds (cargo --timings, seconds):\n")
for profile in profiles + (["small"] if ("small", "cold") in data else []):
    for route in dict.fromkeys(list(labels) + ["installer"]):
        report = os.path.join(work, profile, route, "target", "cargo-timings", "cargo-timing.html")
        try:
            html = open(report).read()
        except OSError:
            continue
        found = re.search(r"const UNIT_DATA = (\[.*?\]);", html, re.S)
        if not found:
            continue
        units = json.loads(found.group(1))
        units.sort(key=lambda u: -u["duration"])
        top = ", ".join(f"{u['name']}{' (build script)' if 'build' in u.get('mode', '') else ''} {u['duration']:.1f}" for u in units[:8])
        print(f"- {profile}/{route}: {len(units)} units; {top}")
PY
