//! Where skills come from: a tree of files with a location name.
//!
//! A [`Source`] answers two questions, what a directory holds and what a
//! file's bytes are, for paths relative to its root written with `/`.
//! Three kinds exist: a local directory ([`DirSource`]), a tree held in
//! memory ([`MemorySource`], for tests and generated skills) and an
//! embedded `include_dir::Dir` (`IncludeDirSource`, feature `include-dir`).

use crate::real_path::canonicalize;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::read_limit::ReadLimitError;

/// What a directory entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file (or a link to one inside the source).
    File,
    /// A directory (or a link to one inside the source).
    Dir,
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name (one path segment).
    pub name: String,
    /// File or directory.
    pub kind: EntryKind,
}

/// Why a source could not answer.
#[derive(Debug)]
pub enum SourceError {
    /// The path does not exist in the source.
    NotFound(String),
    /// A symbolic link resolves outside the source's directory. Links are
    /// followed only while they stay inside it.
    Escapes {
        /// The link, relative to the source root.
        link: String,
        /// Where it resolves to.
        target: PathBuf,
        /// Whether that is a directory (else a file, or something else that
        /// is no directory).
        to_dir: bool,
    },
    /// A file or directory name is not UTF-8, so it cannot be embedded.
    NotUtf8Name(PathBuf),
    /// Something that is neither a file nor a directory (a socket, a
    /// device, a broken link).
    NotAFile(String),
    /// The file holds more bytes than the reader allowed (see
    /// [`Source::read_limited`]); nothing past the limit was read.
    TooLarge {
        /// The path, relative to the source root.
        path: String,
        /// Its length when known (from its metadata, or its bytes in
        /// memory); `None` when it grew past the limit while being read.
        size: Option<u64>,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The operating system refused.
    Io {
        /// The path, relative to the source root.
        path: String,
        /// What the system said.
        error: io::Error,
    },
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::NotFound(path) => write!(f, "{path}: not found"),
            SourceError::Escapes {
                link,
                target,
                to_dir,
            } => write!(
                f,
                "{link}: symbolic link to a {} outside the source ({}); links are followed only while they stay inside the source",
                if *to_dir { "directory" } else { "file" },
                target.display()
            ),
            SourceError::NotUtf8Name(path) => {
                write!(f, "{}: file name is not UTF-8", path.display())
            }
            SourceError::NotAFile(path) => {
                write!(f, "{path}: neither a file nor a directory (a broken link?)")
            }
            SourceError::TooLarge {
                path,
                size: Some(size),
                limit,
            } => write!(
                f,
                "{path}: the file is {size} bytes, over the {limit}-byte limit"
            ),
            SourceError::TooLarge {
                path,
                size: None,
                limit,
            } => write!(f, "{path}: the file holds more than the {limit}-byte limit"),
            SourceError::Io { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl SourceError {
    /// What the user can do about it, for a problem's help line; `None`
    /// when the message says it all.
    ///
    /// ```
    /// use skills_build::source::SourceError;
    /// let error = SourceError::Escapes {
    ///     link: "pdf/LICENSE".into(),
    ///     target: "/home/me/LICENSE".into(),
    ///     to_dir: false,
    /// };
    /// assert_eq!(
    ///     error.to_string(),
    ///     "pdf/LICENSE: symbolic link to a file outside the source (/home/me/LICENSE); links are followed only while they stay inside the source"
    /// );
    /// assert_eq!(error.hint(), Some("copy the file into the skill in place of the link"));
    /// ```
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            SourceError::Escapes { to_dir: false, .. } => {
                Some("copy the file into the skill in place of the link")
            }
            SourceError::Escapes { to_dir: true, .. } => Some(
                "copy the directory into the skill in place of the link; if it holds skills of its own, give it as a source instead",
            ),
            _ => None,
        }
    }
}

impl std::error::Error for SourceError {}

/// A tree of files skills are read from.
///
/// Paths are relative to the root, `/`-separated, without `.` or `..`
/// segments; `""` is the root itself. Listings come back sorted by name so
/// every source gives the same order whatever its file system does.
/// Sources are `Sync`: the pipeline reads the skills of one source on
/// several threads.
pub trait Source: Sync {
    /// A name for the source in messages and prompt locations: a path, or a
    /// label such as `memory`.
    fn location(&self) -> &str;

    /// The entries of directory `dir`, sorted by name.
    fn list(&self, dir: &str) -> Result<Vec<DirEntry>, SourceError>;

    /// The bytes of file `path`.
    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError>;

    /// Whether file `path` is executable, when the source carries file
    /// modes (a folder on Unix: any execute bit; an archive entry made on
    /// Unix); `None` when it does not (the default), and the installer
    /// falls back to guessing from the path.
    fn executable(&self, path: &str) -> Option<bool> {
        let _ = path;
        None
    }

    /// The bytes of file `path` when it holds at most `limit` bytes, else
    /// [`SourceError::TooLarge`]. A source on disk checks the length before
    /// reading and never reads more than `limit + 1` bytes; the default,
    /// for sources already in memory, reads and then compares.
    fn read_limited(&self, path: &str, limit: u64) -> Result<Vec<u8>, SourceError> {
        let bytes = self.read(path)?;
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if size > limit {
            return Err(SourceError::TooLarge {
                path: path.to_string(),
                size: Some(size),
                limit,
            });
        }
        Ok(bytes)
    }
}

/// `dir/name`, or `name` at the root: a path inside a source.
pub(crate) fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// A directory on the local file system.
///
/// Symbolic links are followed only while they stay inside the directory:
/// a link to a file or a directory elsewhere in it reads as that file or
/// directory, under the link's own path; a link that resolves elsewhere is
/// refused with [`SourceError::Escapes`], whose [`SourceError::hint`] says
/// what to do instead.
///
/// ```no_run
/// use skills_build::source::{DirSource, Source};
/// let source = DirSource::new("skills")?;
/// for entry in source.list("")? {
///     println!("{}", entry.name);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct DirSource {
    root: PathBuf,
    canonical_root: PathBuf,
    location: String,
    /// Directories (relative) listed and found to be plain directories all
    /// the way down from the root: a plain file in one of them is inside
    /// the root without resolving its path again.
    plain_dirs: Mutex<HashSet<String>>,
}

impl Clone for DirSource {
    fn clone(&self) -> Self {
        DirSource {
            root: self.root.clone(),
            canonical_root: self.canonical_root.clone(),
            location: self.location.clone(),
            plain_dirs: Mutex::new(HashSet::new()),
        }
    }
}

impl DirSource {
    /// Opens `root`, which must be a directory.
    pub fn new(root: impl AsRef<Path>) -> Result<DirSource, SourceError> {
        let root = root.as_ref().to_path_buf();
        let location = root.to_string_lossy().into_owned();
        let canonical_root = canonicalize(&root).map_err(|error| match error.kind() {
            io::ErrorKind::NotFound => SourceError::NotFound(location.clone()),
            _ => SourceError::Io {
                path: location.clone(),
                error,
            },
        })?;
        if !canonical_root.is_dir() {
            return Err(SourceError::Io {
                path: location,
                error: io::Error::new(io::ErrorKind::NotADirectory, "not a directory"),
            });
        }
        Ok(DirSource {
            root,
            canonical_root,
            location,
            plain_dirs: Mutex::new(HashSet::new()),
        })
    }

    /// The directory as given.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The real path of `rel`, checked to stay inside the root.
    fn resolve(&self, rel: &str) -> Result<PathBuf, SourceError> {
        let path = self.canonical_root.join(rel);
        let real = canonicalize(&path).map_err(|error| match error.kind() {
            io::ErrorKind::NotFound => {
                if path.symlink_metadata().is_ok() {
                    SourceError::NotAFile(rel.to_string())
                } else {
                    SourceError::NotFound(rel.to_string())
                }
            }
            _ => SourceError::Io {
                path: rel.to_string(),
                error,
            },
        })?;
        if !real.starts_with(&self.canonical_root) {
            return Err(SourceError::Escapes {
                link: rel.to_string(),
                to_dir: real.is_dir(),
                target: real,
            });
        }
        Ok(real)
    }
}

impl Source for DirSource {
    fn location(&self) -> &str {
        &self.location
    }

    fn list(&self, dir: &str) -> Result<Vec<DirEntry>, SourceError> {
        let real = self.resolve(dir)?;
        if real == self.canonical_root.join(dir)
            && let Ok(mut plain) = self.plain_dirs.lock()
        {
            plain.insert(dir.to_string());
        }
        let io_error = |error| SourceError::Io {
            path: dir.to_string(),
            error,
        };
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&real).map_err(io_error)? {
            let entry = entry.map_err(io_error)?;
            let name = entry
                .file_name()
                .into_string()
                .map_err(|_| SourceError::NotUtf8Name(entry.path()))?;
            let rel = join(dir, &name);
            // `real` is canonical, so a plain entry of it stays inside the
            // root; only a link needs resolving (and checking).
            let file_type = entry.file_type().map_err(io_error)?;
            let kind = if file_type.is_dir() {
                EntryKind::Dir
            } else if file_type.is_file() {
                EntryKind::File
            } else {
                let target = self.resolve(&rel)?;
                if target.is_dir() {
                    EntryKind::Dir
                } else if target.is_file() {
                    EntryKind::File
                } else if let Some(kind) = std::fs::metadata(&target)
                    .ok()
                    .and_then(|meta| crate::read_limit::special_kind(&meta))
                {
                    return Err(SourceError::Io {
                        path: rel,
                        error: ReadLimitError::Special { kind }.into(),
                    });
                } else {
                    return Err(SourceError::NotAFile(rel));
                }
            };
            entries.push(DirEntry { name, kind });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError> {
        self.read_limited(path, u64::MAX)
    }

    #[cfg(unix)]
    fn executable(&self, path: &str) -> Option<bool> {
        use std::os::unix::fs::PermissionsExt;
        let real = match self.plain_file(path) {
            Some(real) => real,
            None => self.resolve(path).ok()?,
        };
        let meta = std::fs::metadata(real).ok()?;
        Some(meta.is_file() && meta.permissions().mode() & 0o111 != 0)
    }

    /// Under WASI the modes are the host's, when the launcher passed them
    /// (see the `wasi_modes` module).
    #[cfg(target_os = "wasi")]
    fn executable(&self, path: &str) -> Option<bool> {
        let real = match self.plain_file(path) {
            Some(real) => real,
            None => self.resolve(path).ok()?,
        };
        crate::wasi_modes::executable(&crate::real_path::canonicalize(&real).ok()?)
    }

    fn read_limited(&self, path: &str, limit: u64) -> Result<Vec<u8>, SourceError> {
        let real = match self.plain_file(path) {
            Some(real) => real,
            None => self.resolve(path)?,
        };
        crate::read_limit::read_limited(&real, limit).map_err(|error| match error {
            ReadLimitError::TooLarge { size, limit } => SourceError::TooLarge {
                path: path.to_string(),
                size,
                limit,
            },
            error => SourceError::Io {
                path: path.to_string(),
                error: error.into(),
            },
        })
    }
}

impl DirSource {
    /// `path` under the root when it is a plain file (not a link) in a
    /// directory already listed as plain: then it cannot lead outside, and
    /// one `lstat` replaces resolving every component of its path.
    fn plain_file(&self, path: &str) -> Option<PathBuf> {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        if name.is_empty() || name == "." || name == ".." {
            return None;
        }
        if !self.plain_dirs.lock().ok()?.contains(dir) {
            return None;
        }
        let full = self.canonical_root.join(path);
        let meta = std::fs::symlink_metadata(&full).ok()?;
        meta.file_type().is_file().then_some(full)
    }
}

/// A tree held in memory: file paths mapped to their bytes. Directories
/// exist by having files in them.
///
/// ```
/// use skills_build::source::{MemorySource, Source};
/// let source = MemorySource::new("memory")
///     .with_file("pdf/SKILL.md", "---\nname: pdf\n---\n")
///     .with_file("pdf/scripts/run.py", "print(1)\n");
/// assert_eq!(source.list("pdf").unwrap().len(), 2);
/// assert_eq!(source.read("pdf/scripts/run.py").unwrap(), b"print(1)\n");
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemorySource {
    location: String,
    files: BTreeMap<String, Vec<u8>>,
    /// The files whose mode is known: executable or not.
    modes: BTreeMap<String, bool>,
}

impl MemorySource {
    /// An empty tree named `location`.
    pub fn new(location: impl Into<String>) -> MemorySource {
        MemorySource {
            location: location.into(),
            files: BTreeMap::new(),
            modes: BTreeMap::new(),
        }
    }

    /// Adds (or replaces) the file at `path`.
    pub fn with_file(mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> MemorySource {
        self.insert(path, bytes);
        self
    }

    /// Adds (or replaces) the file at `path`.
    pub fn insert(&mut self, path: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), bytes.into());
    }

    /// Says whether the file at `path` is executable: a tree that carries
    /// modes (an archive made on Unix, a copy of a folder) sets it for
    /// every file, and the bundle then lists the executable ones.
    ///
    /// ```
    /// use skills_build::source::{MemorySource, Source};
    /// let mut source = MemorySource::new("memory").with_file("pdf/run.sh", "echo\n");
    /// assert_eq!(source.executable("pdf/run.sh"), None);
    /// source.set_executable("pdf/run.sh", true);
    /// assert_eq!(source.executable("pdf/run.sh"), Some(true));
    /// ```
    pub fn set_executable(&mut self, path: impl Into<String>, executable: bool) {
        self.modes.insert(path.into(), executable);
    }
}

impl Source for MemorySource {
    fn location(&self) -> &str {
        &self.location
    }

    fn list(&self, dir: &str) -> Result<Vec<DirEntry>, SourceError> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut entries: Vec<DirEntry> = Vec::new();
        for path in self.files.keys() {
            let Some(rest) = path.strip_prefix(&prefix) else {
                continue;
            };
            let (name, kind) = match rest.split_once('/') {
                Some((name, _)) => (name, EntryKind::Dir),
                None => (rest, EntryKind::File),
            };
            if entries.last().is_none_or(|last| last.name != name) {
                entries.push(DirEntry {
                    name: name.to_string(),
                    kind,
                });
            }
        }
        if entries.is_empty() && !dir.is_empty() {
            return Err(SourceError::NotFound(dir.to_string()));
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        entries.dedup_by(|a, b| a.name == b.name);
        Ok(entries)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| SourceError::NotFound(path.to_string()))
    }

    fn executable(&self, path: &str) -> Option<bool> {
        self.modes.get(path).copied()
    }
}

/// A directory embedded with `include_dir!`.
///
/// ```
/// use skills_build::source::{IncludeDirSource, Source};
/// static SKILLS: include_dir::Dir<'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/src");
/// let source = IncludeDirSource::new("src", &SKILLS);
/// assert!(source.list("").unwrap().iter().any(|e| e.name == "lib.rs"));
/// ```
///
/// Every entry of the tree is indexed by path once, when the source is
/// made, so listing a directory or reading a file is a hash lookup rather
/// than `include_dir`'s scan of the whole tree (which made discovering and
/// compiling many skills quadratic).
#[cfg(feature = "include-dir")]
#[derive(Debug, Clone)]
pub struct IncludeDirSource<'a> {
    location: String,
    dir: &'a include_dir::Dir<'a>,
    /// Every entry below `dir`, by its path as `include_dir` stores it
    /// (`Path` equality and hashing, as `Dir::get_entry` compares).
    index: std::collections::HashMap<&'a Path, &'a include_dir::DirEntry<'a>>,
}

#[cfg(feature = "include-dir")]
impl<'a> IncludeDirSource<'a> {
    /// Wraps an embedded directory, naming it `location` in messages.
    pub fn new(location: impl Into<String>, dir: &'a include_dir::Dir<'a>) -> Self {
        fn walk<'a>(
            dir: &'a include_dir::Dir<'a>,
            index: &mut std::collections::HashMap<&'a Path, &'a include_dir::DirEntry<'a>>,
        ) {
            for entry in dir.entries() {
                // The first entry met in `get_entry`'s depth-first order wins.
                index.entry(entry.path()).or_insert(entry);
                if let include_dir::DirEntry::Dir(sub) = entry {
                    walk(sub, index);
                }
            }
        }
        let mut index = std::collections::HashMap::new();
        walk(dir, &mut index);
        IncludeDirSource {
            location: location.into(),
            dir,
            index,
        }
    }

    fn dir_at(&self, rel: &str) -> Option<&'a include_dir::Dir<'a>> {
        if rel.is_empty() {
            Some(self.dir)
        } else {
            self.index.get(Path::new(rel))?.as_dir()
        }
    }
}

#[cfg(feature = "include-dir")]
impl Source for IncludeDirSource<'_> {
    fn location(&self) -> &str {
        &self.location
    }

    fn list(&self, dir: &str) -> Result<Vec<DirEntry>, SourceError> {
        let found = self
            .dir_at(dir)
            .ok_or_else(|| SourceError::NotFound(dir.to_string()))?;
        let mut entries = Vec::new();
        for entry in found.entries() {
            let name = entry
                .path()
                .file_name()
                .ok_or_else(|| SourceError::NotUtf8Name(entry.path().to_path_buf()))?
                .to_str()
                .ok_or_else(|| SourceError::NotUtf8Name(entry.path().to_path_buf()))?
                .to_string();
            let kind = match entry {
                include_dir::DirEntry::Dir(_) => EntryKind::Dir,
                include_dir::DirEntry::File(_) => EntryKind::File,
            };
            entries.push(DirEntry { name, kind });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, SourceError> {
        self.index
            .get(Path::new(path))
            .and_then(|entry| entry.as_file())
            .map(|file| file.contents().to_vec())
            .ok_or_else(|| SourceError::NotFound(path.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_lists_files_and_directories_once() {
        let source = MemorySource::new("m")
            .with_file("b/SKILL.md", "x")
            .with_file("a/x/y", "1")
            .with_file("a/x/z", "2")
            .with_file("a/SKILL.md", "3");
        let root: Vec<_> = source
            .list("")
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(root, ["a", "b"]);
        let a = source.list("a").unwrap();
        assert_eq!(
            a[0],
            DirEntry {
                name: "SKILL.md".into(),
                kind: EntryKind::File
            }
        );
        assert_eq!(
            a[1],
            DirEntry {
                name: "x".into(),
                kind: EntryKind::Dir
            }
        );
        assert!(matches!(source.list("nope"), Err(SourceError::NotFound(_))));
    }

    #[test]
    fn directory_refuses_links_that_leave_it() {
        let tmp = std::env::temp_dir().join(format!("skills-source-{}", std::process::id()));
        let root = tmp.join("root");
        std::fs::create_dir_all(root.join("pdf")).unwrap();
        std::fs::write(tmp.join("secret"), "s").unwrap();
        std::fs::write(root.join("pdf/SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink("../../secret", root.join("pdf/leak")).unwrap();
        std::os::unix::fs::symlink("SKILL.md", root.join("pdf/alias")).unwrap();
        let source = DirSource::new(&root).unwrap();
        let err = source.list("pdf").unwrap_err();
        assert!(
            matches!(err, SourceError::Escapes { ref link, .. } if link == "pdf/leak"),
            "{err}"
        );
        // Reading it is refused too, once its directory is known to be plain.
        assert!(source.list("").is_ok());
        let err = source.read("pdf/leak").unwrap_err();
        assert!(
            matches!(err, SourceError::Escapes { to_dir: false, .. }),
            "{err}"
        );
        assert_eq!(
            err.hint(),
            Some("copy the file into the skill in place of the link")
        );

        // A link to a directory inside the source is followed.
        std::os::unix::fs::symlink("pdf", root.join("again")).unwrap();
        assert!(matches!(
            source.read("again/leak"),
            Err(SourceError::Escapes { .. })
        ));
        std::fs::remove_file(root.join("again")).unwrap();
        std::fs::remove_file(root.join("pdf/leak")).unwrap();
        let names: Vec<_> = source
            .list("pdf")
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["SKILL.md", "alias"]);
        assert_eq!(source.read("pdf/alias").unwrap(), b"x");
        // A link to a directory outside: said to be one, with its own hint.
        std::os::unix::fs::symlink("..", root.join("up")).unwrap();
        let err = source.list("").unwrap_err();
        assert!(
            matches!(err, SourceError::Escapes { to_dir: true, ref link, .. } if link == "up"),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("symbolic link to a directory outside the source"),
            "{err}"
        );
        assert!(
            err.hint()
                .is_some_and(|h| h.contains("give it as a source"))
        );
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
