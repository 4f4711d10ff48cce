//! Writing a file so that a reader sees the old bytes or the new ones,
//! never a part: the bytes go to a temporary file in the same directory,
//! which is then renamed over the target (a rename within one file system
//! is atomic).
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

/// Writes `bytes` to `path` atomically. An existing file's permissions
/// are kept; the temporary file is removed if anything fails.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_checked(path, bytes, || Ok(()))
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
}
