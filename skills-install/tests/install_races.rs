//! A process racing the installer (a same-user program, or a repository
//! tool running beside it) may swap a folder for a link at any moment.
//! Every change an apply makes is relative to a folder it opened once,
//! without following links, and checked against what the plan resolved;
//! so whatever is swapped, and whenever, nothing outside the project
//! changes. The `test-faults` hook swaps `.claude` for a link to a
//! victim's folder before step N of an apply, for every N the apply has,
//! after making the folders of `.claude` again in the victim's (as a
//! process watching `.claude` could: the staging folders included).

#![cfg(unix)]

mod install_support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use install_support::{SKILLS, Snap, World, assert_same, expected, snapshot, version_two};
use skills_runtime::install::{Agents, Installer, Scope, Swap, Target};

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
