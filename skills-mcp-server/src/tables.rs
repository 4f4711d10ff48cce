//! What the server precomputes from a catalog once, at start: every
//! resource's `resources/list` entry and `resources/read` contents, every
//! skill's `skills/get` entry and the `skills/list` pages, so a request is
//! a table lookup and a copy.
//!
//! The shapes are agentskills-mcp-server 0.7.0's: one resource per file of
//! every skill, `SKILL.md` included, under the skill's `skill://` URI; the
//! `SKILL.md` resource is named after the skill and carries its
//! description, every other file its base name; the media type is Python's
//! `mimetypes` guess over its built-in table plus Markdown (`.md` is
//! `text/markdown`, as Python 3.13 and common hosts say; unknown text
//! `text/plain`); the contents are `text` when the bytes are UTF-8 without
//! a NUL, else base64 `blob`; each carries the publication record.

use std::collections::HashMap;

use serde_json::{Value, json};
use skills_core::features::manifest::{ManifestError, manifest_entry, push_quoted, skill_uri};
use skills_core::pycompat::pytext::guess_media_type;
use skills_core::trust::revision::{Revision, bundle_revision, skill_file_pieces};
use skills_core::wire::bundle::Skill;
use skills_core::{Catalog, Sha256};

/// One file of one skill, as `resources/list` and `resources/read` give it.
#[derive(Debug)]
pub(crate) struct ResourceEntry {
    /// The `resources/list` entry, compact JSON.
    pub(crate) listed: String,
    /// The resource's URI.
    uri: String,
    /// Its media type.
    mime_type: &'static str,
    /// The skill's index in the catalog.
    skill: usize,
    /// The file's path in the skill; `None` for the skill file.
    path: Option<String>,
    /// The publication record a read carries.
    read_record: Value,
}

impl ResourceEntry {
    /// The `resources/read` `contents` array, compact JSON, made from the
    /// catalog's bytes when asked for (not held: a server holds the listing,
    /// not a second copy of every file).
    pub(crate) fn contents(&self, catalog: &Catalog<'_>) -> String {
        let Some(skill) = catalog.skills().get(self.skill) else {
            return "[]".to_owned();
        };
        let skill_md: Vec<u8>;
        let bytes: &[u8] = match &self.path {
            None => {
                skill_md = skill_file_pieces(skill).concat();
                &skill_md
            }
            Some(path) => skill.file(path).map_or(&[], |file| file.bytes()),
        };
        let mut content = serde_json::Map::new();
        content.insert("uri".into(), Value::from(self.uri.as_str()));
        content.insert("mimeType".into(), Value::from(self.mime_type));
        match as_text(bytes) {
            Some(text) => content.insert("text".into(), Value::from(text)),
            None => content.insert(
                "blob".into(),
                Value::from(skills_core::encoding::base64::encode(bytes)),
            ),
        };
        content.insert(
            "_meta".into(),
            json!({ "io.agentskills/publication": self.read_record }),
        );
        Value::Array(vec![Value::Object(content)]).to_string()
    }
}

/// The precomputed replies of one catalog.
#[derive(Debug)]
pub(crate) struct Tables {
    /// Every resource in listing order: skills sorted by URI, each
    /// skill's files sorted by path with `SKILL.md` among them.
    pub(crate) resources: Vec<ResourceEntry>,
    /// Resource URI to its index in `resources`.
    pub(crate) by_uri: HashMap<String, usize>,
    /// Each listed skill's manifest entry (compact JSON), sorted by URI.
    pub(crate) entries: Vec<(String, String)>,
    /// Skill URI (of its `SKILL.md`) to its index in `entries`.
    pub(crate) by_skill_uri: HashMap<String, usize>,
    /// The catalog's generation, as `io.agentskills/catalog` names it.
    pub(crate) generation: String,
}

/// Why a catalog cannot be served.
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
pub(crate) struct Publication {
    /// The trusted origin (`unconfigured` without a trust policy).
    pub(crate) origin: String,
    /// The content revision, `sha256:<hex>`.
    pub(crate) revision: String,
    /// `unsigned` or `verified`.
    pub(crate) status: &'static str,
    /// The key id that signed, when verified.
    pub(crate) publisher: Option<String>,
}

impl Publication {
    /// Unsigned content under the `unconfigured` origin, as the reference
    /// publishes without a policy.
    pub(crate) fn unsigned(skill: &Skill<'_>) -> Self {
        Publication {
            origin: "unconfigured".to_owned(),
            revision: format!("sha256:{}", Sha256(skill.revision)),
            status: "unsigned",
            publisher: None,
        }
    }

    fn record(&self) -> Value {
        json!({
            "origin": self.origin,
            "revision": self.revision,
            "sourceRevision": self.revision,
            "sourceStatus": self.status,
            "publisher": self.publisher,
            "transformed": false,
            "annotations": [],
        })
    }
}

impl Tables {
    /// Computes every table of `catalog`; `publication` says how each skill
    /// (by its index in the catalog) was published.
    pub(crate) fn new(
        catalog: &Catalog<'_>,
        publication: &dyn Fn(usize, &Skill<'_>) -> Publication,
    ) -> Result<Self, TableError> {
        let mut skills: Vec<(String, usize, &Skill<'_>)> = Vec::with_capacity(catalog.len());
        for (at, skill) in catalog.skills().iter().enumerate() {
            let root = skill_uri(skill, None).map_err(|error| TableError::Manifest {
                skill: skill.name.to_owned(),
                error,
            })?;
            skills.push((root, at, skill));
        }
        skills.sort_by(|a, b| a.0.cmp(&b.0));

        let mut tables = Tables {
            resources: Vec::new(),
            by_uri: HashMap::new(),
            entries: Vec::with_capacity(skills.len()),
            by_skill_uri: HashMap::with_capacity(skills.len()),
            // The recorded bundle revision, or (a bundle made without one)
            // computed once here.
            generation: match Revision(catalog.bundle().revision) {
                recorded if !recorded.is_unset() => recorded.to_string(),
                _ => bundle_revision(catalog.bundle()).to_string(),
            },
        };
        for (root, at, skill) in &skills {
            let entry = manifest_entry(skill, None).map_err(|error| TableError::Manifest {
                skill: skill.name.to_owned(),
                error,
            })?;
            let skill_file = skill.skill_file.as_str();
            let skill_md_uri = format!("{root}/{}", quoted(skill_file));
            if tables
                .by_skill_uri
                .insert(skill_md_uri.clone(), tables.entries.len())
                .is_some()
            {
                return Err(TableError::DuplicateUri { uri: skill_md_uri });
            }
            tables.entries.push((skill_md_uri, entry));

            let record = publication(*at, skill).record();
            let skill_md: Vec<u8> = skill_file_pieces(skill).concat();
            let mut files: Vec<(&str, &[u8])> = skill
                .files
                .iter()
                .map(|file| (file.path, file.bytes()))
                .collect();
            let skill_md_at = files.partition_point(|(path, _)| *path < skill_file);
            files.insert(skill_md_at, (skill_file, &skill_md));
            for (path, bytes) in files {
                let uri = format!("{root}/{}", quoted(path));
                let mime_type = media_type(path, bytes);
                let mut listed = serde_json::Map::new();
                listed.insert("uri".into(), Value::from(uri.as_str()));
                if path == skill_file {
                    listed.insert("name".into(), Value::from(frontmatter_name(skill)));
                    listed.insert("description".into(), Value::from(skill.description));
                } else {
                    let base = path.rsplit('/').next().unwrap_or(path);
                    listed.insert("name".into(), Value::from(base));
                }
                listed.insert("mimeType".into(), Value::from(mime_type));
                listed.insert(
                    "_meta".into(),
                    json!({ "io.agentskills/publication": record }),
                );
                let mut read_record = record.clone();
                if let Some(map) = read_record.as_object_mut() {
                    map.insert("stale".into(), Value::Bool(false));
                }
                let entry = ResourceEntry {
                    listed: Value::Object(listed).to_string(),
                    uri: uri.clone(),
                    mime_type,
                    skill: *at,
                    path: (path != skill_file).then(|| path.to_owned()),
                    read_record,
                };
                if tables
                    .by_uri
                    .insert(uri.clone(), tables.resources.len())
                    .is_some()
                {
                    return Err(TableError::DuplicateUri { uri });
                }
                tables.resources.push(entry);
            }
        }
        Ok(tables)
    }
}

/// `path` percent-encoded with `/` kept, as the reference builds file URIs.
fn quoted(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    push_quoted(&mut out, path, true);
    out
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
