//! What a skill's files look like as MCP resources, made for each request
//! from the skill it names: the `resources/list` (and directory) entry of a
//! file and its `resources/read` contents, and the publication record each
//! carries.
//!
//! The shapes are agentskills-mcp-server 0.7.0's: one resource per file of
//! every skill, `SKILL.md` included, under the skill's `skill://` URI; the
//! `SKILL.md` resource is named after the skill and carries its
//! description, every other file its base name; the media type is Python's
//! `mimetypes` guess over its built-in table plus Markdown (`.md` is
//! `text/markdown`, as Python 3.13 and common hosts say; unknown text
//! `text/plain`); the contents are `text` when the bytes are UTF-8 without
//! a NUL, else base64 `blob`; each carries the publication record.

use serde_json::{Map, Value, json};
use skills_core::Sha256;
use skills_core::features::manifest::{ManifestError, ManifestFile, push_quoted};
use skills_core::text::pytext::guess_media_type;
use skills_core::trust::revision::skill_file_pieces;
use skills_core::wire::bundle::Skill;

/// Why a catalog, or a skill of it, cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableError {
    /// A skill breaks the Skills extension's limits or URI rules.
    Manifest {
        /// The skill's listed name.
        skill: String,
        /// What is wrong, in agentskills-core's words.
        error: ManifestError,
    },
    /// Two skills would be served under one URI.
    DuplicateUri {
        /// The URI.
        uri: String,
    },
    /// A skill's part of the bundle does not decode, or cannot be read (a
    /// bundle file changed after the server opened or verified it).
    Unreadable {
        /// The skill's listed name.
        skill: String,
        /// Why, as the catalog says it.
        error: skills_core::DecodeError,
    },
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::Manifest { skill, error } => {
                write!(f, "skill {skill:?} cannot be served over MCP: {error}")
            }
            TableError::DuplicateUri { uri } => {
                write!(f, "two skills would be served as {uri}")
            }
            TableError::Unreadable { skill, error } => {
                write!(f, "skill {skill:?} cannot be served: {error}")
            }
        }
    }
}

impl std::error::Error for TableError {}

/// The bytes of a `resources/read`: text when decoding them as UTF-8 cannot
/// change a byte and they hold no NUL (the reference's rule), else `None`.
pub(crate) fn as_text(bytes: &[u8]) -> Option<&str> {
    if bytes.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// The media type the reference gives a file at `path` with `bytes`.
pub(crate) fn media_type(path: &str, bytes: &[u8]) -> &'static str {
    let base = path.rsplit('/').next().unwrap_or(path);
    if base == "SKILL.md" {
        return "text/markdown";
    }
    match guess_media_type(path) {
        Some(media_type) => media_type,
        None if as_text(bytes).is_some() => "text/plain",
        None => "application/octet-stream",
    }
}

/// The frontmatter `name`: the listed name without a `qualifier:`.
fn frontmatter_name<'a>(skill: &Skill<'a>) -> &'a str {
    skill
        .name
        .rsplit_once(':')
        .map_or(skill.name, |(_, name)| name)
}

/// How a skill was published: agentskills-core's `ContentIdentity`, which
/// the `io.agentskills/publication` record carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Publication<'p> {
    /// The trusted origin (`unconfigured` without a trust policy).
    pub(crate) origin: &'p str,
    /// The content revision.
    pub(crate) revision: [u8; 32],
    /// `unsigned` or `verified`.
    pub(crate) status: &'static str,
    /// The key id that signed, when verified.
    pub(crate) publisher: Option<&'p str>,
}

impl<'p> Publication<'p> {
    /// Unsigned content under the `unconfigured` origin, as the reference
    /// publishes without a policy.
    pub(crate) fn unsigned(skill: &Skill<'_>) -> Self {
        Publication {
            origin: "unconfigured",
            revision: skill.revision,
            status: "unsigned",
            publisher: None,
        }
    }

    /// The record, as a listing carries it.
    pub(crate) fn record(&self) -> Value {
        let revision = format!("sha256:{}", Sha256(self.revision));
        json!({
            "origin": self.origin,
            "revision": revision,
            "sourceRevision": revision,
            "sourceStatus": self.status,
            "publisher": self.publisher,
            "transformed": false,
            "annotations": [],
        })
    }

    /// The record, as a read carries it (`stale: false` added).
    fn read_record(&self) -> Value {
        let mut record = self.record();
        if let Some(map) = record.as_object_mut() {
            map.insert("stale".into(), Value::Bool(false));
        }
        record
    }
}

/// A trust policy's verdict on each skill of a catalog, as the publication
/// records say it.
#[derive(Debug)]
pub(crate) struct Verdicts {
    /// The policy's origin.
    pub(crate) origin: String,
    /// By catalog index: the content revision, and the key id that signed
    /// (`None`: unsigned).
    pub(crate) skills: Vec<([u8; 32], Option<Box<str>>)>,
}

impl Verdicts {
    /// The publication record of the skill at `at`.
    pub(crate) fn publication(&self, at: usize) -> Publication<'_> {
        let (revision, publisher) = self
            .skills
            .get(at)
            .map_or(([0; 32], None), |(revision, publisher)| {
                (*revision, publisher.as_deref())
            });
        Publication {
            origin: &self.origin,
            revision,
            status: if publisher.is_some() {
                "verified"
            } else {
                "unsigned"
            },
            publisher,
        }
    }
}

/// A file's bytes: its own, or the skill file's rebuilt from its pieces.
pub(crate) fn file_bytes<'s>(skill: &Skill<'s>, file: &ManifestFile<'s>) -> Vec<u8> {
    match file.file {
        Some(file) => file.bytes().to_vec(),
        None => skill_file_pieces(skill).concat(),
    }
}

/// The URI of `file` under the skill's `root` URI.
pub(crate) fn file_uri(root: &str, path: &str) -> String {
    let mut uri = String::with_capacity(root.len() + 1 + path.len());
    uri.push_str(root);
    uri.push('/');
    push_quoted(&mut uri, path, true);
    uri
}

/// The media type of `file` (the skill file's is always `text/markdown`).
fn file_media_type(file: &ManifestFile<'_>) -> &'static str {
    match file.file {
        Some(inner) => media_type(file.path, inner.bytes()),
        None => "text/markdown",
    }
}

/// A file's resource entry, as `resources/list` lists it (compact JSON):
/// its URI, its name (the skill's for the skill file, with the skill's
/// description; else its base name), its media type and the publication
/// record; with `details`, also its size and, in `_meta`, its digest (as
/// `resources/directory/read` lists files).
pub(crate) fn listed_entry(
    skill: &Skill<'_>,
    root: &str,
    file: &ManifestFile<'_>,
    publication: &Publication<'_>,
    details: bool,
) -> String {
    let mut listed = Map::new();
    listed.insert("uri".into(), Value::from(file_uri(root, file.path)));
    if file.file.is_none() {
        listed.insert("name".into(), Value::from(frontmatter_name(skill)));
        listed.insert("description".into(), Value::from(skill.description));
    } else {
        let base = file.path.rsplit('/').next().unwrap_or(file.path);
        listed.insert("name".into(), Value::from(base));
    }
    listed.insert("mimeType".into(), Value::from(file_media_type(file)));
    let mut meta = Map::new();
    meta.insert("io.agentskills/publication".into(), publication.record());
    if details {
        listed.insert("size".into(), Value::from(file.size));
        meta.insert(
            "io.agentskills/digest".into(),
            Value::from(format!("sha256:{}", Sha256(*file.sha256))),
        );
    }
    listed.insert("_meta".into(), Value::Object(meta));
    Value::Object(listed).to_string()
}

/// The `resources/read` `contents` array of `file` (compact JSON): text or
/// base64 blob, with the read's publication record.
pub(crate) fn contents(
    skill: &Skill<'_>,
    root: &str,
    file: &ManifestFile<'_>,
    publication: &Publication<'_>,
) -> String {
    let bytes = file_bytes(skill, file);
    let mut content = Map::new();
    content.insert("uri".into(), Value::from(file_uri(root, file.path)));
    content.insert("mimeType".into(), Value::from(file_media_type(file)));
    match as_text(&bytes) {
        Some(text) => content.insert("text".into(), Value::from(text)),
        None => content.insert(
            "blob".into(),
            Value::from(skills_core::encoding::base64::encode(&bytes)),
        ),
    };
    content.insert(
        "_meta".into(),
        json!({ "io.agentskills/publication": publication.read_record() }),
    );
    Value::Array(vec![Value::Object(content)]).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_or_blob_follows_the_reference_rule() {
        assert_eq!(as_text(b"plain"), Some("plain"));
        assert_eq!(as_text(b"a\0b"), None);
        assert_eq!(as_text(b"\xff"), None);
    }

    #[test]
    fn media_types_follow_pythons_builtin_table() {
        assert_eq!(media_type("SKILL.md", b"---"), "text/markdown");
        assert_eq!(media_type("notes.txt", b"x"), "text/plain");
        assert_eq!(media_type("assets/logo.png", b"\x89PNG"), "image/png");
        assert_eq!(
            media_type("assets/blob.dat", b"\xff"),
            "application/octet-stream"
        );
        assert_eq!(media_type("scripts/fill.py", b"x"), "text/x-python");
    }

    /// Issue 20, finding 10: a Markdown file beside `SKILL.md` is
    /// `text/markdown`, as the reference says on a host with the usual
    /// `/etc/mime.types` and as Python 3.13's own table says.
    #[test]
    fn finding_markdown_files_are_text_markdown() {
        assert_eq!(media_type("references/a.md", b"x"), "text/markdown");
        assert_eq!(media_type("guide.MARKDOWN", b"x"), "text/markdown");
    }
}
