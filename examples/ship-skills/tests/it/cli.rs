//! `ship-skills skill ...` end to end: the clap route, in a temporary home
//! and project, with the binary's own process environment.

use std::path::Path;
use std::process::Output;

use crate::support;

use support::{text, world};

fn ship(root: &Path, args: &[&str]) -> Output {
    support::run(Path::new(env!("CARGO_BIN_EXE_ship-skills")), root, args)
}

#[test]
fn installs_through_the_clap_subcommand() {
    let temp = world("clap");
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
    // clap's error about the option, not the program's usage line.
    assert!(
        !text(&bad.stderr).contains("Usage: ship-skills <COMMAND>"),
        "{}",
        text(&bad.stderr)
    );
    // A skill it does not carry, named: a usage error too.
    let bad = ship(root, &["skill", "install", "no-such-skill"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    assert!(text(&bad.stderr).contains("no skill named"));

    let gone = ship(root, &["skill", "uninstall"]);
    assert!(gone.status.success(), "{}", text(&gone.stderr));
    assert!(!root.join("project/.claude").exists());
    assert!(!root.join("project/.cursor").exists());
}
