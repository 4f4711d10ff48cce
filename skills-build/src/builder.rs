//! The `build.rs` route: compile skill directories into a bundle file in
//! `OUT_DIR`, and fail the build, with every problem, when a skill is
//! invalid.
//!
//! ```no_run
//! // build.rs, in `fn main`:
//! skills_build::Builder::new().source("skills").emit();
//! ```
//!
//! ```ignore
//! // src/main.rs
//! static SKILLS: skills_core::Embedded = skills_core::include_bundle!("skills.bin");
//! ```
//!
//! `emit` prints `cargo:rerun-if-changed=<dir>` for every source, which
//! makes cargo rerun the script when any file under it is added, edited or
//! removed.
//!
//! The `Builder` is the one pipeline behind every door: `skills check`,
//! `skills build`, a build script and `include_skills!` all run
//! [`Builder::run`], so one tree gets one verdict and one list of problems
//! whichever door it goes through. A source is a skill folder (one skill)
//! or a folder of skill folders (see [`crate::discover`]).

use std::path::{Path, PathBuf};

use skills_core::wire::bundle::Bundle;
use skills_core::wire::writer::BundleWriter;

use crate::compile::{CompileError, CompileOptions, Compiled, Compiler, Locations};
use crate::diagnostic;
use crate::discover::{self, DiscoveredSkill, Discovery, Options, Root, SourceReport};
use crate::filter::Glob;
use crate::problem::{Code, Problem, Severity};
use crate::rules::{Limits, Policy};
#[cfg(feature = "sign")]
use crate::signing::Signing;
use crate::sink::{BundleFile, BundleSink, FileSink};
use crate::source::{DirSource, Source};

/// The file name [`Builder::emit`] writes into `OUT_DIR` unless told
/// otherwise.
///
/// ```
/// assert_eq!(skills_build::DEFAULT_OUT_FILE, "skills.bin");
/// ```
pub const DEFAULT_OUT_FILE: &str = "skills.bin";

/// Compiles skill directories into a bundle.
///
/// ```no_run
/// use skills_build::Builder;
/// let compiled = Builder::new()
///     .source("skills")
///     .qualified_source("vendor/skills", "vendor")
///     .exclude("*.pyc")
///     .max_file_size(1 << 20)
///     .compile()?;
/// println!("{} bytes, {} warnings", compiled.bytes.len(), compiled.warnings.len());
/// # Ok::<(), skills_build::CompileError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Builder {
    sources: Vec<(PathBuf, Option<String>)>,
    locations: Locations,
    excludes: Vec<String>,
    max_file_size: u64,
    deny_shadowing: bool,
    extensions: bool,
    keep_junk: bool,
    keep_evals: bool,
    hosts: crate::rules::hosts::Hosts,
    out_file: String,
    #[cfg(feature = "sign")]
    signing: Option<Signing>,
    previous: Option<PathBuf>,
    keep_going: bool,
    deny_warnings: bool,
    threads: usize,
    allow: Vec<String>,
}

/// Everything one run of the pipeline found and made.
///
/// ```
/// use skills_build::Layout;
/// let dir = std::env::temp_dir().join(format!("outcome-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("pdf")).unwrap();
/// std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Forms.\n---\n").unwrap();
/// std::fs::write(dir.join("pdf/.DS_Store"), "junk").unwrap();
/// let outcome = skills_build::Builder::new().source(dir.join("pdf")).run();
/// assert_eq!(outcome.sources[0].layout, Some(Layout::Skill));
/// assert_eq!(outcome.skills, 1);
/// assert!(outcome.result.is_ok());
/// assert_eq!(outcome.problems()[0].code.as_str(), "junk-skipped");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct Outcome<B = Vec<u8>> {
    /// The bundle with its warnings and notes, or every problem.
    pub result: Result<Compiled<B>, CompileError>,
    /// Every file read: the skill files and the files embedded beside
    /// them (and a signing key file).
    pub inputs: Vec<PathBuf>,
    /// How each source was read: one skill or a collection.
    pub sources: Vec<SourceReport>,
    /// How many skill directories were found (listed or not).
    pub skills: usize,
}

/// What the sources hold, read and judged but not compiled: every skill
/// as read, with every problem of the reading, and every file read (see
/// [`unstable::read`](crate::unstable::read)).
#[derive(Debug)]
pub struct Reading {
    /// The skills, how each source was read, and every problem.
    pub discovery: Discovery,
    /// Every file read (an archive counts as one).
    pub inputs: Vec<PathBuf>,
}

impl<B> Outcome<B> {
    /// The same outcome with its bundle (if one was made) passed through
    /// `f`, the problems and the rest kept: to take a streamed bundle out
    /// of the outcome (say, to put it in place only when no warning
    /// refuses the build) and still report every problem from it.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let out = std::env::temp_dir().join(format!("map-bundle-doc-{}.bin", std::process::id()));
    /// let mut outcome = skills_build::Builder::new()
    ///     .source(skills)
    ///     .run_to_file(&out, &mut |_| {})
    ///     .map_bundle(Some);
    /// let bundle = outcome.result.as_mut().unwrap().bytes.take().unwrap();
    /// if !outcome.failed(true) {
    ///     bundle.persist().unwrap();
    /// }
    /// assert!(out.exists() && outcome.problems().is_empty());
    /// # std::fs::remove_file(&out).unwrap();
    /// ```
    pub fn map_bundle<C>(self, f: impl FnOnce(B) -> C) -> Outcome<C> {
        Outcome {
            result: self.result.map(|compiled| Compiled {
                bytes: f(compiled.bytes),
                warnings: compiled.warnings,
                dropped: compiled.dropped,
            }),
            inputs: self.inputs,
            sources: self.sources,
            skills: self.skills,
        }
    }

    /// Every problem, sorted: errors, warnings and notes.
    ///
    /// ```
    /// let outcome = skills_build::Builder::new().source("no/such/dir").run();
    /// assert_eq!(outcome.problems()[0].code.as_str(), "source-not-found");
    /// ```
    pub fn problems(&self) -> &[Problem] {
        match &self.result {
            Ok(compiled) => &compiled.warnings,
            Err(error) => &error.problems,
        }
    }

    /// The skills left out for their errors by
    /// [`Builder::keep_going`] (none otherwise).
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let outcome = skills_build::Builder::new().source(skills).keep_going(true).run();
    /// assert!(outcome.dropped().is_empty()); // every skill is valid
    /// ```
    pub fn dropped(&self) -> &[crate::compile::Dropped] {
        match &self.result {
            Ok(compiled) => &compiled.dropped,
            Err(_) => &[],
        }
    }

    /// Whether the run found what fails a build: an error (with
    /// [`Builder::keep_going`], a bundle may be made all the same: see
    /// `result`), or with `deny_warnings` a warning (notes never fail).
    ///
    /// ```
    /// let outcome = skills_build::Builder::new().source("no/such/dir").run();
    /// assert!(outcome.failed(false));
    /// ```
    pub fn failed(&self, deny_warnings: bool) -> bool {
        self.result.is_err()
            || self.problems().iter().any(Problem::is_error)
            || (deny_warnings
                && self
                    .problems()
                    .iter()
                    .any(|p| p.severity == Severity::Warning))
    }
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder without sources, with the default options: locations
    /// `skill://<name>/SKILL.md`, no exclude rules, 16 MiB per file,
    /// output `skills.bin`.
    ///
    /// ```
    /// let builder = skills_build::Builder::new();
    /// assert!(builder.compile().is_err()); // no source: no skill, an error
    /// ```
    pub fn new() -> Self {
        Builder {
            sources: Vec::new(),
            locations: Locations::Uri,
            excludes: Vec::new(),
            max_file_size: crate::rules::DEFAULT_MAX_FILE_SIZE,
            deny_shadowing: false,
            extensions: false,
            keep_junk: false,
            keep_evals: false,
            hosts: crate::rules::hosts::Hosts::default(),
            out_file: DEFAULT_OUT_FILE.to_string(),
            #[cfg(feature = "sign")]
            signing: None,
            previous: None,
            keep_going: false,
            deny_warnings: false,
            threads: 0,
            allow: Vec::new(),
        }
    }

    /// Adds a source: a skill folder (it holds `SKILL.md`: one skill) or a
    /// folder of skills (each direct subdirectory with a `SKILL.md` is one
    /// skill), or a `.skill`/`.zip` archive of skill folders (with the
    /// `archive` feature). A source with no skill
    /// is an error. Relative paths are
    /// relative to the current directory, which for a build script is the
    /// package root. Earlier sources win a name.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let compiled = skills_build::Builder::new().source(skills).compile().unwrap();
    /// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    /// assert!(catalog.lookup("pdf-forms").is_some() && catalog.lookup("git-rebase").is_some());
    /// ```
    pub fn source(mut self, dir: impl AsRef<Path>) -> Self {
        self.sources.push((dir.as_ref().to_path_buf(), None));
        self
    }

    /// Adds a directory of skills whose names, when an earlier source took
    /// them, are listed as `qualifier:name` instead of being shadowed.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// # let vendor = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills/git-rebase");
    /// let compiled = skills_build::Builder::new()
    ///     .source(skills)
    ///     .qualified_source(vendor, "acme")
    ///     .compile()
    ///     .unwrap();
    /// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    /// assert!(catalog.lookup("git-rebase").is_some() && catalog.lookup("acme:git-rebase").is_some());
    /// ```
    pub fn qualified_source(mut self, dir: impl AsRef<Path>, qualifier: impl Into<String>) -> Self {
        self.sources
            .push((dir.as_ref().to_path_buf(), Some(qualifier.into())));
        self
    }

    /// Prints locations as `<base>/<directory>/<skill file>` instead of
    /// `skill://<name>/SKILL.md`.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let compiled = skills_build::Builder::new().source(skills).location_base("/opt/app/skills").compile().unwrap();
    /// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    /// assert!(catalog.prompt().contains("/opt/app/skills/pdf-forms/SKILL.md"));
    /// ```
    pub fn location_base(mut self, base: impl Into<String>) -> Self {
        self.locations = Locations::Base(base.into());
        self
    }

    /// Chooses how locations are printed (see [`Locations`]).
    ///
    /// ```
    /// use skills_build::Locations;
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let compiled = skills_build::Builder::new().source(skills).locations(Locations::Source).compile().unwrap();
    /// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    /// assert!(!catalog.prompt().contains("skill://"));
    /// ```
    pub fn locations(mut self, locations: Locations) -> Self {
        self.locations = locations;
        self
    }

    /// Skips files and directories matching `pattern`, silently: a glob
    /// over paths relative to the skill folder (`*` and `?` within a
    /// segment, `**` across segments; a pattern without `/` matches a name
    /// at any depth). Junk is skipped without a rule (with a note).
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let compiled = skills_build::Builder::new().source(skills).exclude("scripts/**").compile().unwrap();
    /// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    /// assert!(catalog.call("pdf-forms", Some("reference.md")).is_ok());
    /// assert!(catalog.call("pdf-forms", Some("scripts/fill.py")).is_err());
    /// ```
    pub fn exclude(mut self, pattern: impl Into<String>) -> Self {
        self.excludes.push(pattern.into());
        self
    }

    /// Embeds junk (`.DS_Store`, `Thumbs.db`, editor swap
    /// files, `.git/`, `__pycache__/`, `node_modules/`...) like any other
    /// file, instead of leaving it out with a note.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("skills-doc-junk-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("pdf")).unwrap();
    /// std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Forms.\n---\nGo.\n").unwrap();
    /// std::fs::write(dir.join("pdf/notes.md~"), "an editor's backup").unwrap();
    /// let serves_junk = |keep: bool| {
    ///     let compiled = skills_build::Builder::new().source(&dir).keep_junk(keep).compile().unwrap();
    ///     let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    ///     catalog.call("pdf", Some("notes.md~")).is_ok()
    /// };
    /// assert!(serves_junk(true) && !serves_junk(false));
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn keep_junk(mut self, on: bool) -> Self {
        self.keep_junk = on;
        self
    }

    /// Embeds each skill's `evals/` folder (its evaluations, authoring
    /// material agentskills.io's evaluation guide keeps in the skill
    /// folder) instead of leaving it out with a note.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("skills-doc-evals-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("pdf/evals")).unwrap();
    /// std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Forms.\n---\nGo.\n").unwrap();
    /// std::fs::write(dir.join("pdf/evals/evals.json"), "[]").unwrap();
    /// let serves_evals = |keep: bool| {
    ///     let compiled = skills_build::Builder::new().source(&dir).keep_evals(keep).compile().unwrap();
    ///     let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    ///     catalog.call("pdf", Some("evals/evals.json")).is_ok()
    /// };
    /// assert!(serves_evals(true) && !serves_evals(false));
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn keep_evals(mut self, on: bool) -> Self {
        self.keep_evals = on;
        self
    }

    /// Targets a host (repeatable): the fields it documents are accepted
    /// and type-checked with its rules, its files (Codex's
    /// `agents/openai.yaml`) and listing budgets checked; keys no targeted
    /// host reads stay errors. Without a host, the reference's verdict.
    ///
    /// ```
    /// use skills_build::Host;
    /// let dir = std::env::temp_dir().join(format!("skills-doc-host-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("deploy")).unwrap();
    /// std::fs::write(dir.join("deploy/SKILL.md"), "---\nname: deploy\ndescription: Ship it.\nmodel: sonnet\n---\nGo.\n").unwrap();
    /// assert!(skills_build::Builder::new().source(&dir).compile().is_err()); // an unknown key
    /// assert!(skills_build::Builder::new().source(&dir).host(Host::ClaudeCode).compile().is_ok());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn host(mut self, host: crate::rules::hosts::Host) -> Self {
        self.hosts.insert(host);
        self
    }

    /// The largest file, in bytes, that may be embedded (default 16 MiB).
    ///
    /// ```
    /// use skills_build::problem::Code;
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let error = skills_build::Builder::new().source(skills).max_file_size(16).compile().unwrap_err();
    /// assert!(error.problems.iter().any(|p| p.code == Code::FileTooLarge));
    /// ```
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = bytes;
        self
    }

    /// Makes a skill shadowed by an earlier source's skill of the same name
    /// an error rather than a warning. `include_skills!` sets this: a skill
    /// must not vanish silently from a binary, and a warning is easy to miss
    /// in a build's output.
    ///
    /// ```
    /// use skills_build::problem::{Code, Severity};
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// # let again = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills/git-rebase");
    /// let builder = skills_build::Builder::new().source(skills).source(again);
    /// let warned = builder.compile().unwrap();
    /// assert_eq!(warned.warnings[0].code, Code::SkillShadowed);
    /// let error = builder.deny_shadowing().compile().unwrap_err();
    /// assert_eq!(error.problems[0].severity, Severity::Error);
    /// ```
    pub fn deny_shadowing(mut self) -> Self {
        self.deny_shadowing = true;
        self
    }

    /// Accepts agentskills-core's extension fields, `version`,
    /// `when_to_use` and `when_not_to_use` (with its rules: semver, at most
    /// 5 cases of at most 200 characters) and a `metadata.tags` list, so
    /// its catalog shapes can show them and filter by tag. Off by default:
    /// the reference validator rejects these keys, and so does this one
    /// unless asked (the `extension` rules of `docs/rule-codes.md`).
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("skills-doc-extensions-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("pdf")).unwrap();
    /// std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Forms.\nversion: 1.2.0\n---\nGo.\n").unwrap();
    /// assert!(skills_build::Builder::new().source(&dir).compile().is_err()); // an unknown key
    /// assert!(skills_build::Builder::new().source(&dir).extensions(true).compile().is_ok());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn extensions(mut self, on: bool) -> Self {
        self.extensions = on;
        self
    }

    /// Signs the bundle with an Ed25519 key read from a file or an
    /// environment variable (see [`Signing`]; the `sign` feature): every skill over
    /// agentskills-core's `agentskills-snapshot-v1` payload, and the bundle
    /// revision. The key is never embedded; [`build`](Self::build) prints
    /// the line that reruns the build script when the key changes.
    ///
    /// ```
    /// use skills_build::{KeySource, Signing};
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let builder = skills_build::Builder::new()
    ///     .source(skills)
    ///     .sign(Signing::new(KeySource::Env("SKILLS_DOC_NO_KEY".into()), "https://example.com/skills"));
    /// // No key in the environment: the build fails and names the variable.
    /// let error = builder.compile().unwrap_err();
    /// assert!(error.problems.iter().any(|p| p.message.contains("SKILLS_DOC_NO_KEY")));
    /// ```
    #[cfg(feature = "sign")]
    pub fn sign(mut self, signing: Signing) -> Self {
        self.signing = Some(signing);
        self
    }

    /// A bundle an earlier build wrote, whose digests of files that are
    /// still byte for byte the same are taken instead of hashing them
    /// again; the bundle comes out the same. A missing or
    /// unreadable file is no error: everything is hashed then. Beside it,
    /// in `<bundle>.findings`, the build keeps what the audit and lint
    /// rules found in each skill with the bytes they read, and takes those
    /// findings for a skill whose bytes are unchanged instead of judging it
    /// again (the file is written when a skill was judged anew); the
    /// problems come out the same.
    /// [`build`](Self::build) reuses the bundle it wrote last time in
    /// `OUT_DIR` unless told otherwise.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let fresh = skills_build::Builder::new().source(skills).compile().unwrap();
    /// let reused = skills_build::Builder::new().source(skills).reuse_from("no/such/skills.bin").compile().unwrap();
    /// assert_eq!(fresh.bytes, reused.bytes);
    /// ```
    pub fn reuse_from(mut self, bundle: impl Into<PathBuf>) -> Self {
        self.previous = Some(bundle.into());
        self
    }

    /// Compiles every valid skill and leaves out the skills with errors,
    /// instead of failing on the first invalid one: every problem is still
    /// reported (the errors among them), [`Outcome::dropped`] says which
    /// skills were left out and why, and [`Outcome::failed`] still says
    /// that errors were found. An error that belongs to no skill (a source
    /// that does not exist, an invalid exclude rule) fails as without it,
    /// and so does a run where no skill is valid (`no-valid-skill`): an
    /// empty bundle is no build.
    /// Off by default: an error anywhere fails the build. In a build
    /// script ([`build`](Self::build), [`emit`](Self::emit)) the errors
    /// of the skills left out are printed as `cargo:warning=` lines and the
    /// bundle of the rest is written.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("keep-going-doc-{}", std::process::id()));
    /// for (name, text) in [("pdf", "name: pdf\ndescription: Forms."), ("Bad", "name: Bad\ndescription: x")] {
    ///     std::fs::create_dir_all(dir.join(name)).unwrap();
    ///     std::fs::write(dir.join(name).join("SKILL.md"), format!("---\n{text}\n---\n")).unwrap();
    /// }
    /// let outcome = skills_build::Builder::new().source(&dir).keep_going(true).run();
    /// assert!(outcome.failed(false)); // errors were found...
    /// let compiled = outcome.result.as_ref().unwrap(); // ...and the valid skills compiled
    /// assert_eq!(skills_core::Catalog::open(&compiled.bytes).unwrap().len(), 1);
    /// assert_eq!(outcome.dropped()[0].dir, "Bad");
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn keep_going(mut self, on: bool) -> Self {
        self.keep_going = on;
        self
    }

    /// Makes a warning fail the build, as an error does (notes never
    /// fail): the bundle is refused and every problem reported, as
    /// `deny_warnings = true` does for `include_skills!` and
    /// `--deny-warnings` for `skills check` and `skills build`.
    ///
    /// ```
    /// use skills_build::problem::Code;
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// # let again = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills/git-rebase");
    /// let builder = skills_build::Builder::new().source(skills).source(again);
    /// assert_eq!(builder.compile().unwrap().warnings[0].code, Code::SkillShadowed);
    /// let error = builder.deny_warnings(true).compile().unwrap_err();
    /// assert_eq!(error.problems[0].code, Code::SkillShadowed);
    /// ```
    pub fn deny_warnings(mut self, on: bool) -> Self {
        self.deny_warnings = on;
        self
    }

    /// Silences the rule with this code everywhere: its problems are left
    /// out of the outcome, its report and the build's output. Repeatable.
    /// Any warning or note can be allowed, and the errors of the audit and
    /// lint rules (a private key that is a test fixture, say), which are
    /// lowered only this way, by name. The reference's, the
    /// specification's and the build's errors cannot be: naming one, or no
    /// rule, is itself an error (`allow-invalid`). See
    /// [`Code::allowable`](crate::problem::Code::allowable).
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("allow-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("pdf")).unwrap();
    /// std::fs::write(dir.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Forms. Use when asked.\n---\n").unwrap();
    /// std::fs::write(dir.join("pdf/.DS_Store"), "junk").unwrap();
    /// let noted = skills_builder_problems(skills_build::Builder::new().source(&dir));
    /// assert_eq!(noted, ["junk-skipped"]);
    /// let allowed = skills_builder_problems(skills_build::Builder::new().source(&dir).allow("junk-skipped"));
    /// assert!(allowed.is_empty());
    /// let refused = skills_builder_problems(skills_build::Builder::new().source(&dir).allow("name-lowercase"));
    /// assert_eq!(refused, ["allow-invalid", "junk-skipped"]);
    /// # fn skills_builder_problems(builder: skills_build::Builder) -> Vec<&'static str> {
    /// #     builder.run().problems().iter().map(|p| p.code.as_str()).collect()
    /// # }
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn allow(mut self, rule: impl Into<String>) -> Self {
        self.allow.push(rule.into());
        self
    }

    /// The one [`Policy`] the rules hold this build to, built from the
    /// options, with a problem for each [`allow`](Self::allow) that names
    /// no rule's code or an error's.
    pub(crate) fn policy(&self) -> (Policy, Vec<Problem>) {
        let mut allowed = Vec::new();
        let mut problems = Vec::new();
        for name in &self.allow {
            match Code::from_str(name) {
                Some(code) if code.allowable() => allowed.push(code),
                Some(code) => problems.push(
                    Problem::new(
                        Code::AllowInvalid,
                        format!("{name} is an error of the {} rules, which cannot be allowed; only warnings, notes and the audit's and lints' errors can", code.rule().as_str()),
                    )
                    .with_hint("fix the problem, or leave the skill out with an exclude rule"),
                ),
                None => problems.push(
                    Problem::new(Code::AllowInvalid, format!("no rule has the code {name:?}"))
                        .with_hint("the codes are in docs/rule-codes.md and in every problem's report"),
                ),
            }
        }
        let policy = Policy {
            allowed,
            hosts: self.hosts,
            extensions: self.extensions,
            deny_warnings: self.deny_warnings,
            deny_shadowing: self.deny_shadowing,
            limits: Limits {
                max_file_size: self.max_file_size,
                ..Limits::default()
            },
        };
        (policy, problems)
    }

    /// How many threads read, validate, hash and prepare skills: `0` (the
    /// default) for every core the machine offers, `1` for the calling
    /// thread alone. The bundle's bytes are the same whatever the count.
    ///
    /// ```
    /// let builder = skills_build::Builder::new().source("skills").threads(1);
    /// # let _ = builder;
    /// ```
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The file name written into `OUT_DIR` (default `skills.bin`).
    ///
    /// ```no_run
    /// // build.rs: the bundle goes to $OUT_DIR/agent-skills.bin, which the
    /// // crate embeds with `include_bundle!("agent-skills.bin")`.
    /// let path = skills_build::Builder::new().source("skills").out_file("agent-skills.bin").build().unwrap();
    /// assert!(path.ends_with("agent-skills.bin"));
    /// ```
    pub fn out_file(mut self, name: impl Into<String>) -> Self {
        self.out_file = name.into();
        self
    }

    /// Reads, validates and compiles the sources, without writing or
    /// printing anything.
    ///
    /// ```
    /// let error = skills_build::Builder::new().source("no/such/dir").compile().unwrap_err();
    /// assert_eq!(error.problems[0].message, "the source no/such/dir does not exist");
    /// ```
    pub fn compile(&self) -> Result<Compiled, CompileError> {
        self.run().result
    }

    /// Like [`compile`](Self::compile), and also every file that was read,
    /// as paths: the skill files and the files embedded beside them. The
    /// `include_skills!` macro makes the compiler track these, so an edit
    /// or a deletion rebuilds.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let (result, inputs) = skills_build::Builder::new().source(skills).compile_with_inputs();
    /// assert!(result.is_ok());
    /// assert!(inputs.iter().any(|path| path.ends_with("pdf-forms/scripts/fill.py")));
    /// ```
    pub fn compile_with_inputs(&self) -> (Result<Compiled, CompileError>, Vec<PathBuf>) {
        let outcome = self.run();
        (outcome.result, outcome.inputs)
    }

    /// Opens the sources and discovers their skills under `policy` (built
    /// once by the caller, with the problems building it met) (resolution, filters,
    /// junk, validation of each skill file), handing each window of skills
    /// read and named to `each` (see `discover::discover_each`): what
    /// [`run`](Self::run) compiles, and, with nothing done per window, what
    /// the commands that act on the skills one by one (`skills revision`,
    /// `sign`, `verify`) read, so that every door reads a source the same
    /// way.
    pub(crate) fn read_judged(
        &self,
        (policy, mut problems): (Policy, Vec<Problem>),
        each: &mut discover::Each<'_>,
    ) -> Reading {
        let mut options = Options {
            keep_junk: self.keep_junk,
            keep_evals: self.keep_evals,
            threads: self.threads,
            policy,
            ..Options::default()
        };
        for pattern in &self.excludes {
            match Glob::new(pattern) {
                Ok(glob) => options.excludes.push(glob),
                Err(error) => problems.push(Problem::new(Code::ExcludeInvalid, error.to_string())),
            }
        }
        if self.sources.is_empty() {
            problems.push(
                Problem::new(
                    Code::NoSkills,
                    "no source given: nothing to look for skills in",
                )
                .with_hint("add a skill folder or a folder of skills as a source"),
            );
        }
        let mut opened: Vec<(Opened, &Path, Option<&str>)> = Vec::new();
        let mut inputs = Vec::new();
        for (dir, qualifier) in &self.sources {
            // An archive (`.skill`, `.zip`) is a source of its own kind,
            // and the one input it gives.
            if let Some(archive) = crate::archive::open_if_archive(dir) {
                match archive {
                    Ok(source) => {
                        opened.push((Opened::Archive(source), dir.as_path(), qualifier.as_deref()));
                        inputs.push(dir.clone());
                    }
                    Err(error) => problems.push(
                        Problem::new(
                            Code::ArchiveInvalid,
                            format!("cannot open the archive: {error}"),
                        )
                        .with_file(dir.display().to_string()),
                    ),
                }
                continue;
            }
            match DirSource::new(dir) {
                Ok(source) => {
                    opened.push((Opened::Dir(source), dir.as_path(), qualifier.as_deref()))
                }
                Err(error) => problems.push(discover::open_problem(dir, &error)),
            }
        }
        let roots: Vec<Root<'_>> = opened
            .iter()
            .map(|(source, dir, qualifier)| {
                let root = Root::new(source.as_source());
                let root = match source {
                    Opened::Dir(_) => root.on_disk(dir),
                    Opened::Archive(_) => root,
                };
                match qualifier {
                    Some(qualifier) => root.qualified(qualifier),
                    None => root,
                }
            })
            .collect();
        // The rules' findings per skill are kept beside the earlier bundle.
        let findings = match &self.previous {
            Some(previous) => crate::findings_cache::FindingsCache::load(&findings_path(previous)),
            None => crate::findings_cache::FindingsCache::default(),
        };
        let mut found = discover::discover_each(&roots, &options, &findings, each);
        findings.save();
        if !problems.is_empty() {
            found.problems.extend(problems);
            Problem::sort(&mut found.problems);
        }
        for skill in &found.skills {
            // An archive's skills are tracked through the archive itself.
            let Some((Opened::Dir(source), _, _)) = opened.get(skill.source) else {
                continue;
            };
            let dir = source.root().join(&skill.path);
            inputs.push(dir.join(skill.skill_file.as_str()));
            inputs.extend(skill.files.iter().map(|file| dir.join(&file.path)));
        }
        Reading {
            discovery: found,
            inputs,
        }
    }

    /// Runs the whole pipeline (open the sources, discover, filter,
    /// validate, compile, sign) and returns everything it found, without
    /// writing or printing anything. Every door calls this: `skills check`
    /// and `skills build`, [`compile`](Self::compile), [`build`](Self::build)
    /// and `include_skills!`.
    ///
    /// Each skill is compiled as soon as its window of skills is read and
    /// named, and its bytes and parsed document dropped then, so a large
    /// build never holds every skill as read (only the encodings, and each
    /// skill's name and locations).
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let outcome = skills_build::Builder::new().source(skills).run();
    /// assert_eq!(outcome.skills, 3);
    /// assert!(!outcome.failed(false) && outcome.result.is_ok());
    /// ```
    pub fn run(&self) -> Outcome {
        self.run_with_progress(&mut |_| {})
    }

    /// [`run`](Self::run), telling `progress` how many skill directories
    /// have been read (and, as they are read, compiled) after each window
    /// of them, in search order: for a build script or a command that
    /// shows a long build's progress. The bundle, problems and verdict are
    /// `run`'s.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let mut seen = Vec::new();
    /// let outcome = skills_build::Builder::new()
    ///     .source(skills)
    ///     .run_with_progress(&mut |read| seen.push(read));
    /// assert_eq!(seen.last(), Some(&outcome.skills));
    /// ```
    pub fn run_with_progress(&self, progress: &mut dyn FnMut(usize)) -> Outcome {
        let sink = BundleWriter::new(&Bundle::default());
        self.run_into(sink, false, progress).0
    }

    /// [`run_with_progress`](Self::run_with_progress), streaming the bundle
    /// into a temporary file beside `output` as each skill is encoded
    /// instead of holding it in memory, so that a registry's bundle is
    /// never held whole (what `skills build` does): the same bytes,
    /// problems and verdict. The result's [`BundleFile`] is put in place at
    /// `output` with [`BundleFile::persist`], or removed when dropped, so
    /// a build refused afterwards (say, for a warning) leaves `output` as
    /// it was.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let out = std::env::temp_dir().join(format!("streamed-doc-{}.bin", std::process::id()));
    /// let builder = skills_build::Builder::new().source(skills);
    /// let streamed = builder.run_to_file(&out, &mut |_| {}).result.unwrap();
    /// assert_eq!(streamed.bytes.skills(), 3);
    /// streamed.bytes.persist().unwrap();
    /// assert_eq!(std::fs::read(&out).unwrap(), builder.run().result.unwrap().bytes);
    /// # std::fs::remove_file(&out).unwrap();
    /// ```
    pub fn run_to_file(
        &self,
        output: impl AsRef<Path>,
        progress: &mut dyn FnMut(usize),
    ) -> Outcome<BundleFile> {
        match FileSink::create(output.as_ref()) {
            Ok(sink) => self.run_into(sink, false, progress).0,
            Err(message) => Outcome {
                result: Err(CompileError {
                    problems: vec![Problem::new(Code::OutputUnwritable, message)],
                }),
                inputs: Vec::new(),
                sources: Vec::new(),
                skills: 0,
            },
        }
    }

    /// The pipeline into `sink`: the sources read a window of skills at a
    /// time, each window compiled by the one [`Compiler`] as soon as it is
    /// read, then the verdict. Returns the outcome and the skills found
    /// (with what was read of them only when `keep_skills`).
    pub(crate) fn run_into<S: BundleSink>(
        &self,
        sink: S,
        keep_skills: bool,
        progress: &mut dyn FnMut(usize),
    ) -> (Outcome<S::Bundle>, Vec<DiscoveredSkill>) {
        let reuse = self.previous.as_deref().map(crate::reuse::Reuse::load);
        #[cfg_attr(not(feature = "sign"), allow(unused_mut, clippy::needless_update))]
        let mut options = CompileOptions {
            locations: self.locations.clone(),
            keep_going: self.keep_going,
            threads: self.threads,
            ..CompileOptions::default()
        };
        // The key is read first: each skill is signed as it is encoded.
        #[cfg(feature = "sign")]
        let key_error = match self.signing.as_ref().map(Signing::signer) {
            Some(Ok(signer)) => {
                options.signer = Some(signer);
                None
            }
            Some(Err(error)) => Some(error),
            None => None,
        };
        let mut compiler = Compiler::new(&options, reuse.as_ref(), sink, keep_skills);
        let (policy, refused) = self.policy();
        // Only signing adds an input (its key file).
        #[cfg_attr(not(feature = "sign"), allow(unused_mut))]
        let Reading {
            discovery: mut found,
            mut inputs,
        } = self.read_judged((policy.clone(), refused), &mut |found, range| {
            compiler.take(found, range);
            progress(found.skills.len());
        });
        let skills = found.skills.len();
        let sources = std::mem::take(&mut found.sources);
        let result = compiler.finish(&mut found);
        #[cfg(feature = "sign")]
        let result = match (&self.signing, key_error) {
            (Some(signing), key_error) => {
                inputs.extend(signing.key_file().map(Path::to_path_buf));
                match key_error {
                    Some(error) => refuse_unsigned(&error, result),
                    None => result,
                }
            }
            (None, _) => result,
        };
        // Under `deny_warnings`, a warning refuses the bundle.
        let result = match result {
            Ok(compiled) if policy.denies(&compiled.warnings) => Err(CompileError {
                problems: compiled.warnings,
            }),
            result => result,
        };
        let outcome = Outcome {
            result,
            inputs,
            skills,
            sources,
        };
        (outcome, found.skills)
    }

    /// For a build script: prints `cargo:rerun-if-changed` for every
    /// source, compiles, writes the bundle to `OUT_DIR/<out file>` and
    /// prints a `cargo:warning=` line per warning; notes (junk left out)
    /// and how each source was read (one skill or a collection) go to the
    /// script's own output, which `cargo build -vv` shows.
    /// Returns the path written, or every problem (nothing is written
    /// then).
    ///
    /// ```no_run
    /// match skills_build::Builder::new().source("skills").build() {
    ///     Ok(path) => println!("wrote {}", path.display()),
    ///     Err(error) => panic!("{error}"),
    /// }
    /// ```
    pub fn build(&self) -> Result<PathBuf, CompileError> {
        for (dir, _) in &self.sources {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        #[cfg(feature = "sign")]
        if let Some(signing) = &self.signing {
            println!("{}", signing.cargo_rerun_line());
        }
        let out_path = std::env::var_os("OUT_DIR").map(|dir| Path::new(&dir).join(&self.out_file));
        let outcome = match (&self.previous, &out_path) {
            (None, Some(last)) => self.clone().reuse_from(last).run(),
            _ => self.run(),
        };
        for source in &outcome.sources {
            let layout = source.layout.map_or("no skill", |layout| layout.as_str());
            println!(
                "skills: source {}: {layout} ({} skills)",
                source.location, source.skills
            );
        }
        let compiled = outcome.result?;
        for warning in &compiled.warnings {
            if warning.severity == Severity::Note {
                println!("{}", warning.to_string().replace(['\n', '\r'], " "));
            } else {
                println!("{}", diagnostic::cargo_line("warning", warning));
            }
        }
        let fail = |message: String| CompileError {
            problems: vec![Problem::new(Code::OutputUnwritable, message)],
        };
        let path = out_path.ok_or_else(|| {
            fail("OUT_DIR is not set; Builder::build and Builder::emit are for build scripts (use Builder::compile elsewhere)".to_string())
        })?;
        std::fs::write(&path, &compiled.bytes)
            .map_err(|error| fail(format!("cannot write {}: {error}", path.display())))?;
        Ok(path)
    }

    /// For a build script: [`build`](Self::build), and on failure print
    /// every problem as a compiler diagnostic and exit with status 1,
    /// which fails the build.
    ///
    /// ```no_run
    /// // build.rs, in `fn main`:
    /// skills_build::Builder::new().source("skills").emit();
    /// ```
    ///
    /// Each problem is a `cargo::error=` line (a warning a `cargo::warning=`
    /// line), which Cargo shows as its own `error:` after the script has
    /// run and which fails the build, rather than burying them in the
    /// output of a failed script. The full diagnostics go to the script's
    /// own output too (`cargo build -vv` shows them).
    pub fn emit(&self) {
        if let Err(error) = self.build() {
            print!("{}", diagnostic::cargo_lines(&error.problems));
            eprint!(
                "{}",
                diagnostic::failure(&error.problems, "the skills do not compile")
            );
            // Outside a build script no Cargo reads the lines: fail here.
            if std::env::var_os("OUT_DIR").is_none() {
                std::process::exit(1);
            }
        }
    }
}

/// Where the content rules' findings per skill are kept: beside the
/// earlier bundle, `skills.bin.findings` for `skills.bin`.
fn findings_path(bundle: &Path) -> PathBuf {
    let mut name = bundle.as_os_str().to_os_string();
    name.push(".findings");
    PathBuf::from(name)
}

/// Turns a failure to read the signing key into a compile error naming
/// the key's source (never its contents), after the compilation's own
/// problems.
#[cfg(feature = "sign")]
fn refuse_unsigned<B>(
    error: &crate::signing::SigningError,
    compiled: Result<Compiled<B>, CompileError>,
) -> Result<Compiled<B>, CompileError> {
    let mut problems = match compiled {
        Ok(compiled) => compiled.warnings,
        Err(error) => error.problems,
    };
    problems.push(Problem::new(Code::SigningFailed, error.to_string()));
    Problem::sort(&mut problems);
    Err(CompileError { problems })
}

/// A source the pipeline opened: a directory, or an archive read into
/// memory.
enum Opened {
    Dir(DirSource),
    Archive(Box<dyn Source>),
}

impl Opened {
    fn as_source(&self) -> &dyn Source {
        match self {
            Opened::Dir(source) => source,
            Opened::Archive(source) => source.as_ref(),
        }
    }
}

/// Compiles skills from sources already open (in memory, embedded, or
/// directories), in order, with the default options.
///
/// ```
/// use skills_build::source::MemorySource;
/// let source = MemorySource::new("memory")
///     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Fill PDF forms.\n---\nGo.\n");
/// let compiled = skills_build::compile_sources(&[&source]).unwrap();
/// let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
/// assert_eq!(catalog.names().collect::<Vec<_>>(), ["pdf"]);
/// ```
pub fn compile_sources(sources: &[&dyn Source]) -> Result<Compiled, CompileError> {
    let roots: Vec<Root<'_>> = sources.iter().map(|source| Root::new(*source)).collect();
    let options = CompileOptions::default();
    let mut compiler = Compiler::new(&options, None, BundleWriter::new(&Bundle::default()), false);
    let mut found = discover::discover_each(
        &roots,
        &Options::default(),
        &crate::findings_cache::FindingsCache::default(),
        &mut |found, range| compiler.take(found, range),
    );
    compiler.finish(&mut found)
}
