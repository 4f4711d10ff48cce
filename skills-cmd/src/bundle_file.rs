//! A bundle file as `skills mcp --bundle` serves it: opened once, then read
//! a skill at a time with positioned reads (`skills_core::serve::paged`),
//! so a replica starts at once whatever the bundle's size, and holds in
//! memory the head of the bundle (names and tables, about 40 bytes a
//! skill) and the skills it served.
//!
//! Nothing is mapped: what is served is what was read into memory, and
//! checked when it was read, whatever happens to the file afterwards. A
//! replica verified at start (`--origin`) serves a skill only if its bytes
//! are those verified (each skill's SHA-256 is pinned); an unverified one
//! checks after each read that the file is still the one it opened (its
//! device, inode, size, and modification and change times), so a file
//! rewritten in place gives an error for each skill not read yet, and a
//! file cut short an error for the skills past the cut: never a crash (a
//! mapped file cut short ends the process with SIGBUS) and never the new
//! bytes under the old file's revision. To replace a served bundle, write
//! the new file elsewhere and rename it over the old one: the open file
//! keeps the old bytes, and a restart serves the new ones.

use std::fs::{File, Metadata};
use std::path::Path;

use skills_build::unstable::read_limit::open_limited;
use skills_core::serve::paged::{ReadAt, ReadAtError};

use crate::targets::{MAX_BUNDLE_FILE_BYTES, cannot_read};

/// An open bundle file, read with positioned reads.
#[derive(Debug)]
pub struct BundleFile {
    #[cfg(unix)]
    file: File,
    #[cfg(not(unix))]
    file: std::sync::Mutex<File>,
    /// Its length when opened.
    len: u64,
    /// What it was when opened, for a replica that checks after each read
    /// that it did not change (`None`: the reader relies on pins).
    opened: Option<Identity>,
}

/// What tells one state of a file from another: where it is, its size and
/// its modification and change times (a change time moves on every write,
/// and cannot be set back by a user).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity {
    #[cfg(unix)]
    device_inode: (u64, u64),
    len: u64,
    #[cfg(unix)]
    times: (i64, i64, i64, i64),
    #[cfg(not(unix))]
    modified: Option<std::time::SystemTime>,
}

impl Identity {
    fn of(meta: &Metadata) -> Identity {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Identity {
                device_inode: (meta.dev(), meta.ino()),
                len: meta.len(),
                times: (
                    meta.mtime(),
                    meta.mtime_nsec(),
                    meta.ctime(),
                    meta.ctime_nsec(),
                ),
            }
        }
        #[cfg(not(unix))]
        {
            Identity {
                len: meta.len(),
                modified: meta.modified().ok(),
            }
        }
    }
}

/// What a reader is told when a read does not give the bytes opened.
const RESTART: &str = "restart the server to serve the file as it is now (to replace a served bundle, write the new file elsewhere and rename it over the old one)";

impl BundleFile {
    /// Opens the bundle file at `path` (a regular file of at most
    /// [`MAX_BUNDLE_FILE_BYTES`]; anything else is refused), or prints why
    /// not and gives `failure` as the status.
    pub fn open(path: &str, failure: i32) -> Result<BundleFile, i32> {
        let (file, meta) = open_limited(Path::new(path), MAX_BUNDLE_FILE_BYTES)
            .map_err(|error| cannot_read(path, &error, failure))?;
        if meta.is_dir() {
            let error = std::io::Error::from(std::io::ErrorKind::IsADirectory);
            return Err(cannot_read(path, &error, failure));
        }
        Ok(BundleFile {
            #[cfg(unix)]
            file,
            #[cfg(not(unix))]
            file: std::sync::Mutex::new(file),
            len: meta.len(),
            opened: Some(Identity::of(&meta)),
        })
    }

    /// The file's length when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Every byte of the file, as a verifier reads it, or prints why not
    /// and gives `failure` as the status.
    pub fn read_all(&self, path: &str, failure: i32) -> Result<Vec<u8>, i32> {
        let len =
            usize::try_from(self.len).map_err(|_| cannot_read(path, &"too large", failure))?;
        let mut bytes = vec![0; len];
        self.read_at(0, &mut bytes)
            .map_err(|error| cannot_read(path, &error, failure))?;
        Ok(bytes)
    }

    /// The same file, read without comparing it with the file opened after
    /// each read: for a reader that checks every skill it reads against
    /// the SHA-256 verified at start (`PagedBundle::pinned`), where a
    /// change that leaves the bytes alone (a `touch`) is no reason to stop.
    pub fn checked_by_pins(self) -> BundleFile {
        BundleFile {
            opened: None,
            ..self
        }
    }

    #[cfg(unix)]
    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, offset)
    }

    #[cfg(not(unix))]
    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = self
            .file
            .lock()
            .map_err(|_| std::io::Error::other("an earlier read failed"))?;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }

    #[cfg(unix)]
    fn metadata(&self) -> std::io::Result<Metadata> {
        self.file.metadata()
    }

    #[cfg(not(unix))]
    fn metadata(&self) -> std::io::Result<Metadata> {
        self.file
            .lock()
            .map_err(|_| std::io::Error::other("an earlier read failed"))?
            .metadata()
    }
}

impl ReadAt for BundleFile {
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadAtError> {
        match self.read_exact_at(offset, buf) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Err(ReadAtError::new(format!(
                    "the bundle file is shorter than when the server started: it was cut short or rewritten in place; {RESTART}"
                )));
            }
            Err(error) => {
                return Err(ReadAtError::new(format!(
                    "reading the bundle file failed: {error}"
                )));
            }
        }
        // The file is checked after the read: a write that changed what
        // was read moved the file's times before its bytes changed.
        if let Some(opened) = &self.opened {
            let now = self.metadata().map_err(|error| {
                ReadAtError::new(format!("reading the bundle file failed: {error}"))
            })?;
            if Identity::of(&now) != *opened {
                return Err(ReadAtError::new(format!(
                    "the bundle file changed after the server started (it was written in place); {RESTART}"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_checked_against_the_file_opened() {
        let dir = std::env::temp_dir().join(format!("skills-bundle-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bundle.bin");
        std::fs::write(&path, b"SKB\0bytes").unwrap();
        let path_text = path.to_str().unwrap();
        let file = BundleFile::open(path_text, 1).unwrap();
        assert_eq!(file.len(), 9);
        assert_eq!(file.read_all(path_text, 1).unwrap(), b"SKB\0bytes");
        let mut buf = [0u8; 5];
        file.read_at(4, &mut buf).unwrap();
        assert_eq!(&buf, b"bytes");
        assert!(
            file.read_at(5, &mut buf)
                .unwrap_err()
                .to_string()
                .contains("shorter")
        );
        // Written in place (its modification time set apart from the
        // first, as a clock with coarse ticks might not): a read is
        // refused, unless pins check the bytes.
        let writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        std::io::Write::write_all(&mut &writer, b"X").unwrap();
        writer
            .set_modified(std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1))
            .unwrap();
        drop(writer);
        let error = file.read_at(4, &mut buf).unwrap_err().to_string();
        assert!(
            error.contains("changed after the server started"),
            "{error}"
        );
        let pinned = file.checked_by_pins();
        pinned.read_at(0, &mut buf).unwrap();
        assert_eq!(&buf, b"XKB\0b");
        assert!(BundleFile::open(dir.join("missing.bin").to_str().unwrap(), 1).is_err());
        assert!(
            BundleFile::open(dir.to_str().unwrap(), 1).is_err(),
            "a directory is refused"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
