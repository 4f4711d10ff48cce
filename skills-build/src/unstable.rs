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
    pub use crate::archive::{ArchiveError, ArchiveSource, Expect, Limits, Reason, crc32};

    #[cfg(feature = "archive")]
    use crate::archive::zip::{self, Kind};

    /// The files of a zip archive whose entries sit at its root (the
    /// well-known discovery index's layout, no folder first), each checked
    /// as every archive's are (no `..`, no absolute path, no link, no
    /// duplicate, within `limits`): `(path, bytes)` in the archive's order.
    ///
    /// ```
    /// use skills_build::unstable::archive::{Limits, unpack_root};
    /// let archive = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-archive/report-writer.skill");
    /// let files = unpack_root(&std::fs::read(archive)?, &Limits::default())?;
    /// assert!(files.iter().any(|(path, _)| path == "report-writer/SKILL.md"));
    /// assert!(unpack_root(b"not a zip", &Limits::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "archive")]
    pub fn unpack_root(bytes: &[u8], limits: &Limits) -> Result<Vec<(String, Vec<u8>)>, Reason> {
        let entries = zip::central_directory(bytes, limits)?;
        let mut names = std::collections::BTreeSet::new();
        let mut files = Vec::new();
        for entry in entries.iter().filter(|e| e.kind == Kind::File) {
            if !names.insert(entry.name.as_str()) {
                return Err(Reason::Duplicate(entry.name.clone()));
            }
            files.push((entry.name.clone(), zip::extract(bytes, entry)?));
        }
        Ok(files)
    }
}

/// The audit's and lints' rules over one skill's files (`skills audit`
/// of a bundle file runs them over each skill it holds), the body-token
/// estimate they use, and the placeholder `skills new` writes (which the
/// lints refuse).
pub mod content {
    use crate::problem::{Position, Problem};
    use crate::rules::content::findings::Findings;
    use crate::rules::content::position::Located;
    use crate::rules::content::skill::TextFile;
    pub use crate::rules::content::{DESCRIPTION_PLACEHOLDER, File, Skill, check, estimate_tokens};
    use crate::rules::content::{scan, secrets};

    /// The private keys and credentials the audit finds in `text`, a file
    /// that is no skill's (a plugin's `mcp.json`, whose `env` and `headers`
    /// values every client that loads the plugin reads), named `path` (its
    /// last segment decides whether it reads as a `.env` file) and located
    /// as `location` in the problems: the audit's own rules, run over the
    /// text as given, so what they find is located in it.
    ///
    /// ```
    /// use skills_build::unstable::content::secrets_in;
    /// let token = concat!("ghp_", "Zq8Yw3Lm0Pn4Rt7Vx1Bc5Df9Gh2Jk6Ms0Qa7");
    /// let found = secrets_in("plugin/mcp.json", "mcp.json", &format!("{{\"t\": \"{token}\"}}"));
    /// assert_eq!(found[0].code.as_str(), "credential");
    /// assert_eq!(found[0].file.as_deref(), Some("plugin/mcp.json"));
    /// assert!(secrets_in("mcp.json", "mcp.json", "{\"X-Tenant\": \"public\"}").is_empty());
    /// ```
    pub fn secrets_in(location: &str, path: &str, text: &str) -> Vec<Problem> {
        let skill = Skill {
            skill_file: path,
            file_location: location,
            folder_location: "",
            bytes: &[],
            document: None,
            files: &[],
        };
        let file = TextFile {
            path,
            text: Located::new(text, Position { line: 1, column: 1 }),
            skill_file: false,
            marks: scan::marks(text.as_bytes()),
        };
        let mut findings = Findings::new(&[]);
        secrets::private_keys(&skill, &file, &mut findings);
        secrets::credentials(&skill, &file, &mut findings);
        findings.problems
    }
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
