//! Serve Agent Skills compiled into the binary: the implementation behind
//! `skills-runtime`.
//!
//! Depend on `skills-runtime`, which re-exports by name what an
//! application uses of this crate, with the `include_skills!` macro. This crate exists on its own because
//! the macro's compiler (`skills-build`) encodes these very types: the
//! macro cannot depend on the crate that re-exports it.
//!
//! `skills-build` (through `include_skills!` or a `build.rs`) validates a
//! tree of skills at build time and compiles it into one bundle of bytes:
//! the `<available_skills>` prompt, the usage paragraph, the `skill` tool's
//! definition, and for every skill its instructions and files with their
//! SHA-256 digests. This crate reads that bundle and serves the tool from
//! it with no IO: every reply borrows the embedded bytes.
//!
//! It is `no_std` (with `alloc`), has no unsafe code, and no input, whether
//! bundle bytes or tool arguments, makes it panic.
//!
//! # Use
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! # let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
//! use skills_core::{Embedded, Reply};
//!
//! // static SKILLS: Embedded = include_skills!("skills");
//! // static SKILLS: Embedded = skills_core::include_bundle!("skills.bin");
//! let skills = Embedded::new(bytes);
//! let catalog = skills.catalog()?;
//!
//! // The system prompt lists the skills and says how to use the tool.
//! let system = catalog.system_prompt();
//! let tool = catalog.tool_definition(); // name, description, JSON schema
//! # let _ = (system, tool);
//!
//! // The model calls the tool with a name, and maybe a path.
//! match catalog.call("pdf", Some("reference.md")) {
//!     Ok(served) => {
//!         match served.reply {
//!             Reply::Text(text) => assert_eq!(text, "Use pdfplumber"),
//!             Reply::Image(image) => { let _url = image.data_url(); }
//!             _ => {} // `Reply` is non-exhaustive: a later release may add kinds
//!         }
//!         // Record which bytes the model read.
//!         assert_eq!(served.read.path, "reference.md");
//!     }
//!     // The error text is written for the model.
//!     Err(error) => { let _for_the_model = error.to_string(); }
//! }
//! # Ok::<(), skills_core::DecodeError>(())
//! ```
//!
//! A host that decides reads by policy resolves first and serves the same
//! resolution: see [`Catalog::resolve`].
//!
//! # Wings
//!
//! The crate is cut into folders that say what they hold. Each imports only
//! from the wings listed before it, and no module imports one that imports
//! it back (`scripts/check/module-cycles.py` checks this):
//!
//! - [`encoding`]: JSON as Python's `json.dumps` writes it, base64 and
//!   percent-encoding;
//! - [`sha256`]: SHA-256, which the wire format hashes what it writes with;
//! - [`text`]: text as Python 3.12 treats it, which agentskills-core's
//!   outputs depend on (`isspace`, `casefold`, line splitting, lengths,
//!   MIME types by name) and `difflib`'s close names;
//! - [`wire`]: the bundle format both sides share: the records the
//!   compiler fills ([`wire::bundle`]), their encoding, the container's
//!   tables and name index, the tool's fixed texts, and decoding's checks;
//! - [`trust`]: digests as values, content revisions and signature
//!   payloads (`revision`), and the trust policy (`verify`);
//! - [`serve`]: the [`Catalog`], a bundle kept in a file and read a skill
//!   at a time through the host's positioned reads (`serve::paged`), the
//!   `skill` tool, the model's arguments and the record of a read;
//! - [`features`]: agentskills-core's catalog features over a catalog:
//!   rendering, outlines, the fast path, manifests, resources, its tool
//!   vocabulary and the `<available_skills>` block.
//!
//! The compiler (skills-build, in a build script or a proc macro) uses the
//! first five; the catalog itself is the `catalog` feature.

// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(feature = "document-features", doc = "# Features")]
#![cfg_attr(feature = "document-features", doc = "")]
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

pub mod encoding;
#[cfg(feature = "catalog")]
pub mod features;
#[cfg(feature = "catalog")]
pub mod serve;
pub mod sha256;
pub mod text;
pub mod trust;
pub mod wire;

#[cfg(any(feature = "json", feature = "serde"))]
pub use serve::arguments::ToolArguments;
#[cfg(feature = "catalog")]
pub use serve::catalog::Catalog;
#[cfg(feature = "catalog")]
pub use serve::embedded::Embedded;
#[cfg(feature = "catalog")]
pub use serve::read::ReadRecord;
#[cfg(feature = "catalog")]
pub use serve::tool::{
    Image, Reply, Resolution, Served, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA, Target,
    ToolDefinition, ToolError, UNKNOWN_SKILL_NAMES, USAGE,
};
pub use trust::digest::{HexDigest, Sha256};
pub use wire::bundle::{FORMAT_VERSION, MAGIC};
pub use wire::decode::DecodeError;

/// An [`Embedded`] over a bundle file that a `build.rs` wrote into
/// `OUT_DIR` (with `skills_build::Builder`), included with `include_bytes!`.
///
/// ```ignore
/// // build.rs wrote $OUT_DIR/skills.bin
/// static SKILLS: skills_core::Embedded = skills_core::include_bundle!("skills.bin");
///
/// fn main() {
///     let catalog = SKILLS.catalog().expect("the skills bundle decodes");
///     println!("{}", catalog.prompt());
/// }
/// ```
#[cfg(feature = "catalog")]
#[macro_export]
macro_rules! include_bundle {
    ($file:expr $(,)?) => {
        $crate::Embedded::new(::core::include_bytes!(::core::concat!(
            ::core::env!("OUT_DIR"),
            "/",
            $file
        )))
    };
}
