//! The journal of an apply in progress: which agent folders it stages in,
//! which skills it swaps in each, and whether the swapping has begun. It
//! is written before anything is staged and again before the first swap,
//! kept in the user's state folder ([`state`](super::state)), never in the
//! project, and removed when the run ends. A run that was killed leaves
//! it behind; the next run finds it there and finishes the transaction
//! (the record names it) or undoes it.
//!
//! A journal is still read as untrusted input: a regular file under a
//! size cap, opened without following a link; every folder it names must
//! be an agent's folder of this scope, every skill a plain folder name,
//! and the staging folders real folders, not links. A journal that fails
//! any check is reported ([`InstallError::Journal`]) and left alone.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::InstallError;
use super::names::file_safe;
use super::names::{is_safe_folder, quoted};
use super::open::{JOURNAL_CAP, read_state};
use super::ops::Ops;
use super::target::Scope;

/// The folder beside the skills where an apply stages its work (its
/// transactions' folders, named by their journals).
pub(crate) const STAGING: &str = ".skills-staging";

/// The value of a journal's `format` key.
const FORMAT: &str = "skills-install-journal-v1";

/// The ending of a journal's file name (`<transaction>.journal`).
const EXTENSION: &str = ".journal";

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
}

impl Journal {
    /// Where the journal of `transaction` lives in the scope's state folder.
    pub fn path(state_dir: &Path, transaction: &str) -> PathBuf {
        state_dir.join(format!("{transaction}{EXTENSION}"))
    }

    /// The journal as JSON text.
    pub fn to_json(&self) -> String {
        let stored = Stored {
            format: FORMAT,
            journal: self,
        };
        // Strings, booleans and lists of them always serialize.
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

/// The prefix of this tool's transactions in a scope (other tools'
/// journals are theirs to recover).
pub(crate) fn transaction_prefix(tool: &str, scope: Scope) -> String {
    format!("{}.{scope}.", file_safe(tool))
}

/// The journals of this tool's transactions (names starting with
/// `prefix`) in the scope's state folder.
fn journals(state_dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(items) = fs::read_dir(state_dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = items
        .flatten()
        .filter(|item| {
            let name = item.file_name();
            let name = name.to_string_lossy();
            name.starts_with(prefix) && name.ends_with(EXTENSION)
        })
        .map(|item| item.path())
        .collect();
    found.sort();
    found
}

/// Whether a stopped run of this tool left a journal in the scope.
pub(crate) fn pending(state_dir: &Path, prefix: &str) -> bool {
    !journals(state_dir, prefix).is_empty()
}

/// Finishes or undoes every transaction of this tool a stopped run left
/// in the scope: one the record names (`committed`) completed, and only
/// its staging folders are removed; any other is undone. `folders` are the
/// agent folders of this scope, by key: a journal naming any other is
/// refused.
pub(crate) fn recover(
    state_dir: &Path,
    prefix: &str,
    committed: &str,
    folders: &BTreeMap<String, PathBuf>,
    ops: &Ops,
) -> Result<(), InstallError> {
    for path in journals(state_dir, prefix) {
        let refused = |error: String| InstallError::Journal {
            path: path.clone(),
            error,
        };
        let bytes = read_state(&path, JOURNAL_CAP)
            .map_err(|error| refused(error.to_string()))?
            .unwrap_or_default();
        let journal = Journal::from_json(&bytes).map_err(refused)?;
        if Journal::path(state_dir, &journal.transaction) != path {
            return Err(refused("it names another transaction".to_string()));
        }
        let mut staged = Vec::new();
        for dir in &journal.dirs {
            let Some(folder) = folders.get(&dir.key) else {
                return Err(refused(format!(
                    "it names {}, which is no agent's skill folder here",
                    quoted(&dir.key)
                )));
            };
            let staging = folder.join(STAGING);
            let tx = staging.join(&journal.transaction);
            let parts = [&staging, &tx, &tx.join("old"), &tx.join("new")];
            for part in parts {
                if part
                    .symlink_metadata()
                    .is_ok_and(|meta| !meta.file_type().is_dir())
                {
                    return Err(refused(format!(
                        "{} is a link or a file, not a folder the installer made",
                        part.display()
                    )));
                }
            }
            staged.push((folder, tx, dir));
        }
        for (folder, tx, dir) in staged {
            if !exists(&tx) {
                continue;
            }
            if journal.swapping && journal.transaction != committed {
                undo(folder, &tx, &dir.swaps, ops)?;
            }
            ops.remove_all(&tx)
                .map_err(|e| InstallError::io("remove", &tx, e))?;
            let _ = fs::remove_dir(folder.join(STAGING));
        }
        ops.remove_all(&path)
            .map_err(|e| InstallError::io("remove", &path, e))?;
    }
    Ok(())
}

pub(crate) fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// Puts every skill of a transaction back as it was: the new entry moved
/// out of the way (into the staging folder, removed with it), the old one
/// moved back.
pub(crate) fn undo(dir: &Path, tx: &Path, swaps: &[Swap], ops: &Ops) -> Result<(), InstallError> {
    for swap in swaps.iter().rev() {
        let live = dir.join(&swap.name);
        let old = tx.join("old").join(&swap.name);
        let new = tx.join("new").join(&swap.name);
        let swapped_out = exists(&old);
        let swapped_in = swap.has_new && !exists(&new) && (!swap.had_live || swapped_out);
        if swapped_in && exists(&live) {
            let aside = tx.join("undone");
            if !exists(&aside) {
                ops.create_dir(&aside)
                    .map_err(|e| InstallError::io("create", &aside, e))?;
            }
            let aside = aside.join(&swap.name);
            ops.rename(&live, &aside)
                .map_err(|e| InstallError::io("move aside", &live, e))?;
        }
        if swapped_out && !exists(&live) {
            ops.rename(&old, &live)
                .map_err(|e| InstallError::io("restore", &live, e))?;
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
