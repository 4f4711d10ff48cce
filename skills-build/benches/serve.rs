//! Serving the `skill` tool from a compiled bundle, against the usual way
//! of doing it at start-up: walk an embedded `include_dir::Dir`, parse and
//! validate every skill with this workspace's reader, then answer calls by
//! reading the tree (re-reading the skill file for the instructions, as
//! the Go module does).
//!
//! For 10, 100 and 1,000 generated skills: open time per skill, time per
//! call over 10,000 calls, their ratios, and the bundle's size against the
//! raw bytes of the skill files. Run with:
//!
//! ```text
//! cargo bench -p skills-build --bench serve
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use include_dir::{Dir, DirEntry, File};
use skills_build::discover::{Options, Root, discover};
use skills_build::source::IncludeDirSource;
use skills_build::{fence, frontmatter};
use skills_core::{Catalog, Reply, instructions};

const CALLS: usize = 10_000;
const PATHS: [Option<&str>; 4] = [
    None,
    Some("reference.md"),
    Some("scripts/run.py"),
    Some("assets/logo.png"),
];
const LOGO: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\0\0\0\0:~\x9bU\0\0\0\nIDATx\x9cc`\0\0\0\x02\0\x01H\xaf\xa4q\0\0\0\0IEND\xaeB`\x82";

/// One generated skill's files: (path inside the skill, bytes).
fn skill_files(i: usize) -> Vec<(String, Vec<u8>)> {
    let name = format!("skill-{i:04}");
    let mut body = format!("\n# Skill {i}\n\n");
    for step in 0..24 {
        body.push_str(&format!(
            "{step}. Do step {step} of task {i}: read `reference.md`, run `scripts/run.py`, check the output.\n"
        ));
    }
    let skill_md = format!(
        "---\nname: {name}\ndescription: Generated skill number {i}, for benchmarks; use it when the task is task {i}.\nlicense: MIT\nmetadata:\n  owner: bench\n---\n{body}"
    );
    let reference: String = (0..30)
        .map(|line| {
            format!("Reference line {line} of skill {i}: facts the instructions point to.\n")
        })
        .collect();
    let script = format!(
        "#!/usr/bin/env python3\n\"\"\"Task {i}.\"\"\"\nimport sys\n\nprint(sys.argv[1:])\n"
    );
    vec![
        ("SKILL.md".into(), skill_md.into_bytes()),
        ("assets/logo.png".into(), LOGO.to_vec()),
        ("reference.md".into(), reference.into_bytes()),
        ("scripts/run.py".into(), script.into_bytes()),
    ]
}

fn leak_str(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// An `include_dir::Dir` of `n` skills, as `include_dir!` would embed it.
fn tree(n: usize) -> (&'static Dir<'static>, usize) {
    let mut raw = 0;
    let mut roots = Vec::new();
    for i in 0..n {
        let dir = format!("skill-{i:04}");
        let mut top: Vec<DirEntry<'static>> = Vec::new();
        let mut subdirs: HashMap<String, Vec<DirEntry<'static>>> = HashMap::new();
        for (path, bytes) in skill_files(i) {
            raw += bytes.len();
            let full = leak_str(format!("{dir}/{path}"));
            let file = DirEntry::File(File::new(full, Box::leak(bytes.into_boxed_slice())));
            match path.split_once('/') {
                Some((sub, _)) => subdirs.entry(sub.to_string()).or_default().push(file),
                None => top.push(file),
            }
        }
        let mut names: Vec<_> = subdirs.keys().cloned().collect();
        names.sort();
        for sub in names {
            let entries = subdirs.remove(&sub).unwrap_or_default();
            let path = leak_str(format!("{dir}/{sub}"));
            top.push(DirEntry::Dir(Dir::new(
                path,
                Box::leak(entries.into_boxed_slice()),
            )));
        }
        let path = leak_str(dir);
        roots.push(DirEntry::Dir(Dir::new(
            path,
            Box::leak(top.into_boxed_slice()),
        )));
    }
    let root = Box::leak(Box::new(Dir::new("", Box::leak(roots.into_boxed_slice()))));
    (root, raw)
}

/// The usual way, after start-up: skills by name, answered from the tree.
struct Parsed {
    skills: HashMap<String, ParsedSkill>,
}

struct ParsedSkill {
    dir: &'static Dir<'static>,
    files: Vec<(String, u64)>,
}

fn start_up(dir: &'static Dir<'static>) -> Parsed {
    let source = IncludeDirSource::new("skills", dir);
    let found = discover(&[Root::new(&source)], &Options::default());
    assert!(!found.has_errors());
    let skills = found
        .listed()
        .map(|(name, skill)| {
            let files = skill
                .files
                .iter()
                .map(|file| (file.path.clone(), file.bytes.len() as u64))
                .collect();
            // Found once here, so a call searches only its skill's entries.
            let dir = dir
                .get_dir(&skill.dir)
                .expect("a discovered skill's directory");
            (name.to_string(), ParsedSkill { dir, files })
        })
        .collect();
    Parsed { skills }
}

/// One call the usual way; returns the reply's length.
fn serve_from_tree(parsed: &Parsed, name: &str, path: Option<&str>) -> usize {
    let Some(skill) = parsed.skills.get(name) else {
        return 0;
    };
    match path {
        None => {
            let path = skill.dir.path().join("SKILL.md");
            let Some(file) = skill.dir.get_file(path) else {
                return 0;
            };
            let Ok(doc) = frontmatter::parse(file.contents()) else {
                return 0;
            };
            let Ok(parts) = fence::parts(&doc) else {
                return 0;
            };
            let files = skill.files.iter().map(|(p, size)| (p.as_str(), *size));
            instructions::render(parts.body, files).len()
        }
        Some(path) => match skill.dir.get_file(skill.dir.path().join(path)) {
            Some(file) => match std::str::from_utf8(file.contents()) {
                Ok(text) => text.len(),
                Err(_) => file.contents().len(),
            },
            None => 0,
        },
    }
}

fn serve_from_bundle(catalog: &Catalog<'_>, name: &str, path: Option<&str>) -> usize {
    match catalog.call(name, path) {
        Ok(served) => match served.reply {
            Reply::Text(text) => text.len(),
            Reply::Image(image) => image.bytes.len(),
        },
        Err(_) => 0,
    }
}

/// The fastest of `runs` timings of `f`.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn ns(d: Duration) -> f64 {
    d.as_secs_f64() * 1e9
}

fn main() {
    // `cargo test --benches` runs this with `--test`; keep that quick.
    let quick = std::env::args().any(|arg| arg == "--test");
    let sizes: &[usize] = if quick { &[10] } else { &[10, 100, 1000] };
    println!(
        "{:>6} | {:>14} {:>14} {:>8} | {:>12} {:>12} {:>8} | {:>10} {:>10} {:>9}",
        "skills",
        "open/skill bndl",
        "open/skill parse",
        "ratio",
        "call bundle",
        "call tree",
        "ratio",
        "raw bytes",
        "bundle",
        "overhead"
    );
    for &n in sizes {
        let (root, raw) = tree(n);
        let source = IncludeDirSource::new("skills", root);
        let compile_start = Instant::now();
        let compiled = skills_build::compile_sources(&[&source]).expect("generated skills compile");
        let compile_time = compile_start.elapsed();
        let bytes = compiled.bytes;
        let names: Vec<String> = (0..n).map(|i| format!("skill-{i:04}")).collect();
        let calls: Vec<(&str, Option<&str>)> = (0..CALLS)
            .map(|i| (names[i % n].as_str(), PATHS[(i / n + i) % PATHS.len()]))
            .collect();

        let runs = if n >= 1000 { 5 } else { 20 };
        let open_bundle = best(runs * 5, || Catalog::from_bytes(&bytes).map(|c| c.len()));
        let open_tree = best(runs, || start_up(root).skills.len());

        let catalog = Catalog::from_bytes(&bytes).expect("the bundle decodes");
        let parsed = start_up(root);
        let sum_bundle: usize = calls
            .iter()
            .map(|(name, path)| serve_from_bundle(&catalog, name, *path))
            .sum();
        let sum_tree: usize = calls
            .iter()
            .map(|(name, path)| serve_from_tree(&parsed, name, *path))
            .sum();
        assert_eq!(sum_bundle, sum_tree, "both ways serve the same bytes");
        let call_bundle = best(runs, || {
            calls
                .iter()
                .map(|(name, path)| serve_from_bundle(&catalog, name, *path))
                .sum::<usize>()
        });
        let call_tree = best(3, || {
            calls
                .iter()
                .map(|(name, path)| serve_from_tree(&parsed, name, *path))
                .sum::<usize>()
        });

        let prompt_len = catalog.prompt().len();
        let overhead = (bytes.len() as f64 - prompt_len as f64 - raw as f64) / raw as f64 * 100.0;
        let per = |d: Duration, count: usize| ns(d) / count as f64;
        println!(
            "{:>6} | {:>14.0}ns {:>12.0}ns {:>7.0}x | {:>10.0}ns {:>10.0}ns {:>7.0}x | {:>10} {:>10} {:>8.2}%",
            n,
            per(open_bundle, n),
            per(open_tree, n),
            ns(open_tree) / ns(open_bundle),
            per(call_bundle, CALLS),
            per(call_tree, CALLS),
            ns(call_tree) / ns(call_bundle),
            raw,
            bytes.len(),
            overhead,
        );
        let skills = catalog.skills();
        let digests: usize = skills.iter().map(|s| 32 * (s.files.len() + 2)).sum();
        let lists: usize = skills
            .iter()
            .map(|s| s.instructions.len() - s.body_len)
            .sum();
        let pct = |part: usize| part as f64 / raw as f64 * 100.0;
        println!(
            "       | overhead: digests {:.2}%, instructions' file lists {:.2}%, the rest {:.2}%",
            pct(digests),
            pct(lists),
            overhead - pct(digests) - pct(lists)
        );
        println!(
            "       | compile (build time, once): {:.1} ms; prompt {} bytes; bundle - prompt = {} bytes",
            compile_time.as_secs_f64() * 1e3,
            prompt_len,
            bytes.len() - prompt_len
        );
    }
}
