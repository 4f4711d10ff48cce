//! What the behaviour tests share: where the workspace and its recordings
//! are ([`paths`]), scratch directories and file trees ([`tree`]), and a
//! seeded random generator ([`rng`]). Each test file declares `mod
//! support;` and uses what it needs; skills-cli's tests include these same
//! files.
#![allow(dead_code, unused_imports)] // each test file uses what it needs

pub mod paths;
pub mod rng;
pub mod tree;

pub use paths::{testdata, workspace};
