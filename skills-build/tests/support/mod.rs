//! What the behaviour tests share: where the workspace and its recordings
//! are, scratch directories and file trees ([`tree`]), and a seeded random
//! generator ([`rng`]). Each test file declares `mod support;` and uses
//! what it needs.
#![allow(dead_code)] // each test file uses what it needs

pub mod rng;
pub mod tree;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// The workspace root (the folder holding `testdata/`).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

/// `testdata/<rel>` in the workspace.
pub fn testdata(rel: &str) -> PathBuf {
    workspace().join("testdata").join(rel)
}
