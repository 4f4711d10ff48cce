//! Writing a file so that a reader sees the old bytes or the new ones,
//! never a part: the bytes go to a temporary file in the same directory,
//! which is then renamed over the target (a rename within one file system
//! is atomic).
//!
//! Every command that writes a path it was given (`build -o`, `pack -o`,
//! `sign`, `fmt`) goes through [`Output::resolve`], which looks at what is
//! there first and renames only over a regular file or nothing:
//!
//! | found at the path | what is done |
//! | --- | --- |
//! | nothing, a regular file | a temporary file beside it, renamed over it |
//! | a symbolic link | decided by what it finally names (the link stays a link); a dangling link is refused |
//! | a character device (`/dev/null`, a terminal), a FIFO | the bytes are written through it, in order, and it stays what it is |
//! | a directory, a block device, a socket | refused, with a message naming what is there |
//!
//! So `skills build skills -o /dev/null`, run as root as CI containers do,
//! checks that the skills build and leaves `/dev/null` a device.
//!
//! [`replace`] is the guarded form for rewriting a file a user edits
//! (`skills fmt`): it writes through a symbolic link to the file it names
//! (the link stays a link), refuses a file with several hard links (a
//! rename would give this name new bytes and leave the others with the
//! old), and refuses when the file no longer holds the bytes the new ones
//! were made from (an edit made meanwhile would be lost).

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What is at a path, as `lstat` sees it (a symbolic link is not
/// followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// Off Unix (the WASI build) only the first four are told apart.
#[cfg_attr(not(unix), allow(dead_code))]
pub enum Found {
    /// Nothing.
    Nothing,
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link.
    Symlink,
    /// A character device (`/dev/null`, a terminal).
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// A named pipe.
    Fifo,
    /// A Unix socket.
    Socket,
}

impl Found {
    /// What is at `path`.
    pub fn at(path: &Path) -> io::Result<Found> {
        match std::fs::symlink_metadata(path) {
            Ok(meta) => Ok(Found::of(meta.file_type())),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Found::Nothing),
            Err(error) => Err(error),
        }
    }

    /// The kind of `file_type`.
    fn of(file_type: std::fs::FileType) -> Found {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt as _;
            if file_type.is_char_device() {
                return Found::CharDevice;
            }
            if file_type.is_block_device() {
                return Found::BlockDevice;
            }
            if file_type.is_fifo() {
                return Found::Fifo;
            }
            if file_type.is_socket() {
                return Found::Socket;
            }
        }
        if file_type.is_symlink() {
            Found::Symlink
        } else if file_type.is_dir() {
            Found::Directory
        } else {
            // A regular file (and, off Unix, whatever else is not a link or a directory).
            Found::File
        }
    }

    /// The words for it: `a character device`.
    pub fn describe(self) -> &'static str {
        match self {
            Found::Nothing => "nothing",
            Found::File => "a regular file",
            Found::Directory => "a directory",
            Found::Symlink => "a symbolic link",
            Found::CharDevice => "a character device",
            Found::BlockDevice => "a block device",
            Found::Fifo => "a named pipe (FIFO)",
            Found::Socket => "a socket",
        }
    }
}

/// Where and how an output's bytes go, decided by what is at its path
/// ([`Output::resolve`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Nothing or a regular file is at this path (the one given, or the
    /// file a symbolic link names): the bytes go to a temporary file beside
    /// it, renamed over it.
    Replace(PathBuf),
    /// A character device or a FIFO (given, or named by a link): the bytes
    /// are written through it, and it stays what it is.
    Through(PathBuf, Found),
}

/// Why an output path is not written.
#[derive(Debug)]
pub struct OutputError {
    /// The path as given.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: OutputProblem,
}

/// What [`OutputError`] found.
#[derive(Debug)]
pub enum OutputProblem {
    /// Something that is neither a file nor a device to write through.
    Refused(Found),
    /// A symbolic link to a path where nothing is.
    Dangling(PathBuf),
    /// The system refused.
    Io(io::Error),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.reason {
            OutputProblem::Refused(found) => write!(
                f,
                "cannot write {path}: it is {}; an output is a regular file (replaced whole), a character device such as /dev/null or a named pipe (written through); give a file path",
                found.describe()
            ),
            OutputProblem::Dangling(target) => write!(
                f,
                "cannot write {path}: it is a symbolic link to {}, where nothing is; remove the link or give another path",
                target.display()
            ),
            OutputProblem::Io(error) => write!(f, "cannot write {path}: {error}"),
        }
    }
}

impl std::error::Error for OutputError {}

impl Output {
    /// How the output `path` is written, from what is there now.
    pub fn resolve(path: &Path) -> Result<Output, OutputError> {
        let error = |reason| OutputError {
            path: path.to_path_buf(),
            reason,
        };
        let found = Found::at(path).map_err(|e| error(OutputProblem::Io(e)))?;
        let (target, found) = match found {
            Found::Symlink => {
                let link = std::fs::read_link(path).map_err(|e| error(OutputProblem::Io(e)))?;
                match skills_build::unstable::real_path::canonicalize(path) {
                    Ok(target) => {
                        let found = Found::at(&target).map_err(|e| error(OutputProblem::Io(e)))?;
                        (target, found)
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        return Err(error(OutputProblem::Dangling(link)));
                    }
                    Err(e) => return Err(error(OutputProblem::Io(e))),
                }
            }
            found => (path.to_path_buf(), found),
        };
        match found {
            Found::Nothing | Found::File => Ok(Output::Replace(target)),
            Found::CharDevice | Found::Fifo => Ok(Output::Through(target, found)),
            other => Err(error(OutputProblem::Refused(other))),
        }
    }

    /// Writes `bytes`: renamed into place, or through the device.
    pub fn write(&self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Output::Replace(path) => write_checked(path, bytes, || still_a_file(path)),
            Output::Through(path, _) => through(path)?.write_all(bytes),
        }
    }

    /// Where a writer that streams into a file of its own (and renames it
    /// into place itself, as `skills build` does) writes: the target when it
    /// is one to replace, a file in a new private folder of the system's
    /// temporary directory when the output is a device, so nothing is made
    /// beside `/dev/null`.
    pub fn stage(&self) -> io::Result<Staged> {
        match self {
            Output::Replace(path) => Ok(Staged {
                path: path.clone(),
                folder: None,
            }),
            Output::Through(path, _) => {
                let name = path.file_name().unwrap_or("output".as_ref());
                let folder = create_private_folder(&std::env::temp_dir())?;
                Ok(Staged {
                    path: folder.join(name),
                    folder: Some(folder),
                })
            }
        }
    }

    /// Finishes a staged write: `persist` puts the file at the staged path
    /// (for a target to replace, once it is checked to be still nothing or
    /// a regular file); for a device, the staged file is then copied
    /// through it.
    pub fn finish(
        &self,
        staged: &Staged,
        persist: impl FnOnce() -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            Output::Replace(path) => {
                still_a_file(path)?;
                persist()
            }
            Output::Through(path, _) => {
                persist()?;
                let mut from = std::fs::File::open(&staged.path)?;
                io::copy(&mut from, &mut through(path)?).map(|_| ())
            }
        }
    }

    /// Whether the bytes are written through a device or pipe.
    pub fn is_through(&self) -> bool {
        matches!(self, Output::Through(..))
    }
}

/// Where [`Output::stage`] has a streamed file written; its private
/// folder, if any, is removed when dropped.
#[derive(Debug)]
pub struct Staged {
    /// The path to write the file at.
    pub path: PathBuf,
    folder: Option<PathBuf>,
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(folder) = self.folder.take() {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
}

/// A new folder `skills-output.<pid>.<n>` in `dir`, created exclusively
/// (readable by its owner only, on Unix).
fn create_private_folder(dir: &Path) -> io::Result<PathBuf> {
    let mut n = 0u32;
    loop {
        let folder = dir.join(format!(
            "skills-output.{}.{n}",
            skills_build::unstable::process_tag::process_tag()
        ));
        #[cfg(unix)]
        let builder = {
            use std::os::unix::fs::DirBuilderExt as _;
            let mut builder = std::fs::DirBuilder::new();
            builder.mode(0o700);
            builder
        };
        #[cfg(not(unix))]
        let builder = std::fs::DirBuilder::new();
        match builder.create(&folder) {
            Ok(()) => return Ok(folder),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(error) => return Err(error),
        }
    }
}

/// Opens a device or FIFO to write through (never created, never
/// truncated), and checks that what was opened is still one: a regular
/// file put there since would be written over without being truncated.
fn through(path: &Path) -> io::Result<std::fs::File> {
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    match Found::of(file.metadata()?.file_type()) {
        Found::CharDevice | Found::Fifo => Ok(file),
        found => Err(io::Error::other(format!(
            "{} is now {}, which is not written through",
            path.display(),
            found.describe()
        ))),
    }
}

/// Fails unless `path` holds nothing or a regular file: checked just
/// before a rename, so what was resolved is what is replaced.
fn still_a_file(path: &Path) -> io::Result<()> {
    match Found::at(path)? {
        Found::Nothing | Found::File => Ok(()),
        found => Err(io::Error::other(format!(
            "{} is now {}, which is not replaced",
            path.display(),
            found.describe()
        ))),
    }
}

/// Writes `bytes` to the output `path` ([`Output::resolve`], then
/// [`Output::write`]). An existing file's permissions are kept; the
/// temporary file is removed if anything fails.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    Output::resolve(path)?
        .write(bytes)
        .map_err(|error| OutputError {
            path: path.to_path_buf(),
            reason: OutputProblem::Io(error),
        })
}

/// Why [`replace`] left a file as it was.
#[derive(Debug)]
pub enum ReplaceError {
    /// The file no longer holds the bytes read before: someone wrote to it
    /// while the new bytes were made.
    Changed,
    /// The file has this many names (hard links); replacing one would
    /// split them.
    HardLinks(u64),
    /// What the path names is not a regular file (a device, a FIFO).
    NotAFile(Found),
    /// The system refused.
    Io(io::Error),
}

impl fmt::Display for ReplaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplaceError::Changed => f.write_str(
                "the file changed while it was being formatted; it is left with its new text, run the command again",
            ),
            ReplaceError::HardLinks(n) => write!(
                f,
                "the file has {n} hard links, and replacing it would give only this name the new text; format a copy and move it over the others"
            ),
            ReplaceError::NotAFile(found) => write!(
                f,
                "it names {}, not a regular file, and is left as it is",
                found.describe()
            ),
            ReplaceError::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReplaceError {}

/// Replaces the file at `path`, which held `before` when it was read, with
/// `after`, atomically: through a symbolic link to the file it names, and
/// only while the file still holds `before` (checked just before the
/// rename) and has one name.
pub fn replace(path: &Path, before: &[u8], after: &[u8]) -> Result<(), ReplaceError> {
    // The file the path finally names: a link is followed, and kept.
    let target = skills_build::unstable::real_path::canonicalize(path).map_err(ReplaceError::Io)?;
    match Found::at(&target).map_err(ReplaceError::Io)? {
        Found::File => {}
        found => return Err(ReplaceError::NotAFile(found)),
    }
    let links = hard_links(&target).map_err(ReplaceError::Io)?;
    if links > 1 {
        return Err(ReplaceError::HardLinks(links));
    }
    let mut changed = false;
    write_checked(&target, after, || {
        // Read the file as it is now, just before the rename.
        let now = std::fs::read(&target)?;
        changed = now != before;
        match changed {
            true => Err(io::Error::other("changed")),
            false => Ok(()),
        }
    })
    .map_err(|error| match changed {
        true => ReplaceError::Changed,
        false => ReplaceError::Io(error),
    })
}

#[cfg(unix)]
fn hard_links(path: &Path) -> io::Result<u64> {
    use std::os::unix::fs::MetadataExt;
    Ok(std::fs::metadata(path)?.nlink())
}

#[cfg(not(unix))]
fn hard_links(_path: &Path) -> io::Result<u64> {
    Ok(1)
}

/// [`write`], calling `before_rename` once the new bytes are on disk and
/// just before they replace the file; its error leaves the file alone.
fn write_checked(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let (temp, mut file) = create_temp(dir, &name.to_string_lossy())?;
    let result = (|| {
        file.write_all(bytes)?;
        // WASI has no permission bits to keep (and no call to set them).
        #[cfg(not(target_os = "wasi"))]
        if let Ok(meta) = std::fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        before_rename()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// A new file `.<name>.<pid>.<n>.tmp` in `dir`, created exclusively.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, std::fs::File)> {
    let mut n = 0u32;
    loop {
        let temp = dir.join(format!(
            ".{name}.{}.{n}.tmp",
            skills_build::unstable::process_tag::process_tag()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(error) => return Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("skills-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_second_write_replaces_the_first() {
        let dir = scratch("write");
        let file = dir.join("a.txt");
        write(&file, b"one").unwrap();
        write(&file, b"two").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"two");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 20, finding 2: an edit made after the file was read and
    /// before the replace is kept, and the replace refused.
    #[test]
    fn replace_refuses_a_file_edited_meanwhile() {
        let dir = scratch("race");
        let file = dir.join("SKILL.md");
        std::fs::write(&file, "read by fmt").unwrap();
        // What fmt read, then the user's edit, then fmt's replace.
        let before = std::fs::read(&file).unwrap();
        std::fs::write(&file, "the user's edit").unwrap();
        let error = replace(&file, &before, b"formatted").unwrap_err();
        assert!(matches!(error, ReplaceError::Changed), "{error}");
        assert_eq!(std::fs::read(&file).unwrap(), b"the user's edit");
        assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
        // Unchanged: replaced.
        replace(&file, b"the user's edit", b"formatted").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"formatted");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 20, finding 2: a symbolic link stays a link, and the file it
    /// names gets the new bytes.
    #[cfg(unix)]
    #[test]
    fn replace_writes_through_a_symbolic_link() {
        let dir = scratch("symlink");
        std::fs::create_dir_all(dir.join("shared")).unwrap();
        let real = dir.join("shared/SKILL.md");
        std::fs::write(&real, "old").unwrap();
        let link = dir.join("SKILL.md");
        std::os::unix::fs::symlink("shared/SKILL.md", &link).unwrap();
        replace(&link, b"old", b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert!(leftovers(&dir.join("shared")).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 20, finding 2: a hard-linked file is refused, both names keep
    /// their (shared) bytes.
    #[cfg(unix)]
    #[test]
    fn replace_refuses_a_hard_linked_file() {
        let dir = scratch("hardlink");
        let one = dir.join("SKILL.md");
        let two = dir.join("copy.md");
        std::fs::write(&one, "old").unwrap();
        std::fs::hard_link(&one, &two).unwrap();
        let error = replace(&one, b"old", b"new").unwrap_err();
        assert!(matches!(error, ReplaceError::HardLinks(2)), "{error}");
        assert_eq!(std::fs::read(&one).unwrap(), b"old");
        assert_eq!(std::fs::read(&two).unwrap(), b"old");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 40, item 1: a file to format that is a link to a device is
    /// named and left alone, and the device stays a device.
    #[cfg(unix)]
    #[test]
    fn replace_refuses_what_is_not_a_file() {
        use std::os::unix::fs::FileTypeExt as _;
        let dir = scratch("device");
        let link = dir.join("SKILL.md");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let error = replace(&link, b"", b"new").unwrap_err();
        assert!(
            matches!(error, ReplaceError::NotAFile(Found::CharDevice)),
            "{error}"
        );
        assert!(error.to_string().contains("a character device"), "{error}");
        let null = std::fs::symlink_metadata("/dev/null").unwrap();
        assert!(null.file_type().is_char_device());
        assert_eq!(
            Output::resolve(&link).unwrap(),
            Output::Through("/dev/null".into(), Found::CharDevice)
        );
        assert!(matches!(
            Output::resolve(&dir).unwrap_err().reason,
            OutputProblem::Refused(Found::Directory)
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
