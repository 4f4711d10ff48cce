//! Verifying a signed bundle at start-up, against opening the catalog alone.
//!
//! 100 generated skills (a body of about 2 KB, a 4 KB reference, a 1 KB
//! script and a 16 KB binary asset each), compiled and signed. Times, as
//! the median of many runs: decoding the catalog; decoding and verifying
//! every signature against the recorded revisions; and decoding, hashing
//! every embedded byte again and verifying. Printed as times and as ratios
//! to the catalog alone. Run with:
//!
//! ```text
//! cargo bench -p skills-build --bench verify
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use skills_build::source::MemorySource;
use skills_build::unstable::keys::SecretKey;
use skills_build::unstable::signing::{Signer, sign_bundle};
use skills_core::Catalog;
use skills_core::trust::verify::TrustPolicy;

const SKILLS: usize = 100;
const ORIGIN: &str = "https://example.com/skills";

fn bundle() -> Vec<u8> {
    let mut source = MemorySource::new("bench");
    for n in 0..SKILLS {
        let name = format!("skill-{n:03}");
        let body = format!(
            "# Skill {n}\n\n{}",
            "Follow these steps carefully. ".repeat(70)
        );
        source = source
            .with_file(
                format!("{name}/SKILL.md"),
                format!("---\nname: {name}\ndescription: Benchmark skill number {n}.\n---\n{body}"),
            )
            .with_file(
                format!("{name}/reference.md"),
                "Reference line.\n".repeat(256),
            )
            .with_file(
                format!("{name}/scripts/run.py"),
                "print('hello')\n".repeat(73),
            )
            .with_file(
                format!("{name}/assets/blob.bin"),
                (0..16 * 1024)
                    .map(|i| (i * 7 + n) as u8)
                    .collect::<Vec<u8>>(),
            );
    }
    let compiled = skills_build::compile_sources(&[&source]).expect("the skills compile");
    let signer = Signer::new(SecretKey::from_seed([3; 32]), ORIGIN)
        .expect("origin")
        .key_id("bench");
    sign_bundle(&compiled.bytes, &signer).expect("signed")
}

fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    let bytes = bundle();
    let public = SecretKey::from_seed([3; 32]).public_key();
    let policy = TrustPolicy::new(ORIGIN)
        .expect("origin")
        .trust("bench", public.0)
        .expect("key");
    let signatures_only = policy.clone().rehash(false);
    // Warm up, and make sure both policies accept the bundle.
    let catalog = Catalog::from_bytes(&bytes).expect("decodes");
    policy
        .verify(catalog.bundle())
        .expect("verifies with rehashing");
    signatures_only
        .verify(catalog.bundle())
        .expect("verifies without rehashing");

    let runs = 101;
    let open = median(
        || {
            black_box(Catalog::from_bytes(black_box(&bytes)).expect("decodes"));
        },
        runs,
    );
    let signed = median(
        || {
            let catalog = Catalog::from_bytes(black_box(&bytes)).expect("decodes");
            black_box(signatures_only.verify(catalog.bundle()).expect("verifies"));
        },
        runs,
    );
    let rehashed = median(
        || {
            let catalog = Catalog::from_bytes(black_box(&bytes)).expect("decodes");
            black_box(policy.verify(catalog.bundle()).expect("verifies"));
        },
        runs,
    );
    let ratio = |d: Duration| d.as_secs_f64() / open.as_secs_f64();
    println!(
        "verify: {SKILLS} signed skills, bundle {} bytes, median of {runs} runs",
        bytes.len()
    );
    println!("  open the catalog                     {open:>12.3?}  1.0x");
    println!(
        "  open + verify signatures            {signed:>12.3?}  {:.1}x",
        ratio(signed)
    );
    println!(
        "  open + re-hash + verify signatures  {rehashed:>12.3?}  {:.1}x",
        ratio(rehashed)
    );
}
