//! The two back ends of `skills_core::sha256`, side by side in one
//! run over the same bytes: the portable loop (what build scripts and
//! `include_skills!` hash with) and the sha2 crate (what the `verify`
//! feature, and so the `skills` command, hashes with). Prints one
//! `key=value` line: MB/s of each and their ratio, with the profile named.
//!
//!     cargo run --release -p skills-core --example sha256_backends   # optimised
//!     cargo run -p skills-core --example sha256_backends             # opt-level 0, as a build script
//!
//! Each back end hashes 8 MiB (1 MiB unoptimised) in 64 KiB pieces, five
//! rounds, alternating; the best round of each is kept.

use std::hint::black_box;
use std::time::Instant;

fn main() {
    let optimised = !cfg!(debug_assertions);
    let total: usize = if optimised { 8 << 20 } else { 1 << 20 };
    let data: Vec<u8> = (0..total as u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let portable = || {
        let mut hasher = skills_core::sha256::portable::Hasher::new();
        for piece in data.chunks(64 << 10) {
            hasher.update(black_box(piece));
        }
        black_box(hasher.finalize())
    };
    let sha2 = || {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        for piece in data.chunks(64 << 10) {
            hasher.update(black_box(piece));
        }
        black_box(<[u8; 32]>::from(hasher.finalize()))
    };
    assert_eq!(portable(), sha2(), "the back ends agree");
    let (mut best_portable, mut best_sha2) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        let start = Instant::now();
        portable();
        best_portable = best_portable.min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        sha2();
        best_sha2 = best_sha2.min(start.elapsed().as_secs_f64());
    }
    let mb = total as f64 / 1e6;
    println!(
        "profile={} bytes={total} portable_mb_s={:.0} sha2_mb_s={:.0} sha2_over_portable={:.2}",
        if optimised {
            "release"
        } else {
            "dev(opt-level=0)"
        },
        mb / best_portable,
        mb / best_sha2,
        best_portable / best_sha2
    );
}
