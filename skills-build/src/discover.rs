//! Finding skills across an ordered list of sources.
//!
//! Each direct child directory of a source whose listing holds `SKILL.md`
//! (else `skill.md`, names matched exactly) is a skill. Its skill file is
//! read, parsed and validated, and every other file under it is collected,
//! sorted by path in byte order. Names resolve the way `PATH` resolves a
//! command: the first source to offer a name wins it; a later skill of
//! that name is shadowed (a warning), unless its source has a qualifier,
//! in which case it is listed as `qualifier:name`.
//!
//! Every problem is collected; nothing stops at the first, nothing panics.

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use skills_core::bundle::SkillFileName;
use skills_core::manifest::MAX_SKILL_BYTES;
use skills_core::path::names_skill_file;

use crate::fence;
use crate::filter::{Glob, is_junk};
use crate::frontmatter::{self, SkillDocument};
use crate::printable::{has_control, printable};
use crate::problem::Problem;
use crate::pyunicode;
use crate::source::{EntryKind, Source, SourceError};
use crate::validate::{ValidateOptions, validate_with};

/// The default largest file embedded: 16 MiB, the MCP Skills extension's
/// limit for a whole skill, so no single file exceeds what a host must
/// accept.
///
/// ```
/// assert_eq!(skills_build::discover::DEFAULT_MAX_FILE_SIZE, 16 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// The default deepest directory nesting inside a skill; deeper is taken
/// for a symbolic-link loop.
///
/// ```
/// assert_eq!(skills_build::discover::DEFAULT_MAX_DEPTH, 32);
/// ```
pub const DEFAULT_MAX_DEPTH: usize = 32;

/// The default most entries (files and directories) walked in one skill.
///
/// ```
/// assert_eq!(skills_build::discover::DEFAULT_MAX_ENTRIES, 100_000);
/// ```
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;

/// One source in the search order, with its optional qualifier.
///
/// ```
/// use skills_build::discover::Root;
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
}

impl std::fmt::Debug for Root<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Root")
            .field("location", &self.source.location())
            .field("qualifier", &self.qualifier)
            .finish()
    }
}

impl<'a> Root<'a> {
    /// A source without a qualifier.
    ///
    /// ```
    /// use skills_build::{discover::Root, source::MemorySource};
    /// let source = MemorySource::new("m");
    /// assert_eq!(Root::new(&source).qualifier, None);
    /// ```
    pub fn new(source: &'a dyn Source) -> Self {
        Root {
            source,
            qualifier: None,
        }
    }

    /// Gives the source a qualifier.
    ///
    /// ```
    /// use skills_build::{discover::Root, source::MemorySource};
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
/// use skills_build::discover::Options;
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
    /// keys (see [`crate::extensions`]).
    pub extensions: bool,
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
        }
    }
}

impl Options {
    /// Adds an exclude rule (see [`Glob`]).
    ///
    /// ```
    /// assert!(skills_build::discover::Options::default().exclude("a//b").is_err());
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
/// let file = skills_build::discover::SkillFile { path: "reference.md".into(), bytes: b"x".to_vec() };
/// assert_eq!(file.bytes.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    /// The path inside the skill directory, `/`-separated.
    pub path: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// Whether, and under which name, a skill is listed.
///
/// ```
/// use skills_build::discover::Listing;
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
    /// assert_eq!(skills_build::discover::Listing::Unlisted("no name".into()).name(), None);
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
    /// Its directory's name.
    pub dir: String,
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
    pub files: Vec<SkillFile>,
    /// Whether and how it is listed.
    pub listing: Listing,
}

impl DiscoveredSkill {
    /// The frontmatter `name`, stripped, if it is text.
    pub fn name(&self) -> Option<&str> {
        let doc = self.document.as_ref()?;
        doc.frontmatter.text("name").map(pyunicode::strip)
    }

    /// The frontmatter `description`, stripped, if it is text.
    pub fn description(&self) -> Option<&str> {
        let doc = self.document.as_ref()?;
        doc.frontmatter.text("description").map(pyunicode::strip)
    }
}

/// Everything discovery found: the skills, in source order then directory
/// order, and every problem, sorted by file and position.
///
/// ```
/// use skills_build::discover::{discover, Options, Root};
/// use skills_build::source::MemorySource;
/// let source = MemorySource::new("skills")
///     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Fill PDF forms.\n---\nGo.\n")
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
    /// Every problem, errors and warnings.
    pub problems: Vec<Problem>,
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

/// `location/rest`, with one trailing `/` of the location dropped.
pub(crate) fn join_location(location: &str, rest: &str) -> String {
    let location = location.strip_suffix('/').unwrap_or(location);
    if location.is_empty() {
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
/// See the [module documentation](self) for the rules.
pub fn discover(roots: &[Root<'_>], options: &Options) -> Discovery {
    let mut found = Discovery::default();
    let mut seen_locations = BTreeSet::new();
    for (index, root) in roots.iter().enumerate() {
        let location = root.source.location();
        let key = location.strip_suffix('/').unwrap_or(location).to_string();
        if !seen_locations.insert(key) {
            found.problems.push(
                Problem::spec_error(format!(
                    "the source {location} is given twice; each source may appear once"
                ))
                .with_file(location),
            );
            continue;
        }
        if let Some(reason) = root.qualifier.and_then(check_qualifier) {
            found.problems.push(
                Problem::spec_error(format!(
                    "the qualifier {:?} of source {location} {reason}",
                    root.qualifier.unwrap_or_default()
                ))
                .with_file(location)
                .with_hint("use a short word such as `team` or `vendor`"),
            );
            continue;
        }
        discover_source(index, *root, options, &mut found);
    }
    assign_names(roots, options, &mut found);
    Problem::sort(&mut found.problems);
    found
}

fn discover_source(index: usize, root: Root<'_>, options: &Options, found: &mut Discovery) {
    let source = root.source;
    let location = source.location();
    let entries = match source.list("") {
        Ok(entries) => entries,
        Err(error) => {
            found.problems.push(
                Problem::spec_error(format!("cannot list the source {location}: {error}"))
                    .with_file(location),
            );
            return;
        }
    };
    for entry in entries.iter().filter(|e| e.kind == EntryKind::Dir) {
        let dir = entry.name.as_str();
        let listing = match source.list(dir) {
            Ok(listing) => listing,
            Err(error) => {
                found.problems.push(
                    Problem::spec_error(format!("cannot list {dir}: {error}"))
                        .with_file(join_location(location, dir)),
                );
                continue;
            }
        };
        let has = |name: &str| {
            listing
                .iter()
                .any(|e| e.kind == EntryKind::File && e.name == name)
        };
        let skill_file = if has(SkillFileName::Upper.as_str()) {
            SkillFileName::Upper
        } else if has(SkillFileName::Lower.as_str()) {
            SkillFileName::Lower
        } else {
            continue;
        };
        let skill = read_skill(index, source, dir, skill_file, options, &mut found.problems);
        found.skills.push(skill);
    }
}

fn read_skill(
    index: usize,
    source: &dyn Source,
    dir: &str,
    skill_file: SkillFileName,
    options: &Options,
    problems: &mut Vec<Problem>,
) -> DiscoveredSkill {
    let location = source.location();
    let file_location = join_location(location, &format!("{dir}/{}", skill_file.as_str()));
    let mut skill_file_bytes = Vec::new();
    let document = read_document(
        source,
        dir,
        skill_file,
        &file_location,
        options,
        problems,
        &mut skill_file_bytes,
    );
    let mut walk = Walk {
        source,
        dir,
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
    DiscoveredSkill {
        source: index,
        source_location: location.to_string(),
        dir: dir.to_string(),
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
    dir: &str,
    skill_file: SkillFileName,
    file_location: &str,
    options: &Options,
    problems: &mut Vec<Problem>,
    raw: &mut Vec<u8>,
) -> Option<SkillDocument> {
    let bytes = match source.read_limited(
        &format!("{dir}/{}", skill_file.as_str()),
        options.max_file_size,
    ) {
        Ok(bytes) => bytes,
        Err(SourceError::TooLarge { size, limit, .. }) => {
            problems.push(size_problem(size, limit).with_file(file_location));
            return None;
        }
        Err(error) => {
            problems.push(
                Problem::spec_error(format!("cannot read the skill file: {error}"))
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
            problems.push(
                Problem::error(error.to_string())
                    .with_file(file_location)
                    .at_opt(error.position()),
            );
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
    Problem::spec_error(message)
        .with_hint("exclude it, make it smaller, or raise the limit (max_file_size)")
}

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
    files: Vec<SkillFile>,
    problems: &'w mut Vec<Problem>,
}

impl Walk<'_> {
    fn full(&self, rel: &str) -> String {
        if rel.is_empty() {
            self.dir.to_string()
        } else {
            format!("{}/{rel}", self.dir)
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
                Problem::spec_error(format!(
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
                    Problem::spec_error(format!("cannot list the directory: {error}")),
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
                    Problem::spec_error(format!(
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
            if entry.name.contains('\\') {
                self.problem(
                    &path,
                    Problem::spec_error(
                        "the name holds a backslash, which the skill tool refuses in paths",
                    )
                    .with_hint("rename it, or exclude it"),
                );
                continue;
            }
            if has_control(&entry.name) {
                self.problem(
                    &printable(&path),
                    Problem::spec_error(format!(
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
                    if !self.file(&path, &entry.name) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Reads one file; returns `false` once the skill's byte limit stops
    /// the walk.
    fn file(&mut self, path: &str, name: &str) -> bool {
        if let Some(kind) = is_junk(name) {
            self.problem(
                path,
                Problem::spec_error(format!("{name} is {kind}, not part of the skill")).with_hint(
                    format!("delete it, or skip it with an exclude rule such as {name:?}"),
                ),
            );
            return true;
        }
        if names_skill_file(path) {
            let used = self.skill_file.as_str();
            self.problem(
                path,
                Problem::spec_error(format!(
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
                self.files.push(SkillFile {
                    path: path.to_string(),
                    bytes,
                });
                if self.bytes > MAX_SKILL_BYTES {
                    self.problem(
                        path,
                        Problem::spec_error(format!(
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
                Problem::spec_error(format!("cannot read the file: {error}")),
            ),
        }
        true
    }
}

/// Gives every readable skill its listing, in search order.
fn assign_names(roots: &[Root<'_>], options: &Options, found: &mut Discovery) {
    // Listed name -> (source index, location of the skill that took it).
    let mut taken: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for skill in &mut found.skills {
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
                let problem = if options.deny_shadowing {
                    Problem::spec_error(message)
                } else {
                    Problem::warning(message)
                };
                found.problems.push(
                    problem
                        .with_field("name")
                        .with_file(skill.file_location.clone())
                        .with_hint("give its source a qualifier to list it as `qualifier:name`"),
                );
            }
            Listing::Unlisted(_) => {}
        }
        skill.listing = listing;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::MemorySource;

    fn skill(name: &str) -> String {
        format!("---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n")
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
        let a = MemorySource::new("a");
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
        assert_eq!(found.problems.len(), 2);
        assert!(found.has_errors());
    }
}
