//! `skills install|status|uninstall SRC...` and `skills extract`: the
//! installer programs use (skills_runtime::install), driven from the
//! command line over skill folders and bundle files, in a temporary home
//! and project.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::tree::{copy_tree, scratch, write};
use support::{run_skills, testdata};

/// A project (with `.git`) and a home under one scratch folder.
fn world(name: &str) -> PathBuf {
    let root = scratch("install", name);
    std::fs::create_dir_all(root.join("project/.git")).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    root
}

fn skills(root: &Path, args: &[&str]) -> (i32, String, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_skills"))
        .args(args)
        .current_dir(root.join("project"))
        .env("HOME", root.join("home"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
    )
}

/// Every file under `root`, by relative path.
fn files(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for item in std::fs::read_dir(&dir).unwrap() {
            let path = item.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((
                    path.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn installs_checks_and_removes_skills_from_folders() {
    let root = world("folders");
    let source = testdata("skills");
    let src = source.to_str().unwrap();
    let (code, out, err) = skills(&root, &["status", src]);
    assert_eq!(code, 1, "nothing installed: {out}{err}");
    let (code, out, err) = skills(&root, &["install", src, "--agent", "claude-code,cursor"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("skills 0.1.0: install in the project"),
        "{out}"
    );
    for dir in [".claude/skills", ".cursor/skills"] {
        for name in ["pdf-forms", "csv-report", "git-rebase"] {
            let installed = root.join("project").join(dir).join(name);
            assert_eq!(files(&installed), files(&source.join(name)), "{dir}/{name}");
        }
    }
    assert!(
        root.join("project/.agents/.skills-install/skills.project.json")
            .is_file()
    );
    let (code, out, _) = skills(&root, &["status", src]);
    assert_eq!(code, 0, "{out}");
    // status exits 1 as soon as one skill is not up to date.
    let edited = root.join("project/.cursor/skills/git-rebase/SKILL.md");
    std::fs::write(&edited, "mine\n").unwrap();
    let (code, out, _) = skills(&root, &["status", src]);
    assert_eq!(code, 1);
    assert!(out.contains("git-rebase  modified by the user"), "{out}");
    // An install refuses to overwrite it; --force does.
    let (code, out, err) = skills(&root, &["install", src]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&edited).unwrap(), b"mine\n");
    let (code, _, _) = skills(&root, &["install", src, "--force"]);
    assert_eq!(code, 0);
    assert_ne!(std::fs::read(&edited).unwrap(), b"mine\n");
    // Another source's skills are installed beside, not instead, in every
    // folder installed to before.
    let other = root.join("other");
    write(
        &other,
        "extra/SKILL.md",
        "---\nname: extra\ndescription: Another skill.\n---\nBody.\n",
    );
    let (code, out, err) = skills(&root, &["install", other.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        root.join("project/.claude/skills/pdf-forms/SKILL.md")
            .is_file()
    );
    assert!(root.join("project/.claude/skills/extra/SKILL.md").is_file());
    assert!(root.join("project/.cursor/skills/extra/SKILL.md").is_file());
    // Uninstalling the first source leaves the second's skill.
    let (code, out, err) = skills(&root, &["uninstall", src]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!root.join("project/.claude/skills/pdf-forms").exists());
    assert!(!root.join("project/.cursor/skills/pdf-forms").exists());
    assert!(root.join("project/.claude/skills/extra/SKILL.md").is_file());
    // Then the second: nothing of the installer is left.
    let (code, _, _) = skills(&root, &["uninstall", other.to_str().unwrap()]);
    assert_eq!(code, 0);
    let mut left: Vec<String> = std::fs::read_dir(root.join("project"))
        .unwrap()
        .map(|item| item.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, [".git"], "folders left empty are removed");
}

#[test]
fn a_bundle_file_installs_and_extracts_byte_for_byte() {
    let root = world("bundle");
    let bundle = root.join("skills.bin");
    let out = run_skills(
        None,
        &[
            "build",
            testdata("skills").to_str().unwrap(),
            "-o",
            bundle.to_str().unwrap(),
        ],
    );
    assert!(out.status.success());
    let b = bundle.to_str().unwrap();
    let (code, out, err) = skills(
        &root,
        &["install", "--bundle", b, "--scope", "user", "--json"],
    );
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["applied"], true);
    assert!(
        root.join("home/.claude/skills/pdf-forms/assets/logo.png")
            .is_file()
    );
    assert!(
        root.join("home/.codex/skills/pdf-forms/assets/logo.png")
            .is_file()
    );
    let (code, _, _) = skills(&root, &["status", b, "--bundle", "--scope", "user"]);
    assert_eq!(code, 0);

    let out_dir = root.join("extracted");
    let (code, out, err) = skills(&root, &["extract", b, out_dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(files(&out_dir), files(&testdata("skills")));
    let (code, _, err) = skills(&root, &["extract", b, out_dir.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("already exists"), "{err}");
}

#[test]
fn sources_with_errors_install_nothing() {
    let root = world("errors");
    let bad = root.join("bad");
    copy_tree(&testdata("skills"), &bad);
    write(&bad, "Broken/SKILL.md", "---\nname: Broken\n---\n");
    let (code, out, err) = skills(&root, &["install", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("error: nothing installed"), "{err}");
    assert!(!root.join("project/.claude").exists());
    let (code, _, err) = skills(&root, &["install", "--bundle", "a", "b"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skills(&root, &["install", "x", "--agent", "vim"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown agent"), "{err}");
}

/// Issue 30: a skill written for Claude Code installs byte for byte under
/// `--host claude-code` (its evals/ left out), and the plan notes, per
/// agent folder, the host fields that agent's host ignores or warns on.
#[test]
fn host_fields_are_installed_as_written_and_noted_where_ignored() {
    let root = world("hosts");
    let skill_md = "---\nname: deploy-helper\ndescription: Deploys the app to staging.\ndisable-model-invocation: true\nargument-hint: \"[environment]\"\nallowed-tools: Bash(git:*) Read\nmodel: sonnet\n---\nDeploy.\n";
    write(&root, "src/deploy-helper/SKILL.md", skill_md);
    write(&root, "src/deploy-helper/evals/evals.json", "[]");
    let source = root.join("src");
    let source = source.to_str().unwrap();
    let agents = "--agent=claude-code,github-copilot,cursor";
    let (code, _, err) = skills(&root, &["install", agents, source]);
    assert_eq!(code, 1, "without the profile the skill has errors: {err}");
    assert!(err.contains("--host claude-code"), "{err}");
    let (code, out, err) = skills(&root, &["install", "--host=claude-code", agents, source]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note[evals-skipped]"), "{err}");
    assert!(
        out.contains(
            "           note: GitHub Copilot: VS Code warns on model, a field it does not read\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("           note: Cursor: ignores argument-hint, model\n"),
        "{out}"
    );
    let claude = out.split(".claude/skills").nth(1).unwrap();
    assert!(
        !claude.lines().take(2).any(|line| line.contains("note:")),
        "Claude Code reads every field: {out}"
    );
    for dir in [".claude/skills", ".agents/skills", ".cursor/skills"] {
        let installed = root.join("project").join(dir).join("deploy-helper");
        assert_eq!(
            std::fs::read_to_string(installed.join("SKILL.md")).unwrap(),
            skill_md
        );
        assert!(!installed.join("evals").exists());
    }
    // The notes are in the JSON plan too (nothing to write now: none).
    write(
        &root,
        "src/deploy-helper/SKILL.md",
        skill_md.replace("Deploy.", "Deploy it."),
    );
    let (code, out, err) = skills(
        &root,
        &[
            "install",
            "--json",
            "--dry-run",
            "--host=claude-code",
            agents,
            source,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let plan: serde_json::Value = serde_json::from_str(&out).unwrap();
    let notes: Vec<&str> = plan["directories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|dir| dir["skills"].as_array().unwrap())
        .flat_map(|skill| skill["notes"].as_array().unwrap())
        .map(|note| note.as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "GitHub Copilot: VS Code warns on model, a field it does not read",
            "Cursor: ignores argument-hint, model"
        ]
    );
}
