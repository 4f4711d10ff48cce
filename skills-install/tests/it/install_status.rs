//! `mytool skill status [--check]`: each state with the command that
//! resolves it, and `--check`'s exit code for each way a copy can differ
//! from what is embedded (stale, edited, missing, extra files, something
//! else in its place).

use crate::install_support;

use std::fs;

use install_support::{SKILLS, World, run, version_two};

use skills_install::{DifferenceKind, Scope, State, Target};

/// A world with the testdata skills installed by `mytool` 1.0.0 for the
/// default agents.
fn installed(name: &str) -> World {
    let world = World::new(name);
    world
        .installer(&SKILLS)
        .install(&Target::new(Scope::Project))
        .unwrap();
    world
}

/// `status --check`'s exit code and text, and plain `status`'s exit code.
fn check(world: &World, v2: bool) -> (i32, String, i32) {
    let installer = match v2 {
        true => world.installer(version_two()),
        false => world.installer(&SKILLS),
    };
    let (code, out, err) = run(&installer, &["status", "--check"]);
    assert_eq!(err, "");
    let (plain, _, _) = run(&installer, &["status"]);
    (code, out, plain)
}

#[test]
fn current_copies_pass() {
    let world = installed("status-current");
    let (code, out, plain) = check(&world, false);
    assert_eq!((code, plain), (0, 0), "{out}");
    assert!(
        out.ends_with("ok: 6 installed copies, each exactly the skill's files\n"),
        "{out}"
    );
    assert!(out.contains("  pdf-forms  up to date\n"), "{out}");
}

#[test]
fn stale_copies_fail_and_name_the_install() {
    let world = installed("status-stale");
    let (code, out, plain) = check(&world, true);
    assert_eq!((code, plain), (1, 1), "{out}");
    for line in [
        "  pdf-forms  outdated: `mytool skill install pdf-forms` updates it\n",
        "    reference.md is from an earlier version (stale)\n",
        "    scripts/fill.py is from an earlier version, and no longer part of the skill (stale)\n",
        "    notes/new.md is missing (missing)\n",
        "  csv-report  outdated: `mytool skill install` removes it (no longer carried)\n",
        "    installed by an earlier version, which this one no longer carries (stale)\n",
        "check failed: 4 of 6 installed copies not exactly the skill's files\n",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    let status = world
        .installer(version_two())
        .status(&Target::new(Scope::Project))
        .unwrap();
    assert!(!status.in_sync());
    let kinds: Vec<DifferenceKind> = status.differences().map(|(_, _, d)| d.kind).collect();
    assert!(kinds.contains(&DifferenceKind::Stale) && kinds.contains(&DifferenceKind::Missing));
}

#[test]
fn an_edited_copy_fails_and_names_the_forced_install() {
    let world = installed("status-edited");
    let file = world
        .project()
        .join(".claude/skills/pdf-forms/reference.md");
    fs::write(&file, "mine\n").unwrap();
    let (code, out, plain) = check(&world, false);
    assert_eq!((code, plain), (1, 1), "{out}");
    assert!(out.contains("  pdf-forms  modified by the user: `mytool skill install pdf-forms --force` replaces it with this version (the changes are lost)\n"), "{out}");
    assert!(
        out.contains("    reference.md was changed since it was installed (edited)\n"),
        "{out}"
    );
}

#[test]
fn a_missing_copy_fails() {
    let world = installed("status-missing");
    fs::remove_dir_all(world.project().join(".agents/skills/git-rebase")).unwrap();
    let (code, out, plain) = check(&world, false);
    assert_eq!((code, plain), (1, 1), "{out}");
    assert!(
        out.contains("  git-rebase  missing: `mytool skill install git-rebase` installs it\n    not installed here (missing)\n"),
        "{out}"
    );
}

#[test]
fn extra_files_fail_the_check_only() {
    let world = installed("status-extra");
    let notes = world.project().join(".claude/skills/csv-report/notes.md");
    fs::write(&notes, "mine\n").unwrap();
    let (code, out, plain) = check(&world, false);
    assert_eq!((code, plain), (1, 0), "{out}");
    assert!(
        out.contains("  csv-report  up to date, with files that are not part of it\n    notes.md is not part of the skill (install keeps it: remove it by hand) (extra)\n"),
        "{out}"
    );
}

#[test]
fn copies_not_installed_by_this_tool_fail_only_when_they_differ() {
    let world = World::new("status-foreign");
    // Copies made by hand (no record): one the same, one not.
    let installer = world.installer(&SKILLS);
    let elsewhere = world.root.0.join("extracted");
    installer.extract(&elsewhere).unwrap();
    let claude = world.project().join(".claude/skills");
    fs::create_dir_all(&claude).unwrap();
    for name in ["pdf-forms", "csv-report", "git-rebase"] {
        fs::rename(elsewhere.join(name), claude.join(name)).unwrap();
    }
    let target = |args: &[&str]| {
        let mut all = vec!["status", "--agent", "claude-code"];
        all.extend(args);
        run(&installer, &all)
    };
    let (code, out, _) = target(&["--check"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "  pdf-forms  not installed by this tool: it holds this version, and is left alone\n"
        ),
        "{out}"
    );
    assert_eq!(target(&[]).0, 1, "plain status: not installed by this tool");
    fs::write(claude.join("pdf-forms/reference.md"), "other\n").unwrap();
    let (code, out, _) = target(&["--check"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("  pdf-forms  not installed by this tool: `mytool skill install pdf-forms --agent claude-code --force` replaces it with this version (what is there is lost)\n    reference.md was not written by this tool, and differs (foreign)\n"),
        "{out}"
    );
}

#[test]
fn json_names_the_command_and_every_difference() {
    let world = installed("status-json");
    fs::write(
        world.project().join(".claude/skills/pdf-forms/SKILL.md"),
        "x\n",
    )
    .unwrap();
    let installer = world.installer(&SKILLS);
    let (code, out, _) = run(
        &installer,
        &["status", "--check", "--json", "--scope", "project"],
    );
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["in_sync"], false);
    let claude = &json["directories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|dir| dir["path"] == ".claude/skills")
        .unwrap()["skills"];
    let pdf = claude
        .as_array()
        .unwrap()
        .iter()
        .find(|skill| skill["name"] == "pdf-forms")
        .unwrap();
    assert_eq!(pdf["state"], "modified");
    assert_eq!(pdf["command"], "mytool skill install pdf-forms --force");
    assert_eq!(pdf["differences"][0]["path"], "SKILL.md");
    assert_eq!(pdf["differences"][0]["kind"], "edited");
    let up = claude
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "git-rebase")
        .unwrap();
    assert_eq!(up["command"], serde_json::Value::Null);
    assert_eq!(up["differences"], serde_json::json!([]));
}

#[test]
fn the_user_scope_names_its_scope() {
    let world = World::new("status-user");
    let installer = world.installer(&SKILLS);
    installer.install(&Target::new(Scope::User)).unwrap();
    let (code, out, _) = run(
        &world.installer(version_two()),
        &["status", "--scope", "user"],
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("`mytool skill install pdf-forms --scope user` updates it"),
        "{out}"
    );
    assert!(
        out.ends_with("not up to date: each line above names the command that resolves it\n"),
        "{out}"
    );
    let state = world
        .installer(version_two())
        .status(&Target::new(Scope::User))
        .unwrap()
        .state(".claude/skills", "pdf-forms");
    assert_eq!(state, Some(State::Outdated));
}

#[test]
fn check_is_for_status() {
    let world = World::new("status-usage");
    let (code, _, err) = run(&world.installer(&SKILLS), &["install", "--check"]);
    assert_eq!(code, 2);
    assert!(err.contains("--check is for status"), "{err}");
}
