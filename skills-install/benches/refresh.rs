//! What a refresh costs a program's start when nothing changed, against
//! the same start without it.
//!
//! The program: this file's own executable, started again as a host
//! (`--host BUNDLE MODE`) that embeds a bundle of 50 skills shaped like a
//! public registry's (`scripts/gen/corpus.py`, compiled by `skills build`;
//! read from the file, as `include_skills!` would have put it in the
//! binary) and installed in a project (`.claude/skills`, `.agents/skills`)
//! and for the user (`~/.claude/skills`, `~/.codex/skills`): 200 installed
//! copies, two records. Each start is one process, in one of two modes:
//!
//! - `plain`: the start without a refresh (the bundle's bytes and nothing
//!   else);
//! - `installer`: the same, then `Installer::new` alone (which decodes the
//!   catalog, as a program that serves its skills does anyway);
//! - `refresh`: the same, then `Installer::new` and
//!   `Installer::refresh_to`, as `intercept()` with
//!   `refresh_on_start(true)` does: per scope, find the scope's folder,
//!   read the record, compare each recorded revision with the embedded
//!   one. Its outcome is checked: both scopes `Current`, nothing said.
//!
//! The modes alternate, `STARTS` times each. Reported: the refresh as the
//! host timed it in itself (median, 90th percentile, best), and of it the
//! installer's construction; and the whole start with and without the
//! refresh as the bench saw it from outside (median), with their
//! difference and ratio. Run with `scripts/bench/refresh.sh`, which
//! makes the bundle:
//!
//! ```text
//! cargo bench -p skills-install --bench refresh -- BUNDLE
//! ```

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use skills_core::Embedded;
use skills_install::{Environment, Installer, Refreshed, Scope, Target, VARIABLES};

/// Starts per mode.
const STARTS: usize = 300;

/// The tool's name and version, the same in every start.
const TOOL: &str = "bench-tool";
const VERSION: &str = "1.0.0";

fn leak(bytes: Vec<u8>) -> &'static [u8] {
    Box::leak(bytes.into_boxed_slice())
}

/// A host's start: reads the bundle, then (in `refresh` mode) refreshes;
/// prints the refresh's own time in nanoseconds and its outcomes.
fn host(bundle: &Path, mode: &str) {
    let embedded: &'static Embedded = Box::leak(Box::new(Embedded::new(leak(
        fs::read(bundle).expect("the bundle"),
    ))));
    if mode == "plain" {
        println!("0");
        return;
    }
    let start = Instant::now();
    let installer = Installer::new(embedded).tool_name(TOOL).version(VERSION);
    if mode == "installer" {
        println!("{}", start.elapsed().as_nanos());
        return;
    }
    let mut said = Vec::new();
    let outcomes = installer.refresh_to(&mut said);
    let took = start.elapsed();
    let current = outcomes
        .iter()
        .all(|(_, outcome)| matches!(outcome, Ok(Refreshed::Current)));
    println!(
        "{} {current} {}",
        took.as_nanos(),
        String::from_utf8_lossy(&said).trim()
    );
}

/// The home, project and state folders of the starts, with the skills
/// installed in both scopes.
fn world(bundle: &'static [u8]) -> PathBuf {
    let root = std::env::temp_dir().join(format!("bench-refresh-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("home")).unwrap();
    fs::create_dir_all(root.join("project/.git")).unwrap();
    fs::create_dir_all(root.join("project/src")).unwrap();
    let root = fs::canonicalize(root).unwrap();
    let embedded: &'static Embedded = Box::leak(Box::new(Embedded::new(bundle)));
    let env = Environment::new(root.join("project/src")).var("HOME", root.join("home"));
    let installer = Installer::new(embedded)
        .tool_name(TOOL)
        .version(VERSION)
        .environment(env);
    for scope in [Scope::Project, Scope::User] {
        installer.install(&Target::new(scope)).unwrap();
    }
    root
}

/// One start in `mode`: its whole time seen from here, and the refresh's
/// time as the host timed it.
fn start(root: &Path, bundle: &Path, mode: &str) -> (Duration, Duration) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    for variable in VARIABLES {
        command.env_remove(variable);
    }
    command
        .args(["--host"])
        .arg(bundle)
        .arg(mode)
        .current_dir(root.join("project/src"))
        .env("HOME", root.join("home"));
    let begun = Instant::now();
    let output = command.output().unwrap();
    let whole = begun.elapsed();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let mut fields = text.split_whitespace();
    let nanos: u64 = fields.next().unwrap().parse().unwrap();
    if mode == "refresh" {
        assert_eq!(
            (fields.next(), fields.next()),
            (Some("true"), None),
            "the refresh found nothing to do and said nothing: {text}"
        );
    }
    (whole, Duration::from_nanos(nanos))
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() - 1) * p / 100]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, bundle, mode] = args.as_slice()
        && flag == "--host"
    {
        host(Path::new(bundle), mode);
        return;
    }
    // `cargo bench` passes `--bench`; the bundle is the other argument.
    let Some(bundle) = args.iter().find(|arg| !arg.starts_with("--")) else {
        eprintln!(
            "usage: cargo bench -p skills-install --bench refresh -- BUNDLE (scripts/bench/refresh.sh makes one)"
        );
        std::process::exit(2);
    };
    let bundle = fs::canonicalize(bundle).expect("the bundle");
    let bytes = leak(fs::read(&bundle).unwrap());
    let root = world(bytes);
    let skills = Embedded::new(bytes).catalog().unwrap().len();
    let records: Vec<u64> = [
        "project/.agents/.skills-install/bench-tool.project.json",
        "home/.agents/.skills-install/bench-tool.user.json",
    ]
    .iter()
    .map(|path| fs::metadata(root.join(path)).unwrap().len())
    .collect();
    // Warm the page cache and the executable.
    for _ in 0..10 {
        start(&root, &bundle, "plain");
        start(&root, &bundle, "refresh");
    }
    let mut plain = Vec::new();
    let mut refresh = Vec::new();
    let mut inside = Vec::new();
    let mut constructing = Vec::new();
    for _ in 0..STARTS {
        plain.push(start(&root, &bundle, "plain").0);
        let (whole, own) = start(&root, &bundle, "refresh");
        refresh.push(whole);
        inside.push(own);
        constructing.push(start(&root, &bundle, "installer").1);
    }
    for list in [&mut plain, &mut refresh, &mut inside, &mut constructing] {
        list.sort();
    }
    let (plain_median, refresh_median) = (percentile(&plain, 50), percentile(&refresh, 50));
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "refresh on start, nothing changed: {skills} skills installed in 2 scopes x 2 folders \
         ({} installed copies; records of {} and {} bytes), bundle {} bytes, {STARTS} starts per mode",
        skills * 4,
        records[0],
        records[1],
        bytes.len()
    );
    let _ = writeln!(
        out,
        "  the refresh, timed in the host: median {:.0} us, p90 {:.0} us, best {:.0} us; \
         of it Installer::new (the catalog decoded): median {:.0} us",
        us(percentile(&inside, 50)),
        us(percentile(&inside, 90)),
        us(inside[0]),
        us(percentile(&constructing, 50))
    );
    let _ = writeln!(
        out,
        "  a whole start, seen from outside: without refresh median {:.0} us, with refresh median {:.0} us: +{:.0} us ({:.3}x)",
        us(plain_median),
        us(refresh_median),
        us(refresh_median.saturating_sub(plain_median)),
        refresh_median.as_secs_f64() / plain_median.as_secs_f64()
    );
    let _ = fs::remove_dir_all(&root);
}
