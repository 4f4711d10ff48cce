//! Refreshing installed copies on an upgrade (`Installer::refresh`): a v1
//! installs, a v2 starts. Untouched copies are updated (files the new
//! version dropped removed, skills it dropped removed), a copy the user
//! edited is kept and said so once, other tools' skills and the user's
//! files stay, and nothing is installed where nothing was.

use crate::install_support;

use std::fs;
use std::path::Path;

use install_support::{SKILLS, World, assert_same, expected, files, snapshot, version_two};

use skills_install::{Agents, Change, Installer, Refreshed, Scope, State, Target};

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
    let empty: &'static skills_core::Catalog<'static> = {
        let mut bundle = SKILLS.catalog().unwrap().bundle().clone();
        bundle.skills.clear();
        bundle.revision = [0; 32];
        let bytes: &'static [u8] = Box::leak(bundle.encode().unwrap().into_boxed_slice());
        Box::leak(Box::new(skills_core::Catalog::from_bytes(bytes).unwrap()))
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

// A plain folder the program owns (`Installer::into_folder`).

mod folder {
    use std::fs;
    use std::path::{Path, PathBuf};

    use super::install_support::{SKILLS, World, expected, files, version_of, version_two};
    use skills_core::Catalog;
    use skills_install::{Fault, Folder, FolderPolicy, Installer, Refreshed, Scope, State, Target};

    fn dir(world: &World) -> PathBuf {
        world.root.0.join("app/skills/.system")
    }

    fn folder<'c>(world: &World, skills: impl Into<skills_install::Skills<'c>>) -> Folder<'c> {
        world.installer(skills).into_folder(dir(world))
    }

    fn start(folder: &Folder<'_>) -> (String, Refreshed) {
        let mut err = Vec::new();
        let outcome = folder.refresh_to(&mut err).unwrap();
        (String::from_utf8(err).unwrap(), outcome)
    }

    fn entries(path: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(path)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn v2_of(world: &World) -> Folder<'static> {
        world
            .installer(version_two())
            .version("2.0.0")
            .into_folder(dir(world))
    }

    #[test]
    fn a_start_writes_every_skill_and_keeps_its_state_in_one_hidden_entry() {
        let world = World::new("folder-fresh");
        let (said, outcome) = start(&folder(&world, &SKILLS));
        assert!(matches!(outcome, Refreshed::Applied { .. }), "{outcome:?}");
        assert!(said.contains("refreshed"), "{said}");
        assert_eq!(
            entries(&dir(&world)),
            [".skills-install", "csv-report", "git-rebase", "pdf-forms"]
        );
        let catalog = SKILLS.catalog().unwrap();
        assert_eq!(
            files(&dir(&world).join("pdf-forms")),
            expected(catalog, "pdf-forms")
        );
        // Nothing under the home, nothing of the agents.
        assert!(
            entries(&world.home()).is_empty(),
            "{:?}",
            entries(&world.home())
        );
        assert!(!world.project().join(".agents").exists());
        // The second start reads the record and says nothing.
        let (said, outcome) = start(&folder(&world, &SKILLS));
        assert_eq!(outcome, Refreshed::Current);
        assert!(said.is_empty(), "{said}");
        let status = folder(&world, &SKILLS).status().unwrap();
        assert_eq!(status.state(".", "pdf-forms"), Some(State::UpToDate));
        // Deleting the folder forgets it: the next start writes it all again.
        fs::remove_dir_all(dir(&world)).unwrap();
        assert!(matches!(
            start(&folder(&world, &SKILLS)).1,
            Refreshed::Applied { .. }
        ));
        assert!(dir(&world).join("git-rebase/SKILL.md").is_file());
    }

    #[test]
    fn two_folders_never_share_state() {
        let world = World::new("folder-two");
        let other = world.root.0.join("other-app");
        folder(&world, &SKILLS).refresh().unwrap();
        let second = world.installer(&SKILLS).into_folder(&other);
        assert!(matches!(
            second.refresh().unwrap(),
            Refreshed::Applied { .. }
        ));
        assert!(other.join(".skills-install").is_dir());
        fs::remove_dir_all(&other).unwrap();
        assert_eq!(
            folder(&world, &SKILLS).refresh().unwrap(),
            Refreshed::Current
        );
    }

    #[test]
    fn an_upgrade_updates_removes_and_keeps_an_edit_said_once() {
        let world = World::new("folder-upgrade");
        folder(&world, &SKILLS).refresh().unwrap();
        let edited = dir(&world).join("pdf-forms/reference.md");
        fs::write(&edited, "my notes\n").unwrap();
        let v2 = version_two();
        let (said, outcome) = start(&v2_of(&world));
        let Refreshed::Applied { kept, .. } = &outcome else {
            panic!("{outcome:?}")
        };
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert!(kept[0].told && kept[0].name == "pdf-forms" && kept[0].aside.is_none());
        assert!(
            said.contains("pdf-forms") && said.contains("not updated"),
            "{said}"
        );
        assert!(said.contains("removed csv-report"), "{said}");
        assert!(!dir(&world).join("csv-report").exists());
        assert_eq!(
            version_of(&dir(&world).join("git-rebase"), "git-rebase", v2),
            Some(1)
        );
        assert_eq!(fs::read_to_string(&edited).unwrap(), "my notes\n");
        // Said once, then remembered.
        let (said, outcome) = start(&v2_of(&world));
        assert_eq!(outcome, Refreshed::Current);
        assert!(said.is_empty(), "{said}");
        assert_eq!(fs::read_to_string(&edited).unwrap(), "my notes\n");
    }

    #[test]
    fn the_replace_policy_moves_the_users_copy_aside() {
        let world = World::new("folder-replace");
        folder(&world, &SKILLS).refresh().unwrap();
        let edited = dir(&world).join("pdf-forms/reference.md");
        fs::write(&edited, "my notes\n").unwrap();
        let v2 = version_two();
        let replacing = v2_of(&world).policy(FolderPolicy::Replace);
        let (said, outcome) = start(&replacing);
        let Refreshed::Applied { kept, .. } = &outcome else {
            panic!("{outcome:?}")
        };
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!(kept[0].aside.as_deref(), Some("pdf-forms.user-1"));
        assert!(said.contains("pdf-forms.user-1"), "{said}");
        let aside = dir(&world).join("pdf-forms.user-1/reference.md");
        assert_eq!(fs::read_to_string(aside).unwrap(), "my notes\n");
        assert_eq!(
            version_of(&dir(&world).join("pdf-forms"), "pdf-forms", v2),
            Some(2)
        );
        let (said, outcome) = start(&replacing);
        assert_eq!(outcome, Refreshed::Current);
        assert!(said.is_empty(), "{said}");
    }

    /// What a marker-file installer of the program wrote: the skills'
    /// files, no record.
    fn written_by_hand(catalog: &Catalog<'_>, into: &Path) {
        for name in ["pdf-forms", "csv-report", "git-rebase"] {
            for (path, bytes) in expected(catalog, name) {
                let path = into.join(name).join(path);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, bytes).unwrap();
            }
        }
        fs::write(into.join(".marker"), "12345").unwrap();
    }

    #[test]
    fn a_copy_an_earlier_installer_wrote_is_adopted_and_then_updated() {
        let world = World::new("folder-adopt");
        written_by_hand(SKILLS.catalog().unwrap(), &dir(&world));
        let (_, outcome) = start(&folder(&world, &SKILLS));
        assert!(
            matches!(outcome, Refreshed::Applied { ref kept, .. } if kept.is_empty()),
            "{outcome:?}"
        );
        let status = folder(&world, &SKILLS).status().unwrap();
        for name in ["pdf-forms", "csv-report", "git-rebase"] {
            assert_eq!(status.state(".", name), Some(State::UpToDate), "{name}");
        }
        // Ours from now on: the next version updates it and removes the
        // dropped skill.
        let v2 = version_two();
        start(&v2_of(&world));
        assert_eq!(
            version_of(&dir(&world).join("pdf-forms"), "pdf-forms", v2),
            Some(2)
        );
        assert!(!dir(&world).join("csv-report").exists());
        assert!(
            dir(&world).join(".marker").is_file(),
            "the program's own file stays"
        );
    }

    #[test]
    fn an_older_copy_an_earlier_installer_wrote_is_kept_or_moved_aside() {
        let world = World::new("folder-adopt-old");
        written_by_hand(SKILLS.catalog().unwrap(), &dir(&world));
        let v2 = version_two();
        // pdf-forms differs from v2: not ours, kept; the others adopted.
        let (said, outcome) = start(&v2_of(&world));
        let Refreshed::Applied { kept, .. } = &outcome else {
            panic!("{outcome:?}")
        };
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert!(said.contains("pdf-forms"), "{said}");
        assert_eq!(
            version_of(&dir(&world).join("pdf-forms"), "pdf-forms", v2),
            Some(1)
        );
        // With --force's policy it is moved aside, never deleted.
        fs::remove_dir_all(dir(&world).join(".skills-install")).unwrap();
        let replacing = v2_of(&world).policy(FolderPolicy::Replace);
        replacing.install().unwrap();
        assert_eq!(
            version_of(&dir(&world).join("pdf-forms"), "pdf-forms", v2),
            Some(2)
        );
        assert_eq!(
            version_of(&dir(&world).join("pdf-forms.user-1"), "pdf-forms", v2),
            Some(1)
        );
    }

    #[test]
    fn the_hidden_entry_is_input_no_link_followed() {
        let world = World::new("folder-trust");
        let outside = world.root.0.join("outside");
        fs::create_dir_all(&outside).unwrap();
        fs::create_dir_all(dir(&world)).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, dir(&world).join(".skills-install")).unwrap();
            let error = folder(&world, &SKILLS).refresh().unwrap_err();
            assert!(error.to_string().contains("link"), "{error}");
            assert!(
                fs::read_dir(&outside).unwrap().next().is_none(),
                "nothing written outside"
            );
        }
    }

    #[test]
    fn a_start_killed_part_way_is_finished_or_undone_by_the_next() {
        let v2 = version_two();
        for upgrade in [false, true] {
            let mut step = 1;
            loop {
                let world = World::new("folder-crash");
                if upgrade {
                    folder(&world, &SKILLS).refresh().unwrap();
                }
                let crashing = world
                    .installer(v2)
                    .version("2.0.0")
                    .__inject_fault(Some(Fault {
                        at: step,
                        crash: true,
                    }))
                    .into_folder(dir(&world));
                let result = crashing.refresh();
                let next = v2_of(&world);
                let outcome = next.refresh().unwrap();
                assert!(!matches!(outcome, Refreshed::Newer { .. }));
                let status = next.status().unwrap();
                assert!(status.all_up_to_date(), "step {step}: {status:?}");
                for name in ["pdf-forms", "git-rebase"] {
                    let got = version_of(&dir(&world).join(name), name, v2);
                    assert_eq!(
                        got,
                        Some(if name == "pdf-forms" { 2 } else { 1 }),
                        "step {step}"
                    );
                }
                let hidden = entries(&dir(&world).join(".skills-install"));
                assert!(
                    hidden
                        .iter()
                        .all(|name| name == "state" || name.ends_with(".json")),
                    "step {step}: {hidden:?}"
                );
                if result.is_ok() {
                    break;
                }
                step += 1;
            }
            assert!(step > 5, "the faults reached into the run");
        }
    }

    #[test]
    fn an_uninstall_killed_part_way_is_finished_or_undone_by_the_next_start() {
        let mut step = 1;
        loop {
            let world = World::new("folder-uninstall-crash");
            folder(&world, &SKILLS).refresh().unwrap();
            let crashing = world
                .installer(&SKILLS)
                .__inject_fault(Some(Fault {
                    at: step,
                    crash: true,
                }))
                .into_folder(dir(&world));
            let result = crashing.uninstall();
            for name in ["pdf-forms", "csv-report", "git-rebase"] {
                let got = version_of(&dir(&world).join(name), name, version_two());
                assert!(
                    matches!(got, None | Some(1)),
                    "step {step}: {name} is {got:?}"
                );
            }
            let next = folder(&world, &SKILLS);
            next.refresh().unwrap();
            let status = next.status().unwrap();
            assert!(status.all_up_to_date(), "step {step}: {status:?}");
            if result.is_ok() {
                break;
            }
            step += 1;
        }
        assert!(step > 3);
    }

    #[test]
    fn a_project_refresh_killed_part_way_is_finished_by_the_next_start() {
        let v2 = version_two();
        let mut step = 1;
        loop {
            let world = World::new("refresh-crash");
            let target = Target::new(Scope::Project);
            world.installer(&SKILLS).install(&target).unwrap();
            let crashing: Installer<'_> =
                world
                    .installer(v2)
                    .version("2.0.0")
                    .__inject_fault(Some(Fault {
                        at: step,
                        crash: true,
                    }));
            let result = crashing.refresh_scope(Scope::Project);
            // A status first: it finishes or undoes the stopped run.
            let next = world.installer(v2).version("2.0.0");
            let status = next.status(&target).unwrap();
            for dir in [".claude/skills", ".agents/skills"] {
                let staging = world.project().join(dir).join(".skills-staging");
                assert!(!staging.exists(), "step {step}: {dir} still stages");
            }
            assert!(!status.dirs.is_empty());
            next.refresh_scope(Scope::Project).unwrap();
            let status = next.status(&target).unwrap();
            assert!(status.all_up_to_date(), "step {step}: {status:?}");
            if result.is_ok() {
                break;
            }
            step += 1;
        }
    }
}
