//! What the command's behaviour tests share: running the `skills` binary,
//! and the test support of the workspace (paths, scratch trees, a seeded
//! generator).
#![allow(dead_code, unused_imports)] // each test file uses what it needs

pub use skills_test_support::{paths, rng, tree};

use std::path::Path;
use std::process::{Command, Output};

pub use paths::{testdata, workspace};

/// Runs the `skills` binary with `args` (in `dir` when given) and checks
/// that it did not panic, whatever its exit status.
pub fn run_skills(dir: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skills"));
    command.args(args);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let out = command.output().expect("run skills");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{args:?} panicked"
    );
    out
}

/// Builds the skills of `source` into the bundle file `bundle` with
/// `skills build`, which must succeed.
pub fn build_bundle(source: &Path, bundle: &Path) {
    let out = run_skills(
        None,
        &[
            "build",
            source.to_str().unwrap(),
            "-o",
            bundle.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
