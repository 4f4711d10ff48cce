//! What is on disk where a skill folder goes: nothing, a folder (every
//! entry in it, links never followed), a link, or something else; and the
//! two questions the installer asks of a file there (are these our bytes,
//! what is its digest), reading no more than the answer needs.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::open::open_file;

/// The most entries read from one skill folder: a folder larger than that
/// is not a skill someone installed, and is refused rather than walked.
pub const MAX_ENTRIES: usize = 100_000;

/// One entry inside a skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A regular file of this size.
    File {
        /// Its size in bytes.
        size: u64,
    },
    /// A folder.
    Dir,
    /// A symbolic link, with its target as written.
    Link(PathBuf),
    /// A special file (a socket, a pipe, a device).
    Other,
}

/// What is at a skill folder's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// Nothing.
    Absent,
    /// A folder, with every entry below it by relative path (parents
    /// before their children).
    Folder(BTreeMap<PathBuf, Node>),
    /// A symbolic link, with its target as written.
    Link(PathBuf),
    /// A file, or anything else that is not a folder.
    NotFolder,
}

/// Reads what is at `path`, following no link.
pub fn entry(path: &Path) -> io::Result<Entry> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Entry::Absent),
        Err(error) => return Err(error),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Ok(Entry::Link(fs::read_link(path)?));
    }
    if !kind.is_dir() {
        return Ok(Entry::NotFolder);
    }
    let mut nodes = BTreeMap::new();
    walk(path, Path::new(""), &mut nodes)?;
    Ok(Entry::Folder(nodes))
}

fn walk(root: &Path, relative: &Path, nodes: &mut BTreeMap<PathBuf, Node>) -> io::Result<()> {
    for item in fs::read_dir(root.join(relative))? {
        let item = item?;
        let path = relative.join(item.file_name());
        let kind = item.file_type()?;
        let node = if kind.is_symlink() {
            Node::Link(fs::read_link(item.path())?)
        } else if kind.is_dir() {
            Node::Dir
        } else if kind.is_file() {
            Node::File {
                size: item.metadata()?.len(),
            }
        } else {
            Node::Other
        };
        let is_dir = node == Node::Dir;
        nodes.insert(path.clone(), node);
        if nodes.len() > MAX_ENTRIES {
            return Err(io::Error::other(format!(
                "{} holds more than {MAX_ENTRIES} entries",
                root.display()
            )));
        }
        if is_dir {
            walk(root, &path, nodes)?;
        }
    }
    Ok(())
}

/// Whether the file at `path` holds exactly `expected` (read only when the
/// sizes agree; opened as [`open_file`] opens, never through a link).
pub fn same_bytes(path: &Path, size: u64, expected: &[u8]) -> io::Result<bool> {
    if size != expected.len() as u64 {
        return Ok(false);
    }
    let mut file = open_file(path)?;
    let mut buffer = [0u8; 8192];
    let mut at = 0;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(at == expected.len());
        }
        let Some(wanted) = expected.get(at..at + n) else {
            return Ok(false);
        };
        if wanted != &buffer[..n] {
            return Ok(false);
        }
        at += n;
    }
}

/// The SHA-256 of the file at `path`.
pub fn sha256(path: &Path) -> io::Result<[u8; 32]> {
    let mut file = open_file(path)?;
    let mut hasher = skills_core::trust::sha256::Hasher::new();
    let mut buffer = [0u8; 8192];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(hasher.finalize());
        }
        hasher.update(&buffer[..n]);
    }
}

/// A `/`-separated path inside a skill as a relative path.
pub fn relative(path: &str) -> PathBuf {
    path.split('/').collect()
}
