//! What the behaviour tests share (skills-test-support): where the
//! workspace and its recordings are ([`paths`]), scratch directories and
//! file trees ([`tree`]), and a seeded random generator ([`rng`]). Each
//! test file declares `mod support;` and uses what it needs.
#![allow(unused_imports)] // each test file uses what it needs

pub use skills_test_support::{paths, rng, testdata, tree, workspace};
