//! What a start costs when nothing changed, for the six system skills of
//! this example (62 files, 5 PNG icons, 5 executables), side by side with the
//! hand-written start it replaces.
//!
//! Each start is one process (this file's executable, started again as
//! `--host MODE APP_HOME`), timed in itself: the CPU time of its thread
//! (`CLOCK_THREAD_CPUTIME_ID`) from before the
//! installer (or the fingerprint) to after the check. Two modes,
//! alternating, `STARTS` times each, over the same installed folder:
//!
//! - `folder`: `Installer::new(&SKILLS)...into_folder(dir).refresh()`, as
//!   the example's `main` does: decode the catalog, read the record in
//!   `dir/.skills-install`, compare the bundle's revision, look for a
//!   stopped run's journal. Its outcome is checked: `Current`.
//! - `marker`: the hand-written code (`include_dir!` of the same skills,
//!   a `DefaultHasher` over every path and byte, compared with the
//!   fingerprint in `dir/.marker`). Its outcome is checked: equal.
//!
//! Reported: the median, 90th percentile and best of each, and their
//! ratio. Unix only (the clock); run with `scripts/bench/system-start.sh`.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use include_dir::{Dir, include_dir};
use skills_runtime::Embedded;
use skills_runtime::install::{Installer, Refreshed};

/// Starts per mode.
const STARTS: usize = 300;

static SKILLS: Embedded = skills_runtime::include_skills!("skills", allow = ["file-unmentioned"]);

/// The same skills as the hand-written code embeds them.
static SYSTEM: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/skills");

/// This thread's CPU time so far, in nanoseconds.
fn cpu_ns() -> u64 {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

/// The hand-written code's fingerprint: every embedded path and byte
/// through a `DefaultHasher`.
fn fingerprint() -> u64 {
    fn visit(dir: &Dir<'_>, hasher: &mut DefaultHasher) {
        for entry in dir.entries() {
            entry.path().hash(hasher);
            match entry {
                include_dir::DirEntry::Dir(sub) => visit(sub, hasher),
                include_dir::DirEntry::File(file) => file.contents().hash(hasher),
            }
        }
    }
    let mut hasher = DefaultHasher::new();
    visit(&SYSTEM, &mut hasher);
    hasher.finish()
}

/// The hand-written install: every file written, then the marker.
fn marker_install(dest: &Path) {
    SYSTEM.extract(dest).expect("extract");
    fs::write(dest.join(".marker"), fingerprint().to_string()).expect("marker");
}

fn folder_of(home: &Path) -> skills_runtime::install::Folder<'static> {
    Installer::new(&SKILLS)
        .tool_name("system-skills")
        .version("1.0.0")
        .into_folder(home.join("skills/.system"))
}

/// One start in `mode`: prints its CPU time.
fn host(mode: &str, home: &Path) {
    let began = cpu_ns();
    match mode {
        "folder" => {
            let outcome = folder_of(home).refresh();
            let took = cpu_ns() - began;
            assert!(matches!(outcome, Ok(Refreshed::Current)), "{outcome:?}");
            println!("{took}");
        }
        _ => {
            let marker = home.join("marker/.marker");
            let current = fs::read_to_string(marker).ok() == Some(fingerprint().to_string());
            let took = cpu_ns() - began;
            assert!(current);
            println!("{took}");
        }
    }
}

fn start(me: &Path, mode: &str, home: &Path) -> u64 {
    let output = Command::new(me)
        .args(["--host", mode])
        .arg(home)
        .output()
        .expect("a start");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("nanoseconds")
}

fn summary(name: &str, mut ns: Vec<u64>) -> u64 {
    ns.sort_unstable();
    let at = |q: f64| ns[((ns.len() - 1) as f64 * q) as usize] as f64 / 1000.0;
    println!(
        "{name:<8} median {:>7.1} µs CPU   p90 {:>7.1} µs   best {:>7.1} µs   ({} starts)",
        at(0.5),
        at(0.9),
        at(0.0),
        ns.len()
    );
    ns[ns.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, mode, home] = args.as_slice()
        && flag == "--host"
    {
        host(mode, Path::new(home));
        return;
    }
    let me = PathBuf::from(&args[0]);
    let home = std::env::temp_dir().join(format!("bench-system-start-{}", std::process::id()));
    let _ = fs::remove_dir_all(&home);
    fs::create_dir_all(&home).expect("home");
    folder_of(&home).refresh().expect("the first start");
    marker_install(&home.join("marker"));
    let (mut folder, mut marker) = (Vec::new(), Vec::new());
    for _ in 0..STARTS {
        folder.push(start(&me, "folder", &home));
        marker.push(start(&me, "marker", &home));
    }
    let bundle = SKILLS.catalog().expect("the skills").bundle();
    let files: usize = bundle
        .skills
        .iter()
        .map(|skill| 1 + skill.files.len())
        .sum();
    println!(
        "no-change start, {} skills, {files} files ({} bytes embedded):",
        bundle.skills.len(),
        SKILLS.bytes().len()
    );
    let ours = summary("folder", folder);
    let theirs = summary("marker", marker);
    println!(
        "ratio    folder / marker = {:.2}",
        ours as f64 / theirs as f64
    );
    let _ = fs::remove_dir_all(&home);
}
