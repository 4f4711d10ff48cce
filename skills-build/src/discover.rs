//! Finding skills across an ordered list of sources.
//!
//! A source is either **one skill** or **a collection**, the same in the
//! CLI, the `Builder` and `include_skills!`:
//!
//! - a source whose own listing holds `SKILL.md` (else `skill.md`, names
//!   matched exactly) is one skill, named after the source's directory;
//! - otherwise each direct child directory holding a skill file is a skill;
//! - a source with neither is an error ([`Code::NoSkills`]) naming the path
//!   and what was looked for, with a hint when skills sit one level deeper
//!   (the path is a skills folder's parent) or when the path is inside a
//!   skill (a skill's child).
//!
//! Each skill's file is read, parsed and validated, and every other file
//! under it is collected, sorted by path in byte order. What operating
//! systems, editors, version control and caches leave behind
//! ([`crate::filter::junk`]) is left out and reported as a note, unless
//! [`Options::keep_junk`] asks to embed it. Names resolve the way `PATH`
//! resolves a command: the first source to offer a name wins it; a later
//! skill of that name is shadowed (a warning), unless its source has a
//! qualifier, in which case it is listed as `qualifier:name`.
//!
//! Every problem is collected; nothing stops at the first, nothing panics.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::path::Path;

use skills_core::wire::bundle::MAX_SKILL_BYTES;
use skills_core::wire::bundle::SkillFileName;
use skills_core::wire::path::names_skill_file;

use crate::fence;
use crate::filter::{Glob, junk};
use crate::frontmatter::{self, SkillDocument};
use crate::printable::{has_control, printable};
use crate::problem::{Code, Problem, Severity};
use crate::source::{EntryKind, Source, SourceError};
use crate::validate::{ValidateOptions, validate_with};
use skills_core::text::pytext;

/// The default largest file embedded: 16 MiB, the MCP Skills extension's
/// limit for a whole skill, so no single file exceeds what a host must
/// accept.
///
/// ```
/// assert_eq!(skills_build::DEFAULT_MAX_FILE_SIZE, 16 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// The default deepest directory nesting inside a skill; deeper is taken
/// for a symbolic-link loop.
pub const DEFAULT_MAX_DEPTH: usize = 32;

/// The default most entries (files and directories) walked in one skill.
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;

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

/// What discovery accepts and refuses.
///
/// ```
/// use skills_build::unstable::discover::Options;
/// let options = Options::default().exclude("*.pyc").unwrap();
/// assert_eq!(options.excludes.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Files and directories to skip (junk included).
    pub excludes: Vec<Glob>,
    /// The largest file, in bytes, that may be embedded.
    pub max_file_size: u64,
    /// The deepest directory nesting inside a skill.
    pub max_depth: usize,
    /// The most files and directories walked in one skill.
    pub max_entries: usize,
    /// Report a shadowed skill as an error instead of a warning (for the
    /// macro, which has no way to show a warning).
    pub deny_shadowing: bool,
    /// Accept agentskills-core's extension fields (`version`,
    /// `when_to_use`, `when_not_to_use`, a `metadata.tags` list) with its
    /// rules; off by default, when the reference rejects them as unknown
    /// keys (see the compiler's `extension_fields` module).
    pub extensions: bool,
    /// Embed junk (what `filter::junk` names) like any other file instead
    /// of leaving it out with a note.
    pub keep_junk: bool,
    /// Embed a skill's `evals/` folder (authoring material) instead of
    /// leaving it out with a note.
    pub keep_evals: bool,
    /// The hosts targeted: their fields are checked with their rules, and
    /// their budgets and files too (see the hosts module).
    pub hosts: crate::hosts::Hosts,
    /// How many threads read and validate skills (`0`: every core). The
    /// result is the same whatever the count.
    pub threads: usize,
    /// The audit and lint rules allowed by name: they do not run (see
    /// `docs/audit.md` and `docs/lints.md`).
    pub allowed: Vec<Code>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            excludes: Vec::new(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            max_depth: DEFAULT_MAX_DEPTH,
            max_entries: DEFAULT_MAX_ENTRIES,
            deny_shadowing: false,
            extensions: false,
            keep_junk: false,
            keep_evals: false,
            hosts: crate::hosts::Hosts::default(),
            threads: 0,
            allowed: Vec::new(),
        }
    }
}

impl Options {
    /// Adds an exclude rule (see [`Glob`]).
    ///
    /// ```
    /// assert!(skills_build::unstable::discover::Options::default().exclude("a//b").is_err());
    /// ```
    pub fn exclude(mut self, pattern: &str) -> Result<Self, crate::filter::GlobError> {
        self.excludes.push(Glob::new(pattern)?);
        Ok(self)
    }

    fn excluded(&self, path: &str) -> bool {
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

impl crate::hosts::sidecar::SkillFiles for Vec<ResourceFile> {
    fn bytes_of(&self, path: &str) -> Option<&[u8]> {
        self.iter()
            .find(|file| file.path == path)
            .map(|file| file.bytes.as_slice())
    }
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

    /// The frontmatter `version`, if the skill file parsed and it is text
    /// (what a signature covers, as agentskills-core reads it).
    pub fn version(&self) -> Option<&str> {
        self.document.as_ref()?.frontmatter.text("version")
    }

    /// The content revision over the skill file and every file read with
    /// it, as agentskills-core's `content_revision` computes it: the one a
    /// bundle compiled from this skill records, and what `skills revision`
    /// prints and `skills sign` signs.
    ///
    /// ```
    /// use skills_build::unstable::discover::{discover, Options, Root};
    /// use skills_build::source::MemorySource;
    /// use skills_core::{sha256::digest as sha256, trust::revision::content_revision};
    /// let md = "---\nname: pdf\ndescription: Forms.\n---\n";
    /// let source = MemorySource::new("pdf").with_file("SKILL.md", md).with_file("a.md", "a");
    /// let found = discover(&[Root::new(&source)], &Options::default());
    /// let expected = content_revision([
    ///     ("SKILL.md", md.len() as u64, sha256(md.as_bytes())),
    ///     ("a.md", 1, sha256(b"a")),
    /// ]);
    /// assert_eq!(found.skills[0].revision(), expected);
    /// ```
    pub fn revision(&self) -> skills_core::trust::revision::Revision {
        let skill_file = (
            self.skill_file.as_str(),
            self.skill_file_bytes.len() as u64,
            skills_core::sha256::digest(&self.skill_file_bytes),
        );
        skills_core::trust::revision::content_revision(core::iter::once(skill_file).chain(
            self.files.iter().map(|file| {
                (
                    file.path.as_str(),
                    file.bytes.len() as u64,
                    skills_core::sha256::digest(&file.bytes),
                )
            }),
        ))
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
/// let (name, skill) = found.listed().next().unwrap();
/// assert_eq!((name, skill.files[0].path.as_str()), ("pdf", "reference.md"));
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

impl Discovery {
    /// The listed skills with their listed names, in catalog order.
    pub fn listed(&self) -> impl Iterator<Item = (&str, &DiscoveredSkill)> {
        self.skills
            .iter()
            .filter_map(|skill| skill.listing.name().map(|name| (name, skill)))
    }

    /// Whether any problem is an error.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(Problem::is_error)
    }
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

fn check_qualifier(qualifier: &str) -> Option<&'static str> {
    if qualifier.is_empty() {
        Some("is empty")
    } else if qualifier
        .chars()
        .any(|c| c.is_whitespace() || c.is_control())
    {
        Some("holds whitespace or a control character")
    } else {
        None
    }
}

/// Discovers the skills of `roots`, in order.
///
/// The rules are the `discover` module's, above.
pub fn discover(roots: &[Root<'_>], options: &Options) -> Discovery {
    discover_each(roots, options, &mut |_, _| {})
}

/// How many skill folders of a collection are read (on every core) before
/// they are named and handed on: large enough to keep every thread busy,
/// small beside a registry.
const WINDOW: usize = 256;

/// What is called with the discovery so far and the range of its skills
/// just read, validated and named (listed or not): a window of at most
/// [`WINDOW`] skills at a time, in search order.
pub(crate) type Each<'e> = dyn FnMut(&mut Discovery, std::ops::Range<usize>) + 'e;

/// [`discover`], handing each window of skills to `each` as soon as it is
/// read and named, so that a compiler can take them on (and drop what was
/// read of them) before the next window is read. The discovery that comes
/// out is the same as [`discover`]'s, but for what `each` changed.
pub(crate) fn discover_each(
    roots: &[Root<'_>],
    options: &Options,
    each: &mut Each<'_>,
) -> Discovery {
    let mut found = Discovery::default();
    let mut names = Names::default();
    let mut budget = crate::hosts::budget::Catalog::new(options.hosts);
    let mut seen_locations = BTreeSet::new();
    for (index, root) in roots.iter().enumerate() {
        let location = root.source.location();
        let key = location.strip_suffix('/').unwrap_or(location).to_string();
        found.sources.push(SourceReport {
            location: location.to_string(),
            layout: None,
            skills: 0,
        });
        if !seen_locations.insert(key) {
            found.problems.push(
                Problem::new(
                    Code::SourceDuplicate,
                    format!("the source {location} is given twice; each source may appear once"),
                )
                .with_file(location),
            );
            continue;
        }
        if let Some(reason) = root.qualifier.and_then(check_qualifier) {
            found.problems.push(
                Problem::new(
                    Code::QualifierInvalid,
                    format!(
                        "the qualifier {:?} of source {location} {reason}",
                        root.qualifier.unwrap_or_default()
                    ),
                )
                .with_file(location)
                .with_hint("use a short word such as `team` or `vendor`"),
            );
            continue;
        }
        let before = found.skills.len();
        let mut named = |found: &mut Discovery, range: std::ops::Range<usize>| {
            names.assign(roots, options, found, range.clone());
            for skill in &found.skills[range.clone()] {
                if let (Some(_), Some(name), Some(description)) =
                    (skill.listing.name(), skill.name(), skill.description())
                {
                    budget.add(name, description);
                }
            }
            each(found, range);
        };
        let layout = discover_source(index, *root, options, &mut found, &mut named);
        if let Some(report) = found.sources.last_mut() {
            report.layout = layout;
            report.skills = found.skills.len() - before;
        }
    }
    // The shadowing problems, after every other: the order they have
    // always had before sorting.
    found.problems.append(&mut names.problems);
    found.problems.extend(budget.finish());
    Problem::sort(&mut found.problems);
    found
}

/// The skill file a listing holds: `SKILL.md`, else `skill.md`.
fn skill_file_in(listing: &[crate::source::DirEntry]) -> Option<SkillFileName> {
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

/// The name of the directory a source that is one skill reads: the last
/// segment of its location, or of its real path on disk when the location
/// has none (`.`, `..`).
fn folder_name(root: Root<'_>) -> String {
    let lexical = skills_pycompat::pathlib::dir_name(Path::new(root.source.location()));
    if !lexical.is_empty() && lexical != ".." {
        return lexical;
    }
    root.path
        .and_then(|path| std::fs::canonicalize(path).ok())
        .and_then(|real| real.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or(lexical)
}

/// Reads one source; returns what it turned out to be (`None` when it
/// could not be listed or held no skill, both reported).
fn discover_source(
    index: usize,
    root: Root<'_>,
    options: &Options,
    found: &mut Discovery,
    named: &mut Each<'_>,
) -> Option<Layout> {
    let source = root.source;
    let location = source.location();
    let entries = match source.list("") {
        Ok(entries) => entries,
        Err(error) => {
            found.problems.push(
                unreadable(
                    Code::SourceUnreadable,
                    format!("cannot list the source {location}: {error}"),
                    &error,
                )
                .with_file(location),
            );
            return None;
        }
    };
    if let Some(skill_file) = skill_file_in(&entries) {
        let name = folder_name(root);
        let before = found.problems.len();
        let skill = read_skill(
            index,
            source,
            (&name, ""),
            skill_file,
            options,
            &mut found.problems,
        );
        let owner = found.skills.len();
        for problem in &mut found.problems[before..] {
            problem.set_skill(owner);
        }
        found.skills.push(skill);
        named(found, found.skills.len() - 1..found.skills.len());
        return Some(Layout::Skill);
    }
    let before = found.skills.len();
    // Each folder is listed, read and validated on its own, on every core;
    // the results are taken in folder order, as one thread would.
    let dirs: Vec<&str> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Dir)
        .map(|e| e.name.as_str())
        .collect();
    let read_window = |dirs: &[&str]| {
        crate::parallel::map(dirs, options.threads, |dir| {
            let mut problems = Vec::new();
            let listing = match source.list(dir) {
                Ok(listing) => listing,
                Err(error) => {
                    problems.push(
                        unreadable(
                            Code::SourceUnreadable,
                            format!("cannot list {dir}: {error}"),
                            &error,
                        )
                        .with_file(join_location(location, dir)),
                    );
                    return (problems, None);
                }
            };
            let skill = skill_file_in(&listing).map(|skill_file| {
                read_skill(
                    index,
                    source,
                    (dir, dir),
                    skill_file,
                    options,
                    &mut problems,
                )
            });
            (problems, skill)
        })
    };
    for window in dirs.chunks(WINDOW) {
        let start = found.skills.len();
        for (mut problems, skill) in read_window(window) {
            // A folder's problems belong to its skill, when it has one.
            if skill.is_some() {
                let owner = found.skills.len();
                for problem in &mut problems {
                    problem.set_skill(owner);
                }
            }
            found.problems.extend(problems);
            found.skills.extend(skill);
        }
        named(found, start..found.skills.len());
    }
    if found.skills.len() > before {
        return Some(Layout::Collection);
    }
    found.problems.push(no_skill_problem(root, &entries));
    None
}

/// The skill folders a directory on disk stands for, by the rule every
/// route follows: the directory itself when it holds a skill file, else
/// its direct subdirectories that hold one (in name order, as paths under
/// `dir`). For `skills fmt`, which rewrites skill files in place; the
/// commands that read skills go through [`crate::unstable::read`] or
/// [`crate::Builder::run`] instead, which also read archives.
///
/// A path that does not exist, is not a directory, or holds no skill is
/// the same problem the pipeline reports ([`Code::NoSkills`] and so on).
///
/// ```
/// use skills_build::Layout;
/// use skills_build::unstable::discover::skill_folders;
/// use skills_build::problem::Code;
/// let skills = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("doc-skills");
/// let (layout, folders) = skill_folders(&skills).unwrap();
/// assert_eq!(layout, Layout::Collection);
/// assert!(folders.iter().any(|f| f.ends_with("git-rebase")));
/// let (layout, folders) = skill_folders(&folders[0]).unwrap();
/// assert_eq!((layout, folders.len()), (Layout::Skill, 1));
/// assert_eq!(skill_folders("no/such".as_ref()).unwrap_err().code, Code::SourceNotFound);
/// ```
pub fn skill_folders(dir: &Path) -> Result<(Layout, Vec<std::path::PathBuf>), Problem> {
    let source = crate::source::DirSource::new(dir).map_err(|error| open_problem(dir, &error))?;
    let root = Root::new(&source).on_disk(dir);
    let location = source.location();
    let entries = source.list("").map_err(|error| {
        unreadable(
            Code::SourceUnreadable,
            format!("cannot list the source {location}: {error}"),
            &error,
        )
        .with_file(location)
    })?;
    if skill_file_in(&entries).is_some() {
        return Ok((Layout::Skill, vec![dir.to_path_buf()]));
    }
    let folders: Vec<_> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Dir)
        .filter(|e| {
            source
                .list(&e.name)
                .is_ok_and(|listing| skill_file_in(&listing).is_some())
        })
        .map(|e| dir.join(&e.name))
        .collect();
    if folders.is_empty() {
        return Err(no_skill_problem(root, &entries));
    }
    Ok((Layout::Collection, folders))
}

/// The error for a source that holds no skill.
fn no_skill_problem(root: Root<'_>, entries: &[crate::source::DirEntry]) -> Problem {
    let location = root.source.location();
    let problem = Problem::new(
        Code::NoSkills,
        format!(
            "no skill found in {location}: neither {} nor {} exists",
            join_location(location, "SKILL.md"),
            join_location(location, "*/SKILL.md"),
        ),
    )
    .with_file(location);
    match no_skill_hint(root, entries) {
        Some(hint) => problem.with_hint(hint),
        None => problem
            .with_hint("give a skill folder (it holds SKILL.md) or a folder of skill folders"),
    }
}

/// Where the skills might be when a source holds none: one level deeper
/// (the source is a skills folder's parent), or around it (the source is a
/// folder inside a skill).
fn no_skill_hint(root: Root<'_>, entries: &[crate::source::DirEntry]) -> Option<String> {
    let location = root.source.location();
    let mut deeper = Vec::new();
    for entry in entries.iter().filter(|e| e.kind == EntryKind::Dir) {
        if junk(&entry.name, true).is_some() {
            continue;
        }
        let Ok(children) = root.source.list(&entry.name) else {
            continue;
        };
        let holds_skills = children.iter().any(|child| {
            child.kind == EntryKind::Dir
                && root
                    .source
                    .list(&format!("{}/{}", entry.name, child.name))
                    .is_ok_and(|listing| skill_file_in(&listing).is_some())
        });
        if holds_skills {
            deeper.push(join_location(location, &entry.name));
        }
    }
    if !deeper.is_empty() {
        return Some(format!(
            "skills sit one level deeper, in {}: give {} instead",
            deeper.join(", "),
            if deeper.len() == 1 {
                "that folder"
            } else {
                "those folders"
            }
        ));
    }
    let path = root.path?;
    let real = std::fs::canonicalize(path).ok()?;
    let skill = real.ancestors().skip(1).find(|dir| {
        crate::skill_file::SKILL_FILE_NAMES
            .iter()
            .any(|name| dir.join(name).is_file())
    })?;
    let depth = real.ancestors().position(|dir| dir == skill)?;
    // Name the skill the way the user named the source when that works.
    let lexical = Path::new(location)
        .ancestors()
        .nth(depth)
        .filter(|p| !p.as_os_str().is_empty())
        .filter(|p| std::fs::canonicalize(p).ok().as_deref() == Some(skill));
    let shown = lexical.map_or_else(|| skill.display().to_string(), |p| p.display().to_string());
    Some(format!(
        "{location} is inside the skill {shown}; give the skill folder {shown} instead"
    ))
}

/// `dir/name`, or `name` at the root.
fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Reads the skill named `name` at `path` in the source.
fn read_skill(
    index: usize,
    source: &dyn Source,
    (name, path): (&str, &str),
    skill_file: SkillFileName,
    options: &Options,
    problems: &mut Vec<Problem>,
) -> DiscoveredSkill {
    let location = source.location();
    let file_location = join_location(location, &join(path, skill_file.as_str()));
    let mut skill_file_bytes = Vec::new();
    let document = read_document(
        source,
        (name, path),
        skill_file,
        &file_location,
        options,
        problems,
        &mut skill_file_bytes,
    );
    let mut walk = Walk {
        source,
        dir: path,
        skill_file,
        options,
        location,
        entries: 0,
        bytes: skill_file_bytes.len() as u64,
        files: Vec::new(),
        problems,
    };
    walk.walk("", 0);
    let mut files = walk.files;
    files.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
    let sidecar = join_location(location, &join(path, crate::hosts::sidecar::SIDECAR));
    problems.extend(crate::hosts::sidecar::check(
        &files,
        options.hosts,
        &sidecar,
    ));
    let folder_location = join_location(location, path);
    let views: Vec<crate::content::File<'_>> = files
        .iter()
        .map(|file| crate::content::File {
            path: &file.path,
            bytes: &file.bytes,
        })
        .collect();
    problems.extend(crate::content::check(
        &crate::content::Skill {
            skill_file: skill_file.as_str(),
            file_location: &file_location,
            folder_location: &folder_location,
            bytes: &skill_file_bytes,
            document: document.as_ref(),
            files: &views,
        },
        &options.allowed,
    ));
    DiscoveredSkill {
        source: index,
        source_location: location.to_string(),
        dir: name.to_string(),
        path: path.to_string(),
        skill_file,
        file_location,
        document,
        skill_file_bytes,
        files,
        listing: Listing::Unlisted(String::new()),
    }
}

fn read_document(
    source: &dyn Source,
    (dir, path): (&str, &str),
    skill_file: SkillFileName,
    file_location: &str,
    options: &Options,
    problems: &mut Vec<Problem>,
    raw: &mut Vec<u8>,
) -> Option<SkillDocument> {
    let bytes = match source.read_limited(&join(path, skill_file.as_str()), options.max_file_size) {
        Ok(bytes) => bytes,
        Err(SourceError::TooLarge { size, limit, .. }) => {
            problems.push(size_problem(size, limit).with_file(file_location));
            return None;
        }
        Err(error) => {
            problems.push(
                unreadable(
                    Code::SkillFileUnreadable,
                    format!("cannot read the skill file: {error}"),
                    &error,
                )
                .with_file(file_location),
            );
            return None;
        }
    };
    let parsed = frontmatter::parse(&bytes);
    *raw = bytes;
    match parsed {
        Ok(doc) => {
            let rules = ValidateOptions {
                extensions: options.extensions,
                hosts: options.hosts,
            };
            for problem in validate_with(&doc, dir, &rules) {
                problems.push(problem.with_file(file_location));
            }
            if let Err(problem) = fence::parts(&doc) {
                problems.push(problem.with_file(file_location));
            }
            Some(doc)
        }
        Err(error) => {
            problems.push(error.to_problem_in(file_location));
            None
        }
    }
}

/// The problem of a file over the size limit; `size` is `None` when the
/// file grew past the limit while it was read.
fn size_problem(size: Option<u64>, max: u64) -> Problem {
    let message = match size {
        Some(size) => format!("the file is {size} bytes, over the {max}-byte limit for one file"),
        None => format!("the file holds more than the {max}-byte limit for one file"),
    };
    Problem::new(Code::FileTooLarge, message)
        .with_hint("exclude it, make it smaller, or raise the limit (max_file_size)")
}

/// The folder of a skill that holds its evaluations (agentskills.io's
/// evaluation guide: `evals/evals.json`, trigger queries), left out of
/// bundles unless [`Options::keep_evals`].
pub const EVALS: &str = "evals";

/// The walk over one skill directory.
struct Walk<'w> {
    source: &'w dyn Source,
    dir: &'w str,
    skill_file: SkillFileName,
    options: &'w Options,
    location: &'w str,
    entries: usize,
    /// Bytes read so far, the skill file's included: reading stops past
    /// the per-skill limit, so a skill of many large files cannot take
    /// memory without bound.
    bytes: u64,
    files: Vec<ResourceFile>,
    problems: &'w mut Vec<Problem>,
}

impl Walk<'_> {
    fn full(&self, rel: &str) -> String {
        if rel.is_empty() {
            self.dir.to_string()
        } else {
            join(self.dir, rel)
        }
    }

    fn problem(&mut self, rel: &str, problem: Problem) {
        let file = join_location(self.location, &self.full(rel));
        self.problems.push(problem.with_file(file));
    }

    /// Walks `rel` (relative to the skill directory); returns `false` once
    /// a limit stops the walk.
    fn walk(&mut self, rel: &str, depth: usize) -> bool {
        if depth > self.options.max_depth {
            let max = self.options.max_depth;
            self.problem(
                rel,
                Problem::new(Code::TreeTooDeep, format!(
                    "directories nest deeper than {max} levels here; is a symbolic link pointing back up the tree?"
                ))
                .with_hint("remove the link, or exclude the directory"),
            );
            return false;
        }
        let listing = match self.source.list(&self.full(rel)) {
            Ok(listing) => listing,
            Err(error) => {
                self.problem(
                    rel,
                    unreadable(
                        Code::SourceUnreadable,
                        format!("cannot list the directory: {error}"),
                        &error,
                    ),
                );
                return true;
            }
        };
        for entry in listing {
            self.entries += 1;
            if self.entries > self.options.max_entries {
                let max = self.options.max_entries;
                self.problem(
                    rel,
                    Problem::new(Code::TreeTooManyEntries, format!(
                        "the skill holds more than {max} files and directories; is a symbolic link looping?"
                    ))
                    .with_hint("exclude generated or vendored directories"),
                );
                return false;
            }
            let path = if rel.is_empty() {
                entry.name.clone()
            } else {
                format!("{rel}/{}", entry.name)
            };
            if rel.is_empty() && entry.name == self.skill_file.as_str() {
                continue;
            }
            if self.options.excluded(&path) {
                continue;
            }
            if !self.options.keep_junk
                && let Some(kind) = junk(&entry.name, entry.kind == EntryKind::Dir)
            {
                let what = if entry.kind == EntryKind::Dir {
                    "directory"
                } else {
                    "file"
                };
                self.problem(
                    &path,
                    Problem::new(
                        Code::JunkSkipped,
                        format!("left out {path}: {kind}, not part of the skill"),
                    )
                    .with_hint(format!(
                        "delete the {what}, or embed it anyway with keep_junk (skills: --keep-junk)"
                    )),
                );
                continue;
            }
            if rel.is_empty()
                && entry.name == EVALS
                && entry.kind == EntryKind::Dir
                && !self.options.keep_evals
            {
                self.problem(
                    &path,
                    Problem::new(
                        Code::EvalsSkipped,
                        format!("left out {path}/: evaluations, authoring material a shipped skill does not need"),
                    )
                    .with_hint("embed it anyway with keep_evals = true (skills: --keep-evals)"),
                );
                continue;
            }
            if entry.name.contains('\\') {
                self.problem(
                    &path,
                    Problem::new(
                        Code::FileNameBackslash,
                        "the name holds a backslash, which the skill tool refuses in paths",
                    )
                    .with_hint("rename it, or exclude it"),
                );
                continue;
            }
            if has_control(&entry.name) {
                self.problem(
                    &printable(&path),
                    Problem::new(Code::FileNameControl, format!(
                        "the name {:?} holds a control character, which would forge lines in the file list a model reads",
                        entry.name
                    ))
                    .with_hint("rename it, or exclude it"),
                );
                continue;
            }
            match entry.kind {
                EntryKind::Dir => {
                    if !self.walk(&path, depth + 1) {
                        return false;
                    }
                }
                EntryKind::File => {
                    if !self.file(&path) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Reads one file; returns `false` once the skill's byte limit stops
    /// the walk.
    fn file(&mut self, path: &str) -> bool {
        if names_skill_file(path) {
            let used = self.skill_file.as_str();
            self.problem(
                path,
                Problem::new(Code::SkillFileDuplicate, format!(
                    "{path} sits beside {used}; a read of it would serve the instructions of {used}"
                ))
                .with_hint("merge the two files into one"),
            );
            return true;
        }
        match self
            .source
            .read_limited(&self.full(path), self.options.max_file_size)
        {
            Ok(bytes) => {
                self.bytes += bytes.len() as u64;
                self.files.push(ResourceFile {
                    path: path.to_string(),
                    bytes,
                    executable: self.source.executable(&self.full(path)),
                });
                if self.bytes > MAX_SKILL_BYTES {
                    self.problem(
                        path,
                        Problem::new(Code::SkillTooLarge, format!(
                            "the skill's files add up to more than {MAX_SKILL_BYTES} bytes (16 MiB) here, over the MCP Skills extension's limit per skill; the rest are not read"
                        ))
                        .with_hint("move large files out of the skill, or split it in two"),
                    );
                    return false;
                }
            }
            Err(SourceError::TooLarge { size, limit, .. }) => {
                self.problem(path, size_problem(size, limit));
            }
            Err(error) => self.problem(
                path,
                unreadable(
                    Code::FileUnreadable,
                    format!("cannot read the file: {error}"),
                    &error,
                ),
            ),
        }
        true
    }
}

/// Gives every readable skill its listing, in search order, one range of
/// skills after another: a skill's listing depends on the skills before it
/// alone.
#[derive(Default)]
struct Names {
    /// Listed name -> (source index, location of the skill that took it).
    taken: BTreeMap<String, (usize, String)>,
    /// The shadowing problems met so far.
    problems: Vec<Problem>,
}

impl Names {
    fn assign(
        &mut self,
        roots: &[Root<'_>],
        options: &Options,
        found: &mut Discovery,
        range: std::ops::Range<usize>,
    ) {
        let taken = &mut self.taken;
        let first = range.start;
        assign_names(
            roots,
            options,
            &mut found.skills[range],
            first,
            taken,
            &mut self.problems,
        );
    }
}

fn assign_names(
    roots: &[Root<'_>],
    options: &Options,
    skills: &mut [DiscoveredSkill],
    first: usize,
    taken: &mut BTreeMap<String, (usize, String)>,
    problems: &mut Vec<Problem>,
) {
    for (at, skill) in skills.iter_mut().enumerate() {
        let listing = match (skill.name(), skill.description()) {
            (None, _) | (Some(""), _) => Listing::Unlisted("it has no usable name".into()),
            (_, None) | (_, Some("")) => Listing::Unlisted("it has no usable description".into()),
            (Some(name), _) if name.contains(':') => {
                Listing::Unlisted("its name holds a colon".into())
            }
            (Some(name), _) => {
                let qualifier = roots.get(skill.source).and_then(|root| root.qualifier);
                match taken.get(name) {
                    None => Listing::Listed(name.to_string()),
                    Some((source, by)) => match qualifier {
                        Some(qualifier) if *source < skill.source => {
                            let qualified = format!("{qualifier}:{name}");
                            match taken.get(&qualified) {
                                None => Listing::Listed(qualified),
                                Some((_, by)) => Listing::Shadowed { by: by.clone() },
                            }
                        }
                        _ => Listing::Shadowed { by: by.clone() },
                    },
                }
            }
        };
        match &listing {
            Listing::Listed(name) => {
                taken.insert(name.clone(), (skill.source, skill.file_location.clone()));
            }
            Listing::Shadowed { by } => {
                let message = format!(
                    "skill {:?} is shadowed by {by}, which took the name first; it is not listed",
                    skill.name().unwrap_or_default()
                );
                let problem = Problem::new(Code::SkillShadowed, message);
                let problem = if options.deny_shadowing {
                    problem.with_severity(Severity::Error)
                } else {
                    problem
                };
                problems.push(
                    problem
                        .with_field("name")
                        .with_file(skill.file_location.clone())
                        .with_hint("give its source a qualifier to list it as `qualifier:name`")
                        .of_skill(first + at),
                );
            }
            Listing::Unlisted(_) => {}
        }
        skill.listing = listing;
    }
}

/// A source that could not list or read a path: `message` (which quotes
/// `error`), with the error's help line when it has one (a link leaving the
/// source: copy its target in).
fn unreadable(code: Code, message: String, error: &SourceError) -> Problem {
    let problem = Problem::new(code, message);
    match error.hint() {
        Some(hint) => problem.with_hint(hint),
        None => problem,
    }
}

/// The problem for a source directory that could not be opened: missing,
/// not a directory (a skill file given for its folder is hinted), or
/// unreadable.
pub(crate) fn open_problem(dir: &Path, error: &crate::source::SourceError) -> Problem {
    use crate::source::SourceError;
    let shown = dir.display().to_string();
    let problem = match error {
        SourceError::NotFound(_) => Problem::new(
            Code::SourceNotFound,
            format!("the source {shown} does not exist"),
        ),
        SourceError::Io { error, .. } if error.kind() == std::io::ErrorKind::NotADirectory => {
            let problem = Problem::new(
                Code::SourceNotDirectory,
                format!("the source {shown} is not a directory"),
            );
            match dir.parent() {
                Some(parent)
                    if crate::skill_file::SKILL_FILE_NAMES
                        .iter()
                        .any(|name| dir.file_name() == Some(std::ffi::OsStr::new(name))) =>
                {
                    let parent = match parent.as_os_str().is_empty() {
                        true => ".".to_string(),
                        false => parent.display().to_string(),
                    };
                    problem.with_hint(format!("give the skill folder {parent} instead"))
                }
                _ => problem.with_hint("give a skill folder or a folder of skills"),
            }
        }
        other => Problem::new(
            Code::SourceUnreadable,
            format!("cannot open the source {shown}: {other}"),
        ),
    };
    problem.with_file(shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::MemorySource;

    fn skill(name: &str) -> String {
        format!(
            "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody of {name}; see scripts/.\n"
        )
    }

    #[test]
    fn first_source_wins_and_qualifiers_list_the_rest() {
        let a = MemorySource::new("a").with_file("pdf/SKILL.md", skill("pdf"));
        let b = MemorySource::new("b").with_file("pdf/SKILL.md", skill("pdf"));
        let c = MemorySource::new("c/").with_file("pdf/skill.md", skill("pdf"));
        let found = discover(
            &[
                Root::new(&a),
                Root::new(&b),
                Root::new(&c).qualified("team"),
            ],
            &Options::default(),
        );
        let names: Vec<_> = found.listed().map(|(n, _)| n).collect();
        assert_eq!(names, ["pdf", "team:pdf"]);
        assert_eq!(found.problems.len(), 1, "{:?}", found.problems);
        assert!(
            found.problems[0]
                .message
                .contains("shadowed by a/pdf/SKILL.md")
        );
        assert_eq!(found.problems[0].file.as_deref(), Some("b/pdf/SKILL.md"));
        assert_eq!(found.skills[2].file_location, "c/pdf/skill.md");
    }

    #[test]
    fn duplicate_sources_and_bad_qualifiers() {
        let a = MemorySource::new("a").with_file("pdf/SKILL.md", skill("pdf"));
        let a2 = MemorySource::new("a/");
        let b = MemorySource::new("b");
        let found = discover(
            &[
                Root::new(&a),
                Root::new(&a2),
                Root::new(&b).qualified("x y"),
            ],
            &Options::default(),
        );
        let codes: Vec<_> = found.problems.iter().map(|p| p.code).collect();
        assert_eq!(codes, [Code::SourceDuplicate, Code::QualifierInvalid]);
        assert!(found.has_errors());
    }

    #[test]
    fn a_source_is_one_skill_or_a_collection_and_never_empty() {
        let one = MemorySource::new("skills/pdf")
            .with_file("SKILL.md", skill("pdf"))
            .with_file("scripts/fill.py", "print(1)\n");
        let many = MemorySource::new("skills").with_file("csv/SKILL.md", skill("csv"));
        let parent = MemorySource::new(".").with_file("skills/csv/skill.md", skill("csv"));
        let empty = MemorySource::new("empty").with_file("README.md", "no skill");
        let found = discover(
            &[
                Root::new(&one),
                Root::new(&many),
                Root::new(&parent),
                Root::new(&empty),
            ],
            &Options::default(),
        );
        let layouts: Vec<_> = found.sources.iter().map(|s| (s.layout, s.skills)).collect();
        assert_eq!(
            layouts,
            [
                (Some(Layout::Skill), 1),
                (Some(Layout::Collection), 1),
                (None, 0),
                (None, 0)
            ]
        );
        assert_eq!(found.skills[0].dir, "pdf");
        assert_eq!(found.skills[0].path, "");
        assert_eq!(found.skills[0].file_location, "skills/pdf/SKILL.md");
        assert_eq!(found.skills[0].files[0].path, "scripts/fill.py");
        let no_skills: Vec<_> = found
            .problems
            .iter()
            .filter(|p| p.code == Code::NoSkills)
            .map(|p| {
                (
                    p.file.as_deref().unwrap_or(""),
                    p.hint.as_deref().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(
            no_skills,
            [
                (
                    ".",
                    "skills sit one level deeper, in ./skills: give that folder instead"
                ),
                (
                    "empty",
                    "give a skill folder (it holds SKILL.md) or a folder of skill folders"
                ),
            ]
        );
        assert_eq!(
            found.problems[0].message,
            "no skill found in .: neither ./SKILL.md nor ./*/SKILL.md exists"
        );
    }

    #[test]
    fn junk_is_left_out_with_a_note_unless_kept() {
        let source = MemorySource::new("s")
            .with_file("pdf/SKILL.md", skill("pdf"))
            .with_file("pdf/.DS_Store", "x")
            .with_file("pdf/node_modules/left-pad/index.js", "x")
            .with_file("pdf/.git/HEAD", "ref")
            .with_file("pdf/scripts/__pycache__/a.pyc", "x")
            .with_file("pdf/scripts/fill.py", "x");
        let found = discover(&[Root::new(&source)], &Options::default());
        let notes: Vec<_> = found
            .problems
            .iter()
            .map(|p| (p.code, p.severity, p.file.as_deref().unwrap_or("")))
            .collect();
        assert_eq!(
            notes,
            [
                (Code::JunkSkipped, Severity::Note, "s/pdf/.DS_Store"),
                (Code::JunkSkipped, Severity::Note, "s/pdf/.git"),
                (Code::JunkSkipped, Severity::Note, "s/pdf/node_modules"),
                (
                    Code::JunkSkipped,
                    Severity::Note,
                    "s/pdf/scripts/__pycache__"
                ),
            ]
        );
        let files: Vec<_> = found.skills[0]
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(files, ["scripts/fill.py"]);
        let kept = discover(
            &[Root::new(&source)],
            &Options {
                keep_junk: true,
                ..Options::default()
            },
        );
        assert!(kept.problems.is_empty(), "{:?}", kept.problems);
        assert_eq!(kept.skills[0].files.len(), 5);
    }
}
