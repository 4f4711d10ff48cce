//! The bundle's wire types: what `skills-build` fills and encodes, and what
//! the runtime decodes, borrowing every string and byte string from the
//! embedded bytes.
//!
//! # Encoding
//!
//! A bundle is [`MAGIC`], then [`FORMAT_VERSION`] as a little-endian `u16`,
//! then the layout, and nothing after it: the catalog-wide texts, the
//! listed names one after the other with a table of where each ends
//! (fixed-width, 32-bit), the name index the compiler built (a seeded
//! hash table, or the names' sorted order when names are made to collide),
//! a table of where each skill's own encoding ends, those encodings, the
//! bundle revision and the signatures. A reader finds a skill by hashing
//! its name and reading one slot, and decodes only that skill. Every record
//! is what postcard writes for a serde type (varints, length-prefixed
//! strings, enums as a variant index then the fields); the tables are
//! fixed-width `u32`s inside byte strings. A skill's text that occurs
//! verbatim in its frontmatter text (the description, most metadata
//! values) is written as the variant that says where it is there, so a
//! small skill's bundle is about its raw bytes. The outline and the
//! default prompt are derived when read, not stored.
//!
//! [`Bundle::encode`] writes exactly that, after [`Bundle::check`], through
//! the same [`BundleWriter`](crate::wire::writer::BundleWriter) the
//! compiler streams its skills into; the encoding is deterministic, so
//! equal bundles give equal bytes. Decoding refuses overlong varints and,
//! in a full decode or `Catalog::check`, a name index other than the one
//! the compiler writes. A text may be read inline or from the frontmatter
//! either way; a verifier holding the bytes
//! (`verify::TrustPolicy::verify_bytes`, feature `verify`) accepts only the
//! bytes the compiler writes for what they hold, so a signature binds the
//! exact bytes served. The encoder and decoder are this crate's own
//! (`postcard`, `codec`, `layout` and `writer` modules), so a build
//! compiles neither serde nor postcard; a test decodes every record with
//! the postcard crate into serde types and writes them back byte for byte.
//!
//! # Filling a bundle (for the compiler)
//!
//! Every field is borrowed, so the compiler keeps its owned strings and
//! byte vectors and points a [`Bundle`] at them just before encoding. Start
//! from [`Bundle::default`], which carries this crate's [`USAGE`],
//! [`TOOL_DESCRIPTION`] and [`TOOL_SCHEMA`], and [`Skill::default`]:
//!
//! ```
//! use skills_core::wire::bundle::{Bundle, Content, File, Skill};
//! use skills_core::{wire::instructions, Catalog};
//!
//! let body = "# PDF\n\nRead reference.md first.\n";
//! let reference = "Use pdfplumber.";
//! let text = instructions::render(body, [("reference.md", reference.len() as u64)]);
//! let bundle = Bundle {
//!     // prompt: None, the default: rendered from the skills when read.
//!     skills: vec![Skill {
//!         name: "pdf",
//!         location: "skill://pdf/SKILL.md",
//!         description: "Fill PDF forms.",
//!         body_len: body.len(),
//!         instructions: &text,
//!         files: vec![File {
//!             path: "reference.md",
//!             sha256: [0; 32], // the SHA-256 of the file's bytes
//!             content: Content::Text(reference),
//!         }],
//!         ..Skill::default()
//!     }],
//!     ..Bundle::default()
//! };
//! let bytes = bundle.encode().unwrap();
//! let catalog = Catalog::from_bytes(&bytes).unwrap();
//! assert_eq!(catalog.bundle(), &bundle);
//! assert!(catalog.prompt().contains("<name>\npdf\n</name>"));
//! ```
//!
//! # Compatibility
//!
//! The encoding is not self-describing: any change to these types (a
//! field added, removed or reordered, a variant added) or to the layout
//! changes the wire format and must bump [`FORMAT_VERSION`]. The runtime refuses a bundle of any
//! other version with an error naming both.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::wire::path::{is_valid_file_path, names_skill_file};
use crate::wire::texts::{TOOL_DESCRIPTION, TOOL_SCHEMA, USAGE};

/// The most files one skill may have, `SKILL.md` included: the MCP Skills
/// extension's per-skill limit, which the compiler enforces so that every
/// bundled skill can be listed in a manifest.
///
/// ```
/// use skills_core::wire::bundle::MAX_SKILL_FILES;
/// // A packager checks a skill folder against the limit before building.
/// let files_in_folder = 3 + 1; // three files beside SKILL.md
/// assert!(files_in_folder <= MAX_SKILL_FILES);
/// ```
pub const MAX_SKILL_FILES: usize = 512;

/// The most bytes one skill's files may add up to, `SKILL.md` included
/// (16 MiB): the MCP Skills extension's per-skill limit, enforced by the
/// compiler like [`MAX_SKILL_FILES`].
///
/// ```
/// use skills_core::wire::bundle::MAX_SKILL_BYTES;
/// // A packager checks a skill's total size against the limit before building.
/// let sizes: [u64; 3] = [2_048, 14_000, 4_096];
/// assert!(sizes.iter().sum::<u64>() <= MAX_SKILL_BYTES);
/// ```
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;

/// The four bytes every bundle starts with.
///
/// ```
/// // Telling a bundle file from any other file before decoding it.
/// let bytes = skills_core::wire::bundle::Bundle::default().encode().unwrap();
/// assert!(bytes.starts_with(&skills_core::MAGIC));
/// assert!(!b"PK\x03\x04".starts_with(&skills_core::MAGIC));
/// ```
pub const MAGIC: [u8; 4] = *b"SKB\0";

/// The version of the wire format this runtime reads and writes: the two
/// bytes after [`MAGIC`], little-endian.
///
/// ```
/// // A tool that keeps bundles on disk can tell which runtime reads one.
/// let bytes = skills_core::wire::bundle::Bundle::default().encode().unwrap();
/// let version = u16::from_le_bytes([bytes[4], bytes[5]]);
/// assert_eq!(version, skills_core::FORMAT_VERSION);
/// ```
pub const FORMAT_VERSION: u16 = 9;

/// The previous format, which this runtime still reads: format 9 added
/// [`Skill::executables`], the last field of a skill's own encoding, so a
/// format-8 skill is read with `None` there.
pub const PREVIOUS_FORMAT_VERSION: u16 = 8;

/// The length of the header: [`MAGIC`] and the format version.
///
/// ```
/// use skills_core::wire::bundle::{Bundle, HEADER_LEN};
/// // What follows the header is the body (what the bundle revision covers).
/// let bytes = Bundle::default().encode().unwrap();
/// let body = &bytes[HEADER_LEN..];
/// assert_eq!(body.len(), bytes.len() - HEADER_LEN);
/// ```
pub const HEADER_LEN: usize = MAGIC.len() + 2;

/// The whole bundle: the catalog-wide texts and the listed skills.
///
/// See the [module documentation](self) for how to fill and encode one.
///
/// ```
/// let empty = skills_core::wire::bundle::Bundle::default();
/// assert_eq!(empty.usage, skills_core::USAGE);
/// assert!(empty.skills.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle<'a> {
    /// The text for the system prompt: `None` (the default, what the
    /// compiler writes) for the `<available_skills>` block that
    /// [`crate::features::render::render_catalog`] makes with default options over
    /// the listed skills in catalog order, rendered when read rather than
    /// stored, since storing it would cost more bytes than the skills'
    /// names, descriptions and locations it repeats; `Some` for any other
    /// text, stored as given.
    pub prompt: Option<&'a str>,
    /// The paragraph telling the model how to use the `skill` tool; by
    /// default [`USAGE`].
    pub usage: &'a str,
    /// The `skill` tool's description; by default [`TOOL_DESCRIPTION`].
    pub tool_description: &'a str,
    /// The `skill` tool's JSON schema, as compact JSON text; by default
    /// [`TOOL_SCHEMA`].
    pub tool_schema: &'a str,
    /// The listed skills, in catalog order (the order of the prompt and of
    /// the names an unknown-skill error lists). Names must be unique.
    ///
    /// On the wire the names sit together in the name table, and each
    /// skill's other fields form its own encoding ([`SkillEntry`]), found
    /// through a table of offsets, so a catalog can find a skill by name
    /// without decoding the others.
    pub skills: Vec<Skill<'a>>,
    /// The bundle revision: the SHA-256 of the header, the catalog-wide
    /// texts and each skill's name and digest (its encoding with the bytes
    /// its recorded digests cover replaced by those digests, signatures
    /// left out), so it covers every text and byte the catalog serves (see
    /// `revision::bundle_revision`, feature `revision`, for the exact
    /// bytes). All zeros when not computed.
    pub revision: [u8; 32],
    /// Detached Ed25519 signatures over the bundle revision (the
    /// `skills-bundle-v3` payload), each by one publisher key.
    pub signatures: Vec<Signature<'a>>,
}

impl Default for Bundle<'_> {
    /// An empty bundle with this crate's usage paragraph, tool description
    /// and tool schema, and the prompt rendered from the skills.
    fn default() -> Self {
        Bundle {
            prompt: None,
            usage: USAGE,
            tool_description: TOOL_DESCRIPTION,
            tool_schema: TOOL_SCHEMA,
            skills: Vec::new(),
            revision: [0; 32],
            signatures: Vec::new(),
        }
    }
}

/// One listed skill, with everything the tool serves for it precomputed.
///
/// ```
/// use skills_core::wire::bundle::{Skill, SkillFileName};
/// let skill = Skill { name: "pdf", body_len: 3, instructions: "Go.\n\nfiles: none\n", ..Skill::default() };
/// assert_eq!(skill.body(), "Go.");
/// assert_eq!(skill.skill_file, SkillFileName::Upper);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
// In declaration order, so what a call reads of a decoded skill (name,
// location, instructions, their digests, the file table) shares the first
// two cache lines: at tens of thousands of skills a call's cost is its
// cache misses.
#[repr(C)]
pub struct Skill<'a> {
    /// The listed name: the frontmatter `name`, or `qualifier:name` when a
    /// qualified source lists a name an earlier source took. The tool looks
    /// skills up by it, exactly. On the wire it is the [`SkillEntry`]'s
    /// name, not part of the skill's own encoding.
    pub name: &'a str,
    /// Where the skill lives, as the prompt prints it and [`crate::ReadRecord`]
    /// records it (by default `skill://<name>/SKILL.md`).
    pub location: &'a str,
    /// The text a read of the skill serves: the body, then the list of
    /// files with sizes, exactly as [`crate::wire::instructions::render`] makes it.
    pub instructions: &'a str,
    /// The length in bytes of the Markdown body (everything after the
    /// closing `---` line, verbatim), which is the start of
    /// [`instructions`](Self::instructions): the body is stored once, there.
    /// Must fall on a character boundary within the instructions.
    pub body_len: usize,
    /// The SHA-256 of [`instructions`](Self::instructions).
    pub instructions_sha256: [u8; 32],
    /// The SHA-256 of the frontmatter: the bytes between the opening and
    /// the closing `---` lines of the skill file.
    pub frontmatter_sha256: [u8; 32],
    /// Every file of the skill except the skill file itself, sorted by
    /// path in byte order, paths unique.
    pub files: Vec<File<'a>>,
    /// The frontmatter `description`, trimmed as the reference trims it.
    pub description: &'a str,
    /// The frontmatter `license`, if given.
    pub license: Option<&'a str>,
    /// The frontmatter `compatibility`, if given.
    pub compatibility: Option<&'a str>,
    /// The frontmatter `metadata` as key/value pairs, in the order the
    /// frontmatter gives them.
    pub metadata: Vec<(&'a str, &'a str)>,
    /// The frontmatter `allowed-tools` text as written, if given.
    pub allowed_tools: Option<&'a str>,
    /// `allowed_tools` parsed into rules, in order (empty when absent).
    pub rules: Vec<ToolRule<'a>>,
    /// Which spelling of the skill file the skill was loaded from.
    pub skill_file: SkillFileName,
    /// The frontmatter `version`, if given: what a signature payload
    /// carries and a version pin compares.
    pub version: Option<&'a str>,
    /// The frontmatter text (the lines between the fence lines, newlines
    /// normalised): what [`frontmatter_sha256`](Self::frontmatter_sha256)
    /// covers.
    pub frontmatter: &'a str,
    /// The skill file's exact bytes, when they are not `---\n`, the
    /// frontmatter, `---\n` and the body put together (a file with `\r\n`
    /// line ends, a byte order mark, or no newline after the closing fence);
    /// `None` when they are.
    pub skill_file_bytes: Option<Bytes<'a>>,
    /// The size of the skill file in bytes, as its content revision lists it.
    pub skill_file_size: u64,
    /// The SHA-256 of the skill file's bytes.
    pub skill_file_sha256: [u8; 32],
    /// The content revision: agentskills-core's `content_revision` over the
    /// skill file and every file (see `revision::content_revision`). All
    /// zeros when not computed.
    pub revision: [u8; 32],
    /// Detached Ed25519 signatures over the skill's `agentskills-snapshot-v1`
    /// payload, each by one publisher key.
    pub signatures: Vec<Signature<'a>>,
    /// The `when_to_use` extension field's cases, in order (empty unless
    /// the skills were compiled with the extension fields enabled).
    pub when_to_use: Vec<&'a str>,
    /// The `when_not_to_use` extension field's cases, in order.
    pub when_not_to_use: Vec<&'a str>,
    /// The tags of `metadata.tags` (a list of strings), each stripped and
    /// case-folded, blanks dropped, as the catalog's tag filter compares
    /// them; empty when there are none.
    pub tags: Vec<&'a str>,
    /// The frontmatter as compact JSON (keys in file order, every scalar a
    /// string), as the MCP Skills extension's `skills/list` entry carries
    /// it, when [`crate::wire::derived::simple_frontmatter_json`] cannot derive
    /// it from [`frontmatter`](Self::frontmatter); `None` when it can (the
    /// compiler stores it only when the derivation differs). Read it with
    /// [`Skill::frontmatter_json`].
    pub frontmatter_json: Option<&'a str>,
    /// The paths of the skill's files (not the skill file) that are
    /// executable, sorted, when the source carries file modes (a folder on
    /// Unix, an archive whose entries record Unix modes); `None` when it
    /// does not (an installer then guesses from the path). Added in format
    /// 9; a format-8 bundle decodes with `None`.
    pub executables: Option<Vec<&'a str>>,
}

/// How a skill is laid out on the wire: its listed name (in the bundle's
/// name table), and its own encoding (every field of [`Skill`] but the
/// name), found through the table of the encodings' ends.
///
/// ```
/// use skills_core::wire::bundle::{Bytes, Skill, SkillEntry};
/// let skill = Skill { name: "pdf", description: "Forms.", ..Skill::default() };
/// let entry = SkillEntry::encode(&skill);
/// assert_eq!(entry.name, "pdf");
/// let decoded = SkillEntry { name: entry.name, detail: Bytes(&entry.detail) }.decode().unwrap();
/// assert_eq!(decoded, skill);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkillEntry<'a> {
    /// The listed name.
    pub name: &'a str,
    /// The rest of the skill, postcard-encoded.
    pub detail: Bytes<'a>,
}

/// A skill's encoding without its name, owned: what [`SkillEntry::encode`]
/// gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedSkill<'a> {
    /// The listed name.
    pub name: &'a str,
    /// The rest of the skill, postcard-encoded.
    pub detail: Vec<u8>,
}

impl<'a> SkillEntry<'a> {
    /// Encodes a skill's fields but its name.
    pub fn encode(skill: &Skill<'a>) -> EncodedSkill<'a> {
        EncodedSkill {
            name: skill.name,
            detail: crate::wire::postcard::to_vec(skill),
        }
    }
}

/// A detached Ed25519 signature and the publisher key that made it.
///
/// ```
/// use skills_core::wire::bundle::{Bytes, Signature};
/// let signature = Signature { key_id: "k1", origin: "https://example.com/skills", signature: Bytes(&[0; 64]) };
/// assert_eq!(signature.signature.len(), 64);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature<'a> {
    /// The publisher key's id, looked up among a trust policy's keys.
    pub key_id: &'a str,
    /// The origin the signature was made for, which the signature covers:
    /// a trust policy accepts the record only if this is its own origin and
    /// the signature verifies for it, so a verified record's origin is the
    /// one signed. Until a verifier holding the key checks it, it is only
    /// the record's claim.
    pub origin: &'a str,
    /// The 64 signature bytes.
    pub signature: Bytes<'a>,
}

impl<'a> Skill<'a> {
    /// The Markdown body: the first [`body_len`](Self::body_len) bytes of
    /// the instructions (empty if that length is out of range, which a
    /// checked bundle rules out).
    ///
    /// ```
    /// use skills_core::wire::bundle::Skill;
    /// let skill = Skill { body_len: 5, instructions: "Do X.\n\nfiles: none\n", ..Skill::default() };
    /// assert_eq!(skill.body(), "Do X.");
    /// ```
    pub fn body(&self) -> &'a str {
        self.instructions.get(..self.body_len).unwrap_or_default()
    }

    /// The file at `path` exactly, found by binary search over the sorted
    /// file table.
    ///
    /// ```
    /// use skills_core::wire::bundle::{Content, File, Skill};
    /// let file = File { path: "a.md", sha256: [0; 32], content: Content::Text("hi") };
    /// let skill = Skill { files: vec![file.clone()], ..Skill::default() };
    /// assert_eq!(skill.file("a.md"), Some(&file));
    /// assert_eq!(skill.file("b.md"), None);
    /// ```
    pub fn file(&self, path: &str) -> Option<&File<'a>> {
        let at = self
            .files
            .binary_search_by(|file| file.path.cmp(path))
            .ok()?;
        self.files.get(at)
    }

    /// Checks the rules [`Bundle::check`] checks for each skill (its body
    /// length inside its instructions; its files with valid, unique paths
    /// in byte order, none naming the skill file), for a compiler that
    /// encodes skills one at a time.
    ///
    /// ```
    /// use skills_core::wire::bundle::Skill;
    /// assert!(Skill { body_len: 1, ..Skill::default() }.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), BundleError> {
        check_skill(self)
    }

    /// The value of a `metadata` key, if present.
    ///
    /// ```
    /// use skills_core::wire::bundle::Skill;
    /// let skill = Skill { metadata: vec![("author", "ada")], ..Skill::default() };
    /// assert_eq!(skill.metadata_value("author"), Some("ada"));
    /// ```
    pub fn metadata_value(&self, key: &str) -> Option<&'a str> {
        self.metadata
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }
}

/// Which spelling of the skill file a skill was loaded from. The reference
/// prefers `SKILL.md` and accepts `skill.md`.
///
/// ```
/// use skills_core::wire::bundle::SkillFileName;
/// assert_eq!(SkillFileName::Lower.as_str(), "skill.md");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SkillFileName {
    /// `SKILL.md`.
    #[default]
    Upper,
    /// `skill.md`.
    Lower,
}

impl SkillFileName {
    /// The file name.
    ///
    /// ```
    /// assert_eq!(skills_core::wire::bundle::SkillFileName::Upper.as_str(), "SKILL.md");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            SkillFileName::Upper => "SKILL.md",
            SkillFileName::Lower => "skill.md",
        }
    }
}

/// One rule of `allowed-tools`: a tool name and an optional specifier, so
/// `Bash(git:*)` is `Bash` with `git:*` and `Read` is `Read` alone.
///
/// ```
/// use skills_core::wire::bundle::ToolRule;
/// let rule = ToolRule { tool: "Bash", spec: Some("git:*") };
/// assert!(rule.matches("Bash"));
/// assert_eq!(rule.to_string(), "Bash(git:*)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ToolRule<'a> {
    /// The tool name.
    pub tool: &'a str,
    /// The text between the parentheses, kept literally; `None` without
    /// parentheses.
    pub spec: Option<&'a str>,
}

impl ToolRule<'_> {
    /// Whether the rule is about the tool `name`; the specifier is for the
    /// host to interpret.
    ///
    /// ```
    /// let rule = skills_core::wire::bundle::ToolRule { tool: "Read", spec: None };
    /// assert!(rule.matches("Read") && !rule.matches("read"));
    /// ```
    pub fn matches(&self, name: &str) -> bool {
        self.tool == name
    }
}

impl fmt::Display for ToolRule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.spec {
            Some(spec) => write!(f, "{}({spec})", self.tool),
            None => f.write_str(self.tool),
        }
    }
}

/// One file of a skill, with its content and digest.
///
/// ```
/// use skills_core::wire::bundle::{Bytes, Content, File};
/// let logo = File {
///     path: "assets/logo.png",
///     sha256: [0; 32],
///     content: Content::Image { media_type: "image/png", bytes: Bytes(b"\x89PNG") },
/// };
/// assert_eq!((logo.size(), logo.media_type()), (4, Some("image/png")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File<'a> {
    /// The path inside the skill: relative, `/`-separated, as
    /// [`crate::wire::path::is_valid_file_path`] accepts it, and not naming the
    /// skill file (`SKILL.md` in any case at the root).
    pub path: &'a str,
    /// The SHA-256 of the file's bytes.
    pub sha256: [u8; 32],
    /// The bytes, with how the tool shows them.
    pub content: Content<'a>,
}

impl<'a> File<'a> {
    /// The file's bytes, whatever its kind.
    ///
    /// ```
    /// use skills_core::wire::bundle::{Content, File};
    /// let file = File { path: "a.md", sha256: [0; 32], content: Content::Text("hi") };
    /// assert_eq!(file.bytes(), b"hi");
    /// ```
    pub fn bytes(&self) -> &'a [u8] {
        match self.content {
            Content::Text(text) => text.as_bytes(),
            Content::Image { bytes, .. } | Content::Binary { bytes, .. } => bytes.0,
        }
    }

    /// The file's size in bytes.
    ///
    /// ```
    /// use skills_core::wire::bundle::{Content, File};
    /// let file = File { path: "a.md", sha256: [0; 32], content: Content::Text("héllo") };
    /// assert_eq!(file.size(), 6);
    /// ```
    pub fn size(&self) -> usize {
        self.bytes().len()
    }

    /// The media type of an image or a binary file; `None` for text.
    ///
    /// ```
    /// use skills_core::wire::bundle::{Bytes, Content, File};
    /// let pdf = File { path: "a.pdf", sha256: [0; 32], content: Content::Binary { media_type: "application/pdf", bytes: Bytes(b"%PDF") } };
    /// assert_eq!(pdf.media_type(), Some("application/pdf"));
    /// ```
    pub fn media_type(&self) -> Option<&'a str> {
        match self.content {
            Content::Text(_) => None,
            Content::Image { media_type, .. } | Content::Binary { media_type, .. } => {
                Some(media_type)
            }
        }
    }
}

/// A file's bytes and how the tool shows them, decided at build time.
///
/// ```
/// use skills_core::wire::bundle::{Bytes, Content};
/// let blob = Content::Binary { media_type: "application/octet-stream", bytes: Bytes(&[0, 1, 2]) };
/// assert!(matches!(blob, Content::Binary { .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content<'a> {
    /// Text, served as is. Stored as a string, so it is valid UTF-8.
    Text(&'a str),
    /// An image, served as an image part of this media type (one of
    /// `image/png`, `image/jpeg`, `image/gif`, `image/webp`).
    Image {
        /// The media type.
        media_type: &'a str,
        /// The image's bytes.
        bytes: Bytes<'a>,
    },
    /// Anything else: refused by the tool with its size and this detected
    /// media type (for example `application/pdf`).
    Binary {
        /// The detected media type.
        media_type: &'a str,
        /// The file's bytes.
        bytes: Bytes<'a>,
    },
}

/// A byte string borrowed from the bundle: on the wire its length, then
/// the bytes (as postcard writes a `Vec<u8>`), decoded without copying.
///
/// ```
/// use skills_core::wire::bundle::Bytes;
/// let bytes = Bytes(b"abc");
/// assert_eq!(&*bytes, b"abc");
/// assert_eq!(format!("{bytes:?}"), "Bytes(3 bytes)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Bytes<'a>(pub &'a [u8]);

impl core::ops::Deref for Bytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.0
    }
}

impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bytes({} bytes)", self.0.len())
    }
}

/// A bundle that decoded but breaks a rule the catalog relies on. The
/// compiler never produces one; [`Bundle::check`] finds it before encoding.
///
/// ```
/// use skills_core::wire::bundle::{Bundle, BundleError, Skill};
/// let twice = Bundle { skills: vec![Skill { name: "a", ..Skill::default() }; 2], ..Bundle::default() };
/// assert_eq!(twice.check(), Err(BundleError::DuplicateSkill { name: "a".into() }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BundleError {
    /// Two skills have the same listed name.
    DuplicateSkill {
        /// The name.
        name: String,
    },
    /// A skill's `body_len` is past the end of its instructions or inside
    /// a character.
    BodyOutOfRange {
        /// The skill's name.
        skill: String,
    },
    /// A file path is not a valid relative path.
    InvalidFilePath {
        /// The skill's name.
        skill: String,
        /// The path.
        path: String,
    },
    /// A file path at the root names the skill file, so a read of it would
    /// serve the instructions instead.
    ShadowedBySkillFile {
        /// The skill's name.
        skill: String,
        /// The path.
        path: String,
    },
    /// The files are not sorted by path in byte order, or a path repeats.
    FilesOutOfOrder {
        /// The skill's name.
        skill: String,
        /// The first path out of order (or repeated).
        path: String,
    },
    /// The skill's executable files (format 9) are not sorted in byte
    /// order, repeat, or name a path that is not one of its files.
    BadExecutables {
        /// The skill's name.
        skill: String,
        /// The first path out of order, repeated or not a file.
        path: String,
    },
    /// The bundle's name index is not the one the compiler writes for its
    /// names, so it could miss one.
    BadIndex,
    /// The bundle's listing order is not the one the compiler writes for
    /// its names (each skill once, in the byte order of its URI).
    BadListing,
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BundleError::DuplicateSkill { name } => write!(
                f,
                "two skills are listed as {name:?}; listed names must be unique"
            ),
            BundleError::BodyOutOfRange { skill } => {
                write!(
                    f,
                    "skill {skill:?} has a body length outside its instructions text"
                )
            }
            BundleError::InvalidFilePath { skill, path } => write!(
                f,
                "skill {skill:?} has a file at {path:?}, which is not a relative `/`-separated path without empty, `.` or `..` segments, backslashes or control characters"
            ),
            BundleError::ShadowedBySkillFile { skill, path } => write!(
                f,
                "skill {skill:?} has a file {path:?}, which a read would take for the skill file; rename or exclude it"
            ),
            BundleError::FilesOutOfOrder { skill, path } => write!(
                f,
                "the files of skill {skill:?} are not sorted by path in byte order, or repeat, at {path:?}"
            ),
            BundleError::BadExecutables { skill, path } => write!(
                f,
                "the executable files of skill {skill:?} are not sorted, repeat, or name {path:?}, which is not one of its files"
            ),
            BundleError::BadIndex => f.write_str(
                "the index of skill names is not the one the compiler writes for these names",
            ),
            BundleError::BadListing => f.write_str(
                "the listing order of the skills is not the one the compiler writes for these names",
            ),
        }
    }
}

impl core::error::Error for BundleError {}

impl From<crate::wire::names::IndexError> for BundleError {
    fn from(error: crate::wire::names::IndexError) -> Self {
        match error {
            crate::wire::names::IndexError::Duplicate(name) => BundleError::DuplicateSkill { name },
            crate::wire::names::IndexError::Bad => BundleError::BadIndex,
        }
    }
}

/// Why [`Bundle::encode`] failed.
///
/// ```
/// use skills_core::wire::bundle::{Bundle, EncodeError, File, Content, Skill};
/// let file = File { path: "../x", sha256: [0; 32], content: Content::Text("") };
/// let bad = Bundle { skills: vec![Skill { files: vec![file], ..Skill::default() }], ..Bundle::default() };
/// assert!(matches!(bad.encode(), Err(EncodeError::Invalid(_))));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The bundle breaks a rule the runtime checks when decoding.
    Invalid(BundleError),
    /// The names or the skills' encodings add up to 4 GiB or more, past
    /// what the layout's 32-bit offsets reach.
    TooLarge,
    /// A [`BundleWriter`](crate::wire::writer::BundleWriter) was finished
    /// the other way from how its skills went in: `finish` after a skill
    /// pushed by length only (its encoding written elsewhere), or
    /// `finish_around` after a skill whose encoding the writer holds.
    Misplaced,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Invalid(error) => write!(f, "cannot encode the skills bundle: {error}"),
            EncodeError::Misplaced => f.write_str(
                "cannot encode the skills bundle: the writer holds some skills' encodings and not others",
            ),
            EncodeError::TooLarge => f.write_str(
                "cannot encode the skills bundle: its names or its skills add up to 4 GiB or more; split it into several bundles",
            ),
        }
    }
}

impl core::error::Error for EncodeError {}

impl From<BundleError> for EncodeError {
    fn from(error: BundleError) -> Self {
        EncodeError::Invalid(error)
    }
}

impl Bundle<'_> {
    /// Checks the rules the runtime relies on, which decoding enforces too:
    /// unique skill names, each body length inside its instructions, and
    /// each skill's files with valid, unique paths in byte order, none of
    /// them naming the skill file.
    ///
    /// ```
    /// assert_eq!(skills_core::wire::bundle::Bundle::default().check(), Ok(()));
    /// ```
    pub fn check(&self) -> Result<(), BundleError> {
        self.name_index().map(drop)
    }

    /// The index of the skills' names, after checking every rule of
    /// [`check`](Self::check) (a name given twice among them).
    pub(crate) fn name_index(&self) -> Result<crate::wire::names::Index<'static>, BundleError> {
        for skill in &self.skills {
            check_skill(skill)?;
        }
        Ok(crate::wire::names::Index::build(self.skills.len(), |at| {
            self.skills.get(at).map_or("", |skill| skill.name)
        })?)
    }
}

pub(crate) fn check_skill(skill: &Skill<'_>) -> Result<(), BundleError> {
    if !skill.instructions.is_char_boundary(skill.body_len) {
        return Err(BundleError::BodyOutOfRange {
            skill: skill.name.into(),
        });
    }
    let mut previous: Option<&str> = None;
    for file in &skill.files {
        let (name, path) = (skill.name, file.path);
        // A control character in a listed path would forge lines in the
        // file list a model reads.
        if !is_valid_file_path(path) || path.chars().any(char::is_control) {
            return Err(BundleError::InvalidFilePath {
                skill: name.into(),
                path: path.into(),
            });
        }
        if names_skill_file(path) {
            return Err(BundleError::ShadowedBySkillFile {
                skill: name.into(),
                path: path.into(),
            });
        }
        if previous.is_some_and(|previous| previous >= path) {
            return Err(BundleError::FilesOutOfOrder {
                skill: name.into(),
                path: path.into(),
            });
        }
        previous = Some(path);
    }
    check_executables(skill)
}

/// The executable files: sorted, unique, each one of the skill's files.
fn check_executables(skill: &Skill<'_>) -> Result<(), BundleError> {
    let Some(paths) = &skill.executables else {
        return Ok(());
    };
    let mut previous: Option<&str> = None;
    for &path in paths {
        let listed = skill
            .files
            .binary_search_by(|file| file.path.cmp(path))
            .is_ok();
        if !listed || previous.is_some_and(|previous| previous >= path) {
            return Err(BundleError::BadExecutables {
                skill: skill.name.into(),
                path: path.into(),
            });
        }
        previous = Some(path);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn text_file(path: &'static str) -> File<'static> {
        File {
            path,
            sha256: [1; 32],
            content: Content::Text("x"),
        }
    }

    #[test]
    fn bytes_round_trip_borrowed() {
        use crate::wire::postcard::{Decode, Encode, Reader};
        let mut encoded = Vec::new();
        Bytes(&[9, 8, 7]).encode(&mut encoded);
        assert_eq!(encoded, [3, 9, 8, 7]);
        let decoded = Bytes::decode(&mut Reader::new(&encoded)).unwrap();
        assert_eq!(decoded.0, &[9, 8, 7]);
        assert_eq!(decoded.0.as_ptr(), encoded[1..].as_ptr());
    }

    #[test]
    fn check_accepts_sorted_files_and_rejects_the_rest() {
        let skill = |files| Skill {
            name: "s",
            files,
            ..Skill::default()
        };
        let bundle = |files| Bundle {
            skills: vec![skill(files)],
            ..Bundle::default()
        };
        assert_eq!(
            bundle(vec![
                text_file("B"),
                text_file("a"),
                text_file("a/b"),
                text_file("ab")
            ])
            .check(),
            Ok(())
        );
        assert!(matches!(
            bundle(vec![text_file("b"), text_file("a")]).check(),
            Err(BundleError::FilesOutOfOrder { path, .. }) if path == "a"
        ));
        assert!(matches!(
            bundle(vec![text_file("a"), text_file("a")]).check(),
            Err(BundleError::FilesOutOfOrder { .. })
        ));
        assert!(matches!(
            bundle(vec![text_file("a//b")]).check(),
            Err(BundleError::InvalidFilePath { .. })
        ));
        assert!(matches!(
            bundle(vec![text_file("Skill.MD")]).check(),
            Err(BundleError::ShadowedBySkillFile { .. })
        ));
        assert_eq!(bundle(vec![text_file("docs/SKILL.md")]).check(), Ok(()));
    }

    #[test]
    fn check_rejects_bad_body_length() {
        let skill = |body_len| Skill {
            name: "s",
            body_len,
            instructions: "é\n",
            ..Skill::default()
        };
        let bundle = |body_len| Bundle {
            skills: vec![skill(body_len)],
            ..Bundle::default()
        };
        assert_eq!(bundle(0).check(), Ok(()));
        assert_eq!(bundle(2).check(), Ok(()));
        assert_eq!(bundle(3).check(), Ok(()));
        assert!(matches!(
            bundle(1).check(),
            Err(BundleError::BodyOutOfRange { .. })
        ));
        assert!(matches!(
            bundle(4).check(),
            Err(BundleError::BodyOutOfRange { .. })
        ));
        assert!(matches!(
            bundle(usize::MAX).check(),
            Err(BundleError::BodyOutOfRange { .. })
        ));
    }

    #[test]
    fn duplicate_names_are_found_wherever_they_are() {
        let named = |name| Skill {
            name,
            ..Skill::default()
        };
        let bundle = Bundle {
            skills: vec![named("b"), named("a"), named("c"), named("a")],
            ..Bundle::default()
        };
        assert_eq!(
            bundle.check(),
            Err(BundleError::DuplicateSkill { name: "a".into() })
        );
        let bundle = Bundle {
            skills: vec![named("b"), named("a"), named("c")],
            ..Bundle::default()
        };
        assert!(bundle.name_index().is_ok());
    }

    #[test]
    fn encoding_starts_with_the_header_and_the_prompt() {
        let bundle = Bundle {
            prompt: Some("p"),
            ..Bundle::default()
        };
        let bytes = bundle.encode().unwrap();
        assert_eq!(&bytes[..4], &MAGIC);
        assert_eq!(&bytes[4..6], &FORMAT_VERSION.to_le_bytes());
        assert_eq!(&bytes[6..9], &[1, 1, b'p']);
        assert_eq!(Bundle::decode(&bytes).unwrap(), bundle);
    }
}
