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
#![cfg_attr(feature = "document-features", doc = "# Features")]
#![cfg_attr(feature = "document-features", doc = "")]
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// Without `internals` the compiler's modules are private, and what only
// skills-cli uses of them goes unused here.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

/// Declares the compiler's modules: private to the crate, or public (and
/// hidden from the documentation) with the `internals` feature, which only
/// skills-cli and this crate's tests enable.
macro_rules! internal_modules {
    ($($(#[$attr:meta])* $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

internal_modules! {
    allowed_tools;
    archive;
    builder;
    compile;
    discover;
    extension_fields;
    fence;
    filter;
    frontmatter;
    hosts;
    #[cfg(feature = "sign")]
    keys;
    media;
    parallel;
    printable;
    read_limit;
    reuse;
    #[cfg(feature = "sign")]
    signing;
    sink;
    skill_file;
    skill_revision;
    #[cfg(feature = "sign")]
    snapshot;
    validate;
}

pub mod diagnostic;
pub mod problem;
pub mod source;

pub use builder::{Builder, DEFAULT_OUT_FILE, Outcome, compile_sources};
pub use compile::{CompileError, Compiled, Dropped, Locations};
pub use discover::{DEFAULT_MAX_FILE_SIZE, Layout, SourceReport};
pub use hosts::{Host, Hosts, UnknownHost};
#[cfg(feature = "sign")]
pub use keys::{KeyError, KeySource};
pub use problem::Problem;
#[cfg(feature = "sign")]
pub use signing::{Signing, SigningError};
