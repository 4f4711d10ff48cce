//! What `include_skills!` does in a rebuild, timed alone: the `Builder`
//! the macro sets up (shadowing denied) over a tree, with the earlier
//! bundle and its kept findings beside it (`Builder::reuse_from`), as a
//! rebuild after an edit finds them in `OUT_DIR`. Built without
//! `--release` it runs at opt-level 0, as a proc macro does in Cargo's
//! default dev profile.
//!
//!     cargo run -p skills-build --example bench_rebuild -- SKILLS SCRATCH_BUNDLE [ROUNDS]
//!
//! Round 0 has nothing to reuse (a cold expansion; it writes the bundle
//! and the findings), each later round reuses what the one before wrote;
//! one line a round with its time. Edit a file between two runs to time
//! the rebuild after an edit (the first round of a run with the files of
//! a run before it is that rebuild: give `KEEP=1` to keep them).

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (skills, bundle, rounds) = match args.as_slice() {
        [skills, bundle] => (skills, bundle, 4),
        [skills, bundle, rounds] => (skills, bundle, rounds.parse().expect("ROUNDS is a number")),
        _ => {
            eprintln!("usage: bench_rebuild SKILLS SCRATCH_BUNDLE [ROUNDS]");
            std::process::exit(2);
        }
    };
    let bundle = std::path::PathBuf::from(bundle);
    let keep = std::env::var_os("KEEP").is_some();
    if !keep {
        let _ = std::fs::remove_file(&bundle);
    }
    for round in 0..rounds {
        let start = Instant::now();
        let mut builder = skills_build::Builder::new().deny_shadowing().source(skills);
        if round > 0 || keep {
            builder = builder.reuse_from(&bundle);
        }
        let (result, inputs) = builder.compile_with_inputs();
        let elapsed = start.elapsed();
        let compiled = result.expect("the skills compile");
        std::fs::write(&bundle, &compiled.bytes).expect("write the bundle");
        println!(
            "round={round} ms={:.1} bundle_bytes={} inputs={} problems={}",
            elapsed.as_secs_f64() * 1000.0,
            compiled.bytes.len(),
            inputs.len(),
            compiled.warnings.len()
        );
    }
}
