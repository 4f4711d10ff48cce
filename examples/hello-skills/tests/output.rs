//! What `cargo run -p hello-skills` prints: the read record's line, with
//! and without a path, single-spaced.

use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hello-skills"))
        .args(args)
        .output()
        .expect("run hello-skills");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn read_line(out: &str) -> &str {
    out.lines()
        .rfind(|line| line.starts_with("read: "))
        .unwrap_or_else(|| panic!("no read line in {out}"))
}

#[test]
fn the_instructions_read_names_the_skill_once_spaced() {
    let out = run(&[]);
    let line = read_line(&out);
    assert!(line.starts_with("read: git-rebase ("), "{line}");
    assert!(!line.contains("  "), "{line}");
    assert!(out.contains("<available_skills>"), "{out}");
}

#[test]
fn a_file_read_names_the_skill_and_the_path() {
    let out = run(&[r#"{"name":"pdf-forms","path":"reference.md"}"#]);
    let line = read_line(&out);
    assert!(line.starts_with("read: pdf-forms reference.md ("), "{line}");
    assert!(!line.contains("  "), "{line}");
}
