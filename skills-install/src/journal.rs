//! The journal of an apply in progress: which agent folders it stages in,
//! which skills it swaps in each, and whether the swapping has begun. It
//! is written before anything is staged and again before the first swap
//! (then naming, for each skill, the file it moves aside and the one it
//! moves in, by device and inode), kept in the user's state folder
//! ([`state`](crate::state)), never in the project, and removed when the
//! run ends. A run that was killed leaves it behind; the next run finds it
//! there and finishes the transaction (the record names it) or undoes it.
//!
//! A journal is still read as untrusted input: a regular file under a
//! size cap, opened without following a link; every folder it names must
//! be an agent's folder of this scope, every skill a plain folder name.
//! Its staging folders are opened from the agent's folder as opened, one
//! name at a time, no link followed (`.skills-staging`, the transaction's
//! folder, `old`, `new`, `undone`), and nothing is moved unless it is what
//! the run moved: the entry aside in `old/<name>` must be the one that was
//! in the skill's place, the one in the skill's place must be the one the
//! run moved in. A journal that fails any check is reported
//! ([`InstallError::Journal`]) and left alone, with everything it names.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::dir::{Dir, Identity, Kind, Stat};
use crate::error::InstallError;
use crate::names::{is_safe_folder, quoted};
use crate::ops::Ops;
use crate::scope::Scope;
use crate::state::StateDir;

/// The folder beside the skills where an apply stages its work (its
/// transactions' folders, named by their journals).
pub(crate) const STAGING: &str = ".skills-staging";

/// The staging folder of an agent's folder in `scope`: a plain folder
/// stages in its one hidden entry, beside its record and state.
pub(crate) fn staging(scope: Scope) -> &'static str {
    match scope {
        Scope::Folder => crate::state::FOLDER_DIR,
        Scope::Project | Scope::User => STAGING,
    }
}

/// The value of a journal's `format` key.
const FORMAT: &str = "skills-install-journal-v1";

/// The ending of a journal's file name (`<transaction>.journal`).
const EXTENSION: &str = ".journal";

/// The most bytes a journal may hold.
const JOURNAL_CAP: u64 = 16 << 20;

/// One apply's journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Journal {
    /// The transaction: the name of its staging folders, and what the
    /// record names once it completed.
    pub transaction: String,
    /// Whether skills may have been swapped (else only staged).
    pub swapping: bool,
    /// The agent folders it stages in.
    #[serde(rename = "directories")]
    pub dirs: Vec<JournalDir>,
}

/// The skills a transaction swaps in one agent folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct JournalDir {
    /// The folder, as the record writes it.
    #[serde(rename = "path")]
    pub key: String,
    /// The skills.
    pub swaps: Vec<Swap>,
}

/// One skill swapped by a transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Swap {
    /// Its folder name.
    pub name: String,
    /// Whether something was at the skill's place (moved to `old/`).
    pub had_live: bool,
    /// Whether a new entry is staged (moved in from `new/`).
    pub has_new: bool,
    /// What was at the skill's place (moved aside), once swapping began.
    #[serde(default)]
    pub live: Option<Moved>,
    /// What was staged (moved in), once swapping began.
    #[serde(default)]
    pub new: Option<Moved>,
}

/// A file or folder a run moves: what it is, and which (its device and
/// inode where the system has them). A recovery moves back only what
/// matches both: a folder swapped for a link (even one that got the freed
/// inode's number) is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Moved {
    /// `folder`, `link` or `file`.
    pub kind: MovedKind,
    /// Which, where known.
    pub id: Option<Identity>,
}

/// What a moved entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum MovedKind {
    Folder,
    Link,
    File,
}

impl Moved {
    /// What `stat` says is there.
    pub fn of(stat: Stat) -> Moved {
        Moved {
            kind: match stat.kind {
                Kind::Dir => MovedKind::Folder,
                Kind::Link => MovedKind::Link,
                Kind::File { .. } | Kind::Other => MovedKind::File,
            },
            id: stat.id,
        }
    }
}

/// The journal's file name for `transaction`.
pub(crate) fn file_name(transaction: &str) -> String {
    format!("{transaction}{EXTENSION}")
}

impl Journal {
    /// The journal as JSON text.
    pub fn to_json(&self) -> String {
        let stored = Stored {
            format: FORMAT,
            journal: self,
        };
        // Strings, booleans, numbers and lists of them always serialize.
        serde_json::to_string_pretty(&stored).unwrap_or_default() + "\n"
    }

    /// Reads a journal from its JSON text, every skill name checked.
    pub fn from_json(bytes: &[u8]) -> Result<Journal, String> {
        let stored: Read =
            serde_json::from_slice(bytes).map_err(|error| format!("not a journal: {error}"))?;
        if stored.format != FORMAT {
            return Err(format!(
                "format {} is not {FORMAT:?}",
                quoted(&stored.format)
            ));
        }
        let journal = stored.journal;
        let names = journal.dirs.iter().flat_map(|dir| &dir.swaps);
        if let Some(swap) = names.into_iter().find(|swap| !is_safe_folder(&swap.name)) {
            return Err(format!(
                "skill {} is not a plain folder name",
                quoted(&swap.name)
            ));
        }
        Ok(journal)
    }
}

/// A journal as written: its format first.
#[derive(Serialize)]
struct Stored<'j> {
    format: &'static str,
    #[serde(flatten)]
    journal: &'j Journal,
}

/// A journal as read.
#[derive(Deserialize)]
struct Read {
    format: String,
    #[serde(flatten)]
    journal: Journal,
}

/// The file names of this tool's journals (names starting with `prefix`)
/// in the scope's state folder.
fn journals(state: &StateDir, prefix: &str) -> Vec<String> {
    let Ok(names) = state.dir().names(usize::MAX) else {
        return Vec::new();
    };
    names
        .into_iter()
        .filter_map(|name| name.into_string().ok())
        .filter(|name| name.starts_with(prefix) && name.ends_with(EXTENSION))
        .collect()
}

/// Whether a stopped run of this tool left a journal in the scope.
pub(crate) fn pending(state: Option<&StateDir>, prefix: &str) -> bool {
    state.is_some_and(|state| !journals(state, prefix).is_empty())
}

/// A transaction's staging folders in one agent folder, opened from the
/// agent's folder one name at a time, no link followed.
pub(crate) struct Staged {
    /// The agent's folder.
    pub dir: Dir,
    /// Its `.skills-staging` (a plain folder's `.skills-install`).
    pub staging: Dir,
    /// That folder's name.
    pub staging_name: &'static str,
    /// The transaction's folder in it.
    pub tx: Dir,
    /// The transaction's name (its folder's).
    pub name: String,
}

impl Staged {
    /// Opens the staging folders of `transaction` in the agent's folder
    /// `dir`: `None` when there are none; an error when any is a link or
    /// a file.
    fn open(dir: Dir, staging_name: &'static str, transaction: &str) -> io::Result<Option<Staged>> {
        let staging = match dir.open_dir(OsStr::new(staging_name)) {
            Ok(staging) => staging,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        };
        let tx = match staging.open_dir(OsStr::new(transaction)) {
            Ok(tx) => tx,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        };
        Ok(Some(Staged {
            dir,
            staging,
            staging_name,
            tx,
            name: transaction.to_string(),
        }))
    }

    /// Opens `old`, `new` or `undone` in the transaction's folder (`None`
    /// when it is not there).
    fn part(&self, part: &str) -> io::Result<Option<Dir>> {
        match self.tx.open_dir(OsStr::new(part)) {
            Ok(dir) => Ok(Some(dir)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Removes the transaction's folder, and `.skills-staging` when that
    /// leaves it empty.
    pub fn remove(&self, ops: &Ops) -> io::Result<()> {
        ops.remove_all(&self.staging, OsStr::new(&self.name))?;
        let _ = self.dir.remove_dir(OsStr::new(self.staging_name));
        Ok(())
    }
}

/// Finishes or undoes every transaction of this tool a stopped run left
/// in the scope: one the record names (`committed`) completed, and only
/// its staging folders are removed; any other is undone. `folders` are the
/// agent folders of this scope, by key (links on the way followed): a
/// journal naming any other is refused.
pub(crate) fn recover(
    state: &StateDir,
    staging: &'static str,
    prefix: &str,
    committed: &str,
    folders: &BTreeMap<String, PathBuf>,
    ops: &Ops,
) -> Result<(), InstallError> {
    for name in journals(state, prefix) {
        let path = state.dir().join(&name);
        let refused = |error: String| InstallError::Journal {
            path: path.clone(),
            error,
        };
        let bytes = state
            .dir()
            .read_capped(OsStr::new(&name), JOURNAL_CAP)
            .map_err(|error| refused(error.to_string()))?
            .unwrap_or_default();
        let journal = Journal::from_json(&bytes).map_err(refused)?;
        if file_name(&journal.transaction) != name {
            return Err(refused("it names another transaction".to_string()));
        }
        // Every check first: nothing is moved or removed unless all pass.
        let mut work = Vec::new();
        for dir in &journal.dirs {
            let Some(folder) = folders.get(&dir.key) else {
                return Err(refused(format!(
                    "it names {}, which is no agent's skill folder here",
                    quoted(&dir.key)
                )));
            };
            let opened = match Dir::open(folder) {
                Ok(opened) => opened,
                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                Err(error) => return Err(refused(error.to_string())),
            };
            let Some(staged) = Staged::open(
                opened.try_clone().map_err(|e| refused(e.to_string()))?,
                staging,
                &journal.transaction,
            )
            .map_err(|error| refused(error.to_string()))?
            else {
                // Stopped before its folder was made: the staging folder
                // it may have made goes when empty.
                let _ = opened.remove_dir(OsStr::new(staging));
                continue;
            };
            let moves = match journal.swapping && journal.transaction != committed {
                true => undo_moves(&staged, &dir.swaps).map_err(refused)?,
                false => Vec::new(),
            };
            work.push((staged, moves));
        }
        for (staged, moves) in &work {
            undo(staged, moves, ops)?;
            staged
                .remove(ops)
                .map_err(|e| InstallError::io("remove", staged.tx.path(), e))?;
        }
        ops.remove_file(state.dir(), OsStr::new(&name))
            .map_err(|e| InstallError::io("remove", &path, e))?;
    }
    remove_temporaries(state.dir(), prefix);
    Ok(())
}

/// Removes the temporary files of this tool's (names starting with
/// `prefix`, ending `.tmp`) a stopped run left in `dir` while it replaced
/// a file there: called under the scope's lock, when no run of the tool
/// is writing.
pub(crate) fn remove_temporaries(dir: &Dir, prefix: &str) {
    let Ok(names) = dir.names(usize::MAX) else {
        return;
    };
    for name in names {
        let text = name.to_string_lossy();
        if text.starts_with(prefix) && text.ends_with(".tmp") {
            let _ = dir.remove_file(&name);
        }
    }
}

/// One move that undoes a swap.
pub(crate) enum Move {
    /// What the run moved into the skill's place, moved out into
    /// `undone/<name>`.
    Out(String),
    /// What the run moved aside, moved back from `old/<name>`.
    Back(String),
}

/// Whether what is found is what the journal says the run moved: of the
/// same kind, and the same file where the system gives identities
/// (elsewhere none is recorded, and the kind decides).
fn is(found: Stat, recorded: Option<Moved>) -> bool {
    let found = Moved::of(found);
    let Some(recorded) = recorded else {
        return false;
    };
    found.kind == recorded.kind
        && match (found.id, recorded.id) {
            (Some(found), Some(recorded)) => found == recorded,
            (None, None) => cfg!(not(unix)),
            _ => false,
        }
}

/// The moves that put every skill of a transaction back as it was,
/// checked: each entry moved must be the one the journal says the run
/// moved. An error says what failed.
pub(crate) fn undo_moves(staged: &Staged, swaps: &[Swap]) -> Result<Vec<Move>, String> {
    let text = |error: io::Error| error.to_string();
    let old = staged.part("old").map_err(text)?;
    let new = staged.part("new").map_err(text)?;
    if let Some(undone) = staged.tx.stat(OsStr::new("undone")).map_err(text)?
        && undone.kind != Kind::Dir
    {
        return Err(format!(
            "{} is a link or a file, not a folder the installer made",
            staged.tx.join("undone").display()
        ));
    }
    let stat = |dir: Option<&Dir>, name: &str| match dir {
        Some(dir) => dir.stat(OsStr::new(name)).map_err(text),
        None => Ok(None),
    };
    let mut moves = Vec::new();
    for swap in swaps.iter().rev() {
        let live = stat(Some(&staged.dir), &swap.name)?;
        let aside = stat(old.as_ref(), &swap.name)?;
        let staged_new = stat(new.as_ref(), &swap.name)?;
        let swapped_out = aside.is_some();
        let swapped_in = swap.has_new && staged_new.is_none() && (!swap.had_live || swapped_out);
        let mut live_moves_out = false;
        if swapped_in && let Some(live) = live {
            if !is(live, swap.new) {
                return Err(format!(
                    "{} is not what the stopped run moved there",
                    staged.dir.join(&swap.name).display()
                ));
            }
            moves.push(Move::Out(swap.name.clone()));
            live_moves_out = true;
        }
        if let Some(aside) = aside
            && (live.is_none() || live_moves_out)
        {
            if !is(aside, swap.live) {
                return Err(format!(
                    "{} is not what the stopped run moved aside",
                    staged.tx.join("old").join(&swap.name).display()
                ));
            }
            moves.push(Move::Back(swap.name.clone()));
        }
    }
    Ok(moves)
}

/// Carries out the checked moves of [`undo_moves`].
pub(crate) fn undo(staged: &Staged, moves: &[Move], ops: &Ops) -> Result<(), InstallError> {
    for step in moves {
        match step {
            Move::Out(name) => {
                let (undone, _) = ops
                    .ensure_dir(&staged.tx, OsStr::new("undone"))
                    .map_err(|e| InstallError::io("create", staged.tx.join("undone"), e))?;
                let name = OsStr::new(name);
                ops.rename(&staged.dir, name, &undone, name)
                    .map_err(|e| InstallError::io("move aside", staged.dir.join(name), e))?;
            }
            Move::Back(name) => {
                let old = staged
                    .tx
                    .open_dir(OsStr::new("old"))
                    .map_err(|e| InstallError::io("open", staged.tx.join("old"), e))?;
                let name = OsStr::new(name);
                ops.rename(&old, name, &staged.dir, name)
                    .map_err(|e| InstallError::io("restore", staged.dir.join(name), e))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_names_checked() {
        let journal = Journal {
            transaction: "mytool.project.1-2".into(),
            swapping: true,
            dirs: vec![JournalDir {
                key: ".claude/skills".into(),
                swaps: vec![Swap {
                    name: "pdf".into(),
                    had_live: true,
                    has_new: false,
                    live: Some(Moved {
                        kind: MovedKind::Folder,
                        id: Some(Identity { dev: 1, ino: 2 }),
                    }),
                    new: None,
                }],
            }],
        };
        let text = journal.to_json();
        assert_eq!(Journal::from_json(text.as_bytes()).unwrap(), journal);
        let hostile = text.replace("\"pdf\"", "\"L/docs\"");
        let error = Journal::from_json(hostile.as_bytes()).unwrap_err();
        assert!(error.contains("plain folder name"), "{error}");
        assert!(Journal::from_json(b"L/docs\t0\t1\n").is_err());
    }
}
