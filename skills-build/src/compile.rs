//! From discovered skills to bundle bytes, by one route: the
//! [`Compiler`], which takes each window of skills as discovery reads it.
//!
//! The compiler precomputes what the `skill` tool serves: the usage paragraph and tool definition,
//! and for each listed skill its instructions text (the body after the
//! closing `---` line, then the list of files with sizes), its files with
//! their media kinds, and SHA-256 digests of every file, of the
//! frontmatter and of the instructions. It fills the runtime's wire types
//! and encodes them, each skill on its own thread; the result depends on
//! nothing but the skills. The `<available_skills>` prompt and the
//! outlines are not stored: the runtime renders them from the skills
//! (`skills_core::features::render`, `skills_core::features::outline`), which costs fewer
//! bytes than storing them.

use std::fmt;
use std::ops::Range;

use skills_core::sha256::digest as sha256;
use skills_core::wire::bundle::{
    Bytes, Content, EncodeError, File, Skill, SkillFileName, ToolRule,
};
use skills_core::wire::instructions;

use crate::allowed_tools;
use crate::discover::{DiscoveredSkill, Discovery, join_location};
use crate::fence;
use crate::frontmatter::Metadata;
use crate::media::{self, Kind};
use crate::problem::{Code, Problem};
use crate::reuse::Reuse;
use crate::sink::BundleSink;

/// What the prompt and the tool's read records give as a skill's location.
///
/// ```
/// use skills_build::Locations;
/// assert_eq!(Locations::default(), Locations::Uri);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Locations {
    /// `skill://<listed name>/SKILL.md`: the same on every machine.
    #[default]
    Uri,
    /// `<base>/<directory>/<skill file>`, for a base the user chooses (for
    /// example the path where the skills are installed on the target).
    Base(String),
    /// `<source location>/<directory>/<skill file>`: the path the skills
    /// were read from. This embeds the build machine's paths; ask for it
    /// only when that is what you want.
    Source,
}

impl Locations {
    /// The location of `skill`, listed as `name`.
    pub(crate) fn of(&self, name: &str, skill: &DiscoveredSkill) -> String {
        match self {
            Locations::Uri => format!("skill://{name}/SKILL.md"),
            Locations::Base(base) => join_location(
                base,
                &format!("{}/{}", skill.dir, skill.skill_file.as_str()),
            ),
            Locations::Source => skill.file_location.clone(),
        }
    }
}

/// How to compile: what [`Builder`](crate::Builder) passes on to the
/// [`Compiler`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct CompileOptions {
    /// What locations the prompt and read records show.
    pub(crate) locations: Locations,
    /// Leave out the skills with errors and compile the rest, instead of
    /// failing (see [`Compiled::dropped`]). Errors that belong to no skill
    /// (a missing source, an invalid exclude rule) still fail.
    pub(crate) keep_going: bool,
    /// How many threads prepare and hash skills (`0`: every core). The
    /// bytes are the same whatever the count.
    pub(crate) threads: usize,
    /// Signs each skill as it is encoded, and the bundle at the end (the
    /// `sign` feature): see [`Builder::sign`](crate::Builder::sign).
    #[cfg(feature = "sign")]
    pub(crate) signer: Option<crate::signing::Signer>,
}

impl CompileOptions {
    /// Whether `problem` rules out a bundle, whatever else is found: any
    /// error of a strict build; keeping going, an error that belongs to
    /// no skill (a skill's own errors only leave it out).
    fn blocks(&self, problem: &Problem) -> bool {
        problem.is_error() && !(self.keep_going && problem.skill().is_some())
    }
}

/// A compiled bundle and the warnings met on the way.
///
/// ```
/// use skills_build::source::MemorySource;
/// let source = MemorySource::new("skills")
///     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Fill PDF forms. Use when asked to.\n---\nRead reference.md.\n")
///     .with_file("pdf/reference.md", "Use pdfplumber.");
/// let compiled = skills_build::compile_sources(&[&source]).unwrap();
/// assert!(compiled.warnings.is_empty());
/// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
/// assert_eq!(
///     catalog.call("pdf", None).unwrap().reply.as_text(),
///     Some("Read reference.md.\n\nfiles:\n- reference.md (15 bytes)\n"),
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled<B = Vec<u8>> {
    /// The bundle: magic, format version, postcard body; held in memory,
    /// or for a streamed build a file waiting to be put in place.
    pub bytes: B,
    /// Every problem that is not an error, sorted by file and position:
    /// warnings and notes (see each one's `severity`); with
    /// [`Builder::keep_going`](crate::Builder::keep_going), the errors of the skills left out
    /// too, so every problem is reported as without it.
    pub warnings: Vec<Problem>,
    /// The skills left out for their errors, in discovery order: only with
    /// [`Builder::keep_going`](crate::Builder::keep_going) (otherwise an error fails the whole
    /// compilation).
    pub dropped: Vec<Dropped>,
}

/// A skill left out of the bundle by [`Builder::keep_going`](crate::Builder::keep_going), and
/// why.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("dropped-doc-{}", std::process::id()));
/// for (name, text) in [("pdf", "name: pdf\ndescription: Fill PDF forms."), ("Bad", "name: Bad Skill\ndescription: x")] {
///     std::fs::create_dir_all(dir.join(name)).unwrap();
///     std::fs::write(dir.join(name).join("SKILL.md"), format!("---\n{text}\n---\n")).unwrap();
/// }
/// let compiled = skills_build::Builder::new().source(&dir).keep_going(true).compile().unwrap();
/// assert_eq!(compiled.dropped[0].dir, "Bad");
/// assert_eq!(compiled.dropped[0].problems[0].code.as_str(), "name-lowercase");
/// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
/// assert_eq!(catalog.names().collect::<Vec<_>>(), ["pdf"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// Its directory's name.
    pub dir: String,
    /// Its skill file, as problems name it.
    pub location: String,
    /// The `name` its frontmatter gives, if it is text.
    pub name: Option<String>,
    /// Its errors, sorted: why it was left out.
    pub problems: Vec<Problem>,
}

/// Compilation failed: every problem found, errors and warnings, sorted.
///
/// ```
/// use skills_build::source::MemorySource;
/// let source = MemorySource::new("skills").with_file("PDF/SKILL.md", "---\nname: PDF\ndescription: x\n---\n");
/// let error = skills_build::compile_sources(&[&source]).unwrap_err();
/// assert_eq!(error.errors(), 1);
/// assert!(error.to_string().contains("skills/PDF/SKILL.md:2:7: error: Skill name 'PDF' must be lowercase"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    /// Every problem, sorted by file and position.
    pub problems: Vec<Problem>,
}

impl CompileError {
    /// How many of the problems are errors.
    ///
    /// ```
    /// let error = skills_build::CompileError { problems: vec![] };
    /// assert_eq!(error.errors(), 0);
    /// ```
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.errors();
        write!(
            f,
            "the skills do not compile: {errors} error{}",
            if errors == 1 { "" } else { "s" }
        )?;
        for problem in &self.problems {
            write!(f, "\n{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileError {}

/// One skill's precomputed values, owned; the bundle borrows them.
struct Prepared<'d> {
    name: &'d str,
    location: String,
    description: &'d str,
    license: Option<&'d str>,
    compatibility: Option<&'d str>,
    metadata: Vec<(String, String)>,
    allowed_tools: Option<std::borrow::Cow<'d, str>>,
    rules: Vec<allowed_tools::ToolRule>,
    skill_file: SkillFileName,
    body_len: usize,
    instructions: String,
    frontmatter_sha256: [u8; 32],
    files: Vec<PreparedFile<'d>>,
    version: Option<&'d str>,
    frontmatter: &'d str,
    skill_file_bytes: &'d [u8],
    catalog: crate::extension_fields::CatalogFields,
    /// The executable files, when the source carries modes.
    executables: Option<Vec<&'d str>>,
}

struct PreparedFile<'d> {
    path: &'d str,
    sha256: [u8; 32],
    content: Content<'d>,
}

fn non_empty(text: Option<&str>) -> Option<&str> {
    text.filter(|text| !text.is_empty())
}

fn prepare<'d>(
    name: &'d str,
    skill: &'d DiscoveredSkill,
    options: &CompileOptions,
    reuse: Option<&Reuse>,
) -> Result<Prepared<'d>, Problem> {
    let located = |problem: Problem| problem.with_file(skill.file_location.clone());
    let Some(doc) = skill.document.as_ref() else {
        return Err(located(Problem::new(
            Code::SkillFileUnreadable,
            "the skill file could not be read",
        )));
    };
    let parts = fence::parts(doc).map_err(located)?;
    let fm = &doc.frontmatter;
    let metadata = match fm.metadata() {
        Some(Metadata::Map(pairs)) => pairs,
        _ => Vec::new(),
    };
    let allowed = crate::rules::hosts::fields::allowed_tools_text(fm);
    let rules = match allowed.as_deref() {
        Some(text) => allowed_tools::parse(text)
            .map_err(|error| located(Problem::new(Code::AllowedToolsSyntax, error.to_string())))?,
        None => Vec::new(),
    };
    // Before any file is hashed: a skill over the limits is not encoded.
    let bytes = skill.skill_file_bytes.len() as u64
        + skill
            .files
            .iter()
            .map(|file| file.bytes.len() as u64)
            .sum::<u64>();
    crate::rules::limits::check(skill.files.len() + 1, bytes).map_err(located)?;
    let files: Vec<PreparedFile<'d>> = skill
        .files
        .iter()
        .map(|file| PreparedFile {
            path: &file.path,
            sha256: match reuse {
                Some(reuse) => reuse.file_digest(name, &file.path, &file.bytes),
                None => sha256(&file.bytes),
            },
            content: content(&file.path, &file.bytes),
        })
        .collect();
    let instructions = instructions::render(
        parts.body,
        skill
            .files
            .iter()
            .map(|file| (file.path.as_str(), file.bytes.len() as u64)),
    );
    Ok(Prepared {
        executables: executables(skill),
        catalog: crate::extension_fields::catalog_fields(fm, true),
        name,
        location: options.locations.of(name, skill),
        description: skill.description().unwrap_or_default(),
        license: non_empty(fm.text("license")),
        compatibility: non_empty(fm.text("compatibility")),
        metadata,
        allowed_tools: allowed,
        rules,
        skill_file: skill.skill_file,
        body_len: parts.body.len(),
        instructions,
        frontmatter_sha256: sha256(parts.frontmatter.as_bytes()),
        files,
        version: fm.text("version"),
        frontmatter: parts.frontmatter,
        skill_file_bytes: &skill.skill_file_bytes,
    })
}

/// The paths of the skill's executable files, sorted, when its source
/// gave every file's mode (`None` when it gave none, or the skill has no
/// file beside the skill file).
fn executables(skill: &DiscoveredSkill) -> Option<Vec<&str>> {
    if skill.files.is_empty() {
        return None;
    }
    let modes: Option<Vec<(&str, bool)>> = skill
        .files
        .iter()
        .map(|file| file.executable.map(|exec| (file.path.as_str(), exec)))
        .collect();
    let mut paths: Vec<&str> = modes?
        .into_iter()
        .filter_map(|(path, exec)| exec.then_some(path))
        .collect();
    paths.sort_unstable();
    Some(paths)
}

fn content<'d>(path: &str, bytes: &'d [u8]) -> Content<'d> {
    match media::detect(path, bytes) {
        Kind::Text => match std::str::from_utf8(bytes) {
            Ok(text) => Content::Text(text),
            Err(_) => Content::Binary {
                media_type: "application/octet-stream",
                bytes: Bytes(bytes),
            },
        },
        Kind::Image(media_type) => Content::Image {
            media_type,
            bytes: Bytes(bytes),
        },
        Kind::Binary(media_type) => Content::Binary {
            media_type,
            bytes: Bytes(bytes),
        },
    }
}

/// The one route from discovered skills to a bundle: every door
/// ([`Builder::run`](crate::Builder::run) and so `skills check`, `skills
/// build`, a build script and `include_skills!`, and
/// [`compile_sources`](crate::compile_sources)) hands each window of
/// skills to [`take`](Self::take) as soon as discovery has read and named
/// it, and calls [`finish`](Self::finish) once discovery is done. Nothing
/// else prepares, encodes or pushes a skill.
///
/// Each listed skill without an error of its own is prepared, checked,
/// encoded and hashed on the window's threads, and its encoding goes into
/// the sink in discovery order (which is catalog order); then what was
/// read of the window's skills (their bytes, their parsed documents) is
/// dropped, unless the caller keeps them to show them one by one, so that
/// a large build never holds every skill as read. Whether a skill is in
/// the bundle is settled in its own window: its name depends on the
/// skills before it alone, and every error of its own is found while its
/// window is read. What is settled only at the end is whether there is a
/// bundle at all, which [`finish`](Self::finish) decides over every
/// problem.
pub(crate) struct Compiler<'o, S> {
    options: &'o CompileOptions,
    reuse: Option<&'o Reuse>,
    /// Where the encodings go, in catalog order.
    sink: S,
    /// Whether what was read of each skill stays (for the commands that
    /// show skills one by one) or is dropped once its window is compiled.
    keep_skills: bool,
    /// How many of the discovery's problems were looked at already.
    seen: usize,
    /// Whether an error already rules out a bundle (see
    /// [`CompileOptions::blocks`]): no more skills are compiled then.
    blocked: bool,
    /// The problems compiling found, each of its skill, in skill order.
    problems: Vec<Problem>,
    /// By skill index: the frontmatter name of a skill whose document was
    /// dropped without its being compiled (for [`Dropped::name`]).
    names: Vec<Option<String>>,
    /// Why the bundle cannot be made although the skills compiled: the
    /// sink refused an encoding (past 4 GiB, a full disk) or a skill broke
    /// a rule of the bundle. The first such reason; nothing more is
    /// pushed after it.
    failed: Option<String>,
}

impl<'o, S: BundleSink> Compiler<'o, S> {
    /// A compiler writing into `sink`, taking unchanged files' digests
    /// from `reuse`; with `keep_skills`, what was read of each skill stays
    /// in the discovery.
    pub(crate) fn new(
        options: &'o CompileOptions,
        reuse: Option<&'o Reuse>,
        sink: S,
        keep_skills: bool,
    ) -> Self {
        Compiler {
            options,
            reuse,
            sink,
            keep_skills,
            seen: 0,
            blocked: false,
            problems: Vec::new(),
            names: Vec::new(),
            failed: None,
        }
    }

    /// Compiles the skills of `range`, just read and named by discovery,
    /// into the sink, and drops what was read of them (unless kept).
    pub(crate) fn take(&mut self, found: &mut Discovery, range: Range<usize>) {
        self.names.resize_with(found.skills.len(), || None);
        let new_problems = &found.problems[self.seen.min(found.problems.len())..];
        self.seen = found.problems.len();
        self.blocked |= new_problems.iter().any(|p| self.options.blocks(p));
        // A skill with an error of its own is left out.
        let mut compiled = vec![false; range.len()];
        let mut erred = vec![false; range.len()];
        for problem in new_problems.iter().filter(|p| p.is_error()) {
            if let Some(index) = problem.skill().filter(|index| range.contains(index)) {
                erred[index - range.start] = true;
            }
        }
        if !self.blocked {
            let items: Vec<(usize, &str, &DiscoveredSkill)> = range
                .clone()
                .filter(|index| !erred[index - range.start])
                .filter_map(|index| {
                    let skill = &found.skills[index];
                    skill.listing.name().map(|name| (index, name, skill))
                })
                .collect();
            let (options, reuse) = (self.options, self.reuse);
            let results = crate::parallel::map(&items, options.threads, |(_, name, skill)| {
                prepare(name, skill, options, reuse)
                    .and_then(|prepared| encode_one(&prepared, options))
            });
            // Into the bundle in discovery order, which is catalog order.
            for (&(index, name, _), result) in items.iter().zip(results) {
                match result {
                    Ok(Ok((detail, digest))) => {
                        compiled[index - range.start] = true;
                        if self.failed.is_none()
                            && let Err(error) = self.sink.push(name, &detail, digest)
                        {
                            self.failed = Some(error);
                        }
                    }
                    Ok(Err(error)) => {
                        self.failed
                            .get_or_insert_with(|| EncodeError::Invalid(error).to_string());
                    }
                    Err(problem) => self.problems.push(problem.of_skill(index)),
                }
            }
        }
        if self.keep_skills {
            return;
        }
        for (index, compiled) in range.zip(compiled) {
            let skill = &mut found.skills[index];
            // A skill not in the bundle may be reported as left out: it
            // keeps the name the report gives it.
            if !compiled {
                self.names[index] = skill.name().map(str::to_string);
            }
            release(skill);
        }
    }

    /// The bundle of the skills taken, or every problem: `found` is the
    /// whole discovery, with every problem of the reading (those found
    /// after the last window too, such as a source that could not be
    /// opened). Its problems are moved into the result (a registry's
    /// warnings are not held twice); its skills stay.
    pub(crate) fn finish(self, found: &mut Discovery) -> Result<Compiled<S::Bundle>, CompileError> {
        let Compiler {
            options,
            sink,
            problems: compiling,
            names,
            failed,
            ..
        } = self;
        let mut problems = std::mem::take(&mut found.problems);
        // What blocks a bundle was found while reading: the problems of
        // compiling are not looked for then.
        if problems.iter().any(|problem| options.blocks(problem)) {
            Problem::sort(&mut problems);
            return Err(CompileError { problems });
        }
        problems.extend(compiling);
        if problems.iter().any(|problem| options.blocks(problem)) {
            Problem::sort(&mut problems);
            return Err(CompileError { problems });
        }
        // Keeping going: the skills with errors are left out.
        let mut left_out = vec![false; found.skills.len()];
        for index in problems
            .iter()
            .filter(|p| p.is_error())
            .filter_map(Problem::skill)
        {
            if let Some(out) = left_out.get_mut(index) {
                *out = true;
            }
        }
        // Keeping going is for a bundle of the valid skills: when every
        // skill found was left out, there is none, and an empty bundle
        // would pass for a build.
        if sink.writer().is_empty() && left_out.contains(&true) {
            let count = left_out.iter().filter(|out| **out).count();
            problems.push(
                Problem::new(
                    Code::NoValidSkill,
                    format!(
                        "no valid skill: all {count} skill{} found have errors, so no bundle is made",
                        if count == 1 { "" } else { "s" }
                    ),
                )
                .with_hint("fix at least one skill; --keep-going leaves out the invalid ones only when some are valid"),
            );
            Problem::sort(&mut problems);
            return Err(CompileError { problems });
        }
        let dropped = dropped(found, &left_out, &problems, &names);
        let encoded = match failed {
            Some(error) => Err(error),
            None => finish_bundle(sink, options),
        };
        match encoded {
            Ok(bytes) => {
                Problem::sort(&mut problems);
                Ok(Compiled {
                    bytes,
                    warnings: problems,
                    dropped,
                })
            }
            Err(message) => {
                problems.push(Problem::new(Code::BundleEncodeFailed, message));
                Problem::sort(&mut problems);
                Err(CompileError { problems })
            }
        }
    }
}

/// Drops what was read of a skill (its bytes, its files' bytes, its parsed
/// document); its name, directory, locations, file paths and listing stay.
fn release(skill: &mut DiscoveredSkill) {
    skill.document = None;
    skill.skill_file_bytes = Vec::new();
    for file in &mut skill.files {
        file.bytes = Vec::new();
    }
}

/// One skill compiled: its own encoding (the bundle's detail for it, with
/// its signature when signing) and its digest (for the bundle revision),
/// or why the skill breaks a rule of the bundle.
type EncodedSkill = Result<(Vec<u8>, [u8; 32]), skills_core::wire::bundle::BundleError>;

/// Checks, signs (when signing) and encodes one prepared skill, with its
/// digest computed in the same pass: the per-skill stages of the pipeline,
/// on the skill's own thread.
fn encode_one(prepared: &Prepared<'_>, options: &CompileOptions) -> Result<EncodedSkill, Problem> {
    #[cfg_attr(not(feature = "sign"), allow(unused_mut))]
    let mut skill = borrow(prepared);
    if let Err(error) = skill.check() {
        return Ok(Err(error));
    }
    #[cfg(feature = "sign")]
    let signature;
    #[cfg(feature = "sign")]
    if let Some(signer) = &options.signer {
        let revision = skills_core::trust::revision::Revision(skill.revision);
        signature = signer
            .sign_skill(skill.name, revision, skill.version)
            .map_err(|error| Problem::new(Code::SigningFailed, error.to_string()))?;
        skill.signatures = vec![signer.signature(&signature)];
    }
    #[cfg(not(feature = "sign"))]
    let _ = options;
    let mut detail = Vec::new();
    let digest = skills_core::wire::writer::encode_skill(&skill, &mut detail);
    Ok(Ok((detail, digest)))
}

/// The bundle from the skills pushed: the revision over them, signed when
/// signing, then the layout's head put in front of the encodings. The
/// prompt is left to be rendered from the skills when read (the default
/// catalog of `skills_core::features::render`), which costs fewer bytes
/// than storing it.
fn finish_bundle<S: BundleSink>(writer: S, options: &CompileOptions) -> Result<S::Bundle, String> {
    let revision = writer.writer().revision();
    #[cfg(feature = "sign")]
    if let Some(signer) = &options.signer {
        let signature = signer
            .sign_bundle_revision(skills_core::trust::revision::Revision(revision))
            .map_err(|error| error.to_string())?;
        return writer.finish(revision, &[signer.signature(&signature)]);
    }
    #[cfg(not(feature = "sign"))]
    let _ = options;
    writer.finish(revision, &[])
}

fn dropped(
    found: &Discovery,
    left_out: &[bool],
    problems: &[Problem],
    names: &[Option<String>],
) -> Vec<Dropped> {
    let mut dropped: Vec<Dropped> = Vec::new();
    let mut slot = vec![usize::MAX; found.skills.len()];
    for (index, skill) in found.skills.iter().enumerate() {
        if left_out[index] {
            slot[index] = dropped.len();
            dropped.push(Dropped {
                dir: skill.dir.clone(),
                location: skill.file_location.clone(),
                // A skill's name, or the one it had before what was read
                // of it was dropped.
                name: skill
                    .name()
                    .map(str::to_string)
                    .or_else(|| names.get(index).cloned().flatten()),
                problems: Vec::new(),
            });
        }
    }
    for problem in problems.iter().filter(|p| p.is_error()) {
        if let Some(entry) = problem
            .skill()
            .and_then(|index| dropped.get_mut(*slot.get(index)?))
        {
            entry.problems.push(problem.clone());
        }
    }
    dropped
}

fn borrow<'p>(skill: &'p Prepared<'_>) -> Skill<'p> {
    let mut borrowed = Skill {
        name: skill.name,
        location: &skill.location,
        description: skill.description,
        license: skill.license,
        compatibility: skill.compatibility,
        metadata: skill
            .metadata
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str()))
            .collect(),
        allowed_tools: skill.allowed_tools.as_deref(),
        rules: skill
            .rules
            .iter()
            .map(|rule| ToolRule {
                tool: &rule.tool,
                spec: rule.spec.as_deref(),
            })
            .collect(),
        skill_file: skill.skill_file,
        body_len: skill.body_len,
        instructions: &skill.instructions,
        instructions_sha256: sha256(skill.instructions.as_bytes()),
        frontmatter_sha256: skill.frontmatter_sha256,
        files: skill
            .files
            .iter()
            .map(|file| File {
                path: file.path,
                sha256: file.sha256,
                content: file.content,
            })
            .collect(),
        version: skill.version,
        frontmatter: skill.frontmatter,
        when_to_use: strs(&skill.catalog.when_to_use),
        when_not_to_use: strs(&skill.catalog.when_not_to_use),
        tags: strs(&skill.catalog.tags),
        // Stored only when the runtime cannot derive it from the
        // frontmatter text byte for byte.
        frontmatter_json: Some(skill.catalog.frontmatter_json.as_str()).filter(|json| {
            skills_core::wire::derived::simple_frontmatter_json(skill.frontmatter).as_deref()
                != Some(*json)
        }),
        executables: skill.executables.clone(),
        ..Skill::default()
    };
    // Last: the skill file's digest and the content revision.
    crate::skill_revision::record_skill_file(&mut borrowed, skill.skill_file_bytes);
    borrowed
}

fn strs(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}
