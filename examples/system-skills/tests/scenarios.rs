//! The program's starts, as its users meet them: each scenario runs the
//! built `system-skills` binary over a temporary `APP_HOME`, the first
//! release and `--next-release` standing for an upgrade of the program.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The skills of the first release and of the next, by name: where their
/// sources are.
const FIRST: &[(&str, &str)] = &[
    ("image-notes", "skills/image-notes"),
    ("openai-docs", "skills/openai-docs"),
    ("plan-review", "skills/plan-review"),
    ("release-notes", "skills/release-notes"),
    ("skill-creator", "skills/skill-creator"),
    ("skill-installer", "skills/skill-installer"),
];
const NEXT: &[(&str, &str)] = &[
    ("image-notes", "skills/image-notes"),
    ("openai-docs", "skills/openai-docs"),
    ("plan-review", "skills/plan-review"),
    ("skill-creator", "skills-v2/skill-creator"),
    ("skill-installer", "skills/skill-installer"),
];

/// A file's bytes and whether it is executable.
type Tree = BTreeMap<PathBuf, (Vec<u8>, bool)>;

/// An `APP_HOME` under the temporary folder, removed when dropped.
struct Home(PathBuf);

impl Home {
    fn new(name: &str) -> Home {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "system-skills-{name}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        Home(path)
    }
    fn system(&self) -> PathBuf {
        self.0.join("skills/.system")
    }
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_system-skills"));
        command
            .args(args)
            .env("APP_HOME", &self.0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }
    /// A start that must succeed: its stdout and stderr.
    fn start(&self, args: &[&str]) -> (String, String) {
        let output = self.command(args).output().unwrap();
        let (out, err) = texts(&output);
        assert!(output.status.success(), "{args:?}: {out}{err}");
        (out, err)
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn texts(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn source(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Every file under `root`, links not followed.
fn tree(root: &Path) -> Tree {
    let mut out = Tree::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(items) = fs::read_dir(&dir) else {
            continue;
        };
        for item in items {
            let path = item.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(root).unwrap().to_path_buf();
                out.insert(relative, (fs::read(&path).unwrap(), executable(&meta)));
            }
        }
    }
    out
}

#[cfg(unix)]
fn executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &fs::Metadata) -> bool {
    false
}

/// Which release a skill folder holds wholly: `Some(1)`, `Some(2)`, or
/// `Some(0)` for neither; `None` when it is not there.
fn release_of(folder: &Path, name: &str) -> Option<u8> {
    if !folder.exists() {
        return None;
    }
    let found = tree(folder);
    let holds = |list: &[(&str, &str)]| {
        list.iter()
            .find(|(skill, _)| *skill == name)
            .is_some_and(|(_, path)| tree(&source(path)) == found)
    };
    match (holds(FIRST), holds(NEXT)) {
        (true, _) => Some(1),
        (_, true) => Some(2),
        _ => Some(0),
    }
}

/// Asserts the folder holds exactly `release`'s skills, each whole, with
/// its executable bits, and nothing else but the installer's entry.
#[track_caller]
fn assert_release(home: &Home, release: &[(&str, &str)], what: &str) {
    let mut names: Vec<String> = fs::read_dir(home.system())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".skills-install")
        .collect();
    names.sort();
    let wanted: Vec<&str> = release.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, wanted, "{what}");
    for (name, path) in release {
        let found = tree(&home.system().join(name));
        assert!(found == tree(&source(path)), "{what}: {name} is not whole");
    }
}

#[test]
fn a_first_start_writes_every_skill_with_its_executable_bits() {
    let home = Home::new("first");
    let (out, err) = home.start(&[]);
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(err.contains("wrote"), "{err}");
    assert_release(&home, FIRST, "first start");
    // The bits are the sources' (compared in `assert_release`), not a
    // guess from the path: the four scripts and `bin/check` (no `#!`, not
    // under `scripts/`) run; `scripts/README.md` does not.
    let runnable: Vec<PathBuf> = tree(&home.system())
        .into_iter()
        .filter(|(_, (_, exec))| *exec)
        .map(|(path, _)| path)
        .collect();
    if cfg!(unix) {
        assert_eq!(runnable.len(), 5, "{runnable:?}");
        assert!(runnable.contains(&PathBuf::from("skill-installer/bin/check")));
        assert!(!runnable.contains(&PathBuf::from("skill-creator/scripts/README.md")));
    }
}

#[test]
fn a_start_with_nothing_to_do_changes_nothing_and_says_nothing() {
    let home = Home::new("no-change");
    home.start(&[]);
    let before = tree(&home.0);
    let times = modified_times(&home.0);
    let (out, err) = home.start(&[]);
    assert!(err.is_empty(), "{err}");
    assert_eq!(out.lines().count(), 6);
    assert!(tree(&home.0) == before, "nothing written");
    assert_eq!(modified_times(&home.0), times, "nothing rewritten");
}

fn modified_times(root: &Path) -> BTreeMap<PathBuf, std::time::SystemTime> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for item in fs::read_dir(&dir).unwrap() {
            let path = item.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            out.insert(path.clone(), meta.modified().unwrap());
            if meta.is_dir() {
                stack.push(path);
            }
        }
    }
    out
}

#[test]
fn an_upgrade_writes_the_changed_skill_and_removes_the_dropped_one() {
    let home = Home::new("upgrade");
    home.start(&[]);
    let (_, err) = home.start(&["--next-release"]);
    assert!(err.contains("updated skill-creator"), "{err}");
    assert!(err.contains("removed release-notes"), "{err}");
    assert_release(&home, NEXT, "after the upgrade");
    let (_, err) = home.start(&["--next-release"]);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_user_edit_is_kept_through_an_upgrade_and_said_once() {
    let home = Home::new("edit");
    home.start(&[]);
    let edited = home.system().join("skill-creator/references/layout.md");
    fs::write(&edited, "my own notes\n").unwrap();
    let (out, err) = home.start(&["--next-release"]);
    assert!(
        err.contains("skill-creator") && err.contains("not updated"),
        "{err}"
    );
    assert!(out.contains("skill-creator  (your edit, kept)"), "{out}");
    assert_eq!(fs::read_to_string(&edited).unwrap(), "my own notes\n");
    assert_eq!(
        release_of(&home.system().join("plan-review"), "plan-review"),
        Some(1)
    );
    let (_, err) = home.start(&["--next-release"]);
    assert!(err.is_empty(), "said once: {err}");
    assert_eq!(fs::read_to_string(&edited).unwrap(), "my own notes\n");
}

#[test]
fn with_replace_a_user_edit_is_moved_aside_and_the_new_one_written() {
    let home = Home::new("replace");
    home.start(&[]);
    let edited = home.system().join("skill-creator/references/layout.md");
    fs::write(&edited, "my own notes\n").unwrap();
    let (_, err) = home.start(&["--next-release", "--replace"]);
    assert!(err.contains("skill-creator.user-1"), "{err}");
    let aside = home
        .system()
        .join("skill-creator.user-1/references/layout.md");
    assert_eq!(fs::read_to_string(aside).unwrap(), "my own notes\n");
    assert_eq!(
        release_of(&home.system().join("skill-creator"), "skill-creator"),
        Some(2)
    );
}

#[test]
fn a_copy_a_marker_file_installer_wrote_is_adopted() {
    let home = Home::new("adopt");
    // What the hand-written code left: the files and its marker.
    for (name, path) in FIRST {
        for (file, (bytes, exec)) in tree(&source(path)) {
            let to = home.system().join(name).join(&file);
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::write(&to, bytes).unwrap();
            set_executable(&to, exec);
        }
    }
    fs::write(home.system().join(".marker"), "15243287730512335127").unwrap();
    let (_, err) = home.start(&[]);
    assert!(!err.contains("not updated"), "{err}");
    let (out, _) = home.start(&["status"]);
    assert_eq!(out.matches("up to date").count(), 6, "{out}");
    // Ours from then on: the upgrade updates and removes.
    home.start(&["--next-release"]);
    let mut names: Vec<String> = fs::read_dir(home.system())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.contains(&".marker".to_string()),
        "the program's own file stays"
    );
    assert_eq!(
        release_of(&home.system().join("skill-creator"), "skill-creator"),
        Some(2)
    );
    assert!(!home.system().join("release-notes").exists());
}

#[cfg(unix)]
fn set_executable(path: &Path, exec: bool) {
    use std::os::unix::fs::PermissionsExt;
    let mode = if exec { 0o755 } else { 0o644 };
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(not(unix))]
fn set_executable(_: &Path, _: bool) {}

#[test]
fn two_starts_at_once_both_succeed_and_nothing_is_torn() {
    for round in 0..10 {
        let home = Home::new("together");
        if round % 2 == 1 {
            home.start(&[]);
        }
        let args: &[&str] = if round % 2 == 1 {
            &["--next-release"]
        } else {
            &[]
        };
        let children: Vec<Child> = (0..2)
            .map(|_| home.command(args).spawn().unwrap())
            .collect();
        for child in children {
            let output = child.wait_with_output().unwrap();
            let (out, err) = texts(&output);
            assert!(output.status.success(), "round {round}: {out}{err}");
        }
        let release = if round % 2 == 1 { NEXT } else { FIRST };
        assert_release(&home, release, &format!("round {round}"));
    }
}

/// Kills starts at random points with SIGKILL: a fresh start (no folder
/// yet) and an upgrade, 100 kills each. Whatever the point, every skill
/// there is wholly one release (or, killed between its two renames, not
/// there while the old copy waits in the staging folder), and the next
/// start succeeds and leaves exactly the release's skills.
#[test]
fn a_start_killed_at_any_point_is_repaired_by_the_next() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ u64::from(std::process::id());
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // How long a whole start takes here, to spread the kills over it.
    let probe = Home::new("probe");
    let began = Instant::now();
    probe.start(&[]);
    let whole = began.elapsed().max(Duration::from_millis(1));
    let mut landed = 0;
    for upgrade in [false, true] {
        for kill in 0..100 {
            let home = Home::new("kill");
            if upgrade {
                home.start(&[]);
            }
            let args: &[&str] = if upgrade { &["--next-release"] } else { &[] };
            let mut child = home.command(args).spawn().unwrap();
            let at = whole.mul_f64((random() % 1000) as f64 / 800.0);
            let spawned = Instant::now();
            while spawned.elapsed() < at {
                std::hint::spin_loop();
            }
            let _ = child.kill();
            let status = child.wait().unwrap();
            landed += usize::from(!status.success());
            let what = format!("upgrade {upgrade}, kill {kill} at {at:?}");
            if home.system().exists() {
                for (name, _) in FIRST {
                    let found = release_of(&home.system().join(name), name);
                    assert_ne!(found, Some(0), "{what}: {name} is torn");
                }
            }
            let (_, err) = home.start(args);
            assert!(!err.contains("not refreshed"), "{what}: {err}");
            assert_release(&home, if upgrade { NEXT } else { FIRST }, &what);
            let hidden = tree(&home.system().join(".skills-install"));
            assert!(
                hidden
                    .keys()
                    .all(|path| !path.to_string_lossy().contains(".journal")),
                "{what}: {hidden:?}"
            );
        }
    }
    assert!(landed >= 100, "only {landed} of 200 kills stopped a start");
}

#[test]
fn a_broken_skill_fails_the_build() {
    let copy = Home::new("broken");
    for (name, path) in FIRST {
        for (file, (bytes, _)) in tree(&source(path)) {
            let to = copy.0.join(name).join(file);
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::write(to, bytes).unwrap();
        }
    }
    let compiles = skills_build::Builder::new().source(&copy.0).compile();
    assert!(compiles.is_ok(), "the skills as shipped build");
    // A description dropped from one skill: the build (the same compiler
    // `include_skills!` runs) refuses, naming it.
    let skill_file = copy.0.join("plan-review/SKILL.md");
    let text = fs::read_to_string(&skill_file).unwrap();
    let broken: String = text
        .lines()
        .filter(|line| !line.starts_with("description:"))
        .map(|line| format!("{line}\n"))
        .collect();
    fs::write(&skill_file, broken).unwrap();
    let outcome = skills_build::Builder::new().source(&copy.0).run();
    assert!(outcome.failed(false));
    let said: Vec<String> = outcome.problems().iter().map(|p| p.to_string()).collect();
    assert!(
        said.iter().any(|line| line.contains("description")),
        "{said:?}"
    );
}
