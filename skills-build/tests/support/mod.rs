//! What the behaviour tests share: where the workspace and its recordings
//! are ([`paths`]), scratch directories and file trees ([`tree`]), a
//! seeded random generator ([`rng`]), and agentskills-core's capture of a
//! skill directory, the oracle for content revisions ([`snapshot`]). Each
//! test file declares `mod support;` and uses what it needs; skills-cmd's
//! tests include the first three files.
#![allow(dead_code, unused_imports)] // each test file uses what it needs

pub mod paths;
pub mod rng;
pub mod snapshot;
pub mod tree;

pub use paths::{testdata, workspace};
