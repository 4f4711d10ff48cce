//! Serving the `skill` tool from a compiled bundle, against the usual way
//! of doing it at start-up: walk an embedded `include_dir::Dir`, parse and
//! validate every skill with this workspace's reader, then answer calls
//! from the tree.
//!
//! # The two ways, doing the same job
//!
//! A call on either side validates the path (the same rules: relative,
//! `/`-separated, no `..`, no empty segments), finds the skill and the
//! file, decides whether it is text, an image or another binary, and
//! produces the read record's SHA-256 of the served bytes. The bundle has
//! that digest precomputed; the start-up way computes it per call, as the
//! Go module does when it records a read. A read of the skill itself
//! re-reads the skill file, splits off the body and renders the
//! instructions (body, then the file list) before hashing them, as the Go
//! module does. The frontmatter's digest is computed once at start-up on
//! that side. Both sides return the reply's length and the digest's first
//! byte, and the sums are compared, so neither can skip work.
//!
//! # Opening
//!
//! Per skill: `open lazy` is [`Catalog::open`] (the catalog-wide texts and
//! the table of names; a skill is decoded and checked on its first call),
//! `open full` is [`Catalog::from_bytes`] (every skill decoded and checked
//! at once, so also what a lazily opened catalog pays in all over its
//! first calls), `parse` the start-up way. `ratio` is parse over lazy,
//! `ratio f` parse over full. Calls are timed on the lazily opened catalog
//! once warm (the best of several runs over the same 10,000 calls).
//!
//! # The generated skills
//!
//! Two shapes, both reported:
//!
//! - **typical** (~36 KB a skill), shaped after real public skills such as
//!   `anthropics/skills`' `pdf` (a `SKILL.md` of 7-13 KB, `reference.md`
//!   ~14 KB and `forms.md` ~9 KB, a dozen Python scripts of 1-5 KB): a
//!   `SKILL.md` of ~6 KB (frontmatter with license and metadata, a body of
//!   a dozen sections), a `reference.md` of ~20 KB, two scripts of ~3 KB,
//!   and a 4 KB PNG.
//! - **small** (~4.3 KB a skill), the shape this benchmark used first: a
//!   `SKILL.md` of ~2.3 KB, a 2 KB reference, an 80-byte script and a
//!   69-byte PNG. Per-skill fixed costs (digests, names, the outline)
//!   weigh five to ten times more here.
//!
//! For 10, 100 and 1,000 skills: open time per skill, time per call over
//! 10,000 calls, their ratios, and the bundle's size against the raw bytes
//! of the skill files (the prompt, which the raw files do not contain,
//! reported apart), with a breakdown of what the overhead is made of. Run
//! with:
//!
//! ```text
//! cargo bench -p skills-build --bench serve
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use include_dir::{Dir, DirEntry, File};
use sha2::{Digest, Sha256};
use skills_build::source::IncludeDirSource;
use skills_build::unstable::discover::{Options, Root, discover};
use skills_build::unstable::media::{self, Kind};
use skills_build::unstable::{fence, frontmatter};
use skills_core::wire::{instructions, path};
use skills_core::{Catalog, Reply};

const CALLS: usize = 10_000;
const PATHS: [Option<&str>; 4] = [
    None,
    Some("reference.md"),
    Some("scripts/run.py"),
    Some("assets/logo.png"),
];
const LOGO: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\0\0\0\0:~\x9bU\0\0\0\nIDATx\x9cc`\0\0\0\x02\0\x01H\xaf\xa4q\0\0\0\0IEND\xaeB`\x82";

/// Which skills to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Typical,
    Small,
}

/// One generated skill's files: (path inside the skill, bytes).
fn skill_files(shape: Shape, i: usize) -> Vec<(String, Vec<u8>)> {
    match shape {
        Shape::Small => small_skill(i),
        Shape::Typical => typical_skill(i),
    }
}

fn small_skill(i: usize) -> Vec<(String, Vec<u8>)> {
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

/// Deterministic filler bytes (xorshift), so images do not compress to
/// nothing and differ between skills.
fn noise(seed: usize, len: usize) -> Vec<u8> {
    let mut state = (seed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

fn typical_skill(i: usize) -> Vec<(String, Vec<u8>)> {
    let name = format!("skill-{i:04}");
    let mut body = format!(
        "\n# Skill {i}\n\nThis skill handles task {i}. Read this file first; open `reference.md` only for the details it points to.\n"
    );
    for section in 0..12 {
        body.push_str(&format!("\n## Step {section}\n\n"));
        for line in 0..5 {
            body.push_str(&format!(
                "- Line {line} of step {section}: check the input of task {i}, then run `python scripts/run.py --step {section}`.\n"
            ));
        }
    }
    let skill_md = format!(
        "---\nname: {name}\ndescription: Generated skill number {i}, shaped like a public skill; use it when the task is task {i} and the user asks for it by its documents.\nlicense: Apache-2.0\nmetadata:\n  author: bench\n  version: \"1.0\"\n---\n{body}"
    );
    let mut reference = format!("# Reference for skill {i}\n");
    let mut chapter = 0;
    while reference.len() < 20_000 {
        reference.push_str(&format!("\n## Topic {chapter}\n\n"));
        for line in 0..8 {
            reference.push_str(&format!(
                "Topic {chapter}, fact {line} of skill {i}: the API takes a path and options; pass `strict=True` when the document is signed.\n"
            ));
        }
        reference.push_str("\n```python\nfrom tool import open_document\ndoc = open_document(\"input.pdf\")\nprint(doc.summary())\n```\n");
        chapter += 1;
    }
    let script = |what: &str| {
        let mut text = format!(
            "#!/usr/bin/env python3\n\"\"\"{what} for task {i}.\"\"\"\nimport argparse\nimport sys\n\n"
        );
        let mut f = 0;
        while text.len() < 3_000 {
            text.push_str(&format!(
                "\ndef step_{f}(path, strict=False):\n    \"\"\"Step {f} of {what}.\"\"\"\n    with open(path, encoding=\"utf-8\") as handle:\n        data = handle.read()\n    if strict and not data:\n        raise SystemExit(\"empty input at step {f}\")\n    return data\n"
            ));
            f += 1;
        }
        text.push_str("\nif __name__ == \"__main__\":\n    print(step_0(sys.argv[1]))\n");
        text.into_bytes()
    };
    let mut logo = LOGO[..LOGO.len() - 12].to_vec(); // PNG signature, IHDR, IDAT
    logo.extend_from_slice(&noise(i, 4_096 - LOGO.len()));
    logo.extend_from_slice(&LOGO[LOGO.len() - 12..]); // IEND
    vec![
        ("SKILL.md".into(), skill_md.into_bytes()),
        ("assets/logo.png".into(), logo),
        ("reference.md".into(), reference.into_bytes()),
        ("scripts/check.py".into(), script("Checks")),
        ("scripts/run.py".into(), script("Runs")),
    ]
}

fn leak_str(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// An `include_dir::Dir` of `n` skills, as `include_dir!` would embed it,
/// and the raw bytes of its files.
fn tree(shape: Shape, n: usize) -> (&'static Dir<'static>, usize) {
    let mut raw = 0;
    let mut roots = Vec::new();
    for i in 0..n {
        let dir = format!("skill-{i:04}");
        let mut top: Vec<DirEntry<'static>> = Vec::new();
        let mut subdirs: HashMap<String, Vec<DirEntry<'static>>> = HashMap::new();
        for (path, bytes) in skill_files(shape, i) {
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
    /// The skill's files by path (found once here, so a call does not
    /// search the tree), with their sizes for the instructions' list.
    files: HashMap<String, &'static [u8]>,
    sizes: Vec<(String, u64)>,
    skill_file: &'static [u8],
    frontmatter_sha256: [u8; 32],
}

fn start_up(dir: &'static Dir<'static>) -> Parsed {
    let source = IncludeDirSource::new("skills", dir);
    let found = discover(&[Root::new(&source)], &Options::default());
    assert!(!found.problems.iter().any(|problem| problem.is_error()));
    let skills = found
        .skills
        .iter()
        .filter_map(|skill| skill.listing.name().map(|name| (name, skill)))
        .map(|(name, skill)| {
            let dir = dir
                .get_dir(&skill.dir)
                .expect("a discovered skill's directory");
            let embedded = |path: &str| {
                dir.get_file(dir.path().join(path))
                    .expect("a discovered file")
                    .contents()
            };
            let files = skill
                .files
                .iter()
                .map(|file| (file.path.clone(), embedded(&file.path)))
                .collect();
            let sizes = skill
                .files
                .iter()
                .map(|file| (file.path.clone(), file.bytes.len() as u64))
                .collect();
            let doc = skill.document.as_ref().expect("a parsed skill file");
            let parts = fence::parts(doc).expect("a fenced skill file");
            let frontmatter_sha256 = Sha256::digest(parts.frontmatter.as_bytes()).into();
            let skill = ParsedSkill {
                files,
                sizes,
                skill_file: embedded("SKILL.md"),
                frontmatter_sha256,
            };
            (name.to_string(), skill)
        })
        .collect();
    Parsed { skills }
}

/// One call the usual way: validate the path, find the file, decide how
/// to show it, hash what is served. Returns the reply's length plus the
/// digest's first byte (0 for an error).
fn serve_from_tree(parsed: &Parsed, name: &str, path: Option<&str>) -> usize {
    let path = path.unwrap_or("");
    if !path.is_empty() && !path::is_valid_file_path(path) {
        return 0;
    }
    let Some(skill) = parsed.skills.get(name) else {
        return 0;
    };
    let digest = |bytes: &[u8]| usize::from(Sha256::digest(bytes)[0]);
    if path.is_empty() || path::names_skill_file(path) {
        let Ok(doc) = frontmatter::parse(skill.skill_file) else {
            return 0;
        };
        let Ok(parts) = fence::parts(&doc) else {
            return 0;
        };
        let files = skill.sizes.iter().map(|(p, size)| (p.as_str(), *size));
        let text = instructions::render(parts.body, files);
        black_box(skill.frontmatter_sha256);
        return text.len() + digest(text.as_bytes());
    }
    let Some(bytes) = skill.files.get(path) else {
        return 0;
    };
    match media::detect(path, bytes) {
        Kind::Text | Kind::Image(_) => bytes.len() + digest(bytes),
        Kind::Binary(_) => 0,
    }
}

fn serve_from_bundle(catalog: &Catalog<'_>, name: &str, path: Option<&str>) -> usize {
    match catalog.call(name, path) {
        Ok(served) => {
            let len = match served.reply {
                Reply::Text(text) => text.len(),
                Reply::Image(image) => image.bytes.len(),
                _ => 0,
            };
            black_box(served.read.frontmatter_sha256);
            len + usize::from(served.read.sha256.0[0])
        }
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

/// The postcard size of a length-prefixed string or byte string.
fn wire(len: usize) -> usize {
    let mut prefix = 1;
    let mut rest = len >> 7;
    while rest > 0 {
        prefix += 1;
        rest >>= 7;
    }
    prefix + len
}

fn report(shape: Shape, n: usize) {
    let (root, raw) = tree(shape, n);
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
    let open_bundle = best(runs * 5, || Catalog::open(&bytes).map(|c| c.len()));
    let open_checked = best(runs * 5, || Catalog::from_bytes(&bytes).map(|c| c.len()));
    let open_tree = best(runs, || start_up(root).skills.len());

    // Served from a lazily opened catalog: its first call to a skill
    // decodes that skill (the cost `from_bytes` pays for all at once).
    let catalog = Catalog::open(&bytes).expect("the bundle decodes");
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

    // Stored only when it is not the default rendering (never, here).
    let prompt_len = catalog.bundle().prompt.map_or(0, str::len);
    let overhead = (bytes.len() as f64 - prompt_len as f64 - raw as f64) / raw as f64 * 100.0;
    let per = |d: Duration, count: usize| ns(d) / count as f64;
    println!(
        "{:>6} | {:>8.0}ns {:>8.0}ns {:>10.0}ns {:>6.0}x {:>6.0}x | {:>10.0}ns {:>10.0}ns {:>7.0}x | {:>10} {:>10} {:>8.2}%",
        n,
        per(open_bundle, n),
        per(open_checked, n),
        per(open_tree, n),
        ns(open_tree) / ns(open_bundle),
        ns(open_tree) / ns(open_checked),
        per(call_bundle, CALLS),
        per(call_tree, CALLS),
        ns(call_tree) / ns(call_bundle),
        raw,
        bytes.len(),
        overhead,
    );
    // What the overhead is made of, per part of the wire format.
    let skills = catalog.skills();
    let sum = |f: &dyn Fn(&skills_core::wire::bundle::Skill<'_>) -> usize| -> usize {
        skills.iter().map(f).sum()
    };
    let digests = sum(&|s| 32 * (s.files.len() + 4));
    let lists = sum(&|s| s.instructions.len() - s.body_len);
    // The layout: a name's end, a skill's end, two hash slots at least.
    let slots = n.max(1).saturating_mul(2).next_power_of_two();
    let index = 8 * n + 4 * slots;
    let texts = sum(&|s| {
        wire(s.name.len())
            + wire(s.location.len())
            + wire(s.description.len())
            + s.metadata
                .iter()
                .map(|(k, v)| wire(k.len()) + wire(v.len()))
                .sum::<usize>()
            + s.license.map_or(0, |l| wire(l.len()))
            + s.files
                .iter()
                .map(|f| wire(f.path.len()) + f.media_type().map_or(0, |m| wire(m.len())))
                .sum::<usize>()
    });
    let pct = |part: usize| part as f64 / raw as f64 * 100.0;
    println!(
        "       | overhead: digests {:.2}% (4 a skill + 1 a file), instructions' file lists {:.2}%, offsets and name index {:.2}%, names/locations/descriptions/metadata/paths {:.2}% (texts found in the frontmatter are stored as where they are there), the rest {:.2}%",
        pct(digests),
        pct(lists),
        pct(index),
        pct(texts),
        overhead - pct(digests) - pct(lists) - pct(index) - pct(texts)
    );
    println!(
        "       | compile (build time, once): {:.1} ms; prompt {} bytes stored ({} rendered when read); bundle - prompt = {} bytes",
        compile_time.as_secs_f64() * 1e3,
        prompt_len,
        catalog.prompt().len(),
        bytes.len() - prompt_len
    );
}

/// `SERVE_PROFILE=open` or `SERVE_PROFILE=call` (add `:N` for N typical
/// skills, default 10): loop on one side only, for `perf record`.
fn profile(what: &str) {
    // `call` or `open`, optionally with a skill count: `call:1000`.
    let (what, count) = what.split_once(':').unwrap_or((what, "10"));
    let count: usize = count.parse().unwrap_or(10);
    let (root, _) = tree(Shape::Typical, count);
    let source = IncludeDirSource::new("skills", root);
    let bytes = skills_build::compile_sources(&[&source])
        .expect("generated skills compile")
        .bytes;
    let catalog = Catalog::from_bytes(&bytes).expect("the bundle decodes");
    let names: Vec<String> = (0..count).map(|i| format!("skill-{i:04}")).collect();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        for i in 0..10_000 {
            if what == "open" {
                black_box(Catalog::from_bytes(black_box(&bytes)).map(|c| c.len()).ok());
            } else {
                let name = &names[(i * 7919) % count];
                black_box(serve_from_bundle(&catalog, name, PATHS[i % 4]));
            }
        }
    }
}

fn main() {
    if let Ok(what) = std::env::var("SERVE_PROFILE") {
        return profile(&what);
    }
    // `cargo test --benches` runs this with `--test`; keep that quick.
    let quick = std::env::args().any(|arg| arg == "--test");
    let sizes: &[usize] = if quick { &[10] } else { &[10, 100, 1000] };
    for shape in [Shape::Typical, Shape::Small] {
        println!(
            "{} skills ({})",
            if shape == Shape::Typical {
                "typical"
            } else {
                "small"
            },
            if shape == Shape::Typical {
                "~36 KB each: SKILL.md 6 KB, reference 20 KB, 2 scripts 3 KB, 4 KB PNG"
            } else {
                "~4.3 KB each: SKILL.md 2.3 KB, reference 2 KB, 80 B script, 69 B PNG"
            }
        );
        println!(
            "{:>6} | {:>10} {:>10} {:>12} {:>7} {:>7} | {:>12} {:>12} {:>8} | {:>10} {:>10} {:>9}",
            "skills",
            "open lazy",
            "open full",
            "parse",
            "ratio",
            "ratio f",
            "call bundle",
            "call tree",
            "ratio",
            "raw bytes",
            "bundle",
            "overhead"
        );
        for &n in sizes {
            report(shape, n);
        }
    }
}
