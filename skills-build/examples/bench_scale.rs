//! The serving side of scripts/bench-scale.sh over one bundle file: open
//! (lazy and full), a call's p50 and p99 (cold on a lazy catalog: the
//! first call of each skill decodes it; warm: decoded), and a catalog
//! rendered in agentskills-core's XML shape with a character budget. One `key=value` line.
//!
//!     cargo run --release -p skills-build --example bench_scale -- BUNDLE MAX_CHARS

use std::hint::black_box;
use std::time::Instant;

use skills_core::Catalog;
use skills_core::render::{Format, RenderOptions};

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
    let [bundle, max_chars] = args.as_slice() else {
        eprintln!("usage: bench_scale BUNDLE MAX_CHARS");
        std::process::exit(2);
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
    for name in &order {
        let start = Instant::now();
        black_box(catalog.call(black_box(name), None).ok());
        times.push(start.elapsed().as_nanos() as u64);
    }
    // The first pass decoded every skill; time the warm calls.
    let mut warm = times[names.len()..].to_vec();
    warm.sort_unstable();
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
    println!(
        "skills={} bundle_bytes={} open_lazy_ns={open:.0} open_full_ns={full:.0} open_lazy_ns_per_skill={:.1} call_p50_ns={} call_p99_ns={} render_ns={render:.0} render_chars={}",
        names.len(),
        bytes.len(),
        open / names.len().max(1) as f64,
        percentile(&warm, 0.50),
        percentile(&warm, 0.99),
        text.chars().count()
    );
}
