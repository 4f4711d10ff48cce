//! `ship-skills skill ...` end to end: the clap route, in a temporary home
//! and project, with the binary's own process environment.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Temp(PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn temp(name: &str) -> Temp {
    let path = std::env::temp_dir().join(format!("ship-skills-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&path);
    fs::create_dir_all(path.join("home")).unwrap();
    fs::create_dir_all(path.join("project/.git")).unwrap();
    Temp(path)
}

fn ship(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ship-skills"))
        .args(args)
        .current_dir(root.join("project"))
        .env("HOME", root.join("home"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn installs_through_the_clap_subcommand() {
    let temp = temp("clap");
    let root = &temp.0;
    let dry = ship(root, &["skill", "install", "--dry-run"]);
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    assert!(text(&dry.stdout).contains("dry run: nothing was written"));
    assert!(!root.join("project/.claude").exists());

    let status = ship(root, &["skill", "status"]);
    assert_eq!(status.status.code(), Some(1), "nothing installed yet");

    let install = ship(
        root,
        &[
            "skill",
            "install",
            "--agent",
            "claude-code",
            "--agent",
            "cursor",
        ],
    );
    assert!(install.status.success(), "{}", text(&install.stderr));
    let out = text(&install.stdout);
    assert!(
        out.starts_with("ship-skills 0.1.0: install in the project"),
        "{out}"
    );
    for dir in [".claude/skills", ".cursor/skills"] {
        let skill = root.join("project").join(dir).join("pdf-forms/SKILL.md");
        assert!(skill.is_file(), "{}", skill.display());
    }
    let status = ship(root, &["skill", "status"]);
    assert_eq!(status.status.code(), Some(0), "{}", text(&status.stdout));

    let user = ship(root, &["skill", "install", "--scope", "user", "--json"]);
    assert!(user.status.success());
    assert!(text(&user.stdout).contains("\"scope\": \"user\""));
    assert!(
        root.join("home/.claude/skills/git-rebase/SKILL.md")
            .is_file()
    );

    let list = ship(root, &["skill", "list"]);
    assert_eq!(text(&list.stdout).lines().count(), 3);

    let bad = ship(root, &["skill", "install", "--scope", "galaxy"]);
    assert_eq!(bad.status.code(), Some(2), "clap's usage error");
    let bad = ship(root, &["skill", "install", "--agent", "vim"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown agent"));

    let gone = ship(root, &["skill", "uninstall"]);
    assert!(gone.status.success(), "{}", text(&gone.stderr));
    assert!(!root.join("project/.claude").exists());
    assert!(!root.join("project/.cursor").exists());
}
