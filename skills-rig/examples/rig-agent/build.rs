//! One line, so that files *added* to the skills directory rebuild the
//! crate; `include_skills!` already tracks edits and deletions.

fn main() {
    println!("cargo:rerun-if-changed=../../../testdata/skills");
}
