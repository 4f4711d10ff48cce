//! `.skill` and `.zip` archives: a skill folder packed the way the Claude
//! packager packs it (and `skills pack` packs it), read as a
//! [`Source`](crate::source::Source).
//!
//! An archive's entries are `<folder>/<path>`: the skill folder's own name
//! first, so the archive's root holds the folder just as a directory of
//! skills holds it, and discovery, verdicts and the bundle bytes are the
//! ones the unpacked folder gives. A `.skill` file holds exactly one skill
//! folder; a `.zip` file may hold several.
//!
//! Nothing in an archive is trusted. Before a byte is inflated, the whole
//! central directory is read and refused if an entry escapes its folder
//! (`..`, an absolute path, a backslash, a drive letter), is a symbolic
//! link or a special file, repeats another, overlaps another's data, or if
//! the declared sizes exceed the [`Limits`] (the total, and the ratio of
//! inflated to compressed size). While inflating, no entry may grow past
//! its declared size, whatever its stream holds, and each must match its
//! CRC-32. So memory stays bounded by the limits, on any input.
//!
//! Reading archives needs the `archive` feature (on in the command line's
//! default features); without it, [`is_archive`] still tells an archive
//! path apart, so that a build given one says which feature is missing.
//!
//! ```
//! # #[cfg(feature = "archive")] {
//! use skills_build::source::Source;
//! use skills_build::unstable::archive::ArchiveSource;
//! let archive = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-archive/report-writer.skill");
//! let source = ArchiveSource::open(archive)?;
//! assert_eq!(source.list("")?[0].name, "report-writer");
//! assert!(source.list("report-writer")?.iter().any(|entry| entry.name == "SKILL.md"));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;

#[cfg(feature = "archive")]
mod crc32;
#[cfg(feature = "archive")]
mod rules;
#[cfg(feature = "archive")]
pub(crate) mod zip;

#[cfg(feature = "archive")]
pub use crc32::crc32;

/// The file extensions read as archives, without the dot.
pub const EXTENSIONS: [&str; 2] = ["skill", "zip"];

/// Whether `path` names an archive (ends in `.skill` or `.zip`, in any
/// case) rather than a directory.
///
/// ```
/// use skills_build::unstable::archive::is_archive;
/// assert!(is_archive("dist/pdf.skill".as_ref()));
/// assert!(is_archive("skills.ZIP".as_ref()));
/// assert!(!is_archive("skills".as_ref()));
/// ```
pub fn is_archive(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// What to say when an archive is given as a source and the `archive`
/// feature is off.
#[cfg(not(feature = "archive"))]
const MISSING_FEATURE: &str = "reading a .skill or .zip archive needs the `archive` feature: enable it on skills-build (for a build script) or on skills-runtime (for include_skills!), or unpack the archive";

/// Opens `path` as a source when it names an archive file (not a
/// directory, whatever its name): `None` for anything else, so the caller
/// opens it as a directory. Without the `archive` feature an archive is
/// refused, saying which feature is missing.
pub(crate) fn open_if_archive(
    path: &Path,
) -> Option<Result<Box<dyn crate::source::Source>, String>> {
    if !is_archive(path) || path.is_dir() {
        return None;
    }
    #[cfg(feature = "archive")]
    let opened = ArchiveSource::open(path)
        .map(|source| Box::new(source) as Box<dyn crate::source::Source>)
        .map_err(|error| error.to_string());
    #[cfg(not(feature = "archive"))]
    let opened = Err(MISSING_FEATURE.to_string());
    Some(opened)
}

#[cfg(feature = "archive")]
pub use reading::*;
#[cfg(feature = "archive")]
pub use rules::{Limits, Reason};

#[cfg(feature = "archive")]
mod reading {
    use std::fmt;
    use std::path::Path;

    use super::rules::{Limits, Reason};
    use super::zip::{self, Kind};
    use crate::source::{DirEntry, MemorySource, Source, SourceError};

    /// How many skill folders an archive must hold.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Expect {
        /// Exactly one (a `.skill` file).
        #[default]
        OneFolder,
        /// One or more (a `.zip` of skill folders).
        Folders,
    }

    impl Expect {
        /// What an archive's name asks for: one folder for `.skill`,
        /// one or more for anything else.
        ///
        /// ```
        /// use skills_build::unstable::archive::Expect;
        /// assert_eq!(Expect::for_path("a.skill".as_ref()), Expect::OneFolder);
        /// assert_eq!(Expect::for_path("a.zip".as_ref()), Expect::Folders);
        /// ```
        pub fn for_path(path: &Path) -> Expect {
            match path.extension().and_then(|e| e.to_str()) {
                Some(e) if e.eq_ignore_ascii_case("skill") => Expect::OneFolder,
                _ => Expect::Folders,
            }
        }
    }

    /// An archive that could not be read, and why.
    #[derive(Debug)]
    pub struct ArchiveError {
        /// The archive, as named.
        pub archive: String,
        /// Why it was refused.
        pub reason: Reason,
    }

    impl fmt::Display for ArchiveError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}: {}", self.archive, self.reason)
        }
    }

    impl std::error::Error for ArchiveError {}

    /// A `.skill` or `.zip` archive, checked and unpacked in memory: its
    /// root lists its skill folders, as a directory of skills would.
    ///
    /// ```no_run
    /// use skills_build::unstable::archive::ArchiveSource;
    /// let source = ArchiveSource::open("dist/pdf.skill")?;
    /// let compiled = skills_build::compile_sources(&[&source])?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[derive(Debug, Clone)]
    pub struct ArchiveSource {
        tree: MemorySource,
    }

    impl ArchiveSource {
        /// Opens the archive at `path` with the default [`Limits`],
        /// expecting what its extension asks for ([`Expect::for_path`]).
        pub fn open(path: impl AsRef<Path>) -> Result<ArchiveSource, ArchiveError> {
            let path = path.as_ref();
            Self::open_with(path, Expect::for_path(path), &Limits::default())
        }

        /// Opens the archive at `path` with the given expectation and limits.
        pub fn open_with(
            path: &Path,
            expect: Expect,
            limits: &Limits,
        ) -> Result<ArchiveSource, ArchiveError> {
            let location = path.display().to_string();
            let bytes =
                read_bounded(path, limits.max_archive_bytes).map_err(|reason| ArchiveError {
                    archive: location.clone(),
                    reason,
                })?;
            Self::from_bytes(location, &bytes, expect, limits)
        }

        /// Reads an archive held in memory, naming it `location`.
        pub fn from_bytes(
            location: impl Into<String>,
            bytes: &[u8],
            expect: Expect,
            limits: &Limits,
        ) -> Result<ArchiveSource, ArchiveError> {
            let location = location.into();
            match unpack(bytes, expect, limits) {
                Ok(files) => {
                    let mut tree = MemorySource::new(location);
                    for (name, bytes, executable) in files {
                        if let Some(executable) = executable {
                            tree.set_executable(name.clone(), executable);
                        }
                        tree.insert(name, bytes);
                    }
                    Ok(ArchiveSource { tree })
                }
                Err(reason) => Err(ArchiveError {
                    archive: location,
                    reason,
                }),
            }
        }
    }

    impl Source for ArchiveSource {
        fn location(&self) -> &str {
            self.tree.location()
        }

        fn list(&self, dir: &str) -> Result<Vec<DirEntry>, SourceError> {
            self.tree.list(dir)
        }

        fn read(&self, path: &str) -> Result<Vec<u8>, SourceError> {
            self.tree.read(path)
        }

        fn executable(&self, path: &str) -> Option<bool> {
            self.tree.executable(path)
        }
    }

    /// The archive's bytes, read as every file a user names is read
    /// ([`read_limited`](crate::read_limit::read_limited)): the file type
    /// checked before opening (a named pipe would block `open` and a
    /// device never end), and at most `max` bytes.
    fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, Reason> {
        use crate::read_limit::{ReadLimitError, read_limited};
        read_limited(path, max).map_err(|error| match error {
            ReadLimitError::Special { kind } => Reason::NotAFile { kind },
            ReadLimitError::TooLarge { size, limit } => Reason::TooLarge {
                size: size.unwrap_or(limit.saturating_add(1)),
                max: limit,
            },
            ReadLimitError::Io(error) => Reason::Io(error),
        })
    }

    /// Each file: `(<folder>/<path>, bytes, executable when its mode is
    /// recorded)`.
    type Files = Vec<(String, Vec<u8>, Option<bool>)>;

    /// Checks the layout (folders, duplicates) from the central directory,
    /// then inflates every file: `(<folder>/<path>, bytes)`.
    fn unpack(bytes: &[u8], expect: Expect, limits: &Limits) -> Result<Files, Reason> {
        use std::collections::BTreeSet;
        let entries = zip::central_directory(bytes, limits)?;
        let mut names = BTreeSet::new();
        let mut dirs = BTreeSet::new();
        let mut folders = BTreeSet::new();
        for entry in &entries {
            let path = entry.name.strip_suffix('/').unwrap_or(&entry.name);
            if !names.insert(path) {
                return Err(Reason::Duplicate(entry.name.clone()));
            }
            match path.split_once('/') {
                None if entry.kind == Kind::File => {
                    return Err(Reason::OutsideFolder(entry.name.clone()));
                }
                None => {
                    folders.insert(path);
                }
                Some((folder, _)) => {
                    folders.insert(folder);
                }
            }
            if entry.kind == Kind::Dir {
                dirs.insert(path);
            }
            let mut at = 0;
            while let Some(i) = path[at..].find('/') {
                dirs.insert(&path[..at + i]);
                at += i + 1;
            }
        }
        for entry in &entries {
            if entry.kind == Kind::File && dirs.contains(entry.name.as_str()) {
                return Err(Reason::Duplicate(entry.name.clone()));
            }
        }
        if folders.is_empty() {
            return Err(Reason::Empty);
        }
        if expect == Expect::OneFolder && folders.len() > 1 {
            return Err(Reason::SeveralFolders(
                folders.into_iter().map(str::to_string).collect(),
            ));
        }
        let mut files = Vec::new();
        for entry in entries.iter().filter(|e| e.kind == Kind::File) {
            let content = zip::extract(bytes, entry)?;
            files.push((entry.name.clone(), content, entry.executable));
        }
        Ok(files)
    }
}
