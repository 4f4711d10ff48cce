#!/usr/bin/env bash
# Close names three ways against Python's `difflib.get_close_matches`:
# skills-core's own (`skills_core::text::difflib::close_matches`), the
# `difflib` crate and `similar`'s `get_close_matches` (feature `text`), on
# the cases docs/dependencies.md reports: the recorded CLI typo
# (testdata/reference/cli-unknown-command-typo), the unit tests' cases, and
# typos (a letter dropped, swapped or replaced, case changed, halves) of
# the names we suggest from: the reference CLI's commands and options, the
# host fields docs/hosts.md names, testdata/skills' skills, and 600
# generated skill names. n = 1 and 3, cutoff 0.6. Python writes the cases
# and its answers; a scratch crate (in target/, crates from crates.io)
# prints, per implementation and vocabulary, how many answers are
# Python's, and for those that are not, whether only the order of equal
# scores differs.
#
#   scripts/bench/close-matches.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/target/compare-close-matches"
mkdir -p "$work/src"
export CARGO_TARGET_DIR="$work/target"

python3 - "$root" "$work/cases.json" <<'EOF'
import difflib, json, os, random, re, sys
root, out = sys.argv[1], sys.argv[2]
random.seed(29)
vocab = {
    "cli": ["read-properties", "to-prompt", "validate"],
    "options": ["--version", "--help"],
    "host-fields": sorted(set(re.findall(r"`([A-Za-z][A-Za-z0-9_-]{1,40})`", open(f"{root}/docs/hosts.md").read()))),
    "skills": sorted(os.listdir(f"{root}/testdata/skills")),
}
words = ["pdf", "forms", "git", "rebase", "report", "sheet", "slide"]
vocab["generated"] = [f"{words[i % 7]}-{words[(i // 7) % 7]}-{i % 37}" for i in range(600)]

def typos(w):
    out = {w, w[:-1], w.upper(), w.capitalize(), w[: len(w) // 2]}
    for _ in range(4):
        if len(w) < 2:
            break
        i = random.randrange(len(w) - 1)
        out.add(w[:i] + w[i + 1] + w[i] + w[i + 2 :])
        out.add(w[:i] + w[i + 1 :])
        out.add(w[:i] + random.choice("aeiouxyz-_") + w[i + 1 :])
    return out

cases = []
def case(name, word, candidates, n):
    cases.append({"vocab": name, "word": word, "candidates": candidates, "n": n,
                  "python": difflib.get_close_matches(word, candidates, n, 0.6)})
for name, candidates in vocab.items():
    pool = candidates if len(candidates) <= 80 else random.sample(candidates, 40)
    for c in pool:
        for w in sorted(typos(c)):
            for n in (1, 3):
                case(name, w, candidates, n)
recorded = open(f"{root}/testdata/reference/cli-unknown-command-typo/cmd").read().split()[0]
for w, candidates, n in [(recorded, vocab["cli"], 3), ("valid", vocab["cli"], 3), ("Validate", vocab["cli"], 3),
                         ("bogus", vocab["cli"], 3), ("--vers", vocab["options"], 3), ("-h", vocab["options"], 3),
                         ("--he", ["--help"], 3), ("abc", ["abd", "abf", "abe"], 2), ("", [""], 1),
                         ("appel", ["ape", "apple", "peach", "puppy"], 3)]:
    case("unit", w, candidates, n)
json.dump(cases, open(out, "w"))
EOF

cat > "$work/Cargo.toml" <<EOF
[package]
name = "compare-close-matches"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
difflib = "=0.4.0"
similar = { version = "=2.7.0", default-features = false, features = ["text"] }
serde_json = "1"
skills-core = { path = "$root/skills-core", default-features = false }

[workspace]
EOF
cat > "$work/src/main.rs" <<'EOF'
use serde_json::Value;
use std::collections::BTreeMap;

fn main() {
    let path = std::env::args().nth(1).unwrap();
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut answers = Vec::new();
    for case in &cases {
        let word = case["word"].as_str().unwrap();
        let candidates: Vec<&str> =
            case["candidates"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        let n = case["n"].as_u64().unwrap() as usize;
        let mut got = BTreeMap::new();
        got.insert("skills-core", skills_core::text::difflib::close_matches(word, candidates.iter().copied(), n));
        got.insert("difflib 0.4.0", difflib::get_close_matches(word, candidates.clone(), n, 0.6));
        got.insert("similar 2.7.0", similar::get_close_matches(word, &candidates[..], n, 0.6));
        answers.push(got);
    }
    println!("{}", serde_json::to_string(&answers).unwrap());
}
EOF
(cd "$work" && cargo run --quiet --release -- "$work/cases.json") > "$work/answers.json"
python3 - "$work/cases.json" "$work/answers.json" <<'EOF'
import difflib, json, sys
from collections import Counter
cases, answers = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))

def ratio(candidate, word):
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    matcher.set_seq1(candidate)
    return matcher.ratio()

tally = Counter()
for case, got in zip(cases, answers):
    python = case["python"]
    for name, answer in got.items():
        tally[name, case["vocab"], "cases"] += 1
        if answer == python:
            tally[name, case["vocab"], "same"] += 1
        elif len(answer) == len(python) and [ratio(a, case["word"]) for a in answer] == [ratio(p, case["word"]) for p in python]:
            tally[name, case["vocab"], "ties"] += 1
print(f"{len(cases)} cases; Python {sys.version.split()[0]}")
print("| implementation | vocabulary | as Python | equal scores in another order | other answers |")
print("| --- | --- | --- | --- | --- |")
for name in sorted({k[0] for k in tally}):
    for vocab in sorted({k[1] for k in tally}) + ["all"]:
        get = lambda what: sum(v for (n, vo, w), v in tally.items() if n == name and w == what and vocab in (vo, "all"))
        cases_, same, ties = get("cases"), get("same"), get("ties")
        print(f"| {name} | {vocab} | {same}/{cases_} | {ties} | {cases_ - same - ties} |")
EOF
