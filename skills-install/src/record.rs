//! The record of what a tool installed in one scope: for every folder it
//! wrote to, every skill with its content revision and every file's size
//! and SHA-256 (or the link it made). A file on disk is the tool's only if
//! this record lists it, and then its digest tells an outdated copy from
//! one a user edited; a file that merely holds the bytes the tool embeds is
//! not its own. A record is read as untrusted input: every name in it is
//! checked before it is joined to a folder (see [`Record::from_json`]).
//!
//! The record is JSON, written and read with serde (keys in a fixed order,
//! maps sorted, two-space indent, so a record is one byte string for one
//! state). Its shape:
//!
//! ```json
//! {
//!   "format": "skills-install-record-v1",
//!   "tool": "mytool",
//!   "version": "1.2.0",
//!   "scope": "project",
//!   "bundle_revision": "sha256:…",
//!   "transaction": "mytool.project.4242-1767225600000000000",
//!   "directories": {
//!     ".claude/skills": {
//!       "agents": ["claude-code"],
//!       "created": [".claude", ".claude/skills"],
//!       "skills": {
//!         "pdf-forms": {
//!           "revision": "sha256:…",
//!           "link": null,
//!           "files": {"SKILL.md": {"size": 812, "sha256": "…"}}
//!         }
//!       }
//!     }
//!   }
//! }
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use skills_core::trust::revision::Revision;

pub use crate::error::RecordError;
use crate::names::{is_ancestor_key, is_safe_folder, is_safe_key, is_safe_path, quoted};

/// Where a scope's records live, under its base (the lock and journals
/// live in the user's state folder: see the `state` module).
pub(crate) const RECORD_DIR: &str = ".agents/.skills-install";

/// The most bytes an install record may hold (a record of 100,000 files
/// takes about 15 MB).
pub(crate) const RECORD_CAP: u64 = 64 << 20;

/// The most folders a record may name: every agent's folder of a scope
/// and the shared copy are fewer.
pub const MAX_FOLDERS: usize = 256;

/// The most skills a record may list, all folders together: far more than
/// any program carries times the folders it installs to.
pub const MAX_SKILLS: usize = 100_000;

/// The most files a record may list, all skills together.
pub const MAX_FILES: usize = 1_000_000;

/// The value of the record's `format` key.
pub const FORMAT: &str = "skills-install-record-v1";

/// A tool's record for one scope.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Record {
    /// The tool's name.
    pub tool: String,
    /// The tool's version at the last write.
    pub version: String,
    /// `project` or `user`.
    pub scope: String,
    /// The bundle revision at the last write.
    pub bundle_revision: String,
    /// The last apply that completed (its staging folders' name), so a
    /// run that finds one left behind knows whether to finish or undo it.
    pub transaction: String,
    /// Per folder (relative to the scope's base when inside it, else
    /// absolute), what was written there.
    #[serde(rename = "directories")]
    pub dirs: BTreeMap<String, RecordDir>,
}

/// What a tool wrote into one agent folder.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RecordDir {
    /// The agents installed for that read this folder.
    pub agents: BTreeSet<String>,
    /// The folders the tool created to make this one (relative like the
    /// folder's key), removed again when left empty by an uninstall.
    pub created: BTreeSet<String>,
    /// The skills, by folder name.
    pub skills: BTreeMap<String, RecordSkill>,
}

/// One installed skill.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RecordSkill {
    /// Its content revision (`sha256:<hex>`).
    pub revision: String,
    /// For a skill installed as a link to the shared copy, the link's
    /// target as written; `None` for a copy.
    pub link: Option<String>,
    /// Every file written, by path inside the skill folder.
    pub files: BTreeMap<String, RecordFile>,
}

/// The size and SHA-256 of a file as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordFile {
    /// Its size in bytes.
    pub size: u64,
    /// The SHA-256 of its bytes (64 hex digits in the JSON).
    #[serde(with = "hex_digest")]
    pub sha256: [u8; 32],
}

/// A SHA-256 as 64 lowercase hex digits.
mod hex_digest {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(digest: &[u8; 32], to: S) -> Result<S::Ok, S::Error> {
        to.serialize_str(skills_core::Sha256(*digest).to_hex().as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<[u8; 32], D::Error> {
        let text = String::deserialize(from)?;
        skills_core::trust::revision::parse_hex::<32>(&text)
            .ok_or_else(|| D::Error::custom("\"sha256\" is not 64 hex digits"))
    }
}

/// The record as stored: its format first, then its fields.
#[derive(Serialize)]
struct Stored<'r> {
    format: &'static str,
    #[serde(flatten)]
    record: &'r Record,
}

/// The one key read before the rest, so a record of another format is
/// named as such.
#[derive(Deserialize)]
struct Format {
    format: Option<String>,
}

/// What a start reads of a record to tell whether anything changed: the
/// version, and per folder each skill's revision. The rest (files and
/// their digests, most of a record) is skipped as it is parsed, not kept.
/// Nothing in it is joined to a path: a skill at another revision sends
/// the refresh to the whole record, checked ([`Record::from_json`]).
#[derive(Debug, Deserialize)]
pub(crate) struct Glance {
    format: Option<String>,
    #[serde(default)]
    pub version: String,
    /// The revision of the bundle the last run installed from.
    #[serde(default)]
    pub bundle_revision: String,
    #[serde(rename = "directories")]
    pub dirs: BTreeMap<String, GlanceDir>,
}

/// A folder's skills, as a [`Glance`] sees them.
#[derive(Debug, Deserialize)]
pub(crate) struct GlanceDir {
    pub skills: BTreeMap<String, GlanceSkill>,
}

/// A skill's revision, as a [`Glance`] sees it.
#[derive(Debug, Deserialize)]
pub(crate) struct GlanceSkill {
    pub revision: String,
}

impl Glance {
    /// The glance of a record's JSON text (`None` when it is no record of
    /// this format: reading it whole says what is wrong).
    pub(crate) fn from_json(bytes: &[u8]) -> Option<Glance> {
        serde_json::from_slice::<Glance>(bytes)
            .ok()
            .filter(|glance| glance.format.as_deref() == Some(FORMAT))
    }
}

/// The skills of a folder (by name, with their recorded revisions) that a
/// refresh looks at: those at another revision than the one `embedded`
/// gives for their folder name, with what `embedded` gave, and those it
/// gives none for (no longer embedded), with `None`. A skill recorded at
/// the embedded revision is not among them: nothing of it is read.
pub(crate) fn stale<'r, T>(
    skills: impl IntoIterator<Item = (&'r String, &'r str)>,
    embedded: impl Fn(&str) -> Option<(T, Revision)>,
) -> Vec<(&'r str, Option<T>)> {
    skills
        .into_iter()
        .filter_map(|(name, was)| match embedded(name) {
            Some((_, revision)) if is_at(was, revision) => None,
            Some((found, _)) => Some((name.as_str(), Some(found))),
            None => Some((name.as_str(), None)),
        })
        .collect()
}

/// Whether a recorded revision is `revision`.
fn is_at(recorded: &str, revision: Revision) -> bool {
    recorded.parse::<Revision>() == Ok(revision)
}

impl RecordSkill {
    /// Whether it was installed at `revision` (a refresh looks no further
    /// at a skill that was: no file of it is read).
    ///
    /// ```
    /// use skills_install::record::RecordSkill;
    /// use skills_core::trust::revision::Revision;
    /// let skill = RecordSkill { revision: format!("sha256:{}", "ab".repeat(32)), ..RecordSkill::default() };
    /// assert!(skill.is_at(Revision([0xab; 32])));
    /// assert!(!skill.is_at(Revision([0xcd; 32])));
    /// ```
    pub fn is_at(&self, revision: Revision) -> bool {
        is_at(&self.revision, revision)
    }
}

impl Record {
    /// Whether it lists nothing.
    pub fn is_empty(&self) -> bool {
        self.dirs.values().all(|dir| dir.skills.is_empty())
    }

    /// The record as JSON text (ending with a newline).
    pub fn to_json(&self) -> String {
        let stored = Stored {
            format: FORMAT,
            record: self,
        };
        // Strings and maps with string keys always serialize.
        let mut text = serde_json::to_string_pretty(&stored).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Reads a record from its JSON text, and refuses it when a name in
    /// it could reach outside its folder: a folder key with `..`, a
    /// `created` folder that is not that folder or one above it, a skill
    /// name that is not a plain folder name, a file path that is not a
    /// plain relative path.
    ///
    /// ```
    /// use skills_install::record::Record;
    /// let record = Record { tool: "t".into(), ..Record::default() };
    /// assert_eq!(Record::from_json(record.to_json().as_bytes()).unwrap(), record);
    /// assert!(Record::from_json(b"{}").is_err());
    /// let hostile = record.to_json().replace(
    ///     "\"directories\": {}",
    ///     r#""directories": {"../..": {"agents": [], "created": [], "skills": {}}}"#,
    /// );
    /// assert!(Record::from_json(hostile.as_bytes()).is_err());
    /// ```
    pub fn from_json(bytes: &[u8]) -> Result<Record, RecordError> {
        let unread = |error: serde_json::Error| RecordError(format!("not a record: {error}"));
        match serde_json::from_slice::<Format>(bytes)
            .map_err(unread)?
            .format
            .as_deref()
        {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(RecordError(format!(
                    "format {other:?} is not {FORMAT:?} (written by a newer installer?)"
                )));
            }
            None => return Err(RecordError(format!("no \"format\": {FORMAT:?}"))),
        }
        let record: Record = serde_json::from_slice(bytes).map_err(unread)?;
        record.check()?;
        Ok(record)
    }

    /// Refuses a record whose names could reach outside the folders they
    /// belong to: every folder key a plain relative path (or an absolute
    /// one without `.` and `..`), every `created` folder that folder or one
    /// above it, every skill a plain folder name, every file a plain
    /// relative path. A record is read from the scope, where a repository
    /// may have put it, so nothing in it is joined to a folder unchecked.
    fn check(&self) -> Result<(), RecordError> {
        let skills: usize = self.dirs.values().map(|dir| dir.skills.len()).sum();
        let files: usize = self
            .dirs
            .values()
            .flat_map(|dir| dir.skills.values())
            .map(|skill| skill.files.len())
            .sum();
        for (count, most, what) in [
            (self.dirs.len(), MAX_FOLDERS, "folders"),
            (skills, MAX_SKILLS, "skills"),
            (files, MAX_FILES, "files"),
        ] {
            if count > most {
                return Err(RecordError(format!(
                    "it lists {count} {what}, more than the {most} any install makes"
                )));
            }
        }
        for (key, dir) in &self.dirs {
            if !is_safe_key(key) {
                return Err(RecordError(format!(
                    "folder {} is not a plain path (it holds `..`, an empty part or a control character)",
                    quoted(key)
                )));
            }
            if let Some(created) = dir.created.iter().find(|c| !is_ancestor_key(c, key)) {
                return Err(RecordError(format!(
                    "folder {}: {} is neither that folder nor one above it, so the install did not create it",
                    quoted(key),
                    quoted(created)
                )));
            }
            let mut lowered: BTreeMap<String, &String> = BTreeMap::new();
            for (name, skill) in &dir.skills {
                if !is_safe_folder(name) {
                    return Err(RecordError(format!(
                        "skill {} is not a plain folder name",
                        quoted(name)
                    )));
                }
                if let Some(other) = lowered.insert(name.to_lowercase(), name) {
                    return Err(RecordError(format!(
                        "skills {} and {} differ only by case: one folder where case is not told apart",
                        quoted(other),
                        quoted(name)
                    )));
                }
                if let Some(path) = skill.files.keys().find(|path| !is_safe_path(path)) {
                    return Err(RecordError(format!(
                        "{name}: file {} is not a plain relative path",
                        quoted(path)
                    )));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_determinism() {
        let mut record = Record {
            tool: "mytool".into(),
            version: "1.0.0".into(),
            scope: "project".into(),
            bundle_revision: "sha256:00".into(),
            transaction: "t1".into(),
            dirs: BTreeMap::new(),
        };
        let mut dir = RecordDir::default();
        dir.agents.insert("claude-code".into());
        dir.created.insert(".claude".into());
        let mut skill = RecordSkill {
            revision: "sha256:ab".into(),
            ..RecordSkill::default()
        };
        skill.files.insert(
            "SKILL.md".into(),
            RecordFile {
                size: 3,
                sha256: [7; 32],
            },
        );
        dir.skills.insert("pdf".into(), skill);
        record.dirs.insert(".claude/skills".into(), dir);
        let text = record.to_json();
        assert_eq!(Record::from_json(text.as_bytes()).unwrap(), record);
        assert_eq!(record.clone().to_json(), text);
        assert!(text.contains("\"sha256\": \"0707"));
    }

    #[test]
    fn refuses_what_it_did_not_write() {
        for bad in [
            &b"[]"[..],
            b"{\"format\": \"other\"}",
            b"not json",
            b"{\"format\": \"skills-install-record-v1\", \"tool\": 1}",
        ] {
            assert!(Record::from_json(bad).is_err());
        }
    }

    #[test]
    fn refuses_names_that_reach_outside() {
        let file = RecordFile {
            size: 1,
            sha256: [0; 32],
        };
        let record = |key: &str, created: &str, name: &str, path: &str| {
            let mut dir = RecordDir::default();
            if !created.is_empty() {
                dir.created.insert(created.into());
            }
            let mut skill = RecordSkill::default();
            skill.files.insert(path.into(), file);
            dir.skills.insert(name.into(), skill);
            let mut record = Record::default();
            record.dirs.insert(key.into(), dir);
            Record::from_json(record.to_json().as_bytes())
        };
        assert!(record(".claude/skills", ".claude", "pdf", "scripts/a.py").is_ok());
        for (key, created, name, path) in [
            ("../outside", "", "pdf", "SKILL.md"),
            (".claude/../..", "", "pdf", "SKILL.md"),
            (".claude/skills", "../empty", "pdf", "SKILL.md"),
            (".claude/skills", "/tmp", "pdf", "SKILL.md"),
            (".claude/skills", "", "../../../victim", "SKILL.md"),
            (".claude/skills", "", "pdf", "../../x"),
            (".claude/skills", "", "pdf", "/etc/passwd"),
        ] {
            let error = record(key, created, name, path).unwrap_err();
            assert!(
                error.0.contains("plain") || error.0.contains("above"),
                "{error}"
            );
        }
    }
}
