//! The words a plan speaks in: a skill's [`State`] in a folder, the
//! [`Change`] an apply makes to it, each file's [`FileAction`], and the
//! [`Conflict`]s that stop an install unless forced.

use std::fmt;
use std::path::PathBuf;

use crate::names::shown;

/// What is in an agent's folder for one skill, before anything is done.
///
/// ```
/// use skills_install::State;
/// assert_eq!(State::Modified.to_string(), "modified by the user");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    /// Every file is what we embed now.
    UpToDate,
    /// Every file is ours, some from an earlier version.
    Outdated,
    /// Files we wrote were changed or deleted since.
    Modified,
    /// Not installed.
    Missing,
    /// Something this tool's record does not list is there (whatever its
    /// bytes): not installed by this tool.
    NotOurs,
}

/// Whether nothing stands in the way and every state is up to date: what
/// a plan and a status both answer.
pub(crate) fn all_up_to_date<'s>(
    problems: &[crate::error::Problem],
    mut states: impl Iterator<Item = &'s State>,
) -> bool {
    problems.is_empty() && states.all(|state| *state == State::UpToDate)
}

impl State {
    /// The state's key in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            State::UpToDate => "up-to-date",
            State::Outdated => "outdated",
            State::Modified => "modified",
            State::Missing => "missing",
            State::NotOurs => "not-ours",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            State::UpToDate => "up to date",
            State::Outdated => "outdated",
            State::Modified => "modified by the user",
            State::Missing => "missing",
            State::NotOurs => "not installed by this tool",
        })
    }
}

/// What an apply does to one skill in one folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Nothing: it is as it should be.
    Keep,
    /// Written where there was none.
    Write,
    /// Replaced by the new version, the user's own files carried over.
    Update,
    /// Made a link to the shared copy.
    Link,
    /// Our files removed (the user's own kept).
    Remove,
    /// Not installed by this tool: left as it is.
    Leave,
}

impl Change {
    /// The change's key in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            Change::Keep => "keep",
            Change::Write => "write",
            Change::Update => "update",
            Change::Link => "link",
            Change::Remove => "remove",
            Change::Leave => "leave",
        }
    }

    /// Whether anything is written or removed.
    pub fn writes(self) -> bool {
        !matches!(self, Change::Keep | Change::Leave)
    }
}

/// One file an apply adds, replaces or removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The `/`-separated path inside the skill folder.
    pub path: String,
    /// What happens to it.
    pub action: FileAction,
}

/// What happens to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// Written where there was none.
    Add,
    /// Written over ours.
    Replace,
    /// Removed.
    Remove,
}

impl FileAction {
    /// `add`, `replace` or `remove`.
    pub fn key(self) -> &'static str {
        match self {
            FileAction::Add => "add",
            FileAction::Replace => "replace",
            FileAction::Remove => "remove",
        }
    }
}

/// Something in the way that is not ours: written over or removed only
/// with `force`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Conflict {
    /// The path inside the skill folder (`""` for the folder itself).
    pub path: String,
    /// What it is.
    pub kind: ConflictKind,
}

/// What stands in the way.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConflictKind {
    /// A file we wrote, changed since.
    Changed,
    /// A file we did not write.
    NotOurs,
    /// A folder, link or special file where our file goes.
    NotAFile,
    /// A file where a folder goes.
    NotAFolder,
    /// A link to somewhere else where the skill (or one of its folders)
    /// goes.
    Link(PathBuf),
    /// A file of the user's that a link to the shared copy would hide.
    Hidden,
    /// Something a record this tool did not write here lists (a record
    /// committed to the repository, say): a claim, not proof, so it is
    /// removed, or replaced when it differs from what the claim says,
    /// only with `force`.
    Claimed,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = match self.path.as_str() {
            "" => "the skill folder".into(),
            path => shown(path),
        };
        match &self.kind {
            ConflictKind::Changed => write!(f, "{path} was changed since it was installed"),
            ConflictKind::NotOurs => write!(f, "{path} was not written by this tool"),
            ConflictKind::NotAFile => write!(f, "{path} is a folder or a link, not our file"),
            ConflictKind::NotAFolder => write!(f, "{path} is a file where a folder goes"),
            ConflictKind::Link(to) => {
                write!(f, "{path} is a link to {}", shown(&to.to_string_lossy()))
            }
            ConflictKind::Hidden => write!(f, "{path} is not ours and a link would hide it"),
            ConflictKind::Claimed => write!(
                f,
                "{path} is listed by a record this tool did not write here (committed?): a claim, not proof, so it is replaced or removed only with --force"
            ),
        }
    }
}

impl ConflictKind {
    /// The kind's key in JSON output.
    pub fn key(&self) -> &'static str {
        match self {
            ConflictKind::Changed => "changed",
            ConflictKind::NotOurs => "not-ours",
            ConflictKind::NotAFile => "not-a-file",
            ConflictKind::NotAFolder => "not-a-folder",
            ConflictKind::Link(_) => "link",
            ConflictKind::Hidden => "hidden",
            ConflictKind::Claimed => "claimed",
        }
    }
}
