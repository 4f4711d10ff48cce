//! A process racing the installer (a same-user program, or a repository
//! tool running beside it) may swap a folder for a link at any moment.
//! Every change an apply makes is relative to a folder it opened once,
//! without following links, and checked against what the plan resolved;
//! so whatever is swapped, and whenever, nothing outside the project
//! changes. The `test-faults` hook swaps `.claude` (or a folder inside a
//! skill) for a link to a victim's folder before step N of an apply, for
//! every N the apply has, after making the folders of the swapped one
//! again in the victim's (as a process watching it could: the staging
//! folders included).

#![cfg(unix)]

use crate::install_support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use install_support::{SKILLS, Snap, World, assert_same, expected, snapshot, version_two};
use skills_install::{Agents, Installer, Scope, Swap, Target};

fn claude() -> Target {
    Target::new(Scope::Project).agents(Agents::parse(["claude-code"]).unwrap())
}

/// A victim's folder shaped like `.claude`, outside the project: a file
/// of the victim's own in `skills/`, and with `skill` a skill folder of
/// the same name as one installed, holding another.
fn victim(world: &World, skill: bool) -> PathBuf {
    let victim = world.root.0.join("victim");
    fs::create_dir_all(victim.join("skills")).unwrap();
    fs::write(victim.join("skills/keep.txt"), "the victim's list\n").unwrap();
    if !skill {
        return victim;
    }
    let skill = victim.join("skills/pdf-forms");
    fs::create_dir_all(&skill).unwrap();
    fs::write(skill.join("mine.txt"), "the victim's own\n").unwrap();
    let catalog = SKILLS.catalog().unwrap();
    let main = &expected(catalog, "pdf-forms")[&PathBuf::from("SKILL.md")];
    fs::write(skill.join("SKILL.md"), main).unwrap();
    victim
}

/// Runs `what` (an apply) with `.claude` swapped for a link to the victim
/// before each step in turn, each time in a new world set up by `setup`;
/// asserts the victim's folder never changes. Stops at the first step the
/// apply does not reach.
fn at_every_step(
    name: &str,
    skill: bool,
    setup: impl Fn(&World),
    what: impl Fn(&Installer<'static>) -> Result<(), String>,
    installer: impl Fn(&World) -> Installer<'static>,
) {
    let mut step = 1;
    loop {
        let world = World::new(name);
        setup(&world);
        let victim = victim(&world, skill);
        let before = victim_files(&victim);
        let folder = world.project().join(".claude");
        let racing = installer(&world).__inject_swap(Some(Swap {
            at: step,
            folder: folder.clone(),
            link_to: victim.clone(),
        }));
        let result = what(&racing);
        assert_same(
            &victim_files(&victim),
            &before,
            &format!("{name}: swapped before step {step} ({result:?})"),
        );
        let swapped = world.project().join(".claude.swapped").exists();
        if !swapped {
            assert!(step > 1, "{name}: the apply has no step");
            break;
        }
        step += 1;
        assert!(step < 500, "{name}: no end of steps");
    }
}

/// Everything in the victim's folder but the folders the swap made: the
/// victim's files (and links) as they are.
fn victim_files(victim: &Path) -> BTreeMap<PathBuf, Snap> {
    let mut all = snapshot(victim);
    all.retain(|_, snap| *snap != Snap::Dir);
    all
}

fn installed_v1(world: &World) {
    world.installer(&SKILLS).install(&claude()).unwrap();
}

#[test]
fn review_2_a_folder_swapped_for_a_link_during_an_uninstall_changes_nothing_outside() {
    at_every_step(
        "race-uninstall",
        true,
        installed_v1,
        |installer| {
            installer
                .uninstall(&claude())
                .map(|_| ())
                .map_err(|e| e.to_string())
        },
        |world| world.installer(&SKILLS),
    );
}

#[test]
fn review_2_a_folder_swapped_for_a_link_during_an_update_changes_nothing_outside() {
    at_every_step(
        "race-update",
        true,
        installed_v1,
        |installer| {
            installer
                .install(&claude())
                .map(|_| ())
                .map_err(|e| e.to_string())
        },
        |world| world.installer(version_two()),
    );
}

#[test]
fn review_2_a_folder_swapped_for_a_link_during_an_install_changes_nothing_outside() {
    at_every_step(
        "race-install",
        false,
        |world| fs::create_dir_all(world.project().join(".claude/skills")).unwrap(),
        |installer| {
            installer
                .install(&claude())
                .map(|_| ())
                .map_err(|e| e.to_string())
        },
        |world| world.installer(&SKILLS),
    );
}

/// Review note (`carry`): a file of the user's in a skill being updated is
/// carried into the new copy from the folder as opened, never through a
/// path looked up again. A subfolder of the skill swapped for a link to a
/// victim's folder before any step never gets the victim's file linked
/// or copied into the project.
#[test]
fn note_a_file_carried_over_is_never_taken_through_a_link() {
    use std::os::unix::fs::MetadataExt;
    let secret = b"the victim's secret\n";
    let mut step = 1;
    loop {
        let world = World::new("race-carry");
        installed_v1(&world);
        let mine = world.project().join(".claude/skills/pdf-forms/mine");
        // `a` (carried before `secret.md`) shows in the victim's folder
        // when the swap happened; `secret.md` is the last thing carried,
        // so a file taken through the link would be installed.
        fs::create_dir_all(mine.join("a")).unwrap();
        fs::write(mine.join("secret.md"), "the user's own\n").unwrap();
        let victim = world.root.0.join("victim");
        fs::create_dir_all(&victim).unwrap();
        fs::write(victim.join("secret.md"), secret).unwrap();
        let racing = world.installer(version_two()).__inject_swap(Some(Swap {
            at: step,
            folder: mine.clone(),
            link_to: victim.clone(),
        }));
        let result = racing.install(&claude()).map(|_| ());
        let leaked: Vec<PathBuf> = snapshot(&world.project())
            .into_iter()
            .filter(|(_, snap)| matches!(snap, Snap::File(bytes, _) if bytes == secret))
            .map(|(path, _)| path)
            .collect();
        assert!(
            leaked.is_empty(),
            "swapped before step {step} ({result:?}): the victim's file is in {leaked:?}"
        );
        let links = fs::metadata(victim.join("secret.md")).unwrap().nlink();
        assert_eq!(
            links, 1,
            "swapped before step {step}: linked into the project"
        );
        // The swap makes `mine`'s folders again in the victim's first: no
        // `a` there, and the swap did not happen (the skill's folder was
        // moved aside by then).
        if !victim.join("a").exists() {
            assert!(step > 1, "the update has no step");
            break;
        }
        step += 1;
        assert!(step < 500, "no end of steps");
    }
}
