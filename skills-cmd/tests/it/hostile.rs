//! Hostile input: files and trees built to exhaust memory or time, or to
//! forge output, and what every command does with them.
//!
//! Each case runs the built `skills` binary as a child process and reads its
//! peak memory (`ru_maxrss` from `wait4`), so a command that reads a 2 GB
//! sparse file whole is caught by what it costs, not by its message. Time is
//! bounded only as a hang guard, far above what any case needs (they take
//! milliseconds; the guard is tens of seconds), so nothing here flakes on a
//! slow machine.
//!
//! `SKILLS_HOSTILE_BIN` runs the same cases against another build of the
//! binary (for instance one of `main`, to see them fail there).

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Far above what any case needs: only a hang reaches it.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Far above what any case needs (a few MiB): reading a 2 GB file whole
/// does not fit.
const PEAK_BOUND_KIB: u64 = 256 * 1024;

/// What one run of the binary did.
#[derive(Debug)]
struct Outcome {
    /// The exit status; `None` when a signal ended it.
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// Peak resident memory, KiB.
    peak_kib: u64,
    /// The hang guard ended it.
    hung: bool,
}

impl Outcome {
    /// Asserts the run was refused (exit status 1 or 2) with `needle` in its
    /// error, within the memory bound.
    fn refused(&self, what: &str, needle: &str) {
        assert!(!self.hung, "{what}: still running after {HANG_GUARD:?}");
        assert!(
            matches!(self.code, Some(1 | 2)),
            "{what}: exit {:?}\nstdout: {}\nstderr: {}",
            self.code,
            cap(&self.stdout),
            cap(&self.stderr)
        );
        // An error goes to stderr, but for `check`'s and `audit`'s, whose
        // report (and so its errors) is their result, on stdout.
        let said = if what.starts_with("check") || what.starts_with("audit") {
            &self.stdout
        } else {
            &self.stderr
        };
        assert!(
            said.contains(needle),
            "{what}: {needle:?} not in its report: {}\nstdout: {}",
            cap(&self.stderr),
            cap(&self.stdout)
        );
        self.bounded(what);
    }

    fn bounded(&self, what: &str) {
        assert!(!self.hung, "{what}: still running after {HANG_GUARD:?}");
        assert!(
            self.peak_kib < PEAK_BOUND_KIB,
            "{what}: peak memory {} KiB, over {PEAK_BOUND_KIB} KiB",
            self.peak_kib
        );
    }
}

fn cap(text: &str) -> String {
    text.chars().take(2000).collect()
}

fn program() -> OsString {
    std::env::var_os("SKILLS_HOSTILE_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_skills").into())
}

/// Runs `skills ARGS` in `cwd`, with the hang guard.
fn skills<I, S>(cwd: &Path, args: I) -> Outcome
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut child = Command::new(program())
        .args(&args)
        .current_dir(cwd)
        .env_remove("SKILLS_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run skills");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let (code, peak_kib, hung) = wait_measured(&mut child);
    Outcome {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        peak_kib,
        hung,
    }
}

/// Waits for `child` (killing it once past the hang guard) and returns its
/// exit code, its peak resident memory in KiB, and whether it was killed.
#[allow(unsafe_code)]
fn wait_measured(child: &mut std::process::Child) -> (Option<i32>, u64, bool) {
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    let start = Instant::now();
    let mut hung = false;
    let mut killed = false;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: `rusage` is plain data, valid when zeroed; `wait4` writes
        // to the two pointers, which outlive the call.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            return (code, u64::try_from(usage.ru_maxrss).unwrap_or(0), hung);
        }
        assert!(got == 0, "wait4: {}", std::io::Error::last_os_error());
        if !hung && start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            hung = true;
        }
        // A child far over the bound is stopped before it takes the
        // machine's memory (its peak, from `wait4`, then fails the check).
        if !killed && resident_kib(pid).is_some_and(|kib| kib > 4 * PEAK_BOUND_KIB) {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The resident memory of process `pid` now, in KiB (Linux's
/// `/proc/PID/statm`, in 4 KiB pages).
fn resident_kib(pid: libc::pid_t) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("skills-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir.canonicalize().unwrap())
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// A file claiming `len` bytes of zeros, using no disk.
    fn sparse(&self, rel: &str, len: u64) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        File::create(&path).unwrap().set_len(len).unwrap();
        path
    }

    fn fifo(&self, rel: &str) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo");
        assert!(made.success(), "mkfifo {}", path.display());
        path
    }

    fn link(&self, rel: &str, target: &str) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, &path).unwrap();
        path
    }

    fn str(&self, rel: &str) -> String {
        self.path(rel).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things.\n---\nBody of {name}.\n")
}

const TWO_GB: u64 = 2 << 30;

/// The commands that read a skill directory, as argument lists ending in it.
///
/// `build` is given the folder above `dir` (a source of skills).
fn dir_commands(dir: &str, bundle: &str, key: &str) -> Vec<(&'static str, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    vec![
        ("validate", s(&["validate", dir])),
        ("check", s(&["check", dir])),
        ("read-properties", s(&["read-properties", dir])),
        ("to-prompt", s(&["to-prompt", dir])),
        ("catalog", s(&["catalog", dir])),
        ("outline", s(&["outline", dir])),
        ("revision", s(&["revision", dir])),
        ("build", s(&["build", parent(dir), "-o", bundle])),
        (
            "sign",
            s(&["sign", "--key", key, "--origin", "example.com", dir]),
        ),
    ]
}

fn parent(dir: &str) -> &str {
    dir.rsplit_once('/').map_or(".", |(parent, _)| parent)
}

fn keygen(scratch: &Scratch) -> String {
    let key = scratch.str("key.pem");
    let made = skills(&scratch.0, ["keygen", key.as_str()]);
    assert_eq!(made.code, Some(0), "keygen: {}", made.stderr);
    key
}

// Finding 1: size limits are checked before reading, in every route.

#[test]
fn a_sparse_skill_file_is_refused_unread_by_every_command() {
    let scratch = Scratch::new("sparse-skill-md");
    scratch.sparse("skills/demo/SKILL.md", TWO_GB);
    let key = keygen(&scratch);
    let dir = scratch.str("skills/demo");
    let bundle = scratch.str("out.bundle");
    for (what, args) in dir_commands(&dir, &bundle, &key) {
        skills(&scratch.0, args).refused(what, "over the");
    }
}

#[test]
fn a_sparse_file_beside_the_skill_file_is_refused_unread() {
    let scratch = Scratch::new("sparse-beside");
    scratch.write("skills/demo/SKILL.md", skill_md("demo"));
    scratch.sparse("skills/demo/data/big.bin", TWO_GB);
    let key = keygen(&scratch);
    let dir = scratch.str("skills/demo");
    let bundle = scratch.str("out.bundle");
    for (what, args) in dir_commands(&dir, &bundle, &key) {
        let run = skills(&scratch.0, args);
        // The reference-style commands read only the skill file.
        if [
            "validate",
            "check",
            "read-properties",
            "to-prompt",
            "catalog",
            "outline",
        ]
        .contains(&what)
        {
            run.bounded(what);
        } else {
            run.refused(what, "over the");
        }
    }
}

#[test]
fn many_files_each_under_the_limit_are_not_read_past_the_skill_limit() {
    // 30 sparse files of 15 MiB: each under the per-file limit, 450 MiB
    // together, far over the 16 MiB a skill may hold.
    let scratch = Scratch::new("many-large");
    scratch.write("skills/demo/SKILL.md", skill_md("demo"));
    for i in 0..30 {
        scratch.sparse(&format!("skills/demo/data/part{i:02}.bin"), 15 << 20);
    }
    let key = keygen(&scratch);
    let dir = scratch.str("skills/demo");
    let bundle = scratch.str("out.bundle");
    for (what, args) in dir_commands(&dir, &bundle, &key) {
        if ["build", "revision", "sign"].contains(&what) {
            skills(&scratch.0, args).refused(what, "16 MiB");
        }
    }
    skills(&scratch.0, ["verify", "--origin", "example.com", &dir]).refused("verify", "16 MiB");
}

#[test]
fn sparse_key_bundle_and_signature_files_are_refused_unread() {
    let scratch = Scratch::new("sparse-inputs");
    scratch.write("skills/demo/SKILL.md", skill_md("demo"));
    let dir = scratch.str("skills/demo");
    let big = scratch.sparse("big", 3 << 30).display().to_string();
    skills(
        &scratch.0,
        ["sign", "--key", &big, "--origin", "example.com", &dir],
    )
    .refused("sign --key", "over the");
    skills(&scratch.0, ["inspect", &big]).refused("inspect", "over the");
    skills(&scratch.0, ["verify", "--origin", "example.com", &big])
        .refused("verify bundle", "over the");
    skills(
        &scratch.0,
        [
            "verify",
            "--origin",
            "example.com",
            "--signatures",
            &big,
            &dir,
        ],
    )
    .refused("verify --signatures", "over the");
    skills(
        &scratch.0,
        [
            "verify",
            "--origin",
            "example.com",
            "--trust",
            &format!("k={big}"),
            &dir,
        ],
    )
    .bounded("verify --trust");
}

// Finding 2: special files are refused before they are opened.

#[test]
fn a_fifo_skill_file_is_refused_by_every_command() {
    let scratch = Scratch::new("fifo-skill-md");
    scratch.fifo("skills/demo/SKILL.md");
    let key = keygen(&scratch);
    let dir = scratch.str("skills/demo");
    let bundle = scratch.str("out.bundle");
    for (what, args) in dir_commands(&dir, &bundle, &key) {
        skills(&scratch.0, args).refused(what, "named pipe");
    }
}

#[test]
fn a_skill_file_linked_to_dev_zero_is_refused_by_every_command() {
    let scratch = Scratch::new("zero-skill-md");
    scratch.link("skills/demo/SKILL.md", "/dev/zero");
    let dir = scratch.str("skills/demo");
    // The reference's three commands follow links, as the reference does,
    // and name the device.
    for what in ["validate", "read-properties", "to-prompt"] {
        skills(&scratch.0, [what, dir.as_str()]).refused(what, "character device");
    }
    // The commands that read a source as a build does refuse a link out of
    // the skill before anything is opened.
    for what in ["check", "catalog", "outline"] {
        skills(&scratch.0, [what, dir.as_str()])
            .refused(what, "symbolic link to a file outside the source");
    }
    let bundle = scratch.str("out.bundle");
    skills(&scratch.0, ["build", parent(&dir), "-o", bundle.as_str()]).refused("build", "error");
    skills(&scratch.0, ["revision", dir.as_str()]).refused("revision", "error");
}

#[test]
fn fifo_and_device_key_and_bundle_files_are_refused() {
    let scratch = Scratch::new("special-inputs");
    scratch.write("skills/demo/SKILL.md", skill_md("demo"));
    let dir = scratch.str("skills/demo");
    let fifo = scratch.fifo("pipe").display().to_string();
    for (file, needle) in [
        (fifo.as_str(), "named pipe"),
        ("/dev/zero", "character device"),
    ] {
        skills(
            &scratch.0,
            ["sign", "--key", file, "--origin", "example.com", &dir],
        )
        .refused("sign --key", needle);
        skills(&scratch.0, ["inspect", file]).refused("inspect", needle);
        skills(&scratch.0, ["verify", "--origin", "example.com", file])
            .refused("verify bundle", needle);
        skills(
            &scratch.0,
            [
                "verify",
                "--origin",
                "example.com",
                "--signatures",
                file,
                &dir,
            ],
        )
        .refused("verify --signatures", needle);
    }
}

/// Where we differ from the reference on purpose: it hangs on a FIFO.
#[test]
fn validate_on_a_fifo_prints_the_recorded_divergence() {
    let scratch = Scratch::new("fifo-divergence");
    scratch.fifo("skills/demo/SKILL.md");
    let run = skills(&scratch.0, ["validate", "skills/demo"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "Validation failed for skills/demo:\n  - cannot read SKILL.md: it is a named pipe (FIFO), not a regular file; refusing to read it\n"
    );
}

// Finding 6: nothing forged reaches a terminal or a model.

/// Whether `text` holds a control character other than the line breaks
/// that end lines.
fn has_raw_control(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\n')
}

#[test]
fn inspect_escapes_what_a_bundle_says() {
    use skills_core::wire::bundle::{Bundle, Skill};
    let scratch = Scratch::new("forged-bundle");
    let skill = Skill {
        name: "evil\u{1b}]0;pwned\u{7}",
        location: "skill://evil/SKILL.md\u{1b}[2J",
        description: "fine\nskill forged\n  location: skill://forged/SKILL.md",
        license: Some("MIT\u{9b}31m"),
        metadata: vec![("k\u{1b}[1A", "v\r\u{202e}")],
        instructions: "body",
        body_len: 4,
        ..Skill::default()
    };
    let bundle = Bundle {
        skills: vec![skill],
        ..Bundle::default()
    };
    let bytes = bundle.encode().expect("encode");
    let file = scratch.write("forged.bundle", &bytes);
    let run = skills(&scratch.0, ["inspect".into(), file.into_os_string()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!has_raw_control(&run.stdout), "{:?}", run.stdout);
    assert!(
        run.stdout.contains("skill evil\\u{1b}]0;pwned\\u{7}\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("  description: fine\\nskill forged\\n  location: skill://forged/SKILL.md\n"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("\nskill forged"), "{}", run.stdout);
    assert!(run.stdout.contains("metadata k\\u{1b}[1A: v\\r\\u{202e}\n"));
}

#[test]
fn a_bundle_listing_a_file_name_with_a_control_character_is_refused() {
    use skills_core::wire::bundle::{Bundle, Content, File, Skill};
    let skill = Skill {
        name: "evil",
        description: "d",
        files: vec![File {
            path: "notes.md\n- scripts/forged.py",
            sha256: [0; 32],
            content: Content::Text(""),
        }],
        ..Skill::default()
    };
    let bundle = Bundle {
        skills: vec![skill],
        ..Bundle::default()
    };
    // The encoder refuses it; a bundle written by other means is refused
    // when it is opened.
    assert!(bundle.encode().is_err());
}

#[test]
fn file_names_with_control_characters_are_refused_at_build_time() {
    let scratch = Scratch::new("control-names");
    scratch.write("skills/demo/SKILL.md", skill_md("demo"));
    scratch.write("skills/demo/notes.md\n- scripts/forged.py", "x");
    scratch.write("skills/demo/\u{1b}]0;pwned\u{7}.md", "x");
    // Tag characters spell text no one sees (issue 39, item 10).
    scratch.write("skills/demo/notes\u{E0069}\u{E0067}\u{E006E}.md", "x");
    scratch.write("skills/demo/ok.md", "fine");
    let bundle = scratch.str("out.bundle");
    let skills_dir = scratch.str("skills");
    let run = skills(
        &scratch.0,
        ["build", skills_dir.as_str(), "-o", bundle.as_str()],
    );
    run.refused("build", "control character");
    assert!(!has_raw_control(&run.stderr), "{:?}", run.stderr);
    assert_eq!(
        run.stderr.matches("control character").count(),
        3,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("notes\\u{e0069}"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("\n- scripts/forged.py"),
        "{}",
        run.stderr
    );
    let run = skills(&scratch.0, ["check", skills_dir.as_str()]);
    assert!(!has_raw_control(&run.stderr) && !has_raw_control(&run.stdout));
}

// Finding 3: metadata costs linear time (or n log n) in its number of keys.

/// Runs `f`, failing when it takes longer than `bound` (a blow-up guard,
/// many times what the linear version needs).
fn within<T>(what: &str, bound: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    let took = start.elapsed();
    assert!(took < bound, "{what}: took {took:?}, over {bound:?}");
    value
}

fn many_keys_frontmatter(keys: usize) -> String {
    let mut text = String::from("name: meta\ndescription: Many metadata keys.\nmetadata:\n");
    for i in 0..keys {
        text.push_str(&format!("  key{i}: value{i}\n"));
    }
    text
}

#[test]
fn frontmatter_json_is_not_quadratic_in_metadata_keys() {
    // 400,000 keys (9.6 MB, under the size limit): a list scan for repeats
    // takes minutes; a set, well under a second.
    let text = many_keys_frontmatter(400_000);
    let json = within("simple_frontmatter_json", Duration::from_secs(30), || {
        skills_core::wire::derived::simple_frontmatter_json(&text)
    })
    .expect("simple frontmatter");
    assert!(json.ends_with("\"key399999\":\"value399999\"}}"));
    let repeated = format!("{text}  key7: again\n");
    assert_eq!(
        skills_core::wire::derived::simple_frontmatter_json(&repeated),
        None
    );
}

#[test]
fn a_skill_with_80000_metadata_keys_builds_and_serves_in_linear_time() {
    let scratch = Scratch::new("many-keys");
    scratch.write(
        "skills/meta/SKILL.md",
        format!("---\n{}---\nBody.\n", many_keys_frontmatter(80_000)),
    );
    let skills_dir = scratch.str("skills");
    let bundle = scratch.str("out.bundle");
    // The guard is the hang guard: the build needs a few seconds unoptimised.
    let run = skills(
        &scratch.0,
        ["build", skills_dir.as_str(), "-o", bundle.as_str()],
    );
    run.bounded("build");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    skills(
        &scratch.0,
        ["validate", scratch.str("skills/meta").as_str()],
    )
    .bounded("validate");
    let bytes = std::fs::read(&bundle).unwrap();
    let catalog = skills_core::Catalog::from_bytes(&bytes).expect("open");
    for _ in 0..3 {
        let manifest = within("Catalog::manifest", Duration::from_secs(30), || {
            catalog.manifest(None)
        })
        .expect("manifest");
        assert!(manifest.contains("key79999"));
    }
}

// Finding 5: `--exclude` patterns match in polynomial time.

#[test]
fn many_double_star_excludes_on_a_deep_tree_finish() {
    let scratch = Scratch::new("deep-excludes");
    scratch.write("skills/deep/SKILL.md", skill_md("deep"));
    let deep = vec!["d"; 30].join("/");
    scratch.write(&format!("skills/deep/{deep}/leaf.md"), "leaf");
    let skills_dir = scratch.str("skills");
    let bundle = scratch.str("out.bundle");
    let pattern = format!("{}nomatch", "**/".repeat(10));
    // Ten `**` segments tried by backtracking take minutes here.
    let run = skills(
        &scratch.0,
        [
            "build",
            skills_dir.as_str(),
            "-o",
            bundle.as_str(),
            "--exclude",
            pattern.as_str(),
        ],
    );
    run.bounded("build --exclude");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let skipped = format!("{}leaf.md", "**/".repeat(10));
    let run = skills(
        &scratch.0,
        [
            "build",
            skills_dir.as_str(),
            "-o",
            bundle.as_str(),
            "--exclude",
            skipped.as_str(),
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let bytes = std::fs::read(&bundle).unwrap();
    let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    assert!(catalog.bundle().skills[0].files.is_empty());
}

// Finding 4: names crafted to collide do not slow opening.

/// One FNV-1a step per byte (the name table's hash), from state `h`.
fn fnv1a_from(h: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// `2^doublings` distinct names whose FNV-1a hashes agree in their low
/// `bits` bits, so all of them want the same slot of a table of `2^bits`
/// slots.
///
/// The low bits of an FNV-1a state depend only on the low bits before
/// each step, so two 3-byte chunks that take the current state to the
/// same low bits can be swapped for each other; a name is one choice of
/// chunk at each of `doublings` steps.
fn colliding_names(doublings: u32, bits: u32) -> Vec<String> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mask = (1u32 << bits) - 1;
    let mut state = fnv1a_from(0x811c_9dc5, b"s");
    let mut pairs: Vec<([u8; 3], [u8; 3])> = Vec::new();
    for _ in 0..doublings {
        let mut seen = std::collections::HashMap::new();
        let pair = ALPHABET
            .iter()
            .flat_map(|&a| {
                ALPHABET
                    .iter()
                    .flat_map(move |&b| ALPHABET.iter().map(move |&c| [a, b, c]))
            })
            .find_map(|chunk| {
                seen.insert(fnv1a_from(state, &chunk) & mask, chunk)
                    .map(|earlier| (earlier, chunk))
            })
            .expect("a pair of chunks");
        state = fnv1a_from(state, &pair.0);
        pairs.push(pair);
    }
    (0..1usize << doublings)
        .map(|choice| {
            let mut name = String::from("s");
            for (step, (a, b)) in pairs.iter().enumerate() {
                let chunk = if choice >> step & 1 == 0 { a } else { b };
                name.push_str(std::str::from_utf8(chunk).unwrap());
            }
            name
        })
        .collect()
}

#[test]
fn a_bundle_of_colliding_names_opens_quickly() {
    use skills_core::wire::bundle::{Bundle, Skill};
    // 65,536 names in a table of 131,072 slots, all wanting one slot.
    let names = colliding_names(16, 17);
    let low = |name: &String| fnv1a_from(0x811c_9dc5, name.as_bytes()) & 0x1_ffff;
    assert!(names.iter().all(|name| low(name) == low(&names[0])));
    let bundle = Bundle {
        skills: names
            .iter()
            .map(|name| Skill {
                name,
                description: "d",
                ..Skill::default()
            })
            .collect(),
        ..Bundle::default()
    };
    let bytes = within("Bundle::encode", Duration::from_secs(20), || {
        bundle.encode()
    })
    .expect("encode");
    // Probing one run of 65,536 names takes seconds even optimised; the
    // bounded table takes milliseconds.
    let catalog = within("Catalog::open", Duration::from_secs(20), || {
        skills_core::Catalog::open(&bytes)
    })
    .expect("open");
    within("Catalog::from_bytes", Duration::from_secs(20), || {
        skills_core::Catalog::from_bytes(&bytes)
    })
    .expect("from_bytes");
    assert_eq!(catalog.len(), names.len());
    let scratch = Scratch::new("colliding-names");
    let file = scratch.write("crafted.bundle", &bytes);
    let run = skills(&scratch.0, ["inspect".into(), file.into_os_string()]);
    run.bounded("inspect");
    assert_eq!(run.code, Some(0), "{}", cap(&run.stderr));
}

// Finding 8: keygen writes both keys or neither; echoes are capped.

#[test]
fn keygen_leaves_no_secret_key_when_the_public_key_cannot_be_written() {
    let scratch = Scratch::new("keygen-atomic");
    let secret = scratch.str("secret.pem");
    let public = scratch.str("no/such/dir/public.pem");
    let run = skills(
        &scratch.0,
        ["keygen", secret.as_str(), "--public", public.as_str()],
    );
    run.refused("keygen", "public.pem");
    assert!(
        !Path::new(&secret).exists(),
        "the secret key was left behind"
    );
    // A public key path that exists already is refused before anything is
    // written.
    let taken = scratch.write("taken.pub.pem", "x").display().to_string();
    let run = skills(
        &scratch.0,
        ["keygen", secret.as_str(), "--public", taken.as_str()],
    );
    run.refused("keygen", "taken.pub.pem");
    assert!(!Path::new(&secret).exists());
    let run = skills(&scratch.0, ["keygen", secret.as_str()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(Path::new(&secret).exists() && scratch.path("secret.pub.pem").exists());
}

#[test]
fn a_1_mb_name_gives_a_short_error_from_every_command() {
    let scratch = Scratch::new("long-name");
    let name = "a".repeat(1_000_000);
    // And 200 unknown fields of 500 characters, which one message lists.
    let unknown: String = (0..200)
        .map(|i| format!("k{i}{}: 1\n", "z".repeat(500)))
        .collect();
    scratch.write(
        "skills/big/SKILL.md",
        format!("---\nname: {name}\ndescription: d\n{unknown}---\nb\n"),
    );
    let dir = scratch.str("skills/big");
    let skills_dir = scratch.str("skills");
    let bundle = scratch.str("out.bundle");
    for (what, args) in [
        ("validate", vec!["validate", dir.as_str()]),
        ("check", vec!["check", dir.as_str()]),
        ("catalog", vec!["catalog", dir.as_str()]),
        (
            "build",
            vec!["build", skills_dir.as_str(), "-o", bundle.as_str()],
        ),
    ] {
        let run = skills(&scratch.0, args);
        run.refused(what, "…");
        assert!(
            run.stderr.len() < 10_000,
            "{what}: {} bytes of error",
            run.stderr.len()
        );
    }
}

// Issue 20, finding 6: a named pipe given as an archive source (or as a
// bundle file) is refused before it is opened, by every command that
// reads one; opening it would block until a writer came.

#[test]
fn a_fifo_archive_source_is_refused_by_every_command() {
    let scratch = Scratch::new("fifo-archive");
    let archive = scratch.fifo("demo.skill").display().to_string();
    let key = keygen(&scratch);
    let bundle = scratch.str("out.bundle");
    let home = scratch.str("home");
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    for (what, args) in [
        ("check", s(&["check", &archive])),
        ("build", s(&["build", &archive, "-o", &bundle])),
        ("mcp", s(&["mcp", &archive])),
        (
            "sign",
            s(&["sign", "--key", &key, "--origin", "example.com", &archive]),
        ),
        ("revision", s(&["revision", &archive])),
        ("catalog", s(&["catalog", &archive])),
        ("outline", s(&["outline", &archive])),
        ("extract", s(&["extract", &archive, &home])),
        (
            "install --bundle",
            s(&["install", "--bundle", &archive, "--project-dir", &home]),
        ),
    ] {
        skills(&scratch.0, args).refused(what, "named pipe");
    }
}
