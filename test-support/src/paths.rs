//! Where the workspace and its recordings are.

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
