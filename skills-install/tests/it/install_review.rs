//! The installer's trust boundary as a second review attacked it (after
//! issue 28's findings 0-3 were fixed), one test per defect it found,
//! named after it (`review_N_...`; the races of defect 2 are in
//! `install_races.rs`), and per code-review note (`note_...`). Whatever
//! the installer finds on disk may have been written by a stranger: it
//! never follows a link out of the folder it owns, and deletes nothing a
//! user wrote without their say.

use crate::install_support;

use std::fs;
use std::path::{Path, PathBuf};

use install_support::{
    SKILLS, Snap, World, assert_same, expected, files, one_skill, run, snapshot, state_folder,
    version_two,
};
use skills_install::{
    Agents, Change, ConflictKind, Environment, Fault, InstallError, Installer, Problem, Scope,
    State, Target,
};

fn project() -> Target {
    Target::new(Scope::Project)
}

fn agents(ids: &[&str]) -> Agents {
    Agents::parse(ids).unwrap()
}

fn record_path(world: &World) -> PathBuf {
    world
        .project()
        .join(".agents/.skills-install/mytool.project.json")
}

/// A folder `hooks` of someone else's (a git hook's sample in it), and an
/// installer of a skill named `hooks` holding a `pre-commit`.
fn hooks_in(world: &World, hooks: &Path) -> Installer<'static> {
    fs::create_dir_all(hooks).unwrap();
    fs::write(hooks.join("pre-commit.sample"), "#!/bin/sh\n").unwrap();
    let catalog = one_skill("hooks", &[("pre-commit", "#!/bin/sh\necho planted\n")]);
    world.installer(catalog)
}

/// Asserts the plan for `target` names a folder that is no agent's own.
#[track_caller]
fn assert_no_agent_folder(installer: &Installer<'_>, target: &Target) {
    let plan = installer.plan(target).unwrap();
    let problems: Vec<String> = plan.problems.iter().map(Problem::to_string).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("no agent's skill folder")),
        "{problems:?}"
    );
}

/// Defect 1: a repository commits `.claude/skills -> ../.git` and a skill
/// named `hooks` holding a `pre-commit`: an install must not write into
/// `.git/hooks` (the link stays inside the project, but `.git` is no
/// agent's folder), nor take over the existing `hooks` folder.
#[cfg(unix)]
#[test]
fn review_1_a_committed_link_to_git_plants_no_hook() {
    let world = World::new("review1-git-hooks");
    let hooks = world.project().join(".git/hooks");
    let installer = hooks_in(&world, &hooks);
    fs::create_dir_all(world.project().join(".claude")).unwrap();
    std::os::unix::fs::symlink("../.git", world.project().join(".claude/skills")).unwrap();
    let before = snapshot(&world.project().join(".git"));

    assert_no_agent_folder(&installer, &project());
    assert!(installer.install(&project()).is_err());
    assert!(installer.install(&project().force(true)).is_err());
    let (code, out, err) = run(&installer, &["install", "--force"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains(".git"), "{out}");
    assert!(!hooks.join("pre-commit").exists(), "a hook was planted");
    assert_same(&snapshot(&world.project().join(".git")), &before, ".git");
}

/// Defect 1, the other half: an existing folder the record does not list,
/// holding files the tool did not write, is not "missing": it is a
/// conflict, and nothing is written into it without `--force`.
#[test]
fn review_1_a_folder_the_record_does_not_list_is_not_taken_over() {
    let world = World::new("review1-take-over");
    let folder = world.project().join(".claude/skills/hooks");
    let installer = hooks_in(&world, &folder);
    let before = snapshot(&folder);
    let target = project().agents(agents(&["claude-code"]));
    let plan = installer.plan(&target).unwrap();
    let skill = &plan.dirs[0].skills[0];
    assert_eq!(skill.state, State::NotOurs, "{skill:?}");
    assert!(!skill.conflicts.is_empty(), "{skill:?}");
    let error = installer.install(&target).unwrap_err();
    assert!(matches!(error, InstallError::Conflicts { .. }), "{error}");
    assert_same(&snapshot(&folder), &before, "without --force");
    // With --force the user said so: the skill is written, their file kept.
    installer.install(&target.force(true)).unwrap();
    assert!(folder.join("pre-commit").is_file());
    assert!(folder.join("pre-commit.sample").is_file());
}

/// Writes `record` (JSON text) as mytool's project record.
fn plant_record(world: &World, record: &str) {
    let path = record_path(world);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, record).unwrap();
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A record naming `skill` in `.claude/skills` with one file `SKILL.md`
/// of this size and digest.
fn record_claiming(skill: &str, size: usize, digest: &str) -> String {
    format!(
        r#"{{"format": "skills-install-record-v1", "tool": "mytool", "version": "1.0.0",
  "scope": "project", "bundle_revision": "", "transaction": "",
  "directories": {{".claude/skills": {{"agents": ["claude-code"], "created": [".claude", ".claude/skills"],
    "skills": {{"{skill}": {{"revision": "sha256:{zero}", "link": null,
      "files": {{"SKILL.md": {{"size": {size}, "sha256": "{digest}"}}}}}}}}}}}}}}"#,
        zero = "0".repeat(64)
    )
}

/// Defect 3: a committed record claiming a skill the user wrote, with a
/// made-up digest: the conflict says where the claim comes from, and
/// nothing is removed without `--force`. With the real digest, a plain
/// uninstall or install removes nothing either.
#[test]
fn review_3_a_committed_record_is_a_claim_not_proof() {
    let world = World::new("review3-attack");
    let own = world.project().join(".claude/skills/my-own-skill");
    fs::create_dir_all(&own).unwrap();
    let text = "---\nname: my-own-skill\ndescription: mine\n---\nMine.\n";
    fs::write(own.join("SKILL.md"), text).unwrap();
    let before = snapshot(&world.project().join(".claude"));
    let installer = world.installer(&SKILLS);
    let claude = project().agents(agents(&["claude-code"]));

    plant_record(
        &world,
        &record_claiming("my-own-skill", 3, &"ab".repeat(32)),
    );
    let (code, out, err) = run(&installer, &["install"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("this tool did not write here (committed?)"),
        "{out}"
    );
    assert!(!out.contains("was changed since it was installed"), "{out}");
    assert!(installer.uninstall(&claude).is_err());
    assert_same(
        &snapshot(&world.project().join(".claude")),
        &before,
        "made-up digest",
    );

    let digest = hex(&skills_core::sha256::digest(text.as_bytes()));
    plant_record(
        &world,
        &record_claiming("my-own-skill", text.len(), &digest),
    );
    let status = installer.status(&claude).unwrap();
    assert_eq!(
        status.state(".claude/skills", "my-own-skill"),
        Some(State::Outdated)
    );
    let (code, out, err) = run(&installer, &["uninstall"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("did not write here"), "{out}");
    let _ = installer.install(&claude);
    let _ = installer.uninstall(&claude);
    assert_same(
        &snapshot(&world.project().join(".claude")),
        &before,
        "real digest",
    );
    // With --force the user said so.
    installer.uninstall(&claude.force(true)).unwrap();
    assert!(!own.join("SKILL.md").exists());
    // The folders the claim says it created are not the tool's: left,
    // empty or not.
    assert!(world.project().join(".claude/skills").is_dir());
}

/// Copies a folder tree (links as links).
#[cfg(unix)]
fn copy_tree(from: &Path, to: &Path) {
    for (path, snap) in snapshot(from) {
        let at = to.join(&path);
        match snap {
            Snap::Dir => fs::create_dir_all(&at).unwrap(),
            Snap::File(bytes, exec) => {
                fs::create_dir_all(at.parent().unwrap()).unwrap();
                fs::write(&at, bytes).unwrap();
                if exec {
                    use std::os::unix::fs::PermissionsExt;
                    fs::set_permissions(&at, fs::Permissions::from_mode(0o755)).unwrap();
                }
            }
            Snap::Link(target) => std::os::unix::fs::symlink(target, &at).unwrap(),
            Snap::Other => {}
        }
    }
}

/// Defect 3, the team's case: a project that commits its copies and the
/// record, cloned elsewhere (where this tool never wrote it). Status
/// works; an update replaces and removes the files that hold what the
/// record says; a skill the new version drops is removed only with
/// `--force`; what the tool then wrote is its own, and what it left as it
/// was stays a claim.
#[cfg(unix)]
#[test]
fn review_3_a_teams_committed_record_still_works() {
    let team = World::new("review3-team");
    team.installer(&SKILLS).install(&project()).unwrap();
    let world = World::new("review3-clone");
    for dir in [".claude", ".agents"] {
        copy_tree(&team.project().join(dir), &world.project().join(dir));
    }
    let v1 = world.installer(&SKILLS);
    let status = v1.status(&project()).unwrap();
    assert!(status.all_up_to_date(), "{status:?}");
    let (code, out, _) = run(&v1, &["status"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("did not write here"), "{out}");

    let v2 = world.installer(version_two()).version("2.0.0");
    let error = v2.install(&project()).unwrap_err();
    assert!(matches!(error, InstallError::Conflicts { .. }), "{error}");
    let plan = v2.plan(&project()).unwrap();
    let pdf = plan.dirs[0]
        .skills
        .iter()
        .find(|skill| skill.name == "pdf-forms")
        .unwrap();
    assert_eq!(pdf.change, Change::Update);
    assert!(pdf.conflicts.is_empty(), "{pdf:?}");
    let csv = plan.dirs[0]
        .skills
        .iter()
        .find(|skill| skill.name == "csv-report")
        .unwrap();
    assert_eq!(csv.change, Change::Remove);
    assert!(!csv.conflicts.is_empty(), "{csv:?}");
    v2.install(&project().force(true)).unwrap();
    let catalog = version_two();
    assert_eq!(
        files(&world.project().join(".claude/skills/pdf-forms")),
        expected(catalog, "pdf-forms")
    );
    assert!(!world.project().join(".claude/skills/csv-report").exists());
    // What it wrote is its own now: an uninstall removes it. What it left
    // as it was (git-rebase, the same in both versions) is still a claim.
    let plan = v2.plan_uninstall(&project()).unwrap();
    for dir in &plan.dirs {
        for skill in &dir.skills {
            let claimed = skill
                .conflicts
                .iter()
                .any(|conflict| conflict.kind == ConflictKind::Claimed);
            assert_eq!(claimed, skill.name == "git-rebase", "{skill:?}");
        }
    }
    v2.uninstall(&project().force(true)).unwrap();
    assert!(!world.project().join(".claude/skills/pdf-forms").exists());
    assert!(!world.project().join(".claude/skills/git-rebase").exists());
}

/// Finds the scope's journal and the staging folder of a run stopped
/// (killed) before `step`, after it began swapping in `.claude/skills`;
/// `None` when the run does not stop there after swapping.
fn stopped_run(world: &World, step: usize) -> Option<(PathBuf, PathBuf, bool)> {
    world.installer(&SKILLS).install(&project()).unwrap();
    let crashing = world.installer(version_two()).__inject_fault(Some(Fault {
        at: step,
        crash: true,
    }));
    let finished = crashing.install(&project()).is_ok();
    let staging = world.project().join(".claude/skills/.skills-staging");
    let tx = fs::read_dir(&staging).ok()?.next()?.ok()?.path();
    let state = state_folder(&world.home());
    let journal = fs::read_dir(&state)
        .unwrap()
        .flatten()
        .map(|item| item.path())
        .find(|path| path.to_string_lossy().ends_with(".journal"))?;
    let text = fs::read_to_string(&journal).unwrap();
    (text.contains("\"swapping\": true") && tx.join("old/pdf-forms").exists())
        .then_some((journal, tx, finished))
}

/// Defect 4: recovering a stopped run never moves anything through a link
/// planted in its staging folder: `undone` a link out, or `old/<name>` a
/// link out in place of the folder moved aside. The journal is refused
/// and left alone.
#[cfg(unix)]
#[test]
fn review_4_recovery_follows_no_link_planted_in_staging() {
    let mut cases = 0;
    let mut refused = std::collections::BTreeSet::new();
    for step in 1..200 {
        for variant in ["undone", "old"] {
            let world = World::new("review4");
            let Some((journal, tx, _)) = stopped_run(&world, step) else {
                continue;
            };
            let victim = world.root.0.join("victim");
            fs::create_dir_all(victim.join("drop")).unwrap();
            fs::create_dir_all(victim.join("outside-skill")).unwrap();
            fs::write(victim.join("outside-skill/SKILL.md"), "outside\n").unwrap();
            match variant {
                "undone" => {
                    let _ = fs::remove_dir_all(tx.join("undone"));
                    std::os::unix::fs::symlink(victim.join("drop"), tx.join("undone")).unwrap();
                }
                _ => {
                    fs::remove_dir_all(tx.join("old/pdf-forms")).unwrap();
                    std::os::unix::fs::symlink(
                        victim.join("outside-skill"),
                        tx.join("old/pdf-forms"),
                    )
                    .unwrap();
                }
            }
            cases += 1;
            let before = snapshot(&victim);
            let live = world.project().join(".claude/skills/pdf-forms");
            let live_before = live.symlink_metadata().ok().map(|m| m.file_type());
            let result = world.installer(version_two()).install(&project());
            assert_same(&snapshot(&victim), &before, &format!("{variant} at {step}"));
            assert!(
                !live
                    .symlink_metadata()
                    .is_ok_and(|m| m.file_type().is_symlink()),
                "{variant} at {step}: a link was put in the skill's place"
            );
            // A run whose record was written is finished: its staging
            // folder removed, the planted link with it (never followed).
            // Any other is refused and left alone.
            if let Err(error) = result {
                assert!(matches!(error, InstallError::Journal { .. }), "{error}");
                assert!(journal.exists(), "{variant} at {step}: the journal stays");
                assert_eq!(
                    live.symlink_metadata().ok().map(|m| m.file_type()),
                    live_before,
                    "{variant} at {step}: the skill's place is left alone"
                );
                refused.insert(variant);
            }
        }
    }
    assert!(cases > 0, "no stopped run reached the swaps");
    assert_eq!(
        refused.len(),
        2,
        "each planted link was refused at some step"
    );
}

/// Defect 5: a committed `.claude/skills -> ..` makes the project root an
/// agent's folder: refused, nothing written at the root, no record key
/// `.` that later runs refuse.
#[cfg(unix)]
#[test]
fn review_5_the_project_root_is_no_agent_folder() {
    let world = World::new("review5-root");
    fs::create_dir_all(world.project().join(".claude")).unwrap();
    std::os::unix::fs::symlink("..", world.project().join(".claude/skills")).unwrap();
    let installer = world.installer(&SKILLS);
    let claude = project().agents(agents(&["claude-code"]));
    assert_no_agent_folder(&installer, &claude);
    assert!(installer.install(&claude.clone().force(true)).is_err());
    assert!(!world.project().join("pdf-forms").exists());
    assert!(!record_path(&world).exists());
    // `.git` named outright is refused too (a link straight to it).
    let world = World::new("review5-git");
    std::os::unix::fs::symlink(".git", world.project().join(".claude")).unwrap();
    let installer = world.installer(&SKILLS);
    assert!(installer.install(&claude.force(true)).is_err());
    assert!(!world.project().join(".git/skills").exists());
}

/// Defect 6: a record with more entries than any install makes is
/// refused before it is acted on, with a message saying so.
#[test]
#[ignore = "slow: writes and reads a record of 100,001 entries; scripts/test.sh runs it"]
fn slow_review_6_a_record_with_too_many_entries_is_refused() {
    let world = World::new("review6-entries");
    let mut skills = String::new();
    for n in 0..100_001 {
        if n > 0 {
            skills.push(',');
        }
        skills.push_str(&format!(
            "\"s{n}\":{{\"revision\":\"\",\"link\":null,\"files\":{{}}}}"
        ));
    }
    plant_record(
        &world,
        &format!(
            r#"{{"format": "skills-install-record-v1", "tool": "mytool", "version": "1.0.0",
  "scope": "project", "bundle_revision": "", "transaction": "",
  "directories": {{".claude/skills": {{"agents": ["claude-code"], "created": [], "skills": {{{skills}}}}}}}}}"#
        ),
    );
    let installer = world.installer(&SKILLS);
    let error = installer.status(&project()).unwrap_err();
    assert!(matches!(error, InstallError::Record { .. }), "{error}");
    assert!(error.to_string().contains("100000"), "{error}");
}

/// Defect 7: a relative `HOME` is never used for the installer's state (a
/// repository could carry a journal under `proj/.local/state`): an
/// install is refused with one line naming it.
#[test]
fn review_7_a_relative_home_is_not_used_for_state() {
    let world = World::new("review7-home");
    let env = Environment::new(world.project()).var("HOME", ".");
    let installer = Installer::new(&SKILLS)
        .tool_name("mytool")
        .environment(env.clone());
    let target = project().agents(agents(&["cursor"]));
    let error = installer.install(&target).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("HOME"), "{message}");
    assert!(!message.contains('\n'), "{message}");
    assert!(!world.project().join(".local").exists());
    assert!(!world.project().join(".cursor").exists());
    // A relative XDG_STATE_HOME is ignored (as the XDG specification says),
    // and so is a relative HOME behind it.
    let installer = installer.environment(env.var("XDG_STATE_HOME", "state"));
    assert!(installer.install(&target).is_err());
    assert!(!world.project().join("state").exists());
}

/// Defect 8: the record is read through its folder as opened, never
/// through a link on the way: `.agents/.skills-install` linked to a
/// record outside is refused, not read.
#[cfg(unix)]
#[test]
fn review_8_the_record_is_never_read_through_a_link() {
    let world = World::new("review8-link");
    let elsewhere = world.root.0.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::write(
        elsewhere.join("mytool.project.json"),
        record_claiming("pdf-forms", 1, &"00".repeat(32)),
    )
    .unwrap();
    fs::create_dir_all(world.project().join(".agents")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, world.project().join(".agents/.skills-install"))
        .unwrap();
    let installer = world.installer(&SKILLS);
    let error = installer.status(&project()).unwrap_err();
    assert!(error.to_string().contains("link"), "{error}");
    let (code, out, err) = run(&installer, &["status"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        !out.contains("modified"),
        "the record outside was read: {out}"
    );
}

/// Defect 9: what the installer says is what it did. An install that
/// finds every skill not installed by this tool does not say they are up
/// to date, nor does status tell the user to run a command for them; an
/// uninstall that removes nothing leaves a record it did not
/// write as it is; names with invisible or reordering characters are
/// refused in a record, and shown escaped.
#[test]
fn review_9_messages_say_what_was_done() {
    let world = World::new("review9-words");
    let installer = world.installer(&SKILLS);
    let claude = project().agents(agents(&["claude-code"]));
    // Not installed by this tool, each holding exactly this version.
    for name in ["pdf-forms", "csv-report", "git-rebase"] {
        let folder = world.project().join(".claude/skills").join(name);
        for (path, bytes) in expected(SKILLS.catalog().unwrap(), name) {
            fs::create_dir_all(folder.join(&path).parent().unwrap()).unwrap();
            fs::write(folder.join(path), bytes).unwrap();
        }
    }
    let (code, out, err) = run(&installer, &["install", "--agent", "claude-code"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("up to date"), "{out}");
    assert!(
        out.ends_with(
            "ok: nothing written: 3 skills not installed by this tool, left as they are\n"
        ),
        "{out}"
    );
    // Status names no command for them, and does not say a line does.
    let (code, out, err) = run(&installer, &["status", "--agent", "claude-code"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!out.contains("names the command"), "{out}");
    assert!(!out.contains("skill install"), "{out}");
    assert!(
        out.contains("3 of 3 not installed by this tool: each holds this version"),
        "{out}"
    );
    fs::remove_dir_all(world.project().join(".claude/skills/csv-report")).unwrap();
    let (_, out, _) = run(&installer, &["status", "--agent", "claude-code"]);
    assert!(
        out.contains("3 of 3 not up to date: 1 resolved by the command its line names, 2 not"),
        "{out}"
    );

    // A committed record naming a skill that is not there: nothing to
    // remove, and the record stays as it was.
    let world = World::new("review9-record");
    let installer = world.installer(&SKILLS);
    plant_record(&world, &record_claiming("pdf-forms", 1, &"00".repeat(32)));
    let before = fs::read(record_path(&world)).unwrap();
    let (code, out, err) = run(&installer, &["uninstall"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("nothing to remove"), "{out}");
    assert_eq!(fs::read(record_path(&world)).unwrap(), before, "{out}");

    // The tool's own entries with nothing left on disk are forgotten, and
    // the last line says so.
    let world = World::new("review9-forgotten");
    let installer = world.installer(&SKILLS);
    installer.install(&claude).unwrap();
    fs::remove_dir_all(world.project().join(".claude/skills")).unwrap();
    let (code, out, err) = run(&installer, &["uninstall"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.ends_with(
            "ok: nothing to remove; the record no longer lists 3 skills that were not there\n"
        ),
        "{out}"
    );
    assert!(!record_path(&world).exists(), "{out}");

    // Invisible and reordering characters in a record's names.
    for bad in ["pdf\u{202e}forms", "pdf\u{200b}forms", "\u{feff}pdf-forms"] {
        plant_record(&world, &record_claiming(bad, 1, &"00".repeat(32)));
        let error = installer.status(&project()).unwrap_err().to_string();
        assert!(error.contains("\\u{"), "{error}");
        assert!(!error.contains(bad), "printed raw: {error}");
    }
}

/// Note: the scope's state folder is the user's alone: made 0700, and one
/// that another user owns or others may write to is refused.
#[cfg(unix)]
#[test]
fn note_the_state_folder_is_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let world = World::new("note-state");
    let installer = world.installer(&SKILLS);
    installer.install(&project()).unwrap();
    let state = state_folder(&world.home());
    for folder in [&state, state.parent().unwrap()] {
        let mode = fs::metadata(folder).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", folder.display());
    }
    fs::set_permissions(&state, fs::Permissions::from_mode(0o777)).unwrap();
    let error = installer.uninstall(&project()).unwrap_err();
    assert!(error.to_string().contains("others can write"), "{error}");
    assert!(world.project().join(".claude/skills/pdf-forms").exists());
}

/// Note: an apply works out the state folder, the record's path and the
/// scope's base itself; a plan whose fields were changed cannot send it
/// elsewhere.
#[test]
fn note_apply_trusts_no_path_of_the_plan() {
    let world = World::new("note-plan-fields");
    let elsewhere = world.root.0.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let installer = world.installer(&SKILLS);
    let mut plan = installer.plan(&project()).unwrap();
    plan.record_path = elsewhere.join("record.json");
    plan.base = elsewhere.clone();
    installer.apply(plan).unwrap();
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert!(record_path(&world).is_file());
    // The lock and the journal were the project's: its state folder, and
    // no other.
    let states: Vec<String> = fs::read_dir(world.home().join(".local/state/skills-install"))
        .unwrap()
        .map(|item| item.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        states.len() == 1 && states[0].starts_with("project-"),
        "{states:?}"
    );
}

/// Note: the record is written through a temporary file whose name cannot
/// be known beforehand: a folder committed where a predictable one would
/// be does not stop the write.
#[test]
fn note_the_records_temporary_name_is_not_predictable() {
    let world = World::new("note-temp");
    let installer = world.installer(&SKILLS);
    let dir = world.project().join(".agents/.skills-install");
    fs::create_dir_all(&dir).unwrap();
    fs::create_dir_all(dir.join(format!("mytool.project.json.{}.tmp", std::process::id())))
        .unwrap();
    installer.install(&project()).unwrap();
    assert!(record_path(&world).is_file());
}

/// Note: names that alias on other systems. A record name differing from
/// an embedded skill's only by case names the same folder on a
/// case-insensitive file system: it is never removed as a skill the new
/// version dropped. Names with a trailing dot or space, names Windows
/// reserves, names with a colon, and two names of one folder that differ
/// only by case are refused with the rest of the record's names.
#[test]
fn note_record_names_that_alias_on_other_systems_are_refused() {
    let world = World::new("note-alias");
    let installer = world.installer(&SKILLS);
    plant_record(&world, &record_claiming("PDF-Forms", 1, &"00".repeat(32)));
    let plan = installer.plan(&project().force(true)).unwrap();
    for dir in &plan.dirs {
        for skill in &dir.skills {
            assert!(
                skill.change != Change::Remove,
                "{}/{} would be removed",
                dir.shown,
                skill.name
            );
        }
    }
    let reserved: &[&str] = match cfg!(windows) {
        true => &["con", "NUL.txt"],
        false => &[],
    };
    for bad in ["pdf-forms.", "pdf-forms ", "a:b"].iter().chain(reserved) {
        plant_record(&world, &record_claiming(bad, 1, &"00".repeat(32)));
        let error = installer.status(&project()).map(|_| ()).unwrap_err();
        assert!(
            matches!(error, InstallError::Record { .. }),
            "{bad}: {error}"
        );
    }
    let twice = record_claiming("pdf-forms", 1, &"00".repeat(32)).replace(
        "\"skills\": {",
        "\"skills\": {\"Pdf-Forms\": {\"revision\": \"\", \"link\": null, \"files\": {}}, ",
    );
    plant_record(&world, &twice);
    let error = installer.status(&project()).map(|_| ()).unwrap_err();
    assert!(error.to_string().contains("case"), "{error}");
}
