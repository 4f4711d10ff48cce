//! Compile Agent Skills at build time.
//!
//! An Agent Skill is a folder with a `SKILL.md` (YAML frontmatter and
//! Markdown) and files beside it. This crate reads skill folders, judges
//! them with the reference validator's verdicts and wording (skills-ref
//! 0.1.1, then the specification's rules it misses), and compiles them into
//! the bundle `skills-runtime` serves with no IO. A `build.rs` drives it
//! with [`Builder`]; `include_skills!` (skills-runtime's macro) runs the
//! very same pipeline.
//!
//! ```no_run
//! // build.rs, in `fn main`:
//! skills_build::Builder::new().source("skills").emit();
//! ```
//!
//! ```ignore
//! // src/main.rs
//! static SKILLS: skills_runtime::Embedded = skills_runtime::include_bundle!("skills.bin");
//! ```
//!
//! Every problem of every skill is reported at once, as a [`Problem`]
//! (what, where, which rule: [`problem::Code`]), rendered the way rustc
//! renders its diagnostics ([`diagnostic`]). Sources are folders, archives
//! (feature `archive`), an `include_dir::Dir` (feature `include-dir`) or
//! files in memory ([`source`]).
//!
//! A build script that wants more than [`Builder::emit`] runs the pipeline
//! itself: [`Builder::run`] returns the whole [`Outcome`] (the bundle or
//! every problem, the files read, how each source was read),
//! [`Builder::run_with_progress`] says how far a long build has come, and
//! [`Builder::run_to_file`] streams the bundle into a [`BundleFile`]
//! instead of holding it in memory, which [`Outcome::map_bundle`] takes
//! out of the outcome to put in place.
//!
//! ```no_run
//! // build.rs: a large catalog, streamed to OUT_DIR with progress.
//! let out = std::path::Path::new(&std::env::var_os("OUT_DIR").unwrap()).join("skills.bin");
//! let outcome = skills_build::Builder::new()
//!     .source("skills")
//!     .run_to_file(&out, &mut |read| eprintln!("{read} skills read"));
//! for problem in outcome.problems() {
//!     println!("cargo::warning={}", problem.to_string().replace('\n', " "));
//! }
//! match outcome.result {
//!     Ok(compiled) => compiled.bytes.persist().unwrap(),
//!     Err(error) => panic!("{error}"),
//! }
//! println!("cargo::rerun-if-changed=skills");
//! ```
// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(feature = "document-features", doc = "# Features")]
#![cfg_attr(feature = "document-features", doc = "")]
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod allowed_tools;
mod archive;
mod builder;
mod compile;
mod discover;
mod extension_fields;
mod fence;
mod filter;
mod findings_cache;
mod frontmatter;
#[cfg(feature = "sign")]
mod keys;
mod media;
mod parallel;
mod printable;
mod process_tag;
mod read_limit;
mod real_path;
mod reuse;
mod rules;
#[cfg(feature = "sign")]
mod signing;
mod sink;
mod skill_file;
mod skill_name;
mod skill_revision;
#[cfg(target_os = "wasi")]
mod wasi_modes;

pub mod diagnostic;
pub mod problem;
pub mod source;
#[cfg(not(skills_door_private))]
#[doc(hidden)]
pub mod unstable;
// The door private (`--cfg skills_door_private`, scripts/check/door.sh):
// rustc then names every item outside it that only the CLI uses.
#[cfg(skills_door_private)]
mod unstable;

pub use builder::{Builder, DEFAULT_OUT_FILE, Outcome, compile_sources};
pub use compile::{CompileError, Compiled, Dropped, Locations};
pub use discover::{Layout, SourceReport};
#[cfg(feature = "sign")]
pub use keys::{KeyError, KeySource};
pub use problem::Problem;
pub use rules::DEFAULT_MAX_FILE_SIZE;
pub use rules::hosts::{Host, UnknownHost};
#[cfg(feature = "sign")]
pub use signing::{Signing, SigningError};
pub use sink::BundleFile;
