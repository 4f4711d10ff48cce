//! The record of what a tool installed in one scope: for every folder it
//! wrote to, every skill with its content revision and every file's size
//! and SHA-256 (or the link it made). A file on disk is the tool's only if
//! this record lists it, and then its digest tells an outdated copy from
//! one a user edited; a file that merely holds the bytes the tool embeds is
//! not its own. A record is read as untrusted input: every name in it is
//! checked before it is joined to a folder (see [`Record::from_json`]).
//!
//! The record is JSON, written by `skills_core::encoding::json` (sorted keys,
//! two-space indent, so a record is one byte string for one state) and read
//! back with serde_json. Its shape:
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
use std::fmt;
use std::prelude::rust_2024::*;

use serde_json::Value;
use skills_core::encoding::json::{JsonWriter, Style};

use super::names::{is_ancestor_key, is_safe_folder, is_safe_key, is_safe_path, quoted};

/// The value of the record's `format` key.
pub const FORMAT: &str = "skills-install-record-v1";

/// A tool's record for one scope.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
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
    pub dirs: BTreeMap<String, RecordDir>,
}

/// What a tool wrote into one agent folder.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
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
#[derive(Debug, Clone, PartialEq, Eq, Default)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordFile {
    /// Its size in bytes.
    pub size: u64,
    /// The SHA-256 of its bytes.
    pub sha256: [u8; 32],
}

/// A record that cannot be read: what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError(pub String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Record {
    /// Whether it lists nothing.
    pub fn is_empty(&self) -> bool {
        self.dirs.values().all(|dir| dir.skills.is_empty())
    }

    /// The record as JSON text (ending with a newline).
    pub fn to_json(&self) -> String {
        let mut json = JsonWriter::new(String::new(), Style::indented(2));
        let _ = self.write(&mut json);
        let mut text = json.into_inner();
        text.push('\n');
        text
    }

    fn write(&self, json: &mut JsonWriter<String>) -> fmt::Result {
        json.begin_object()?;
        for (key, value) in [
            ("format", FORMAT),
            ("tool", &self.tool),
            ("version", &self.version),
            ("scope", &self.scope),
            ("bundle_revision", &self.bundle_revision),
            ("transaction", &self.transaction),
        ] {
            json.key(key)?;
            json.string(value)?;
        }
        json.key("directories")?;
        json.begin_object()?;
        for (path, dir) in &self.dirs {
            json.key(path)?;
            json.begin_object()?;
            for (key, set) in [("agents", &dir.agents), ("created", &dir.created)] {
                json.key(key)?;
                json.begin_array()?;
                for item in set {
                    json.string(item)?;
                }
                json.end()?;
            }
            json.key("skills")?;
            json.begin_object()?;
            for (name, skill) in &dir.skills {
                json.key(name)?;
                json.begin_object()?;
                json.key("revision")?;
                json.string(&skill.revision)?;
                json.key("link")?;
                match &skill.link {
                    Some(link) => json.string(link)?,
                    None => json.null()?,
                }
                json.key("files")?;
                json.begin_object()?;
                for (path, file) in &skill.files {
                    json.key(path)?;
                    json.begin_object()?;
                    json.key("size")?;
                    json.value(file.size)?;
                    json.key("sha256")?;
                    json.string(skills_core::Sha256(file.sha256).to_hex().as_str())?;
                    json.end()?;
                }
                json.end()?;
                json.end()?;
            }
            json.end()?;
            json.end()?;
        }
        json.end()?;
        json.end()
    }

    /// Reads a record from its JSON text, and refuses it when a name in
    /// it could reach outside its folder: a folder key with `..`, a
    /// `created` folder that is not that folder or one above it, a skill
    /// name that is not a plain folder name, a file path that is not a
    /// plain relative path.
    ///
    /// ```
    /// use skills_runtime::install::record::Record;
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
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|error| RecordError(format!("not JSON: {error}")))?;
        let top = object(&value, "the record")?;
        match top.get("format").and_then(Value::as_str) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(RecordError(format!(
                    "format {other:?} is not {FORMAT:?} (written by a newer installer?)"
                )));
            }
            None => return Err(RecordError(format!("no \"format\": {FORMAT:?}"))),
        }
        let mut record = Record {
            tool: string(top, "tool")?,
            version: string(top, "version")?,
            scope: string(top, "scope")?,
            bundle_revision: string(top, "bundle_revision")?,
            transaction: string(top, "transaction")?,
            dirs: BTreeMap::new(),
        };
        let dirs = top.get("directories").unwrap_or(&Value::Null);
        for (path, dir) in object(dirs, "\"directories\"")? {
            let dir = object(dir, path)?;
            let mut entry = RecordDir {
                agents: strings(dir, "agents")?,
                created: strings(dir, "created")?,
                skills: BTreeMap::new(),
            };
            let skills = dir.get("skills").unwrap_or(&Value::Null);
            for (name, skill) in object(skills, "\"skills\"")? {
                let skill = object(skill, name)?;
                let link = match skill.get("link") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(link)) => Some(link.clone()),
                    Some(_) => return Err(RecordError(format!("{name}: \"link\" is not text"))),
                };
                let mut files = BTreeMap::new();
                let listed = skill.get("files").unwrap_or(&Value::Null);
                for (path, file) in object(listed, "\"files\"")? {
                    let file = object(file, path)?;
                    let size = file.get("size").and_then(Value::as_u64).ok_or_else(|| {
                        RecordError(format!("{name}/{path}: \"size\" is not a number"))
                    })?;
                    let sha256 = file
                        .get("sha256")
                        .and_then(Value::as_str)
                        .and_then(skills_core::trust::revision::parse_hex::<32>)
                        .ok_or_else(|| {
                            RecordError(format!("{name}/{path}: \"sha256\" is not 64 hex digits"))
                        })?;
                    files.insert(path.clone(), RecordFile { size, sha256 });
                }
                entry.skills.insert(
                    name.clone(),
                    RecordSkill {
                        revision: string(skill, "revision")?,
                        link,
                        files,
                    },
                );
            }
            record.dirs.insert(path.clone(), entry);
        }
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
            for (name, skill) in &dir.skills {
                if !is_safe_folder(name) {
                    return Err(RecordError(format!(
                        "skill {} is not a plain folder name",
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

type Object = serde_json::Map<String, Value>;

fn object<'v>(value: &'v Value, what: &str) -> Result<&'v Object, RecordError> {
    value
        .as_object()
        .ok_or_else(|| RecordError(format!("{what} is not an object")))
}

fn string(object: &Object, key: &str) -> Result<String, RecordError> {
    object
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| RecordError(format!("\"{key}\" is missing or not text")))
}

fn strings(object: &Object, key: &str) -> Result<BTreeSet<String>, RecordError> {
    let Some(Value::Array(items)) = object.get(key) else {
        return Err(RecordError(format!("\"{key}\" is missing or not a list")));
    };
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_string)
                .ok_or_else(|| RecordError(format!("\"{key}\" holds something other than text")))
        })
        .collect()
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
