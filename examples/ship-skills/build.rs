// Rebuild when a skill file is added (edits and deletions already rebuild).
fn main() {
    println!("cargo:rerun-if-changed=../../testdata/skills");
    println!("cargo:rerun-if-changed=../../testdata/skills-v2");
}
