//! What an archive may hold and why one is refused: the bounds both the
//! container reader (`zip`) and the folder reader check, kept apart from
//! both so that each imports them from here.

use std::fmt;

use crate::printable::capped;

/// The most folder names a message lists.
const MAX_LISTED: usize = 10;

/// An entry name as a message quotes it: in quotes, with escapes, and cut
/// to [`MAX_ECHO_CHARS`](crate::printable::MAX_ECHO_CHARS) characters (a
/// zip entry name can be 64 KiB long).
pub(crate) fn shown(name: &str) -> String {
    format!("{:?}", capped(name))
}

/// How much an archive may hold. The defaults bound memory to a few
/// hundred MiB on any input, far above what a skill needs.
///
/// ```
/// let limits = skills_build::unstable::archive::Limits::default();
/// assert_eq!(limits.max_ratio, 100);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest archive file read, in bytes (default 256 MiB).
    pub max_archive_bytes: u64,
    /// The most bytes all entries may inflate to together, by their
    /// declared sizes, checked before inflating (default 256 MiB).
    pub max_total: u64,
    /// The highest ratio of an entry's inflated size to its compressed
    /// size (default 100) ...
    pub max_ratio: u64,
    /// ... for entries that inflate to more than this many bytes
    /// (default 1 MiB; small files may compress as well as they like).
    pub ratio_floor: u64,
    /// The most entries (default 65535, all a plain zip can hold).
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_archive_bytes: 256 << 20,
            max_total: 256 << 20,
            max_ratio: 100,
            ratio_floor: 1 << 20,
            max_entries: 0xFFFF,
        }
    }
}

/// Why an archive was refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum Reason {
    /// The file cannot be read.
    Io(std::io::Error),
    /// Not a regular file: a named pipe, a device or a socket, refused
    /// before it is opened.
    NotAFile {
        /// What it is, in words (`a named pipe (FIFO)`).
        kind: &'static str,
    },
    /// The file is larger than [`Limits::max_archive_bytes`].
    TooLarge {
        /// Its size, or at least how much was read.
        size: u64,
        /// The limit.
        max: u64,
    },
    /// The bytes are not a zip archive at all.
    NotZip,
    /// The archive ends early or its records point past its end.
    Truncated(String),
    /// A zip feature skill archives do not use.
    Unsupported(String),
    /// Other zip readers could read the archive differently from this one
    /// (a second end record, a signature in the comment, bytes that belong
    /// to no entry, local and central headers that disagree): what a
    /// reviewer unpacks would not be what is compiled.
    Ambiguous(String),
    /// An entry's name is not UTF-8.
    NotUtf8Name(String),
    /// An entry's path would leave the folder it is unpacked into.
    Escapes {
        /// The entry's name.
        entry: String,
        /// How.
        reason: &'static str,
    },
    /// A symbolic-link entry.
    Symlink(String),
    /// A device, FIFO or socket entry.
    SpecialFile(String),
    /// An entry named twice, or both a file and a directory.
    Duplicate(String),
    /// Two entries share compressed bytes.
    Overlap(String),
    /// A file at the top of the archive, outside any skill folder.
    OutsideFolder(String),
    /// No skill folder at all.
    Empty,
    /// More than one folder where one is expected.
    SeveralFolders(Vec<String>),
    /// More entries than [`Limits::max_entries`].
    TooManyEntries {
        /// How many the archive declares.
        entries: usize,
        /// The limit.
        max: usize,
    },
    /// The declared sizes add up past [`Limits::max_total`].
    TotalTooLarge {
        /// The declared total so far.
        declared: u64,
        /// The limit.
        max: u64,
    },
    /// An entry declares a ratio past [`Limits::max_ratio`].
    RatioTooHigh {
        /// The entry's name.
        entry: String,
        /// Its declared inflated size.
        size: u64,
        /// Its compressed size.
        compressed: u64,
        /// The limit.
        max_ratio: u64,
    },
    /// An entry's data does not inflate to what its header says.
    Inflate {
        /// The entry's name.
        entry: String,
        /// What went wrong.
        what: &'static str,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Io(error) => write!(f, "cannot read it: {error}"),
            Reason::NotAFile { kind } => {
                write!(f, "it is {kind}, not a regular file; refusing to read it")
            }
            Reason::TooLarge { size, max } => {
                write!(f, "it is {size} bytes or more, over the {max}-byte limit for an archive")
            }
            Reason::NotZip => f.write_str(
                "it is not a zip archive (no zip signature at its start or end); a .skill file is a zip of one skill folder",
            ),
            Reason::Truncated(what) => write!(f, "the archive is damaged or truncated: {what}"),
            Reason::Unsupported(what) => write!(f, "the archive cannot be read: {what}"),
            Reason::Ambiguous(what) => write!(
                f,
                "other zip readers could unpack this archive differently: {what}; pack the folder again (skills pack)"
            ),
            Reason::NotUtf8Name(name) => {
                write!(f, "entry {} has a name that is not UTF-8", shown(name))
            },
            Reason::Escapes { entry, reason } => write!(
                f,
                "entry {} would be unpacked outside its folder: {reason}",
                shown(entry)
            ),
            Reason::Symlink(entry) => write!(
                f,
                "entry {} is a symbolic link; skill archives hold only files and folders",
                shown(entry)
            ),
            Reason::SpecialFile(entry) => write!(
                f,
                "entry {} is a device, FIFO or socket; skill archives hold only files and folders",
                shown(entry)
            ),
            Reason::Duplicate(entry) => write!(
                f,
                "entry {} appears twice (or as both a file and a folder)",
                shown(entry)
            ),
            Reason::Overlap(entry) => write!(
                f,
                "entry {} shares its compressed data with another entry (a zip bomb?)",
                shown(entry)
            ),
            Reason::OutsideFolder(entry) => write!(
                f,
                "entry {} is not inside a skill folder; entries must be <folder>/<path> (zip the folder itself, not its contents)",
                shown(entry)
            ),
            Reason::Empty => f.write_str("the archive holds no skill folder"),
            Reason::SeveralFolders(folders) => {
                let mut listed: Vec<String> = folders
                    .iter()
                    .take(MAX_LISTED)
                    .map(|folder| capped(folder).into_owned())
                    .collect();
                if folders.len() > MAX_LISTED {
                    listed.push(format!("and {} more", folders.len() - MAX_LISTED));
                }
                write!(
                    f,
                    "a .skill archive holds one skill folder, and this one holds {}: {}; name it .zip to read a collection",
                    folders.len(),
                    listed.join(", ")
                )
            }
            Reason::TooManyEntries { entries, max } => {
                write!(f, "it has {entries} entries, over the limit of {max}")
            }
            Reason::TotalTooLarge { declared, max } => write!(
                f,
                "its entries declare {declared} bytes or more uncompressed, over the {max}-byte limit (a zip bomb?)"
            ),
            Reason::RatioTooHigh {
                entry,
                size,
                compressed,
                max_ratio,
            } => write!(
                f,
                "entry {} declares {size} bytes from {compressed} compressed, a ratio over {max_ratio}:1 (a zip bomb?)",
                shown(entry)
            ),
            Reason::Inflate { entry, what } => write!(f, "entry {} {what}",    shown(entry)
            ),
        }
    }
}

impl std::error::Error for Reason {}
