//! What this tool wrote in a scope, as it knows it itself: kept in the
//! user's state folder ([`state`](crate::state)), never in the project.
//!
//! The record lives in the project, where a team may commit it, and so
//! may a stranger: a record this tool did not write here is a claim, not
//! proof. So every time it writes a record, the tool keeps beside its lock
//! the SHA-256 of each skill entry it wrote (per folder key and skill
//! name) and the folders it created. A record entry is the tool's own
//! only when it is here with the same digest; any other entry is a claim
//! (a committed record, a record copied from another machine or written
//! by hand), and what a claim names is never removed, nor replaced unless
//! it still holds exactly what the claim says, without `--force`. Only
//! what the tool itself writes becomes its own: an entry of a claim that
//! an apply leaves as it is stays a claim.
//!
//! The file (`<tool>.<scope>.owned.json`) is read as every state file is
//! (no link followed, no pipe, a size cap); one that cannot be read counts
//! as empty, so at worst the tool's own entries are taken for claims.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;

use serde::{Deserialize, Serialize};

use crate::dir::Dir;
use crate::ops::Ops;
use crate::record::{Record, RecordSkill};
use crate::scope::Scope;
use crate::state::transaction_prefix;

/// The value of the file's `format` key.
const FORMAT: &str = "skills-install-owned-v1";

/// The most bytes the file may hold.
const CAP: u64 = 32 << 20;

/// The entries of a scope's record this tool wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Owned {
    /// Per folder key, what it wrote there.
    #[serde(rename = "directories")]
    dirs: BTreeMap<String, OwnedDir>,
}

/// What this tool wrote in one folder.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct OwnedDir {
    /// The folders it created to make this one.
    created: BTreeSet<String>,
    /// Per skill, the SHA-256 (hex) of the record entry it wrote.
    skills: BTreeMap<String, String>,
}

/// The file as stored.
#[derive(Serialize, Deserialize)]
struct Stored {
    format: String,
    #[serde(flatten)]
    owned: Owned,
}

/// The SHA-256 of a record entry, as hex: of its JSON text (serde writes
/// its maps sorted, so one entry is one text).
fn digest(skill: &RecordSkill) -> String {
    // Strings, numbers and maps with string keys always serialize.
    let text = serde_json::to_vec(skill).unwrap_or_default();
    skills_core::Sha256(skills_core::sha256::digest(&text))
        .to_hex()
        .as_str()
        .to_string()
}

/// The file's name for `tool` in `scope`, in the scope's state folder.
pub(crate) fn file_name(tool: &str, scope: Scope) -> String {
    format!("{}owned.json", transaction_prefix(tool, scope))
}

impl Owned {
    /// What the state folder `state` says this tool wrote (nothing when
    /// there is no state folder, no file, or it cannot be read).
    pub fn read(state: Option<&Dir>, name: &str) -> Owned {
        let Some(Ok(Some(bytes))) = state.map(|dir| dir.read_capped(OsStr::new(name), CAP)) else {
            return Owned::default();
        };
        match serde_json::from_slice::<Stored>(&bytes) {
            Ok(stored) if stored.format == FORMAT => stored.owned,
            _ => Owned::default(),
        }
    }

    /// Keeps it in the file `name` of the state folder `state` (removing
    /// the file when it holds nothing). Called under the scope's lock.
    pub fn write(&self, state: &Dir, name: &str, ops: &Ops) -> std::io::Result<()> {
        if self.dirs.is_empty() {
            return match state.stat(OsStr::new(name))? {
                Some(_) => ops.remove_file(state, OsStr::new(name)),
                None => Ok(()),
            };
        }
        let stored = Stored {
            format: FORMAT.to_string(),
            owned: self.clone(),
        };
        let text = serde_json::to_string_pretty(&stored).unwrap_or_default() + "\n";
        ops.replace_file(state, OsStr::new(name), text.as_bytes())
    }

    /// Whether the entry `skill` of folder `key` is one this tool wrote.
    pub fn owns(&self, key: &str, name: &str, skill: &RecordSkill) -> bool {
        self.dirs
            .get(key)
            .and_then(|dir| dir.skills.get(name))
            .is_some_and(|kept| *kept == digest(skill))
    }

    /// Whether this tool created `folder` to make folder `key`.
    pub fn created(&self, key: &str, folder: &str) -> bool {
        self.dirs
            .get(key)
            .is_some_and(|dir| dir.created.contains(folder))
    }

    /// Whether every entry of `record` is one this tool wrote.
    pub fn owns_all(&self, record: &Record) -> bool {
        record.dirs.iter().all(|(key, dir)| {
            dir.skills
                .iter()
                .all(|(name, skill)| self.owns(key, name, skill))
        })
    }

    /// What this tool owns once `record` is written, when it wrote the
    /// entries `written` (folder key, skill) and created `created` (folder
    /// key, folder) in doing so: its own entries of `record` so far, and
    /// the ones it wrote; every other entry stays a claim.
    pub fn after(
        &self,
        record: &Record,
        written: &BTreeSet<(String, String)>,
        created: &BTreeSet<(String, String)>,
    ) -> Owned {
        let mut next = Owned::default();
        for (key, dir) in &record.dirs {
            let mut kept = OwnedDir::default();
            for (name, skill) in &dir.skills {
                if self.owns(key, name, skill) || written.contains(&(key.clone(), name.clone())) {
                    kept.skills.insert(name.clone(), digest(skill));
                }
            }
            kept.created = dir
                .created
                .iter()
                .filter(|folder| {
                    self.created(key, folder) || created.contains(&(key.clone(), (*folder).clone()))
                })
                .cloned()
                .collect();
            if !kept.skills.is_empty() || !kept.created.is_empty() {
                next.dirs.insert(key.clone(), kept);
            }
        }
        next
    }

    /// Both: what either owns (while a run is under way, before its record
    /// is written, the entries of the record before it and after it).
    pub fn union(&self, other: &Owned) -> Owned {
        let mut both = self.clone();
        for (key, dir) in &other.dirs {
            let entry = both.dirs.entry(key.clone()).or_default();
            entry.created.extend(dir.created.iter().cloned());
            entry
                .skills
                .extend(dir.skills.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        both
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{RecordDir, RecordFile};

    fn record(size: u64) -> Record {
        let mut skill = RecordSkill::default();
        skill.files.insert(
            "SKILL.md".into(),
            RecordFile {
                size,
                sha256: [1; 32],
            },
        );
        let mut dir = RecordDir::default();
        dir.skills.insert("pdf".into(), skill);
        dir.created.insert(".claude".into());
        let mut record = Record::default();
        record.dirs.insert(".claude/skills".into(), dir);
        record
    }

    #[test]
    fn only_what_it_wrote_is_its_own() {
        let written: BTreeSet<(String, String)> =
            [(".claude/skills".to_string(), "pdf".to_string())].into();
        let none = BTreeSet::new();
        let claim = record(3);
        assert!(!Owned::default().owns_all(&claim));
        // Kept as a claim when not written.
        let kept = Owned::default().after(&claim, &none, &none);
        assert!(!kept.owns_all(&claim));
        assert!(!kept.created(".claude/skills", ".claude"));
        // Its own once written, as written: a changed entry is a claim again.
        let owned = Owned::default().after(&claim, &written, &none);
        assert!(owned.owns_all(&claim));
        assert!(!owned.owns_all(&record(4)));
        assert!(owned.after(&claim, &none, &none).owns_all(&claim));
    }
}
