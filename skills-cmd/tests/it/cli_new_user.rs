//! The `skills` command on inputs a new user produces by accident: typos,
//! empty and binary files, huge values, deep trees, symlink loops. Each
//! gives a clear message and a failing status, never a panic.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support;
use support::tree;

fn scratch(name: &str) -> PathBuf {
    tree::scratch("new-user", name)
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Runs `skills ARGS` in `dir`: (status, stdout, stderr).
fn skills(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic on {args:?}: {stderr}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

#[test]
fn typos_get_suggestions() {
    let dir = scratch("typos");
    let (code, _, err) = skills(&dir, &["chek", "."]);
    assert_eq!(code, 2);
    assert!(
        err.contains("No such command 'chek'. Did you mean 'check'?"),
        "{err}"
    );
    let (code, _, err) = skills(&dir, &["check", "--fromat", "json", "."]);
    assert_eq!(code, 2);
    assert!(err.contains("Did you mean '--format'?"), "{err}");
    let (code, _, err) = skills(&dir, &["check", "--format", "yaml", "."]);
    assert_eq!(code, 2);
    assert!(
        err.contains("'yaml' is not one of 'human', 'json'"),
        "{err}"
    );
}

#[test]
fn empty_binary_and_huge_files_are_reported() {
    let dir = scratch("files");
    write(&dir.join("empty/SKILL.md"), "");
    write(
        &dir.join("binary/SKILL.md"),
        [0x89, b'P', b'N', b'G', 0, 0, 0xff],
    );
    let huge = format!(
        "---\nname: huge\ndescription: {}\n---\n",
        "x".repeat(3_000_000)
    );
    write(&dir.join("huge/SKILL.md"), huge);
    let (code, out, err) = skills(&dir, &["check", "."]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("empty/SKILL.md:1:1\n") || err.contains("--> ./empty/SKILL.md:1:1"),
        "{err}"
    );
    assert!(
        err.contains("SKILL.md must start with YAML frontmatter (---)"),
        "{err}"
    );
    assert!(
        err.contains("SKILL.md is not valid UTF-8: byte 0x89 at line 1, column 1"),
        "{err}"
    );
    assert!(
        err.contains("Description exceeds 1024 character limit (3000000 chars)"),
        "{err}"
    );
    assert!(err.contains("error: checked 3 skills: 3 errors"), "{err}");
}

#[test]
fn deep_trees_and_symlink_loops_give_errors() {
    let dir = scratch("loops");
    std::os::unix::fs::symlink("loop", dir.join("loop")).unwrap();
    let (code, _, err) = skills(&dir, &["validate", "loop"]);
    assert_eq!(code, 2);
    assert!(err.contains("Path 'loop' does not exist."), "{err}");

    let mut deep = dir.join("deep");
    for i in 0..60 {
        deep = deep.join(format!("d{i}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    let (code, _, err) = skills(&dir, &["check", "deep"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[no-skills]: no skill found in deep: neither deep/SKILL.md nor deep/*/SKILL.md exists"),
        "{err}"
    );

    write(
        &dir.join("self/SKILL.md"),
        "---\nname: self\ndescription: d\n---\n",
    );
    std::os::unix::fs::symlink(".", dir.join("self/again")).unwrap();
    let (code, out, _) = skills(&dir, &["validate", "self"]);
    assert_eq!((code, out.as_str()), (0, "Valid skill: self\n"));
}

#[test]
fn a_skill_file_that_is_a_directory_is_named() {
    let dir = scratch("dir-file");
    std::fs::create_dir_all(dir.join("odd/SKILL.md")).unwrap();
    let (code, out, err) = skills(&dir, &["read-properties", "odd"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "Error: cannot read SKILL.md: it is a directory, not a file\n"
    );
}

// Issue 20, finding 10: the CLI's small lies.

/// `pack` of a folder of skills says so, names the folder as given, and
/// suggests packing each skill (not "no skill found in" its parent, with a
/// hint to pass what was passed).
#[test]
fn pack_of_a_folder_of_skills_says_what_it_is() {
    let dir = scratch("pack-collection");
    for name in ["alpha", "beta"] {
        write(
            &dir.join(format!("skills/{name}/SKILL.md")),
            format!("---\nname: {name}\ndescription: Does {name}.\n---\n"),
        );
    }
    let (code, _, err) = skills(&dir.join("skills"), &["pack", "."]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(". is a folder of 2 skills, not a skill folder"),
        "{err}"
    );
    assert!(err.contains("skills pack ./alpha"), "{err}");
    assert!(!err.contains("no skill found"), "{err}");
    let (code, _, err) = skills(&dir, &["pack", "skills"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("skills is a folder of 2 skills"), "{err}");
    // A folder with no skill at all is named as given.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let (code, _, err) = skills(&dir, &["pack", "empty"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no skill found in empty"), "{err}");
    assert!(!dir.join("skills.skill").exists() && !dir.join("..skill").exists());
}

/// `skills help --help` prints the help command's own help.
#[test]
fn help_help_prints_the_help_of_help() {
    let dir = scratch("help-help");
    for flag in ["--help", "-h"] {
        let (code, out, err) = skills(&dir, &["help", flag]);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("Usage: skills help [COMMAND]\n"), "{out}");
    }
    let (code, out, _) = skills(&dir, &["help", "pack"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Usage: skills pack"), "{out}");
}

/// `skills mcp --help` names both transports.
#[test]
fn mcp_help_names_both_transports() {
    let dir = scratch("mcp-help");
    let (code, out, _) = skills(&dir, &["--help"]);
    assert_eq!(code, 0);
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("mcp "))
        .unwrap();
    assert!(line.contains("(stdio or HTTP)"), "{line}");
    let (_, out, _) = skills(&dir, &["mcp", "--help"]);
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("over MCP (stdio or HTTP)") && words.contains("(or over HTTP with --http)"),
        "{out}"
    );
    assert!(out.contains("--http ADDR"), "{out}");
}
