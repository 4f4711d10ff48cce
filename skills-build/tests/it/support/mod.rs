//! What the behaviour tests share (skills-test-support): where the
//! workspace and its recordings are ([`paths`]), scratch directories and
//! file trees ([`tree`]), a seeded random generator ([`rng`]); and
//! agentskills-core's capture of a skill directory, the oracle for content
//! revisions ([`snapshot`]). Each test file declares `mod support;` and
//! uses what it needs.
#![allow(dead_code, unused_imports)] // each test file uses what it needs

pub mod snapshot;

pub use skills_test_support::{paths, rng, testdata, tree, workspace};
