//! The compiler's parts beyond its public face, for the `skills` command.
//!
//! **No stability promise**: anything here may change or go in any
//! release, patch releases included. `skills-cmd` reaches the compiler
//! through this one module (as minijinja-cli reaches its engine's
//! machinery) and pins this crate with an exact `=` version requirement,
//! so the two always come from the same release; this crate's own tests
//! and benchmarks use it too. A build script or a program uses the
//! documented face ([`Builder`], [`source`](crate::source),
//! [`problem`](crate::problem), [`diagnostic`](crate::diagnostic)) instead.
//!
//! The modules here are named for the compiler's modules whose items they
//! show; what each item does is documented where it is defined.

use skills_core::wire::bundle::Bundle;
use skills_core::wire::writer::BundleWriter;

use crate::builder::{Builder, Outcome};
use crate::discover::DiscoveredSkill;

pub use crate::builder::Reading;

/// Opens the sources of `builder` and discovers their skills, without
/// compiling: what the commands that act on skills one by one (`skills
/// revision`, `sign`, `verify`) read, the way every door reads a source.
///
/// ```
/// let builder = skills_build::Builder::new().source("no/such/dir");
/// let reading = skills_build::unstable::read(&builder);
/// assert_eq!(reading.discovery.problems[0].code.as_str(), "source-not-found");
/// ```
pub fn read(builder: &Builder) -> Reading {
    builder.read_judged(builder.policy(), &mut |_, _| {})
}

/// [`Builder::run`], also returning every skill as read (listed or not,
/// in search order), for the commands that show skills one by one
/// (`skills catalog`, `outline`) from the very reading that was judged.
///
/// ```
/// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
/// let builder = skills_build::Builder::new().source(skills);
/// let (outcome, skills) = skills_build::unstable::run_keeping_skills(&builder);
/// assert_eq!(skills.len(), outcome.skills);
/// assert!(skills.iter().all(|skill| skill.document.is_some()));
/// assert_eq!(outcome.result.unwrap().bytes, builder.run().result.unwrap().bytes);
/// ```
pub fn run_keeping_skills(builder: &Builder) -> (Outcome, Vec<DiscoveredSkill>) {
    let sink = BundleWriter::new(&Bundle::default());
    builder.run_into(sink, true, &mut |_| {})
}

/// `.skill` and `.zip` archives: telling one apart, and reading one.
pub mod archive {
    pub use crate::archive::is_archive;
    #[cfg(feature = "archive")]
    pub use crate::archive::{
        ArchiveError, ArchiveSource, Expect, Limits, Reason, crc32, unpack_root,
    };
}

/// The audit's and lints' rules over one skill's files (`skills audit`
/// of a bundle file runs them over each skill it holds), the body-token
/// estimate they use, and the placeholder `skills new` writes (which the
/// lints refuse).
pub mod content {
    pub use crate::rules::content::{
        DESCRIPTION_PLACEHOLDER, File, Skill, check, estimate_tokens, secrets_in,
    };
}

/// Finding skills across sources, and the skills found.
pub mod discover {
    pub use crate::discover::{
        DiscoveredSkill, Discovery, Listing, Options, ResourceFile, Root, no_skill_problem,
        open_problem, skill_file_in, unreadable,
    };

    /// Discovers the skills of `roots`, in search order (see the
    /// compiler's `discover` module for the rules).
    ///
    /// ```
    /// use skills_build::source::MemorySource;
    /// use skills_build::unstable::discover::{Options, Root, discover};
    /// let source = MemorySource::new("s").with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Forms.\n---\n");
    /// let found = discover(&[Root::new(&source)], &Options::default());
    /// assert_eq!(found.skills[0].name(), Some("pdf"));
    /// ```
    pub fn discover(roots: &[Root<'_>], options: &Options) -> Discovery {
        crate::discover::discover_each(
            roots,
            options,
            &crate::findings_cache::FindingsCache::default(),
            &mut |_, _| {},
        )
    }
}

/// agentskills-core's extension fields as its catalog shows them.
pub mod extension_fields {
    pub use crate::extension_fields::{CatalogFields, catalog_fields};
}

/// The fence lines of a skill file.
pub mod fence {
    pub use crate::fence::{Parts, parts};
}

/// Exclude rules.
pub mod filter {
    pub use crate::filter::{Glob, GlobError};
}

/// Reading a skill file the way the reference reads it.
pub mod frontmatter {
    pub use crate::frontmatter::{
        Frontmatter, Metadata, ParseError, SkillDocument, parse, parse_text, typed_entries_json,
        value_json,
    };
}

/// Ed25519 keys, and the PEM label check their readers share.
#[cfg(feature = "sign")]
pub mod keys {
    pub use crate::keys::{MAX_KEY_FILE_BYTES, PublicKey, SecretKey, has_label};
}

/// How a file is shown to the model.
pub mod media {
    pub use crate::media::{Kind, detect};
}

/// Text made safe to print.
pub mod printable {
    pub use crate::printable::printable;
}

/// A number unique to this process, on WASI too.
pub mod process_tag {
    pub use crate::process_tag::process_tag;
}

/// A path's real form, on WASI too.
pub mod real_path {
    pub use crate::real_path::canonicalize;
}

/// Reading files with a bound decided before the read.
pub mod read_limit {
    pub use crate::read_limit::{ReadLimitError, open_limited, read_limited};
}

/// Signing bundles.
#[cfg(feature = "sign")]
pub mod signing {
    pub use crate::signing::{Signer, sign_bundle};
}

/// The skill file's names.
pub mod skill_file {
    pub use crate::skill_file::SKILL_FILE_NAMES;
}

/// The reference validator's rules.
pub mod validate {
    use crate::frontmatter::SkillDocument;
    use crate::problem::Problem;

    /// Checks a skill file read from the directory named `dir_name` with
    /// the reference's rules and the specification's (no host, no
    /// extension fields): the problems name their field and position but
    /// not the file, which the caller knows.
    ///
    /// ```
    /// use skills_build::unstable::{frontmatter::parse_text, validate::validate};
    /// let doc = parse_text("---\nname: PDF\ndescription: Fill forms.\n---\n").unwrap();
    /// let problems = validate(&doc, "PDF");
    /// assert_eq!(problems[0].message, "Skill name 'PDF' must be lowercase");
    /// assert_eq!(problems[0].position.unwrap().line, 2);
    /// ```
    pub fn validate(doc: &SkillDocument, dir_name: &str) -> Vec<Problem> {
        crate::rules::reference::validate_with(doc, dir_name, &crate::rules::Policy::default())
    }
}

/// The policy the rules hold a build to, and the limits of a skill's walk.
pub mod rules {
    pub use crate::rules::{Limits, Policy};
}
