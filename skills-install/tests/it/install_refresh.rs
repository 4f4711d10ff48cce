//! Refreshing installed copies on an upgrade (`Installer::refresh`): a v1
//! installs, a v2 starts. Untouched copies are updated (files the new
//! version dropped removed, skills it dropped removed), a copy the user
//! edited is kept and said so once, other tools' skills and the user's
//! files stay, and nothing is installed where nothing was.

use crate::install_support;

use std::fs;
use std::path::Path;

use install_support::{SKILLS, World, assert_same, expected, files, snapshot, version_two};

use skills_runtime::install::{Agents, Change, Installer, Refreshed, Scope, State, Target};

fn project() -> Target {
    Target::new(Scope::Project)
}

/// The v2 installer of `world`: the second version of the skills, version
/// 2.0.0.
fn v2(world: &World) -> Installer<'static> {
    world.installer(version_two()).version("2.0.0")
}

/// Refreshes, returning what was said on stderr and each scope's outcome.
fn refresh(installer: &Installer<'_>) -> (String, Vec<(Scope, Refreshed)>) {
    let mut err = Vec::new();
    let outcomes = installer
        .refresh_to(&mut err)
        .into_iter()
        .map(|(scope, outcome)| (scope, outcome.unwrap()))
        .collect();
    (String::from_utf8(err).unwrap(), outcomes)
}

#[test]
fn an_upgrade_refreshes_untouched_copies_and_keeps_an_edited_one() {
    let world = World::new("refresh-upgrade");
    let project_dir = world.project();
    let v1 = world.installer(&SKILLS);
    v1.install(&project()).unwrap();
    v1.install(&Target::new(Scope::User)).unwrap();
    // Another tool's skills, and a skill of the user's own.
    Installer::new(&SKILLS)
        .tool_name("othertool")
        .environment(world.env())
        .install(&project().agents(Agents::parse(["cursor"]).unwrap()))
        .unwrap();
    let own = project_dir.join(".claude/skills/my-own/SKILL.md");
    fs::create_dir_all(own.parent().unwrap()).unwrap();
    fs::write(&own, "---\nname: my-own\ndescription: mine\n---\n").unwrap();
    // The user's notes beside a skill, and an edit of a copy.
    let notes = project_dir.join(".claude/skills/pdf-forms/my-notes.md");
    fs::write(&notes, "remember\n").unwrap();
    let edited = project_dir.join(".agents/skills/pdf-forms/reference.md");
    fs::write(&edited, "# my own reference\n").unwrap();
    let cursor = snapshot(&project_dir.join(".cursor"));
    let edited_copy = snapshot(&project_dir.join(".agents/skills/pdf-forms"));

    let v2 = v2(&world);
    let (said, outcomes) = refresh(&v2);

    // Untouched copies: the new version, byte for byte, the notes carried.
    let catalog = version_two();
    let claude = project_dir.join(".claude/skills");
    let mut with_notes = expected(catalog, "pdf-forms");
    with_notes.insert("my-notes.md".into(), b"remember\n".to_vec());
    assert_eq!(files(&claude.join("pdf-forms")), with_notes);
    assert!(
        !claude.join("pdf-forms/scripts/fill.py").exists(),
        "dropped file removed"
    );
    assert!(!claude.join("csv-report").exists(), "dropped skill removed");
    assert!(!project_dir.join(".agents/skills/csv-report").exists());
    assert_eq!(
        files(&claude.join("git-rebase")),
        expected(catalog, "git-rebase")
    );
    for dir in [".claude/skills", ".codex/skills"] {
        let home = world.home().join(dir);
        assert_eq!(
            files(&home.join("pdf-forms")),
            expected(catalog, "pdf-forms")
        );
        assert!(!home.join("csv-report").exists());
    }
    // The edited copy, as the user left it; others' skills untouched.
    assert_same(
        &snapshot(&project_dir.join(".agents/skills/pdf-forms")),
        &edited_copy,
        "the edited copy",
    );
    assert_same(
        &snapshot(&project_dir.join(".cursor")),
        &cursor,
        "othertool's skills",
    );
    assert!(own.is_file());

    // Said once: one line per scope refreshed, one for the edited copy.
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 3, "{said}");
    assert!(
        lines[0].starts_with("mytool 2.0.0: refreshed the skills it installed in the project")
            && lines[0].contains("updated pdf-forms")
            && lines[0].contains("removed csv-report"),
        "{said}"
    );
    assert!(
        lines[1].starts_with("mytool 2.0.0: .agents/skills/pdf-forms in the project")
            && lines[1].contains("was changed since it was installed, so it was not updated")
            && lines[1].contains("`mytool skill install pdf-forms --force`"),
        "{said}"
    );
    assert!(lines[2].contains("for the user"), "{said}");
    let Refreshed::Applied { kept, .. } = &outcomes[0].1 else {
        panic!("{outcomes:?}")
    };
    let [kept] = kept.as_slice() else {
        panic!("{kept:?}")
    };
    assert_eq!(
        (kept.dir.as_str(), kept.name.as_str(), kept.state),
        (".agents/skills", "pdf-forms", State::Modified)
    );
    assert!(kept.embedded && kept.told);
    let status = v2.status(&project()).unwrap();
    assert_eq!(
        status.state(".agents/skills", "pdf-forms"),
        Some(State::Modified)
    );
    assert_eq!(
        status.state(".claude/skills", "pdf-forms"),
        Some(State::UpToDate)
    );

    // The second start: nothing said, nothing changed, nothing looked at.
    let before = snapshot(world.root.0.as_path());
    let (said, outcomes) = refresh(&v2);
    assert_eq!(said, "");
    assert!(
        outcomes
            .iter()
            .all(|(_, outcome)| *outcome == Refreshed::Current),
        "{outcomes:?}"
    );
    assert_same(&snapshot(world.root.0.as_path()), &before, "a second start");

    // Replacing the edit is the user's call; afterwards all is current.
    v2.install(&project().skills(["pdf-forms"]).force(true))
        .unwrap();
    assert!(v2.status(&project()).unwrap().all_up_to_date());
    let (said, _) = refresh(&v2);
    assert_eq!(said, "");
}

#[test]
fn a_skill_no_longer_carried_and_edited_is_kept_not_removed() {
    let world = World::new("refresh-dropped-edited");
    world.installer(&SKILLS).install(&project()).unwrap();
    let edited = world.project().join(".claude/skills/csv-report/SKILL.md");
    fs::write(&edited, "edited\n").unwrap();
    let (said, _) = refresh(&v2(&world));
    assert_eq!(fs::read(&edited).unwrap(), b"edited\n");
    assert!(!world.project().join(".agents/skills/csv-report").exists());
    assert!(
        said.contains(".claude/skills/csv-report in the project")
            && said.contains("so it was not removed (mytool no longer carries it)"),
        "{said}"
    );
}

#[test]
fn nothing_is_installed_where_nothing_was() {
    let world = World::new("refresh-nowhere");
    let v1 = world.installer(&SKILLS);
    // One skill, for Cursor alone, in the project only.
    let only = project()
        .agents(Agents::parse(["cursor"]).unwrap())
        .skills(["pdf-forms"]);
    v1.install(&only).unwrap();
    let (said, outcomes) = refresh(&v2(&world));
    assert_eq!(outcomes[1], (Scope::User, Refreshed::NotInstalled));
    let cursor = world.project().join(".cursor/skills");
    assert_eq!(
        files(&cursor.join("pdf-forms")),
        expected(version_two(), "pdf-forms")
    );
    assert!(!cursor.join("git-rebase").exists(), "no skill added");
    for absent in [".claude", ".agents/skills"] {
        assert!(!world.project().join(absent).exists(), "{absent}");
    }
    assert!(
        snapshot(&world.home())
            .keys()
            .all(|path| path.starts_with(".local"))
    );
    assert_eq!(said.lines().count(), 1, "{said}");
}

#[test]
fn a_record_of_a_newer_version_is_left_to_it() {
    let world = World::new("refresh-newer");
    world
        .installer(&SKILLS)
        .version("3.0.0")
        .install(&project())
        .unwrap();
    let before = snapshot(&world.project());
    let (said, outcomes) = refresh(&v2(&world));
    assert_eq!(
        outcomes[0].1,
        Refreshed::Newer {
            version: "3.0.0".into()
        }
    );
    assert_eq!(said, "");
    assert_same(
        &snapshot(&world.project()),
        &before,
        "a newer version's copies",
    );
}

#[test]
fn when_nothing_changed_no_installed_file_is_read() {
    let world = World::new("refresh-current");
    let v1 = world.installer(&SKILLS);
    v1.install(&project()).unwrap();
    // An edit of a copy at the embedded revision is not even looked at:
    // only the record is read.
    let skill = world.project().join(".claude/skills/git-rebase/SKILL.md");
    fs::write(&skill, "edited\n").unwrap();
    let (said, outcomes) = refresh(&v1);
    assert_eq!(said, "");
    assert_eq!(outcomes[0].1, Refreshed::Current);
    assert_eq!(fs::read(&skill).unwrap(), b"edited\n");
}

#[test]
fn a_problem_is_one_line_and_the_program_goes_on() {
    let world = World::new("refresh-problem");
    world.installer(&SKILLS).install(&project()).unwrap();
    let record = world
        .project()
        .join(".agents/.skills-install/mytool.project.json");
    fs::write(&record, "not a record").unwrap();
    let mut err = Vec::new();
    let outcomes = v2(&world).refresh_to(&mut err);
    let said = String::from_utf8(err).unwrap();
    assert!(outcomes[0].1.is_err());
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.starts_with("mytool 2.0.0: the skills it installed in the project were not refreshed: the install record"),
        "{said}"
    );
}

#[test]
fn two_starts_at_once_say_it_once() {
    let world = World::new("refresh-race");
    world.installer(&SKILLS).install(&project()).unwrap();
    let edited = world.project().join(".claude/skills/pdf-forms/SKILL.md");
    fs::write(&edited, "edited\n").unwrap();
    let said: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| refresh(&v2(&world)).0))
            .collect();
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    });
    let told = said
        .iter()
        .flat_map(|said| said.lines())
        .filter(|line| line.contains("so it was not updated"))
        .count();
    assert_eq!(told, 1, "{said:?}");
    assert_eq!(
        files(&world.project().join(".agents/skills/pdf-forms")),
        expected(version_two(), "pdf-forms")
    );
}

#[test]
fn intercept_refreshes_on_start_but_not_for_the_skill_subcommand() {
    let world = World::new("refresh-intercept");
    world.installer(&SKILLS).install(&project()).unwrap();
    let claude = world.project().join(".claude/skills/pdf-forms");
    let v2 = v2(&world).refresh_on_start(true);
    let args = |args: &[&str]| args.iter().map(Into::into).collect::<Vec<_>>();
    // `skill status` reports the copies as they are.
    assert_eq!(v2.intercept_args(&args(&["skill", "status"])), Some(1));
    assert!(claude.join("scripts/fill.py").exists());
    // Any other command line refreshes, then goes on.
    assert_eq!(v2.intercept_args(&args(&["serve", "--port", "1"])), None);
    assert!(!claude.join("scripts/fill.py").exists());
    assert_eq!(files(&claude), expected(version_two(), "pdf-forms"));
    // Without the option, nothing is refreshed.
    let world = World::new("refresh-intercept-off");
    world.installer(&SKILLS).install(&project()).unwrap();
    let plain = world.installer(version_two());
    assert_eq!(plain.intercept_args(&args(&["serve"])), None);
    let claude = world.project().join(".claude/skills/pdf-forms");
    assert!(claude.join("scripts/fill.py").exists());
}

#[test]
fn the_refresh_goes_through_the_installs_plan() {
    let world = World::new("refresh-plan");
    world.installer(&SKILLS).install(&project()).unwrap();
    let outcome = v2(&world).refresh_scope(Scope::Project).unwrap();
    let mut changed: Vec<(&str, &str, Change)> = outcome.changed().collect();
    changed.sort_by_key(|(dir, name, _)| (*dir, *name));
    assert_eq!(
        changed,
        [
            (".agents/skills", "csv-report", Change::Remove),
            (".agents/skills", "pdf-forms", Change::Update),
            (".claude/skills", "csv-report", Change::Remove),
            (".claude/skills", "pdf-forms", Change::Update),
        ]
    );
    // git-rebase, at the embedded revision, was not looked at.
    let Refreshed::Applied { plan, .. } = &outcome else {
        panic!()
    };
    assert!(
        plan.dirs
            .iter()
            .all(|dir| dir.skills.iter().all(|skill| skill.name != "git-rebase"))
    );
    let record = fs::read_to_string(
        world
            .project()
            .join(".agents/.skills-install/mytool.project.json"),
    )
    .unwrap();
    assert!(record.contains("\"version\": \"2.0.0\""));
    assert!(!Path::new(&world.project().join(".agents/skills/csv-report")).exists());
}

#[test]
fn a_problem_in_the_folders_is_named_on_its_line() {
    let world = World::new("refresh-folder-problem");
    world.installer(&SKILLS).install(&project()).unwrap();
    // A file where an agent's folder was.
    let claude = world.project().join(".claude");
    fs::remove_dir_all(&claude).unwrap();
    fs::write(&claude, "a file\n").unwrap();
    let before = snapshot(&world.project());
    let mut err = Vec::new();
    v2(&world).refresh_to(&mut err);
    let said = String::from_utf8(err).unwrap();
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("were not refreshed: cannot refresh the skills in")
            && said.contains("project/.claude/skills: Not a directory"),
        "{said}"
    );
    assert_same(&snapshot(&world.project()), &before, "nothing written");
}

#[test]
fn an_upgrade_that_drops_every_skill_leaves_nothing_behind() {
    let world = World::new("refresh-all-dropped");
    world.installer(&SKILLS).install(&project()).unwrap();
    let empty: &'static skills_runtime::Catalog<'static> = {
        let mut bundle = SKILLS.catalog().unwrap().bundle().clone();
        bundle.skills.clear();
        bundle.revision = [0; 32];
        let bytes: &'static [u8] = Box::leak(bundle.encode().unwrap().into_boxed_slice());
        Box::leak(Box::new(
            skills_runtime::Catalog::from_bytes(bytes).unwrap(),
        ))
    };
    let (said, _) = refresh(&world.installer(empty).version("2.0.0"));
    assert!(
        said.contains("removed csv-report, git-rebase, pdf-forms"),
        "{said}"
    );
    // As an install of that version would: the skills and the record gone
    // (the agents' folders stay, as after any install), and no state.
    let files: Vec<_> = snapshot(&world.project())
        .into_iter()
        .filter(|(_, snap)| *snap != install_support::Snap::Dir)
        .collect();
    assert!(files.is_empty(), "{files:?}");
    assert!(!world.home().join(".local/state/skills-install").exists());
}
