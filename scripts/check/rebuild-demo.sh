#!/usr/bin/env bash
# Shows, and checks, when a crate using include_skills! rebuilds:
#   1. editing an embedded file rebuilds and embeds the new bytes (the
#      macro's own tracking, no build.rs yet);
#   2. without a build.rs, an added file is not seen (the documented limit);
#   3. with the one-line build.rs, adding a file rebuilds and embeds it;
#   4. a bundle over 1 MiB is included from OUT_DIR, and edits are seen;
#   5. deleting a file rebuilds and drops it;
#   6. with the build.rs watching the folder, the macro tracks no file of
#      its own (rustc does not read them again: the dep-info lists none),
#      and an edit in a subfolder still rebuilds and is embedded;
#   7. building an unchanged tree compiles nothing.
# Exits non-zero if any step does not behave so. Run from anywhere:
#   scripts/check/rebuild-demo.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
demo=${REBUILD_DEMO_DIR:-"$root/target/rebuild-demo"}
export CARGO_TARGET_DIR="$root/target/rebuild-demo-target"

rm -rf "$demo"
mkdir -p "$demo/src" "$demo/skills/notes"
cat > "$demo/Cargo.toml" <<TOML
[package]
name = "rebuild-demo"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
skills-runtime = { path = "$root/skills-runtime" }

[workspace]
TOML
cat > "$demo/src/main.rs" <<'RS'
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("skills");

fn main() {
    let catalog = SKILLS.catalog().expect("bundle decodes");
    let served = catalog.call("notes", None).expect("instructions");
    print!("{}", served.reply.as_text().expect("the instructions are text"));
}
RS
cat > "$demo/skills/notes/SKILL.md" <<'MD'
---
name: notes
description: Take notes during a meeting. Use when the user asks for minutes.
---
Write one line per decision.
MD

cd "$demo"
step() { printf '\n== %s\n' "$*"; }
. "$root/scripts/wait.sh"
# The next edit must look newer than the last build to cargo's fingerprint.
after_build() { clock_past "$CARGO_TARGET_DIR/debug/rebuild-demo"; }
fail() { echo "rebuild-demo: FAILED: $*" >&2; exit 1; }
build() { cargo build --quiet 2>&1; }
# `cargo build -v` names the crate as Fresh when nothing is compiled.
compiles_nothing() {
    local log
    log=$(cargo build -v 2>&1)
    grep -q 'Fresh rebuild-demo' <<<"$log" && ! grep -q 'Compiling rebuild-demo' <<<"$log"
}
run() { "$CARGO_TARGET_DIR/debug/rebuild-demo"; }

step "first build"
build
run | tee out.txt
grep -q 'Write one line per decision.' out.txt || fail "first build does not serve the skill"

step "edit SKILL.md: the next build embeds the new bytes"
after_build
sed -i 's/one line per decision/one line per decision and owner/' skills/notes/SKILL.md
build
run | tee out.txt
grep -q 'decision and owner' out.txt || fail "the edit was not embedded"

step "add a file without build.rs: not seen until something else rebuilds"
after_build
echo "Template: date, attendees, decisions." > skills/notes/template.md
build
run | tee out.txt
grep -q 'files: none' out.txt || fail "expected the added file to go unseen without build.rs"

step "add the one-line build.rs: the added file is embedded"
cat > build.rs <<'RS'
fn main() {
    println!("cargo:rerun-if-changed=skills");
}
RS
build
run | tee out.txt
grep -q 'template.md (38 bytes)' out.txt || fail "the added file was not embedded"

step "with build.rs, add another file: it is embedded"
after_build
echo "Checklist." > skills/notes/checklist.md
build
run | tee out.txt
grep -q 'checklist.md (11 bytes)' out.txt || fail "the second added file was not embedded"

step "a bundle over 1 MiB goes through OUT_DIR: still embedded, edits still seen"
after_build
head -c 1500000 /dev/zero | tr '\0' 'x' > skills/notes/big.txt
build
run | tee out.txt
grep -q 'big.txt (1500000 bytes)' out.txt || fail "the large bundle was not embedded"
ls "$CARGO_TARGET_DIR"/debug/build/rebuild-demo-*/out/include_skills-*.bin >/dev/null || fail "the large bundle did not go through OUT_DIR"
after_build
printf 'y' >> skills/notes/big.txt
build
run | tee out.txt
grep -q 'big.txt (1500001 bytes)' out.txt || fail "an edit of a large bundle's file was not embedded"
rm skills/notes/big.txt

step "delete the files: the next build drops them"
after_build
rm skills/notes/template.md skills/notes/checklist.md
build
run | tee out.txt
grep -q 'files: none' out.txt || fail "the deleted files are still embedded"

step "build.rs watches skills/: the macro tracks no file itself, edits still rebuild"
depinfo=$(ls -t "$CARGO_TARGET_DIR"/debug/deps/rebuild_demo-*.d | head -n 1)
if grep -q 'skills/notes/SKILL.md' "$depinfo"; then fail "the macro still tracks the skill files one by one"; fi
echo "dep-info lists no skill file"
after_build
mkdir -p skills/notes/references
echo "Minutes go in the shared folder." > skills/notes/references/where.md
build
run | tee out.txt
grep -q 'references/where.md (33 bytes)' out.txt || fail "a file added in a subfolder was not embedded"
after_build
echo "Minutes go in the team folder, by date." > skills/notes/references/where.md
build
run | tee out.txt
grep -q 'references/where.md (40 bytes)' out.txt || fail "an edit in a subfolder was not embedded"

step "unchanged tree: nothing is compiled"
compiles_nothing || fail "an unchanged tree rebuilt the crate"
echo "Fresh: nothing compiled"

echo
echo "rebuild-demo: every behaviour holds"
