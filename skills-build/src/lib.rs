//! Read, validate and compile Agent Skills at build time.
//!
//! The pipeline: [`source`] (where files come from) -> [`discover`] (which
//! directories are skills, which names are listed, which files belong to
//! each) -> [`frontmatter`] and [`validate`] (the reference validator's
//! verdicts, then the specification's extra rules) -> [`compile`] (the
//! prompt, instructions, media kinds and digests, encoded as the runtime's
//! bundle). [`Builder`] drives it from a `build.rs`:
//!
//! ```no_run
//! // build.rs, in `fn main`:
//! skills_build::Builder::new().source("skills").emit();
//! ```
//!
//! The reference's verdicts depend on Python's behaviour (strictyaml,
//! CPython 3.11's Unicode tables, `repr()`, `pathlib`); that emulation is
//! [`python`], kept apart from the rules this crate states itself.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod allowed_tools;
pub mod archive;
pub mod atomic;
pub mod builder;
pub mod canonical;
pub mod compile;
pub mod diagnostic;
pub mod discover;
pub mod extension_fields;
pub mod fence;
pub mod filter;
pub mod frontmatter;
#[cfg(feature = "sign")]
pub mod keys;
pub mod media;
#[cfg(feature = "archive")]
pub mod pack;
pub mod parallel;
pub mod printable;
pub mod problem;
pub mod properties;
pub mod python;
pub mod read_limit;
pub mod reuse;
pub mod sections;
#[cfg(feature = "sign")]
pub mod signing;
pub mod skill_dir;
pub mod skill_file;
pub mod skill_revision;
pub mod snapshot;
pub mod source;
pub mod validate;

pub use builder::{Builder, compile_sources};
