//! Reading a file from disk without trusting it: a size limit checked
//! before reading, and special files refused before opening.
//!
//! A sparse file can claim gigabytes while using no disk, `/dev/zero`
//! reports a length of 0 and never ends, a file can grow while it is read,
//! and opening a named pipe blocks until someone writes to it. Every route
//! that reads a file a user names (skill files, the files beside them, key
//! files, bundle files, signature files) goes through [`read_limited`],
//! which
//!
//! * looks at the final target's metadata first (links followed) and
//!   refuses anything but a regular file, so nothing blocks in `open`;
//! * refuses a file whose length is over the limit without reading it;
//! * reads at most `limit + 1` bytes, so a file that grows or lies about
//!   its length still costs no more than the limit.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Why [`read_limited`] gave no bytes.
#[derive(Debug)]
pub enum ReadLimitError {
    /// The path names something other than a regular file or a directory:
    /// a named pipe, a device, a socket. Reading one could block forever
    /// or never end.
    Special {
        /// What it is, in words: `a named pipe (FIFO)`, `a character device`.
        kind: &'static str,
    },
    /// The file holds more than the limit.
    TooLarge {
        /// Its length when the metadata gave one over the limit; `None`
        /// when the metadata claimed less but reading found more.
        size: Option<u64>,
        /// The limit, in bytes.
        limit: u64,
    },
    /// The system refused (not found, permission denied, a directory...).
    Io(io::Error),
}

impl fmt::Display for ReadLimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadLimitError::Special { kind } => {
                write!(f, "it is {kind}, not a regular file; refusing to read it")
            }
            ReadLimitError::TooLarge {
                size: Some(size),
                limit,
            } => write!(f, "the file is {size} bytes, over the {limit}-byte limit"),
            ReadLimitError::TooLarge { size: None, limit } => {
                write!(f, "the file holds more than the {limit}-byte limit")
            }
            ReadLimitError::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReadLimitError {}

impl From<ReadLimitError> for io::Error {
    fn from(error: ReadLimitError) -> io::Error {
        match error {
            ReadLimitError::Io(error) => error,
            ReadLimitError::Special { .. } => {
                io::Error::new(io::ErrorKind::InvalidInput, error.to_string())
            }
            ReadLimitError::TooLarge { .. } => {
                io::Error::new(io::ErrorKind::FileTooLarge, error.to_string())
            }
        }
    }
}

/// What a non-regular, non-directory file is, in words; `None` for a file
/// or a directory.
#[cfg(unix)]
pub(crate) fn special_kind(meta: &Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_file() || kind.is_dir() {
        None
    } else if kind.is_fifo() {
        Some("a named pipe (FIFO)")
    } else if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        Some("neither a file nor a directory")
    }
}

/// What a non-regular, non-directory file is, in words.
#[cfg(not(unix))]
pub(crate) fn special_kind(meta: &Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    (!kind.is_file() && !kind.is_dir()).then_some("neither a file nor a directory")
}

/// The bytes of the regular file at `path` (links followed), when it holds
/// at most `limit` bytes.
///
/// ```
/// use skills_build::unstable::read_limit::{read_limited, ReadLimitError};
/// let dir = std::env::temp_dir().join(format!("read-limit-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let file = dir.join("five");
/// std::fs::write(&file, "12345")?;
/// assert_eq!(read_limited(&file, 5)?, b"12345");
/// assert!(matches!(
///     read_limited(&file, 4),
///     Err(ReadLimitError::TooLarge { size: Some(5), limit: 4 })
/// ));
/// assert!(matches!(read_limited("/dev/zero".as_ref(), 4), Err(ReadLimitError::Special { .. })));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadLimitError> {
    let (file, meta) = open_limited(path, limit)?;
    // A directory opens but fails to read, with the system's own words.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadLimitError::Io)?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        return Err(ReadLimitError::TooLarge { size: None, limit });
    }
    Ok(bytes)
}

/// Opens `path` for reading as [`read_limited`] does (a special file or
/// one over `limit` bytes refused before it is opened, and what was opened
/// checked again), and returns the file with what it was found to be: for
/// a caller that maps a regular file instead of reading it.
pub fn open_limited(path: &Path, limit: u64) -> Result<(File, Metadata), ReadLimitError> {
    let meta = std::fs::metadata(path).map_err(ReadLimitError::Io)?;
    check(&meta, limit)?;
    let file = open_nonblocking(path).map_err(ReadLimitError::Io)?;
    // The path may have been swapped between the two looks: check what was
    // opened too (opened without blocking, where the flag is known, so a
    // pipe swapped in does not hang `open`).
    let meta = file.metadata().map_err(ReadLimitError::Io)?;
    check(&meta, limit)?;
    Ok((file, meta))
}

/// `O_NONBLOCK`, where its value is known without a C library: opening a
/// regular file ignores it, opening a named pipe returns at once.
#[cfg(all(
    target_os = "linux",
    any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        target_arch = "arm",
        target_arch = "riscv64"
    )
))]
const O_NONBLOCK: Option<i32> = Some(0o4000);
#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
const O_NONBLOCK: Option<i32> = Some(0x0004);
#[cfg(not(any(
    all(
        target_os = "linux",
        any(
            target_arch = "x86_64",
            target_arch = "x86",
            target_arch = "aarch64",
            target_arch = "arm",
            target_arch = "riscv64"
        )
    ),
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd"
)))]
// Read under `cfg(unix)` only: elsewhere (Windows, WASI) nothing opens with custom flags.
#[cfg_attr(not(unix), allow(dead_code))]
const O_NONBLOCK: Option<i32> = None;

fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    if let Some(flag) = O_NONBLOCK {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(flag);
    }
    options.open(path)
}

fn check(meta: &Metadata, limit: u64) -> Result<(), ReadLimitError> {
    if let Some(kind) = special_kind(meta) {
        return Err(ReadLimitError::Special { kind });
    }
    if meta.is_file() && meta.len() > limit {
        return Err(ReadLimitError::TooLarge {
            size: Some(meta.len()),
            limit,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("read-limit-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn sparse_file_is_refused_from_its_length() {
        let dir = scratch("sparse");
        let path = dir.join("big");
        File::create(&path)
            .unwrap()
            .set_len(2 * 1024 * 1024 * 1024)
            .unwrap();
        let err = read_limited(&path, 1024).unwrap_err();
        assert!(
            matches!(err, ReadLimitError::TooLarge { size: Some(n), .. } if n == 2 << 30),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn special_files_are_refused_before_opening() {
        let dir = scratch("special");
        let link = dir.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_limited(&link, 1024).unwrap_err();
        assert!(err.to_string().contains("a character device"), "{err}");
        let err = read_limited(&dir, 1024).unwrap_err();
        assert!(
            matches!(&err, ReadLimitError::Io(e) if e.kind() == io::ErrorKind::IsADirectory),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn opening_a_pipe_does_not_block() {
        let dir = scratch("pipe");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        if O_NONBLOCK.is_some() {
            // What `read_limited` does after its first look, had the path
            // been swapped for a pipe in between: the open returns and the
            // second look refuses it.
            let file = open_nonblocking(&fifo).unwrap();
            let err = check(&file.metadata().unwrap(), 10).unwrap_err();
            assert!(err.to_string().contains("named pipe"), "{err}");
        }
        assert!(matches!(
            read_limited(&fifo, 10),
            Err(ReadLimitError::Special { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
