//! What the unit tests share: the workspace's recorded test data, and the
//! seeded generator and scratch trees the behaviour tests of every crate
//! use (skills-build's files, included here).

use std::path::PathBuf;

#[path = "../../skills-build/tests/support/rng.rs"]
pub mod rng;
#[path = "../../skills-build/tests/support/tree.rs"]
pub mod tree;

/// `testdata/<rel>` in the workspace.
pub fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata")).join(rel)
}
