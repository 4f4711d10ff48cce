//! Opening what the installer finds on disk as a stranger may have left
//! it: the final name is never followed if it is a link, a pipe never
//! blocks the open, anything but a regular file is refused, and a state
//! file is read only up to its size cap.
//!
//! Every file the installer opens goes through here: the record and the
//! journals (read), the lock (opened or created), and the files of a skill
//! folder it hashes or compares.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// The most bytes an install record may hold (a record of 100,000 files
/// takes about 15 MB).
pub(crate) const RECORD_CAP: u64 = 64 << 20;

/// The most bytes a journal may hold.
pub(crate) const JOURNAL_CAP: u64 = 16 << 20;

/// Opens `path` for reading: a link at `path` is refused, not followed, a
/// pipe does not block the open, and what was opened must be a regular
/// file.
pub(crate) fn open_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    let file = open(&mut options, path)?;
    regular(&file.metadata()?)?;
    Ok(file)
}

/// Opens (creating when missing) the lock file at `path` for writing, as
/// [`open_file`] opens: never through a link, never a pipe or device.
pub(crate) fn create_lock(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = open(&mut options, path)?;
    regular(&file.metadata()?)?;
    Ok(file)
}

/// The bytes of the state file at `path` (a record, a journal), opened as
/// [`open_file`] opens, when it holds at most `cap` bytes; `None` when
/// there is none.
pub(crate) fn read_state(path: &Path, cap: u64) -> io::Result<Option<Vec<u8>>> {
    let file = match open_file(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    let size = file.metadata()?.len();
    if size > cap {
        return Err(too_large(cap));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(cap));
    }
    Ok(Some(bytes))
}

fn too_large(cap: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("it holds more than {} MiB", cap >> 20),
    )
}

/// Opens with the options given, adding `O_NOFOLLOW | O_NONBLOCK` where the
/// system has them. When the open fails on something other than a regular
/// file (a link, or a pipe opened for writing with no reader), the error
/// says what it is.
fn open(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    if path
        .symlink_metadata()
        .is_ok_and(|meta| meta.file_type().is_symlink())
    {
        return Err(is_a_link());
    }
    options
        .open(path)
        .map_err(|error| match path.symlink_metadata() {
            Ok(meta) if meta.file_type().is_symlink() => is_a_link(),
            Ok(meta) => regular(&meta).err().unwrap_or(error),
            Err(_) => error,
        })
}

fn is_a_link() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "it is a link, and the installer opens no file through a link",
    )
}

/// Refuses anything but a regular file, in words.
fn regular(meta: &Metadata) -> io::Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    let kind = if meta.is_dir() {
        "a folder"
    } else if is_fifo(meta) {
        "a named pipe (FIFO)"
    } else {
        "a device, a socket or another special file"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {kind}, not a regular file"),
    ))
}

#[cfg(unix)]
fn is_fifo(meta: &Metadata) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type())
}

#[cfg(not(unix))]
fn is_fifo(_: &Metadata) -> bool {
    false
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn refuses_links_pipes_devices_and_size() {
        let dir = std::env::temp_dir().join(format!("install-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let zero = dir.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let error = read_state(&zero, 10).unwrap_err();
        assert!(error.to_string().contains("link"), "{error}");
        let fifo = dir.join("fifo");
        let mkfifo = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(mkfifo.unwrap().success());
        let error = read_state(&fifo, 10).unwrap_err();
        assert!(error.to_string().contains("named pipe"), "{error}");
        let error = create_lock(&fifo).unwrap_err();
        assert!(error.to_string().contains("named pipe"), "{error}");
        let missing = dir.join("missing");
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(&missing, &dangling).unwrap();
        assert!(create_lock(&dangling).is_err());
        assert!(!missing.exists(), "nothing created through the link");
        let big = dir.join("big");
        std::fs::write(&big, [0u8; 11]).unwrap();
        let error = read_state(&big, 10).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(read_state(&dir.join("none"), 10).unwrap(), None);
        std::fs::write(&big, b"ok").unwrap();
        assert_eq!(read_state(&big, 10).unwrap().unwrap(), b"ok");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
