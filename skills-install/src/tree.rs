//! What is on disk where a skill folder goes: nothing, a folder (every
//! entry in it, links never followed), a link, or something else; and the
//! two questions the installer asks of a file there (are these our bytes,
//! what is its digest), reading no more than the answer needs. Everything
//! is read relative to the agent's folder as opened ([`Dir`]), one name at
//! a time: a folder inside swapped for a link is refused, not followed.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::dir::{Dir, Kind};

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

/// What is at a skill folder's place.
#[derive(Debug)]
pub(crate) enum Entry {
    /// Nothing.
    Absent,
    /// A folder (open), with every entry below it by relative path
    /// (parents before their children).
    Folder(Dir, BTreeMap<PathBuf, Node>),
    /// A symbolic link, with its target as written.
    Link(PathBuf),
    /// A file, or anything else that is not a folder.
    NotFolder,
}

/// Reads what is at `name` in the agent's folder `dir` (`None`: the
/// folder does not exist yet), following no link.
pub(crate) fn entry(dir: Option<&Dir>, name: &str) -> io::Result<Entry> {
    let Some(dir) = dir else {
        return Ok(Entry::Absent);
    };
    let name = OsStr::new(name);
    let Some(stat) = dir.stat(name)? else {
        return Ok(Entry::Absent);
    };
    match stat.kind {
        Kind::Link => Ok(Entry::Link(dir.read_link(name)?)),
        Kind::Dir => {
            let folder = dir.open_dir(name)?;
            let mut nodes = BTreeMap::new();
            walk(&folder, &folder, Path::new(""), &mut nodes)?;
            Ok(Entry::Folder(folder, nodes))
        }
        _ => Ok(Entry::NotFolder),
    }
}

fn walk(
    root: &Dir,
    dir: &Dir,
    relative: &Path,
    nodes: &mut BTreeMap<PathBuf, Node>,
) -> io::Result<()> {
    for name in dir.names(MAX_ENTRIES + 1)? {
        let Some(stat) = dir.stat(&name)? else {
            continue;
        };
        let path = relative.join(&name);
        let node = match stat.kind {
            Kind::Link => Node::Link(dir.read_link(&name)?),
            Kind::Dir => Node::Dir,
            Kind::File { size } => Node::File { size },
            Kind::Other => Node::Other,
        };
        let is_dir = node == Node::Dir;
        nodes.insert(path.clone(), node);
        if nodes.len() > MAX_ENTRIES {
            return Err(io::Error::other(format!(
                "{} holds more than {MAX_ENTRIES} entries",
                root.path().display()
            )));
        }
        if is_dir {
            walk(root, &dir.open_dir(&name)?, &path, nodes)?;
        }
    }
    Ok(())
}

/// Opens the file at the relative `path` inside the skill folder `skill`,
/// every folder on the way and the file itself without following a link.
pub(crate) fn open(skill: &Dir, path: &Path) -> io::Result<File> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a file path without a name"))?;
    let parent = path.parent().unwrap_or(Path::new(""));
    skill.open_dirs(parent)?.open_file(name)
}

/// Whether the file at `path` in `skill` holds exactly `expected` (read
/// only when the sizes agree).
pub(crate) fn same_bytes(skill: &Dir, path: &Path, size: u64, expected: &[u8]) -> io::Result<bool> {
    if size != expected.len() as u64 {
        return Ok(false);
    }
    let mut file = open(skill, path)?;
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

/// The SHA-256 of the file at `path` in `skill`.
pub(crate) fn sha256(skill: &Dir, path: &Path) -> io::Result<[u8; 32]> {
    let mut file = open(skill, path)?;
    let mut hasher = skills_core::sha256::Hasher::new();
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
