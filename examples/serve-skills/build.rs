//! Compiles `skills/` into `$OUT_DIR/skills.bin`. An invalid skill fails
//! the build with every problem listed; adding, editing or removing a file
//! under `skills/` reruns this script.

fn main() {
    skills_build::Builder::new().source("skills").emit();
}
