//! What the workspace's tests share, so no test file carries its own copy
//! and no crate includes another's files: where the workspace and its
//! recordings are ([`paths`]), scratch directories and file trees
//! ([`tree`]), a seeded random generator ([`rng`]), skills holding fake
//! secrets written from parts ([`fake_secrets`]), and a scripted
//! OpenAI-compatible endpoint for tool loops without the network
//! ([`endpoint`]).
//!
//! Its own test, `doc_bundles`, writes the example bundles that the
//! documentation's examples include (`doc-bundles/` in skills-core,
//! skills-runtime and skills-mcp-server, inside each package so that the
//! examples run from a published crate too) and fails when a committed
//! copy is stale; `SKILLS_BLESS=1` rewrites them.
//!
//! Not published: a dev-dependency by path only, which `cargo publish`
//! leaves out of the published manifests.

pub mod endpoint;
pub mod fake_secrets;
pub mod paths;
pub mod rng;
pub mod tree;

pub use paths::{testdata, workspace};
