//! What the behaviour tests share: where the workspace and its recordings
//! are, scratch directories and file trees ([`tree`]), and a seeded random
//! generator ([`rng`]). Each test file declares `mod support;` and uses
//! what it needs.
#![allow(dead_code)] // each test file uses what it needs

pub mod rng;
pub mod tree;

use std::path::{Path, PathBuf};

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
