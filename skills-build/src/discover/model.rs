//! What discovery takes and gives: the sources in search order, the
//! options, the skills found with their files and listing, how each source
//! was read, and the locations problems name.

use std::path::Path;

use skills_core::text::pytext;
use skills_core::wire::bundle::SkillFileName;

use crate::filter::Glob;
use crate::frontmatter::SkillDocument;
use crate::problem::Problem;
use crate::rules::Policy;
use crate::source::{EntryKind, Source};

/// One source in the search order, with its optional qualifier.
///
/// ```
/// use skills_build::unstable::discover::Root;
/// use skills_build::source::MemorySource;
/// let team = MemorySource::new("team");
/// let root = Root::new(&team).qualified("team");
/// assert_eq!(root.qualifier, Some("team"));
/// ```
#[derive(Clone, Copy)]
pub struct Root<'a> {
    /// The tree of files.
    pub source: &'a dyn Source,
    /// Lists a name an earlier source took as `qualifier:name`.
    pub qualifier: Option<&'a str>,
    /// The directory on disk behind the source, when there is one: it
    /// names a source that is itself a skill when its location does not
    /// (`.`), and lets a no-skill error say that the path is inside a skill.
    pub path: Option<&'a Path>,
}

impl std::fmt::Debug for Root<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Root")
            .field("location", &self.source.location())
            .field("qualifier", &self.qualifier)
            .field("path", &self.path)
            .finish()
    }
}

impl<'a> Root<'a> {
    /// A source without a qualifier.
    ///
    /// ```
    /// use skills_build::{source::MemorySource, unstable::discover::Root};
    /// let source = MemorySource::new("m");
    /// assert_eq!(Root::new(&source).qualifier, None);
    /// ```
    pub fn new(source: &'a dyn Source) -> Self {
        Root {
            source,
            qualifier: None,
            path: None,
        }
    }

    /// Says which directory on disk the source reads.
    ///
    /// ```
    /// use skills_build::{source::MemorySource, unstable::discover::Root};
    /// let source = MemorySource::new("m");
    /// let root = Root::new(&source).on_disk("skills".as_ref());
    /// assert_eq!(root.path, Some(std::path::Path::new("skills")));
    /// ```
    pub fn on_disk(mut self, path: &'a Path) -> Self {
        self.path = Some(path);
        self
    }

    /// Gives the source a qualifier.
    ///
    /// ```
    /// use skills_build::{source::MemorySource, unstable::discover::Root};
    /// let source = MemorySource::new("m");
    /// assert_eq!(Root::new(&source).qualified("vendor").qualifier, Some("vendor"));
    /// ```
    pub fn qualified(mut self, qualifier: &'a str) -> Self {
        self.qualifier = Some(qualifier);
        self
    }
}

/// What discovery accepts and refuses: what it walks, leaves out and
/// keeps, on how many threads, and the [`Policy`] the skills it reads are
/// judged by (the limits of the walk among it).
///
/// ```
/// use skills_build::unstable::{discover::Options, filter::Glob};
/// let options = Options { excludes: vec![Glob::new("*.pyc").unwrap()], ..Options::default() };
/// assert_eq!(options.excludes.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// Files and directories to skip (junk included).
    pub excludes: Vec<Glob>,
    /// Embed junk (what `filter::junk` names) like any other file instead
    /// of leaving it out with a note.
    pub keep_junk: bool,
    /// Embed a skill's `evals/` folder (authoring material) instead of
    /// leaving it out with a note.
    pub keep_evals: bool,
    /// How many threads read and judge skills (`0`: every core). The
    /// result is the same whatever the count.
    pub threads: usize,
    /// The rules' policy: allowed rules, hosts, extensions, limits.
    pub policy: Policy,
}

impl Options {
    pub(super) fn excluded(&self, path: &str) -> bool {
        self.excludes.iter().any(|glob| glob.matches(path))
    }
}

/// One file of a skill, other than its skill file.
///
/// ```
/// let file = skills_build::unstable::discover::ResourceFile {
///     path: "scripts/run.sh".into(),
///     bytes: b"x".to_vec(),
///     executable: Some(true),
/// };
/// assert_eq!(file.bytes.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceFile {
    /// The path inside the skill directory, `/`-separated.
    pub path: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Whether the file is executable, when the source carries modes
    /// ([`Source::executable`](crate::source::Source::executable)).
    pub executable: Option<bool>,
}

/// Whether, and under which name, a skill is listed.
///
/// ```
/// use skills_build::unstable::discover::Listing;
/// let listing = Listing::Listed("pdf".into());
/// assert_eq!(listing.name(), Some("pdf"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listing {
    /// Listed under this name (`name` or `qualifier:name`).
    Listed(String),
    /// An earlier skill took the name; this one is left out.
    Shadowed {
        /// The location of the skill file of the skill that took the name.
        by: String,
    },
    /// Not listable: no usable name or description, a colon in the name,
    /// or a skill file that could not be read.
    Unlisted(String),
}

impl Listing {
    /// The listed name, if listed.
    ///
    /// ```
    /// assert_eq!(skills_build::unstable::discover::Listing::Unlisted("no name".into()).name(), None);
    /// ```
    pub fn name(&self) -> Option<&str> {
        match self {
            Listing::Listed(name) => Some(name),
            _ => None,
        }
    }
}

/// A skill directory found in a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveredSkill {
    /// The index of its source in the search order.
    pub source: usize,
    /// Its source's location.
    pub source_location: String,
    /// Its directory's name: what `name` must equal.
    pub dir: String,
    /// Its directory inside the source: `dir` in a collection, `""` when
    /// the source is the skill.
    pub path: String,
    /// Which skill file it has.
    pub skill_file: SkillFileName,
    /// `<source location>/<dir>/<skill file>`, as problems name it.
    pub file_location: String,
    /// The parsed skill file, unless it could not be read.
    pub document: Option<SkillDocument>,
    /// The skill file's exact bytes (empty if it could not be read): what
    /// its digest and the content revision cover.
    pub skill_file_bytes: Vec<u8>,
    /// Every other file, sorted by path in byte order.
    pub files: Vec<ResourceFile>,
    /// Whether and how it is listed.
    pub listing: Listing,
}

impl DiscoveredSkill {
    /// The frontmatter `name`, stripped, if it is text.
    pub fn name(&self) -> Option<&str> {
        let doc = self.document.as_ref()?;
        doc.frontmatter.text("name").map(pytext::strip)
    }

    /// The frontmatter `description`, stripped, if it is text.
    pub fn description(&self) -> Option<&str> {
        let doc = self.document.as_ref()?;
        doc.frontmatter.text("description").map(pytext::strip)
    }
}

/// What a source turned out to be.
///
/// ```
/// use skills_build::Layout;
/// assert_eq!(Layout::Collection.as_str(), "collection");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The source holds a skill file: it is one skill.
    Skill,
    /// The source's subdirectories holding a skill file are its skills.
    Collection,
}

impl Layout {
    /// `"skill"` or `"collection"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Skill => "skill",
            Layout::Collection => "collection",
        }
    }
}

/// How one source was read, for verbose output.
///
/// ```
/// use skills_build::Layout;
/// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
/// let outcome = skills_build::Builder::new().source(skills).run();
/// assert_eq!(outcome.sources[0].layout, Some(Layout::Collection));
/// assert_eq!(outcome.sources[0].skills, 3);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceReport {
    /// The source's location.
    pub location: String,
    /// One skill or a collection; `None` when it could not be read or held
    /// no skill.
    pub layout: Option<Layout>,
    /// How many skills it holds.
    pub skills: usize,
}

/// Everything discovery found: the skills, in source order then directory
/// order, and every problem, sorted by file and position.
///
/// ```
/// use skills_build::unstable::discover::{discover, Options, Root};
/// use skills_build::source::MemorySource;
/// let source = MemorySource::new("skills")
///     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Fill PDF forms. Use when asked to.\n---\nRead reference.md.\n")
///     .with_file("pdf/reference.md", "Use pdfplumber.");
/// let found = discover(&[Root::new(&source)], &Options::default());
/// assert!(found.problems.is_empty());
/// let skill = &found.skills[0];
/// assert_eq!((skill.listing.name(), skill.files[0].path.as_str()), (Some("pdf"), "reference.md"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Discovery {
    /// Every skill directory found.
    pub skills: Vec<DiscoveredSkill>,
    /// Every problem: errors, warnings and notes.
    pub problems: Vec<Problem>,
    /// How each source was read, in order.
    pub sources: Vec<SourceReport>,
}

/// `location/rest`, with one trailing `/` of the location dropped (just
/// the location when `rest` is empty).
pub(crate) fn join_location(location: &str, rest: &str) -> String {
    let location = location.strip_suffix('/').unwrap_or(location);
    if rest.is_empty() {
        location.to_string()
    } else if location.is_empty() {
        rest.to_string()
    } else {
        format!("{location}/{rest}")
    }
}

/// The skill file a listing holds: `SKILL.md`, else `skill.md`.
pub fn skill_file_in(listing: &[crate::source::DirEntry]) -> Option<SkillFileName> {
    let has = |name: &str| {
        listing
            .iter()
            .any(|e| e.kind == EntryKind::File && e.name == name)
    };
    if has(SkillFileName::Upper.as_str()) {
        Some(SkillFileName::Upper)
    } else if has(SkillFileName::Lower.as_str()) {
        Some(SkillFileName::Lower)
    } else {
        None
    }
}
