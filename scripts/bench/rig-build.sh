#!/usr/bin/env bash
# Cold-build cost of skills-rig, side by side in one run: four one-file
# crates, each built from an empty target directory with Cargo's default
# dev profile (`cargo build`, no overrides, the machine's default jobs):
#   runtime        skills-runtime (default features) + include_skills! over
#                  testdata/skills: a program that embeds skills, no rig
#   runtime_rig    runtime + skills-rig (default features; rig-core with no
#                  HTTP transport): what skills-rig's own tree costs
#   rig            rig-core (features reqwest, rustls) + rig-agent + tokio:
#                  a rig agent on OpenAI-compatible Chat Completions, no skills
#   rig_skills     rig + skills-runtime + skills-rig, the agent given the
#                  skills (`.skills(..)`): the same program with skills
# The figure a rig user asks for is rig_skills against rig; runtime_rig
# against runtime is what the rig tree would cost a runtime user (it never
# reaches one: skills-runtime does not depend on skills-rig).
#
# Every repetition builds all four, in rotating order; times (wall, and CPU:
# user + system, steadier when other builds share the machine) are medians
# over repetitions, ratios medians of per-repetition ratios. Downloads come
# from the shared CARGO_HOME (`--offline`), so only compiling is timed.
#
#   scripts/bench/rig-build.sh            # RUNS=1
#   RUNS=3 scripts/bench/rig-build.sh
#
# Scratch crates and their target directories live under
# target/bench-rig-build (BENCH_DIR to move them).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-1}
work=${BENCH_DIR:-"$root/target/bench-rig-build"}
routes=(runtime runtime_rig rig rig_skills)
unset CARGO_TARGET_DIR RUSTFLAGS CARGO_BUILD_RUSTFLAGS
mkdir -p "$work"
command -v /usr/bin/time >/dev/null || { echo "bench-rig-build: needs GNU time at /usr/bin/time" >&2; exit 1; }

runtime_dep="skills-runtime = { path = \"$root/skills-runtime\" }"
skills_rig_dep="skills-rig = { path = \"$root/skills-rig\" }"
rig_deps='rig-core = { version = "0.44.0", default-features = false, features = ["reqwest", "rustls"] }
rig-agent = { version = "0.44.0", default-features = false }
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }'
# include_skills! takes a path relative to the crate (every scratch crate
# sits one folder under $work).
mkdir -p "$work/runtime"
skills=$(realpath --relative-to="$work/runtime" "$root/testdata/skills")

make_crate() { # route, [dependencies] lines, main.rs
    local dir="$work/$1"
    mkdir -p "$dir/src"
    printf '[package]\nname = "bench-%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' \
        "$(tr _ - <<<"$1")" "$2" > "$dir/Cargo.toml"
    printf '%s\n' "$3" > "$dir/src/main.rs"
    # The workspace's lock file, so the scratch crates build the versions
    # the workspace is tested with.
    cp "$root/Cargo.lock" "$dir/Cargo.lock"
}

make_crate runtime "$runtime_dep" \
"static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(\"$skills\");
fn main() { println!(\"{}\", SKILLS.catalog().unwrap().system_prompt()); }"

make_crate runtime_rig "$runtime_dep
$skills_rig_dep" \
"static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(\"$skills\");
fn main() {
    let tool = skills_rig::SkillTool::from_embedded(&SKILLS).unwrap();
    println!(\"{:?}\", tool);
}"

rig_main() { # what the agent builder gets before build()
    printf '%s\n' '#[tokio::main]
async fn main() {
    let model = rig_core::providers::openai::OpenAIConfig::new("key")
        .with_base_url("http://127.0.0.1:9/v1")
        .client()
        .chat("model");
    let agent = rig_agent::AgentBuilder::new(model).preamble("Be brief.")'"$1"'.build();
    println!("{:?}", agent.prompt("hi").await.map(|answer| answer.output()));
}'
}
make_crate rig "$rig_deps" "$(rig_main '')"
make_crate rig_skills "$rig_deps
$runtime_dep
$skills_rig_dep" \
"use skills_rig::SkillsAgentExt;
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(\"$skills\");
$(rig_main '.skills(skills_rig::SkillTool::from_embedded(&SKILLS).unwrap())')"

results="$work/results.tsv"
: > "$results"
for rep in $(seq "$runs"); do
    n=${#routes[@]}
    for i in $(seq 0 $((n - 1))); do
        route=${routes[$(( (i + rep) % n ))]}
        dir="$work/$route"
        rm -rf "$dir/target"
        echo "cold build $route ($rep of $runs)" >&2
        if ! (cd "$dir" && /usr/bin/time -f '%e %U %S' -o "$work/time.txt" cargo build --offline --timings >"$work/build.log" 2>&1); then
            cat "$work/build.log" >&2
            echo "bench-rig-build: building $route failed" >&2
            exit 1
        fi
        units=$(grep -c '^ *Compiling ' "$work/build.log" || true)
        read -r wall user sys < <(tail -n 1 "$work/time.txt")
        printf '%s\t%s\t%s\t%s\t%s\n' "$route" "$rep" "$wall" "$(python3 -c "print($user + $sys)")" "$units" >> "$results"
    done
done

python3 - "$results" "$runs" "$(rustc --version)" "$(nproc)" <<'PY'
import statistics, sys
results, runs, rustc, cores = sys.argv[1:]
data = {}
for line in open(results):
    route, rep, wall, cpu, units = line.split()
    data.setdefault(rep, {})[route] = (float(wall), float(cpu), int(units))
med = statistics.median
def value(route, index):
    return med([r[route][index] for r in data.values()])
def ratio(a, b, index):
    return med([r[a][index] / r[b][index] for r in data.values()])
print(f"\nCold `cargo build` (dev profile, empty target directory, {cores} cores); {rustc}; median of {runs} run(s)\n")
print("| crate | compiled crates | wall | CPU (user + system) |")
print("| --- | --- | --- | --- |")
labels = {
    "runtime": "skills-runtime + `include_skills!`",
    "runtime_rig": "the same + skills-rig (no HTTP transport)",
    "rig": "rig agent (rig-core reqwest+rustls, rig-agent, tokio), no skills",
    "rig_skills": "the same agent + skills-runtime + skills-rig",
}
for route, label in labels.items():
    print(f"| {label} | {value(route, 2):.0f} | {value(route, 0):.1f} s | {value(route, 1):.1f} s |")
for (a, b, what) in (("rig_skills", "rig", "skills on a rig agent"),
                     ("runtime_rig", "runtime", "skills-rig over skills-runtime alone")):
    print(f"\n{what}: +{value(a, 2) - value(b, 2):.0f} crates; wall +{value(a, 0) - value(b, 0):.1f} s "
          f"({ratio(a, b, 0):.2f}x); CPU +{value(a, 1) - value(b, 1):.1f} s ({ratio(a, b, 1):.2f}x)")
PY
