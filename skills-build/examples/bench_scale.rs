//! The serving side of scripts/bench/scale.sh over one bundle file: open
//! (lazy and full), a call's p50 and p99 (cold on a lazy catalog: the
//! first call of each skill decodes it; warm: decoded; each call timed
//! alone, the clock's own cost, `timer_p50_ns`, included; the name handed
//! over from a buffer of its own, as a host has it from the request), the same calls
//! served the usual way (as `benches/serve.rs` does it: the skill files
//! held in memory from start-up, and per call the frontmatter parsed, the
//! body split off, the instructions rendered and hashed), and a catalog
//! rendered in agentskills-core's XML shape with a character budget, with
//! and without a tag filter. One `key=value` line.
//!
//!     cargo run --release -p skills-build --example bench_scale -- BUNDLE MAX_CHARS [CORPUS]
//!
//! With CORPUS (the folder of skill folders the bundle was built from,
//! each named as its skill is listed), the usual way is timed too.

use std::hint::black_box;
use std::time::Instant;

use skills_core::Catalog;
use skills_core::features::render::{Format, RenderOptions};

fn per_op(iterations: u32, mut f: impl FnMut()) -> f64 {
    f();
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(iterations)
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (bundle, max_chars, corpus) = match args.as_slice() {
        [bundle, max_chars] => (bundle, max_chars, None),
        [bundle, max_chars, corpus] => (bundle, max_chars, Some(corpus)),
        _ => {
            eprintln!("usage: bench_scale BUNDLE MAX_CHARS [CORPUS]");
            std::process::exit(2);
        }
    };
    let bytes = std::fs::read(bundle).expect("the bundle file");
    let max_chars: usize = max_chars.parse().expect("a number");
    let iterations = (2_000_000 / bytes.len().max(1)).clamp(3, 200) as u32;
    let open = per_op(iterations, || {
        black_box(Catalog::open(black_box(&bytes)).ok());
    });
    let full = per_op(iterations.min(20), || {
        black_box(Catalog::from_bytes(black_box(&bytes)).ok());
    });
    let catalog = Catalog::open(&bytes).expect("the bundle opens");
    let names: Vec<&str> = catalog.names().collect();
    // A fixed walk over the names (a stride prime to the count).
    let order: Vec<&str> = (0..names.len().max(1) * 4)
        .map(|i| names[(i * 7919) % names.len()])
        .collect();
    let mut times = Vec::with_capacity(order.len());
    let mut request = String::with_capacity(256);
    for name in &order {
        // The name as a host has it: just parsed out of the request, in a
        // buffer of its own (not the bundle's copy the call then reads).
        request.clear();
        request.push_str(name);
        let start = Instant::now();
        black_box(catalog.call(black_box(&request), None).ok());
        times.push(start.elapsed().as_nanos() as u64);
    }
    // The first pass decoded every skill; time the warm calls.
    let mut warm = times[names.len()..].to_vec();
    warm.sort_unstable();
    // What the clock itself adds to each timed call (an empty region's
    // p50): part of every figure above, left in.
    let mut empty: Vec<u64> = (0..warm.len())
        .map(|_| {
            let start = Instant::now();
            black_box(());
            start.elapsed().as_nanos() as u64
        })
        .collect();
    empty.sort_unstable();
    // agentskills-core's default shape, so the two sides render one text.
    let options = RenderOptions {
        format: Format::Xml,
        max_chars: Some(max_chars),
        ..RenderOptions::default()
    };
    let text = catalog.render(&options).expect("renders");
    let render = per_op(20, || {
        black_box(catalog.render(black_box(&options)).ok());
    });
    // With a tag filter: every skill's tags compared (the generated skills
    // carry none, so none is kept: the cost is the scan).
    let tagged = RenderOptions {
        tags: Some(&["pdf", "git"]),
        ..options
    };
    let render_tags = per_op(20, || {
        black_box(catalog.render(black_box(&tagged)).ok());
    });
    let usual = corpus.map(|corpus| usual_p50(corpus, &order[names.len()..]));
    println!(
        "skills={} bundle_bytes={} open_lazy_ns={open:.0} open_full_ns={full:.0} open_lazy_ns_per_skill={:.1} call_p50_ns={} call_p99_ns={} timer_p50_ns={} usual_call_p50_ns={} render_ns={render:.0} render_tags_ns={render_tags:.0} render_chars={}",
        names.len(),
        bytes.len(),
        open / names.len().max(1) as f64,
        percentile(&warm, 0.50),
        percentile(&warm, 0.99),
        percentile(&empty, 0.50),
        usual.map_or("-".to_string(), |ns| ns.to_string()),
        text.chars().count()
    );
}

/// A skill held the usual way: its skill file's bytes and its files' sizes.
struct Held {
    skill_file: Vec<u8>,
    sizes: Vec<(String, u64)>,
}

/// The p50 of the same calls served the usual way.
fn usual_p50(corpus: &str, calls: &[&str]) -> u64 {
    use sha2::{Digest, Sha256};
    use skills_build::unstable::{fence, frontmatter};
    let mut held = std::collections::HashMap::new();
    for name in calls {
        if held.contains_key(*name) {
            continue;
        }
        let dir = std::path::Path::new(corpus).join(name);
        let Ok(skill_file) = std::fs::read(dir.join("SKILL.md")) else {
            continue;
        };
        let mut sizes = Vec::new();
        let mut stack = vec![dir.clone()];
        while let Some(at) = stack.pop() {
            for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if let Ok(rel) = path.strip_prefix(&dir)
                    && rel != std::path::Path::new("SKILL.md")
                {
                    let size = entry.metadata().map_or(0, |m| m.len());
                    sizes.push((rel.to_string_lossy().replace('\\', "/"), size));
                }
            }
        }
        sizes.sort();
        held.insert(name.to_string(), Held { skill_file, sizes });
    }
    let mut times = Vec::with_capacity(calls.len());
    let mut sum = 0usize;
    for name in calls {
        let start = Instant::now();
        if let Some(skill) = held.get(*name)
            && let Ok(doc) = frontmatter::parse(&skill.skill_file)
            && let Ok(parts) = fence::parts(&doc)
        {
            let files = skill.sizes.iter().map(|(p, size)| (p.as_str(), *size));
            let text = skills_core::wire::instructions::render(parts.body, files);
            sum += text.len() + usize::from(Sha256::digest(text.as_bytes())[0]);
        }
        times.push(start.elapsed().as_nanos() as u64);
    }
    black_box(sum);
    times.sort_unstable();
    percentile(&times, 0.50)
}
