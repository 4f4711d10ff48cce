//! The installer in temporary homes and projects: bytes, scopes, the
//! variables, shared folders, conflicts, updates, uninstall, dry runs,
//! failures part way through, concurrent installs, links, hostile trees.
//! Every test passes its own environment to the installer (never the
//! process's), so they run in parallel.

use crate::install_support;

use std::fs;
use std::path::{Path, PathBuf};

use install_support::{
    SKILLS, Temp, World, assert_same, executable, expected, files, run, snapshot, sources,
    version_of, version_two,
};

use skills_install::{
    Agents, Change, ConflictKind, Fault, InstallError, Installer, Layout, Problem, Scope, State,
    Target,
};

fn target() -> Target {
    Target::new(Scope::Project)
}

fn agents(ids: &[&str]) -> Agents {
    Agents::parse(ids).unwrap()
}

#[test]
fn installs_every_byte_of_every_file() {
    let world = World::new("bytes");
    let installer = world.installer(&SKILLS);
    let plan = installer.plan(&target()).unwrap();
    assert!(plan.is_ready() && plan.changes());
    installer.apply(plan).unwrap();
    let catalog = SKILLS.catalog().unwrap();
    let names: Vec<&str> = catalog.names().collect();
    assert_eq!(names.len(), 3);
    for dir in [".claude/skills", ".agents/skills"] {
        for name in &names {
            let installed = world.project().join(dir).join(name);
            // What the bundle holds, byte for byte (text, binary, the skill file)...
            assert_eq!(files(&installed), expected(catalog, name), "{dir}/{name}");
            // ...which for testdata/skills is every file of the source: the
            // compiler leaves junk out, and these sources hold none.
            assert_eq!(
                files(&installed),
                files(&sources().join(name)),
                "{dir}/{name}"
            );
        }
        let logo = world.project().join(dir).join("pdf-forms/assets/logo.png");
        assert!(fs::read(&logo).unwrap().starts_with(b"\x89PNG"));
        let script = world.project().join(dir).join("pdf-forms/scripts/fill.py");
        assert!(
            executable(&script) || cfg!(not(unix)),
            "scripts keep their executable bit"
        );
        assert!(!executable(
            &world.project().join(dir).join("pdf-forms/reference.md")
        ));
    }
    let status = installer.status(&target()).unwrap();
    assert!(status.all_up_to_date(), "{status:?}");
    assert_eq!(
        status.state(".agents/skills", "pdf-forms"),
        Some(State::UpToDate)
    );
    // Nothing was written outside the agents' folders but the record and lock.
    let top: Vec<PathBuf> = fs::read_dir(world.project())
        .unwrap()
        .map(|item| item.unwrap().file_name().into())
        .collect();
    let mut top: Vec<String> = top.iter().map(|p| p.display().to_string()).collect();
    top.sort();
    assert_eq!(top, [".agents", ".claude", ".git", "src"]);
    assert!(
        world
            .project()
            .join(".agents/.skills-install/mytool.project.json")
            .is_file()
    );
    assert!(
        !world
            .project()
            .join(".claude/skills/.skills-staging")
            .exists()
    );
    // A second install has nothing to do.
    let again = installer.plan(&target()).unwrap();
    assert!(!again.changes());
}

#[test]
fn user_scope_and_the_variables_that_move_it() {
    let world = World::new("user");
    let user = Target::new(Scope::User).agents(agents(&["claude-code", "codex", "goose", "amp"]));
    let installer = world.installer(&SKILLS);
    installer.install(&user).unwrap();
    for dir in [
        ".claude/skills",
        ".codex/skills",
        ".config/goose/skills",
        ".config/agents/skills",
    ] {
        let skill = world.home().join(dir).join("git-rebase/SKILL.md");
        assert!(skill.is_file(), "{}", skill.display());
    }
    assert!(
        world
            .home()
            .join(".agents/.skills-install/mytool.user.json")
            .is_file()
    );
    assert!(
        !world.project().join(".claude").exists(),
        "the project is untouched"
    );

    // With the variables set, the same agents' folders move.
    let world = World::new("vars");
    let moved = world.root.0.join("moved");
    let env = world
        .env()
        .var("CLAUDE_CONFIG_DIR", moved.join("claude"))
        .var("CODEX_HOME", moved.join("codex"))
        .var("XDG_CONFIG_HOME", moved.join("xdg"));
    let installer = world.installer(&SKILLS).environment(env);
    let plan = installer.plan(&user).unwrap();
    let shown: Vec<&str> = plan.dirs.iter().map(|dir| dir.shown.as_str()).collect();
    assert_eq!(shown.len(), 4);
    installer.apply(plan).unwrap();
    for dir in [
        "claude/skills",
        "codex/skills",
        "xdg/goose/skills",
        "xdg/agents/skills",
    ] {
        assert!(
            moved.join(dir).join("pdf-forms/SKILL.md").is_file(),
            "{dir}"
        );
    }
    assert!(!world.home().join(".claude").exists());
    assert!(installer.status(&user).unwrap().all_up_to_date());
}

#[test]
fn agents_sharing_a_folder_get_one_copy() {
    let world = World::new("shared");
    let installer = world.installer(&SKILLS);
    let shared = target().agents(agents(&[
        "amp",
        "codex",
        "gemini-cli",
        "github-copilot",
        "kimi-cli",
        "opencode",
        "replit",
        "trae",
        "trae-cn",
    ]));
    let plan = installer.plan(&shared).unwrap();
    assert_eq!(plan.dirs.len(), 2, "{:?}", plan.dirs);
    let agents_dir = plan
        .dirs
        .iter()
        .find(|d| d.shown == ".agents/skills")
        .unwrap();
    assert_eq!(agents_dir.agents.len(), 7);
    let trae = plan
        .dirs
        .iter()
        .find(|d| d.shown == ".trae/skills")
        .unwrap();
    assert_eq!(trae.agents.len(), 2);
    installer.apply(plan).unwrap();
    assert!(
        world
            .project()
            .join(".agents/skills/csv-report/SKILL.md")
            .is_file()
    );
    // `all` covers the 39 agents in their distinct folders.
    let all = installer.plan(&target().agents(Agents::All)).unwrap();
    let distinct: std::collections::BTreeSet<&str> = skills_install::agents::AGENTS
        .iter()
        .map(|a| a.project_dir)
        .collect();
    assert_eq!(all.dirs.len(), distinct.len());
}

#[test]
fn a_users_edit_is_refused_then_forced() {
    let world = World::new("edit");
    let installer = world.installer(&SKILLS);
    installer.install(&target()).unwrap();
    let edited = world
        .project()
        .join(".claude/skills/pdf-forms/reference.md");
    fs::write(&edited, "my own notes\n").unwrap();
    let status = installer.status(&target()).unwrap();
    assert_eq!(
        status.state(".claude/skills", "pdf-forms"),
        Some(State::Modified)
    );
    assert_eq!(
        status.state(".agents/skills", "pdf-forms"),
        Some(State::UpToDate)
    );

    // A new version would replace reference.md: a conflict, listed first.
    let v2 = world.installer(version_two());
    let plan = v2.plan(&target()).unwrap();
    let conflicts: Vec<_> = plan
        .conflicts()
        .map(|(d, s, c)| (d.shown.clone(), s.name.clone(), c.clone()))
        .collect();
    assert_eq!(conflicts.len(), 1, "{conflicts:?}");
    assert_eq!(conflicts[0].2.kind, ConflictKind::Changed);
    assert_eq!(conflicts[0].2.path, "reference.md");
    let before = snapshot(&world.project());
    match v2.apply(plan) {
        Err(InstallError::Conflicts { count: 1 }) => {}
        other => panic!("{other:?}"),
    }
    assert_same(
        &snapshot(&world.project()),
        &before,
        "nothing written, in any folder",
    );
    // Through the subcommand: exit 1, the conflict named.
    let (code, out, err) = run(&v2, &["install"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("reference.md was changed since it was installed"),
        "{out}"
    );
    assert!(err.contains("--force"), "{err}");
    assert_same(&snapshot(&world.project()), &before, "nothing written");

    // --force overwrites it.
    let (code, out, _) = run(&v2, &["install", "--force"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        fs::read_to_string(&edited).unwrap(),
        "# Reference, second edition\n"
    );
    assert!(v2.status(&target()).unwrap().all_up_to_date());
}

#[test]
fn an_update_replaces_and_removes_only_our_files() {
    let world = World::new("update");
    installer_v1(&world).install(&target()).unwrap();
    let folder = world.project().join(".claude/skills/pdf-forms");
    fs::write(folder.join("my-notes.md"), "mine\n").unwrap();
    fs::create_dir_all(folder.join("scripts/local")).unwrap();
    fs::write(folder.join("scripts/local/run.sh"), "#!/bin/sh\n").unwrap();
    // Another tool's skill beside ours.
    let other = world.project().join(".claude/skills/other-tool");
    fs::create_dir_all(&other).unwrap();
    fs::write(other.join("SKILL.md"), "---\nname: other-tool\n---\n").unwrap();

    let v2 = world.installer(version_two());
    let status = v2.status(&target()).unwrap();
    assert_eq!(
        status.state(".claude/skills", "pdf-forms"),
        Some(State::Outdated)
    );
    let plan = v2.plan(&target()).unwrap();
    assert!(
        plan.is_ready(),
        "{:?}",
        plan.conflicts().collect::<Vec<_>>()
    );
    let claude = plan
        .dirs
        .iter()
        .find(|d| d.shown == ".claude/skills")
        .unwrap();
    let csv = claude
        .skills
        .iter()
        .find(|s| s.name == "csv-report")
        .unwrap();
    assert_eq!(
        csv.change,
        Change::Remove,
        "a skill the new version dropped"
    );
    v2.apply(plan).unwrap();

    assert_eq!(
        fs::read_to_string(folder.join("reference.md")).unwrap(),
        "# Reference, second edition\n"
    );
    assert!(
        !folder.join("scripts/fill.py").exists(),
        "dropped by the new version"
    );
    assert!(folder.join("notes/new.md").is_file());
    assert_eq!(
        fs::read_to_string(folder.join("my-notes.md")).unwrap(),
        "mine\n"
    );
    assert!(folder.join("scripts/local/run.sh").is_file());
    assert!(!world.project().join(".claude/skills/csv-report").exists());
    assert!(
        other.join("SKILL.md").is_file(),
        "another tool's skill is untouched"
    );
    let status = v2.status(&target()).unwrap();
    assert!(status.all_up_to_date(), "{status:?}");
}

fn installer_v1(world: &World) -> Installer<'static> {
    world.installer(&SKILLS)
}

#[test]
fn uninstall_keeps_the_users_files_and_skills() {
    let world = World::new("uninstall");
    let installer = world.installer(&SKILLS);
    installer.install(&target()).unwrap();
    let claude = world.project().join(".claude/skills");
    fs::write(claude.join("pdf-forms/my-notes.md"), "mine\n").unwrap();
    fs::create_dir_all(claude.join("mine")).unwrap();
    fs::write(claude.join("mine/SKILL.md"), "---\nname: mine\n---\n").unwrap();

    let plan = installer
        .plan_uninstall(&Target::new(Scope::Project))
        .unwrap();
    assert!(plan.is_ready());
    installer.apply(plan).unwrap();
    assert_eq!(
        snapshot(&claude).keys().cloned().collect::<Vec<_>>(),
        [
            "mine",
            "mine/SKILL.md",
            "pdf-forms",
            "pdf-forms/my-notes.md"
        ]
        .map(PathBuf::from)
    );
    // The folders we created and left empty are gone; the record and the
    // lock too.
    assert!(!world.project().join(".agents").exists());
    let status = installer.status(&target()).unwrap();
    assert_eq!(
        status.state(".claude/skills", "git-rebase"),
        Some(State::Missing)
    );
}

#[test]
fn uninstall_refuses_a_changed_file_without_force() {
    let world = World::new("uninstall-edit");
    let installer = world.installer(&SKILLS);
    installer.install(&target()).unwrap();
    let edited = world.project().join(".claude/skills/git-rebase/SKILL.md");
    fs::write(
        &edited,
        "---\nname: git-rebase\ndescription: mine now\n---\n",
    )
    .unwrap();
    let before = snapshot(&world.project());
    assert!(matches!(
        installer.uninstall(&target()),
        Err(InstallError::Conflicts { count: 1 })
    ));
    assert_same(&snapshot(&world.project()), &before, "nothing written");
    installer.uninstall(&target().force(true)).unwrap();
    assert!(!edited.exists());
}

#[test]
fn dry_run_writes_nothing() {
    let world = World::new("dry");
    let installer = world.installer(&SKILLS);
    let before = snapshot(&world.root.0);
    for args in [
        &["install", "--dry-run"][..],
        &["install", "--dry-run", "--link", "--agent", "all"],
        &["install", "--dry-run", "--scope", "user"],
        &["uninstall", "--dry-run"],
        &["status"],
        &["list"],
    ] {
        let (_, out, _) = run(&installer, args);
        assert_same(
            &snapshot(&world.root.0),
            &before,
            &format!("{args:?} wrote:\n{out}"),
        );
    }
    let (code, out, _) = run(&installer, &["install", "--dry-run"]);
    assert_eq!(code, 0);
    assert!(out.contains("dry run: nothing was written"), "{out}");
    assert!(out.contains("write    pdf-forms"), "{out}");
    // After an install, a dry run of an update writes nothing either.
    installer.install(&target()).unwrap();
    let before = snapshot(&world.root.0);
    let v2 = world.installer(version_two());
    let (code, _, _) = run(&v2, &["install", "--dry-run", "--json"]);
    assert_eq!(code, 0);
    let (code, _, _) = run(&v2, &["uninstall", "--dry-run", "--force"]);
    assert_eq!(code, 0);
    assert_same(&snapshot(&world.root.0), &before, "dry runs");
}

#[test]
fn a_failure_part_way_leaves_every_skill_whole() {
    let v2 = version_two();
    let mut step = 1;
    loop {
        let world = World::new("fail");
        installer_v1(&world).install(&target()).unwrap();
        let before = snapshot(&world.project());
        let faulty = world.installer(v2).__inject_fault(Some(Fault {
            at: step,
            crash: false,
        }));
        match faulty.install(&target()) {
            Err(error) => {
                assert!(error.to_string().contains("injected failure"), "{error}");
                // Undone: exactly the state before, every skill wholly old.
                assert_same(
                    &snapshot(&world.project()),
                    &before,
                    &format!("failure at step {step}"),
                );
            }
            Ok(_) => {
                assert!(step > 20, "the install has more steps than {step}");
                for dir in [".claude/skills", ".agents/skills"] {
                    let folder = world.project().join(dir);
                    assert_eq!(
                        version_of(&folder.join("pdf-forms"), "pdf-forms", v2),
                        Some(2)
                    );
                    assert_eq!(
                        version_of(&folder.join("csv-report"), "csv-report", v2),
                        None
                    );
                }
                break;
            }
        }
        step += 1;
    }
}

#[test]
fn a_run_killed_part_way_is_finished_or_undone_by_the_next() {
    let v2 = version_two();
    let mut step = 1;
    loop {
        let world = World::new("crash");
        installer_v1(&world).install(&target()).unwrap();
        let crashing = world.installer(v2).__inject_fault(Some(Fault {
            at: step,
            crash: true,
        }));
        let result = crashing.install(&target());
        for dir in [".claude/skills", ".agents/skills"] {
            let folder = world.project().join(dir);
            // Whatever was reached, each skill is one version, wholly; or,
            // killed between moving the old folder aside and the new one
            // in, absent with the old one kept aside for the next run.
            for name in ["pdf-forms", "csv-report", "git-rebase"] {
                match version_of(&folder.join(name), name, v2) {
                    Some(1 | 2) => {}
                    None if name == "csv-report" || set_aside(&folder, name) => {}
                    other => panic!("step {step}: {dir}/{name} is {other:?}"),
                }
            }
        }
        // The next run recovers, then installs.
        let next = world.installer(v2);
        next.install(&target()).unwrap();
        let status = next.status(&target()).unwrap();
        assert!(status.all_up_to_date(), "step {step}: {status:?}");
        for dir in [".claude/skills", ".agents/skills"] {
            assert!(
                !world.project().join(dir).join(".skills-staging").exists(),
                "step {step}"
            );
        }
        if result.is_ok() {
            break;
        }
        step += 1;
    }
}

/// Whether a stopped run left the old `name` in a staging folder of `dir`.
fn set_aside(dir: &Path, name: &str) -> bool {
    fs::read_dir(dir.join(".skills-staging"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|tx| tx.path().join("old").join(name).exists())
}

#[test]
fn two_installs_at_once_do_not_interleave() {
    for round in 0..4 {
        let world = World::new("concurrent");
        let v2 = version_two();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|i| {
                    let world = &world;
                    scope.spawn(move || match i % 2 {
                        0 => world.installer(&SKILLS).install(&target()),
                        _ => world.installer(v2).install(&target()),
                    })
                })
                .collect();
            for handle in handles {
                match handle.join().unwrap() {
                    Ok(_) | Err(InstallError::Changed) => {}
                    Err(error) => panic!("round {round}: {error}"),
                }
            }
        });
        // Whoever came last, every skill is wholly one version, and it is ours.
        for dir in [".claude/skills", ".agents/skills"] {
            let folder = world.project().join(dir);
            let pdf = version_of(&folder.join("pdf-forms"), "pdf-forms", v2);
            assert!(matches!(pdf, Some(1 | 2)), "{pdf:?}");
            assert!(!folder.join(".skills-staging").exists());
        }
        // Same tool, same version, at once: both succeed.
        let world = World::new("concurrent-same");
        std::thread::scope(|scope| {
            let a = scope.spawn(|| world.installer(&SKILLS).install(&target()));
            let b = scope.spawn(|| world.installer(&SKILLS).install(&target()));
            a.join().unwrap().unwrap();
            b.join().unwrap().unwrap();
        });
        assert!(
            world
                .installer(&SKILLS)
                .status(&target())
                .unwrap()
                .all_up_to_date()
        );
    }
}

#[cfg(unix)]
#[test]
fn a_symlinked_agent_folder_is_followed_and_shared() {
    use std::os::unix::fs::symlink;
    let world = World::new("symlinked");
    // .claude/skills is a link to the shared folder: one copy serves both.
    fs::create_dir_all(world.project().join(".agents/skills")).unwrap();
    fs::create_dir_all(world.project().join(".claude")).unwrap();
    symlink("../.agents/skills", world.project().join(".claude/skills")).unwrap();
    // ~/.cursor is a link to a folder elsewhere.
    let elsewhere = world.root.0.join("dotfiles/cursor");
    fs::create_dir_all(&elsewhere).unwrap();
    symlink(&elsewhere, world.home().join(".cursor")).unwrap();

    let installer = world.installer(&SKILLS);
    let plan = installer.plan(&target()).unwrap();
    assert_eq!(plan.dirs.len(), 1, "{:?}", plan.dirs);
    assert_eq!(plan.dirs[0].shown, ".agents/skills");
    assert_eq!(plan.dirs[0].agents.len(), 2);
    installer.apply(plan).unwrap();
    assert!(
        world
            .project()
            .join(".claude/skills/pdf-forms/SKILL.md")
            .is_file()
    );
    assert!(
        fs::symlink_metadata(world.project().join(".claude/skills"))
            .unwrap()
            .file_type()
            .is_symlink()
    );

    let user = Target::new(Scope::User).agents(agents(&["cursor"]));
    installer.install(&user).unwrap();
    assert!(elsewhere.join("skills/pdf-forms/SKILL.md").is_file());
    assert!(
        fs::symlink_metadata(world.home().join(".cursor"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(installer.status(&user).unwrap().all_up_to_date());
}

#[test]
fn a_file_where_a_folder_should_be_stops_everything() {
    let world = World::new("file-for-folder");
    fs::create_dir_all(world.project().join(".claude")).unwrap();
    fs::write(world.project().join(".claude/skills"), "not a folder").unwrap();
    let installer = world.installer(&SKILLS);
    let plan = installer.plan(&target().force(true)).unwrap();
    assert!(
        matches!(plan.problems[..], [Problem::NotAFolder { .. }]),
        "{:?}",
        plan.problems
    );
    let before = snapshot(&world.root.0);
    assert!(matches!(
        installer.apply(plan),
        Err(InstallError::Problems { count: 1 })
    ));
    assert_same(
        &snapshot(&world.root.0),
        &before,
        "not even .agents/skills is written",
    );
    let (code, out, err) = run(&installer, &["install", "--force"]);
    assert_eq!(code, 1);
    assert!(out.contains("is not a folder"), "{out}{err}");

    // Inside a skill: a file where the skill's folder goes, and one where
    // its `assets` folder goes: conflicts, and --force replaces them.
    let world = World::new("file-in-skill");
    let claude = world.project().join(".claude/skills");
    fs::create_dir_all(claude.join("csv-report")).unwrap();
    fs::write(claude.join("git-rebase"), "a file").unwrap();
    fs::create_dir_all(claude.join("pdf-forms")).unwrap();
    fs::write(claude.join("pdf-forms/assets"), "a file").unwrap();
    let installer = world.installer(&SKILLS);
    let plan = installer.plan(&target()).unwrap();
    let mut kinds: Vec<(String, String, ConflictKind)> = plan
        .conflicts()
        .map(|(_, s, c)| (s.name.clone(), c.path.clone(), c.kind.clone()))
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            ("git-rebase".into(), "".into(), ConflictKind::NotAFolder),
            (
                "pdf-forms".into(),
                "assets".into(),
                ConflictKind::NotAFolder
            ),
        ]
    );
    assert!(installer.apply(plan).is_err());
    assert_eq!(fs::read(claude.join("git-rebase")).unwrap(), b"a file");
    installer.install(&target().force(true)).unwrap();
    assert!(claude.join("pdf-forms/assets/logo.png").is_file());
    assert!(installer.status(&target()).unwrap().all_up_to_date());
}

#[cfg(unix)]
#[test]
fn a_symlink_pointing_out_is_never_written_through() {
    use std::os::unix::fs::symlink;
    let world = World::new("link-out");
    let outside = world.root.0.join("outside");
    fs::create_dir_all(outside.join("scripts")).unwrap();
    fs::write(outside.join("SKILL.md"), "precious\n").unwrap();
    fs::write(outside.join("scripts/fill.py"), "precious script\n").unwrap();
    let claude = world.project().join(".claude/skills");
    fs::create_dir_all(claude.join("pdf-forms")).unwrap();
    // The skill's folder is a link out, and a folder inside another skill too.
    symlink(&outside, claude.join("git-rebase")).unwrap();
    fs::create_dir_all(claude.join("csv-report")).unwrap();
    symlink(outside.join("scripts"), claude.join("pdf-forms/scripts")).unwrap();
    let installer = world.installer(&SKILLS);
    let plan = installer.plan(&target()).unwrap();
    let kinds: Vec<ConflictKind> = plan.conflicts().map(|(_, _, c)| c.kind.clone()).collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert!(
        kinds
            .iter()
            .all(|kind| matches!(kind, ConflictKind::Link(_)))
    );
    let outside_before = snapshot(&outside);
    assert!(installer.apply(plan).is_err());
    installer.install(&target().force(true)).unwrap();
    // The links were replaced; what they pointed at is untouched.
    assert_same(&snapshot(&outside), &outside_before, "outside");
    assert!(
        !fs::symlink_metadata(claude.join("git-rebase"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(claude.join("pdf-forms/scripts/fill.py").is_file());
    assert_eq!(
        fs::read(outside.join("scripts/fill.py")).unwrap(),
        b"precious script\n"
    );
    assert!(installer.status(&target()).unwrap().all_up_to_date());
    // An uninstall leaves a link it did not make alone.
    symlink(&outside, claude.join("elsewhere")).unwrap();
    installer.uninstall(&target()).unwrap();
    assert_same(&snapshot(&outside), &outside_before, "outside");
}

#[cfg(unix)]
#[test]
fn link_mode_keeps_one_copy() {
    let world = World::new("link");
    let installer = world.installer(&SKILLS);
    let linked = target()
        .agents(agents(&["claude-code", "cursor", "codex"]))
        .layout(Layout::Link);
    installer.install(&linked).unwrap();
    let claude = world.project().join(".claude/skills/pdf-forms");
    assert_eq!(
        fs::read_link(&claude).unwrap(),
        Path::new("../../.agents/skills/pdf-forms")
    );
    assert!(claude.join("scripts/fill.py").is_file());
    assert!(world.project().join(".agents/skills/pdf-forms").is_dir());
    let status = installer.status(&target()).unwrap();
    assert!(status.all_up_to_date(), "{status:?}");
    assert!(
        status
            .dirs
            .iter()
            .any(|dir| dir.shown == ".cursor/skills" && dir.link)
    );
    // An update without --link keeps the links, and updates the copy.
    let v2 = world.installer(version_two());
    v2.install(&target()).unwrap();
    assert!(
        fs::symlink_metadata(&claude)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(claude.join("notes/new.md").is_file());
    // --copy turns them back into copies.
    v2.install(&target().layout(Layout::Copy)).unwrap();
    assert!(fs::symlink_metadata(&claude).unwrap().is_dir());
    assert!(v2.status(&target()).unwrap().all_up_to_date());
    v2.uninstall(&target()).unwrap();
    assert!(!world.project().join(".claude").exists());
    assert!(!world.project().join(".cursor").exists());
    assert!(!world.project().join(".agents").exists());
}

#[test]
fn the_subcommand_reports_and_exits() {
    let world = World::new("subcommand");
    let installer = world.installer(&SKILLS);
    let (code, out, _) = run(&installer, &["status"]);
    assert_eq!(code, 1, "nothing installed yet: {out}");
    assert!(out.contains("pdf-forms  missing"), "{out}");
    // The shared folder is labelled with every agent that reads it, not
    // only the one it was chosen for.
    assert!(
        out.contains(".agents/skills  (Amp, Codex, Gemini CLI, GitHub Copilot, Kimi Code CLI, OpenCode, Replit)\n"),
        "{out}"
    );
    assert!(out.contains(".claude/skills  (Claude Code)\n"), "{out}");
    let (code, out, _) = run(&installer, &["install", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["applied"], true);
    assert_eq!(json["directories"][0]["skills"][0]["change"], "write");
    let (code, out, _) = run(&installer, &["status", "--json"]);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["up_to_date"], true);
    let (code, out, _) = run(&installer, &["status", "pdf-forms"]);
    assert_eq!(code, 0);
    assert!(!out.contains("csv-report"), "{out}");
    let (code, _, err) = run(&installer, &["install", "--agent", "vim"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown agent \"vim\""), "{err}");
    let (code, _, err) = run(&installer, &["frobnicate"]);
    assert_eq!(code, 2, "{err}");
    // A skill named that is not carried is a usage error, as an unknown
    // agent or command is: exit 2, on every action that takes names.
    for action in ["install", "status", "uninstall"] {
        let (code, _, err) = run(&installer, &[action, "no-such-skill"]);
        assert_eq!(code, 2, "{action}: {err}");
        assert!(err.contains("no skill named"), "{action}: {err}");
    }
    let (code, out, _) = run(&installer, &["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("mytool skill <COMMAND>"), "{out}");
    let (code, out, _) = run(&installer, &["install", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--force"));
    let (code, out, _) = run(&installer, &["list"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 3, "{out}");
    // The columns line up: the descriptions start in one column, whatever
    // the names' lengths and file counts.
    let starts: std::collections::BTreeSet<usize> = out
        .lines()
        .map(|line| {
            let count = line.find(" file").unwrap();
            let gap = count + line[count..].find("  ").unwrap();
            gap + line[gap..].len() - line[gap..].trim_start().len()
        })
        .collect();
    assert_eq!(starts.len(), 1, "{out}");
    assert_eq!(installer.intercept_args(&["other".into()]), None);
}

#[test]
fn extract_gives_back_the_sources() {
    let temp = Temp::new("extract");
    let out = temp.0.join("out");
    let written = Installer::new(&SKILLS).extract(&out).unwrap();
    assert_eq!(written.len(), 3);
    for name in ["pdf-forms", "csv-report", "git-rebase"] {
        assert_eq!(
            files(&out.join(name)),
            files(&sources().join(name)),
            "{name}"
        );
    }
    assert!(executable(&out.join("pdf-forms/scripts/fill.py")) || cfg!(not(unix)));
    // Never over an existing folder.
    let again = Installer::new(&SKILLS).extract(&out).unwrap_err();
    assert!(again.to_string().contains("already exists"), "{again}");
}

#[test]
fn a_project_folder_that_does_not_exist_is_an_error() {
    let world = World::new("no-project");
    let installer = world.installer(&SKILLS);
    let target = target().project_dir(world.root.0.join("typo"));
    let error = installer.plan(&target).unwrap_err();
    assert!(error.to_string().contains("no such folder"), "{error}");
    assert!(!world.root.0.join("typo").exists());
}

/// A program that names its sources never installs over them, even with
/// `--agent all --force` run in its own repository (OpenClaw reads
/// `<project>/skills`, where the sources are).
#[test]
fn the_subcommand_refuses_a_target_that_is_a_source() {
    let world = World::new("sources");
    let sources = world.project().join("skills");
    let catalog = SKILLS.catalog().unwrap();
    for name in ["pdf-forms", "csv-report", "git-rebase"] {
        for (path, bytes) in expected(catalog, name) {
            let path = sources.join(name).join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, bytes).unwrap();
        }
    }
    fs::write(sources.join("pdf-forms/reference.md"), "being written\n").unwrap();
    let before = snapshot(&sources);
    let installer = world.installer(&SKILLS).sources([&sources]);
    let (code, out, err) = run(&installer, &["install", "--agent", "all", "--force"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("source") || err.contains("source"),
        "{out}{err}"
    );
    assert_same(&snapshot(&sources), &before, "the sources");
}
