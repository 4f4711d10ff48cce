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

use std::path::{Path, PathBuf};

use crate::compile::{CompileError, CompileOptions, Compiled, Locations, compile, compile_reusing};
use crate::diagnostic;
use crate::discover::{self, Options, Root};
use crate::filter::Glob;
use crate::problem::Problem;
#[cfg(feature = "sign")]
use crate::signing::Signing;
use crate::source::{DirSource, Source};

/// The file name [`Builder::emit`] writes into `OUT_DIR` unless told
/// otherwise.
///
/// ```
/// assert_eq!(skills_build::builder::DEFAULT_OUT_FILE, "skills.bin");
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
/// # Ok::<(), skills_build::compile::CompileError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Builder {
    sources: Vec<(PathBuf, Option<String>)>,
    locations: Locations,
    excludes: Vec<String>,
    max_file_size: u64,
    deny_shadowing: bool,
    extensions: bool,
    out_file: String,
    #[cfg(feature = "sign")]
    signing: Option<Signing>,
    previous: Option<PathBuf>,
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
    /// assert!(builder.compile().is_ok()); // no sources: an empty catalog
    /// ```
    pub fn new() -> Self {
        Builder {
            sources: Vec::new(),
            locations: Locations::Uri,
            excludes: Vec::new(),
            max_file_size: discover::DEFAULT_MAX_FILE_SIZE,
            deny_shadowing: false,
            extensions: false,
            out_file: DEFAULT_OUT_FILE.to_string(),
            #[cfg(feature = "sign")]
            signing: None,
            previous: None,
        }
    }

    /// Adds a directory of skills (each direct subdirectory with a
    /// `SKILL.md` is one skill). Relative paths are relative to the
    /// current directory, which for a build script is the package root.
    /// Earlier sources win a name.
    ///
    /// ```
    /// let builder = skills_build::Builder::new().source("skills").source("more-skills");
    /// # let _ = builder;
    /// ```
    pub fn source(mut self, dir: impl AsRef<Path>) -> Self {
        self.sources.push((dir.as_ref().to_path_buf(), None));
        self
    }

    /// Adds a directory of skills whose names, when an earlier source took
    /// them, are listed as `qualifier:name` instead of being shadowed.
    ///
    /// ```
    /// let builder = skills_build::Builder::new().source("skills").qualified_source("vendor", "acme");
    /// # let _ = builder;
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
    /// let builder = skills_build::Builder::new().location_base("/opt/app/skills");
    /// # let _ = builder;
    /// ```
    pub fn location_base(mut self, base: impl Into<String>) -> Self {
        self.locations = Locations::Base(base.into());
        self
    }

    /// Chooses how locations are printed (see [`Locations`]).
    ///
    /// ```
    /// use skills_build::compile::Locations;
    /// let builder = skills_build::Builder::new().locations(Locations::Source);
    /// # let _ = builder;
    /// ```
    pub fn locations(mut self, locations: Locations) -> Self {
        self.locations = locations;
        self
    }

    /// Skips files and directories matching `pattern` (see
    /// [`Glob`]); also the way to skip junk files.
    ///
    /// ```
    /// let builder = skills_build::Builder::new().exclude(".DS_Store").exclude("**/__pycache__");
    /// # let _ = builder;
    /// ```
    pub fn exclude(mut self, pattern: impl Into<String>) -> Self {
        self.excludes.push(pattern.into());
        self
    }

    /// The largest file, in bytes, that may be embedded (default 16 MiB).
    ///
    /// ```
    /// let builder = skills_build::Builder::new().max_file_size(1024 * 1024);
    /// # let _ = builder;
    /// ```
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = bytes;
        self
    }

    /// Makes a skill shadowed by an earlier source's skill of the same name
    /// an error rather than a warning. `include_skills!` sets this, since a
    /// macro cannot show warnings and a skill must not vanish silently.
    ///
    /// ```
    /// let builder = skills_build::Builder::new().deny_shadowing();
    /// # let _ = builder;
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
    /// unless asked (see `skills_build::extensions`).
    ///
    /// ```
    /// let builder = skills_build::Builder::new().source("skills").extensions(true);
    /// # let _ = builder;
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
    /// use skills_build::{keys::KeySource, signing::Signing};
    /// let builder = skills_build::Builder::new()
    ///     .source("skills")
    ///     .sign(Signing::new(KeySource::Env("SKILLS_SIGNING_KEY".into()), "https://example.com/skills"));
    /// # let _ = builder;
    /// ```
    #[cfg(feature = "sign")]
    pub fn sign(mut self, signing: Signing) -> Self {
        self.signing = Some(signing);
        self
    }

    /// A bundle an earlier build wrote, whose digests of files that are
    /// still byte for byte the same are taken instead of hashing them again
    /// (see [`crate::reuse`]); the bundle comes out the same. A missing or
    /// unreadable file is no error: everything is hashed then.
    /// [`build`](Self::build) reuses the bundle it wrote last time in
    /// `OUT_DIR` unless told otherwise.
    ///
    /// ```
    /// let builder = skills_build::Builder::new().source("skills").reuse_from("target/skills.bin");
    /// # let _ = builder;
    /// ```
    pub fn reuse_from(mut self, bundle: impl Into<PathBuf>) -> Self {
        self.previous = Some(bundle.into());
        self
    }

    /// The file name written into `OUT_DIR` (default `skills.bin`).
    ///
    /// ```
    /// let builder = skills_build::Builder::new().out_file("agent-skills.bin");
    /// # let _ = builder;
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
    /// assert!(error.problems[0].message.contains("not found"));
    /// ```
    pub fn compile(&self) -> Result<Compiled, CompileError> {
        self.compile_with_inputs().0
    }

    /// Like [`compile`](Self::compile), and also every file that was read,
    /// as paths: the skill files and the files embedded beside them. The
    /// `include_skills!` macro makes the compiler track these, so an edit
    /// or a deletion rebuilds.
    ///
    /// ```no_run
    /// let (result, inputs) = skills_build::Builder::new().source("skills").compile_with_inputs();
    /// for path in &inputs {
    ///     println!("read {}", path.display());
    /// }
    /// # let _ = result;
    /// ```
    pub fn compile_with_inputs(&self) -> (Result<Compiled, CompileError>, Vec<PathBuf>) {
        let mut problems = Vec::new();
        let mut options = Options {
            max_file_size: self.max_file_size,
            deny_shadowing: self.deny_shadowing,
            extensions: self.extensions,
            ..Options::default()
        };
        for pattern in &self.excludes {
            match Glob::new(pattern) {
                Ok(glob) => options.excludes.push(glob),
                Err(error) => problems.push(Problem::spec_error(error.to_string())),
            }
        }
        let mut opened = Vec::new();
        for (dir, qualifier) in &self.sources {
            match DirSource::new(dir) {
                Ok(source) => opened.push((source, qualifier.as_deref())),
                Err(error) => problems.push(
                    Problem::spec_error(format!("cannot open the skills directory: {error}"))
                        .with_file(dir.display().to_string()),
                ),
            }
        }
        let roots: Vec<Root<'_>> = opened
            .iter()
            .map(|(source, qualifier)| Root {
                source,
                qualifier: *qualifier,
            })
            .collect();
        let mut found = discover::discover(&roots, &options);
        if !problems.is_empty() {
            found.problems.extend(problems);
            Problem::sort(&mut found.problems);
        }
        let mut inputs = Vec::new();
        for skill in &found.skills {
            let Some((source, _)) = opened.get(skill.source) else {
                continue;
            };
            let dir = source.root().join(&skill.dir);
            inputs.push(dir.join(skill.skill_file.as_str()));
            inputs.extend(skill.files.iter().map(|file| dir.join(&file.path)));
        }
        let reuse = self.previous.as_deref().map(crate::reuse::Reuse::load);
        let result = compile_reusing(
            &found,
            &CompileOptions {
                locations: self.locations.clone(),
            },
            reuse.as_ref(),
        );
        #[cfg(feature = "sign")]
        let result = match &self.signing {
            Some(signing) => {
                inputs.extend(signing.key_file().map(Path::to_path_buf));
                signing.apply(result)
            }
            None => result,
        };
        (result, inputs)
    }

    /// For a build script: prints `cargo:rerun-if-changed` for every
    /// source, compiles, writes the bundle to `OUT_DIR/<out file>` and
    /// prints a `cargo:warning=` line per warning. Returns the path
    /// written, or every problem (nothing is written then).
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
        let compiled = match (&self.previous, &out_path) {
            (None, Some(last)) => self.clone().reuse_from(last).compile()?,
            _ => self.compile()?,
        };
        for warning in &compiled.warnings {
            let line = warning.to_string().replace(['\n', '\r'], " ");
            println!("cargo:warning={line}");
        }
        let fail = |message: String| CompileError {
            problems: vec![Problem::spec_error(message)],
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
    pub fn emit(&self) {
        if let Err(error) = self.build() {
            let mut text = String::new();
            for problem in &error.problems {
                text.push_str(&diagnostic::render(problem));
            }
            text.push_str(&format!(
                "error: the skills do not compile: {}\n",
                diagnostic::count(&error.problems)
            ));
            eprint!("{text}");
            std::process::exit(1);
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
    let found = discover::discover(&roots, &Options::default());
    compile(&found, &CompileOptions::default())
}
