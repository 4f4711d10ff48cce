//! Times rendering a filtered, truncated catalog at run time against
//! reading the precomputed default prompt, over the skills in a directory
//! (scripts/bench/catalog.sh makes 1,000 and compares with agentskills-core).
//!
//!     cargo run --release -p skills-build --example bench_catalog -- DIR FORMAT TAG MAX_CHARS

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, format, tag, max_chars] = args.as_slice() else {
        eprintln!("usage: bench_catalog DIR FORMAT TAG MAX_CHARS");
        std::process::exit(2);
    };
    let compiled = skills_build::Builder::new()
        .source(dir)
        .extensions(true)
        .compile()
        .unwrap_or_else(|error| panic!("{error}"));
    let catalog = Catalog::from_bytes(&compiled.bytes).expect("the bundle decodes");
    let tags = [tag.as_str()];
    let options = RenderOptions {
        format: format.parse::<Format>().expect("a format"),
        tags: Some(&tags),
        max_chars: Some(max_chars.parse().expect("a number")),
        ..RenderOptions::default()
    };
    let text = catalog.render(&options).expect("renders");
    let render = per_op(2_000, || {
        black_box(catalog.render(black_box(&options)).ok());
    });
    // The precomputed prompt: a borrow of the embedded text (copied here,
    // which is the most a host would do with it).
    let prompt = per_op(2_000, || {
        black_box(black_box(catalog.prompt()).to_string());
    });
    println!(
        "skills={} chars={} render_ns={render:.0} prompt_ns={prompt:.0}",
        catalog.len(),
        text.chars().count()
    );
}
