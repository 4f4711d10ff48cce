//! The MCP Skills extension's `skills/list` entry for each skill (SEP-2640),
//! as agentskills-core's `build_skill_manifest` makes it: the `skill://`
//! URI of `SKILL.md`, the frontmatter as JSON, and every file with its
//! `sha256:` digest and size, `SKILL.md` included, sorted by path.
//!
//! The extension's per-skill limits ([`MAX_SKILL_FILES`] files and
//! [`MAX_SKILL_BYTES`] bytes) are enforced when the bundle is built; a
//! bundle made some other way is checked again here.
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
//! let entry = skills_core::features::manifest::manifest_entry(catalog.lookup("git-rebase").unwrap(), Some("acme")).unwrap();
//! assert!(entry.starts_with(r#"{"uri":"skill://acme/git-rebase/SKILL.md","frontmatter":"#));
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::encoding::json::{JsonWriter, Style};
#[cfg(feature = "catalog")]
use crate::serve::catalog::Catalog;
use crate::trust::digest::Sha256;
use crate::wire::bundle::{MAX_SKILL_BYTES, MAX_SKILL_FILES, Skill};

/// Why a manifest entry could not be made, in agentskills-core's words.
///
/// ```
/// use skills_core::features::manifest::ManifestError;
/// assert_eq!(ManifestError::TooManyFiles.to_string(), "Skill exceeds the 512-file snapshot limit");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ManifestError {
    /// More than [`MAX_SKILL_FILES`] files.
    TooManyFiles,
    /// More than [`MAX_SKILL_BYTES`] bytes.
    TooLarge,
    /// A prefix that is not a relative path of plain components.
    BadSkillPath,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ManifestError::TooManyFiles => "Skill exceeds the 512-file snapshot limit",
            ManifestError::TooLarge => "Skill exceeds the 16 MiB native manifest limit",
            ManifestError::BadSkillPath => {
                "skill_path must be a relative path ending in the frontmatter name"
            }
        })
    }
}

impl core::error::Error for ManifestError {}

/// The frontmatter `name` of a skill: its listed name without a
/// `qualifier:` in front.
fn frontmatter_name<'a>(skill: &Skill<'a>) -> (&'a str, Option<&'a str>) {
    match skill.name.rsplit_once(':') {
        Some((qualifier, name)) => (name, Some(qualifier)),
        None => (skill.name, None),
    }
}

/// Appends `text` percent-encoded as Python's `urllib.parse.quote` does:
/// `A-Z a-z 0-9 _ . - ~` kept, and `/` too when `keep_slash`, every other
/// byte of the UTF-8 as `%XX` (uppercase).
///
/// ```
/// let mut out = String::new();
/// skills_core::features::manifest::push_quoted(&mut out, "references/a b é.md", true);
/// assert_eq!(out, "references/a%20b%20%C3%A9.md");
/// ```
pub fn push_quoted(out: &mut String, text: &str, keep_slash: bool) {
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'_' | b'.' | b'-' | b'~')
            || (keep_slash && byte == b'/')
        {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
}

/// The `skill://` URI of the skill's root, from an optional `prefix` (one
/// or more `/`-separated components) and the frontmatter name. Without a
/// prefix a qualified skill (`qualifier:name`) gets its qualifier as one.
///
/// ```
/// use skills_core::{features::manifest::skill_uri, wire::bundle::Skill};
/// let skill = Skill { name: "sig-demo", ..Skill::default() };
/// assert_eq!(skill_uri(&skill, None).unwrap(), "skill://sig-demo");
/// assert_eq!(skill_uri(&skill, Some("alias-id")).unwrap(), "skill://alias-id/sig-demo");
/// assert!(skill_uri(&skill, Some("../x")).is_err());
/// ```
pub fn skill_uri(skill: &Skill<'_>, prefix: Option<&str>) -> Result<String, ManifestError> {
    let (name, qualifier) = frontmatter_name(skill);
    let mut components: Vec<&str> = Vec::new();
    if let Some(prefix) = prefix.or(qualifier) {
        components.extend(prefix.split('/'));
    }
    components.push(name);
    if components
        .iter()
        .any(|c| c.is_empty() || *c == "." || *c == ".." || c.contains(['\\', '\0']))
    {
        return Err(ManifestError::BadSkillPath);
    }
    let mut out = String::from("skill://");
    for (at, component) in components.iter().enumerate() {
        if at > 0 {
            out.push('/');
        }
        push_quoted(&mut out, component, false);
    }
    Ok(out)
}

/// The skill's `skills/list` entry as compact JSON:
/// `{"uri":…,"frontmatter":{…},"resources":[{"uri":…,"digest":"sha256:…","size":N},…]}`.
pub fn manifest_entry(skill: &Skill<'_>, prefix: Option<&str>) -> Result<String, ManifestError> {
    let root = skill_uri(skill, prefix)?;
    let skill_file = skill.skill_file.as_str();
    let mut files: Vec<(&str, u64, &[u8; 32])> = skill
        .files
        .iter()
        .map(|file| (file.path, file.size() as u64, &file.sha256))
        .collect();
    let at = files.partition_point(|(path, _, _)| *path < skill_file);
    files.insert(
        at,
        (skill_file, skill.skill_file_size, &skill.skill_file_sha256),
    );
    if files.len() > MAX_SKILL_FILES {
        return Err(ManifestError::TooManyFiles);
    }
    let total: u64 = files.iter().map(|(_, size, _)| *size).sum();
    if total > MAX_SKILL_BYTES {
        return Err(ManifestError::TooLarge);
    }
    let frontmatter = skill.frontmatter_json();
    let out = String::with_capacity(256 + frontmatter.len() + files.len() * 128);
    let mut json = JsonWriter::new(out, Style::COMPACT);
    let mut uri = root.clone();
    uri.push('/');
    push_quoted(&mut uri, skill_file, true);
    // Writing to a String cannot fail.
    let _ = (|| -> fmt::Result {
        json.begin_object()?;
        json.key("uri")?;
        json.string(&uri)?;
        json.key("frontmatter")?;
        // The frontmatter is JSON text already (stored or derived).
        json.value(if frontmatter.is_empty() {
            "{}"
        } else {
            &frontmatter
        })?;
        json.key("resources")?;
        json.begin_array()?;
        for (path, size, sha256) in &files {
            uri.truncate(root.len() + 1);
            push_quoted(&mut uri, path, true);
            json.begin_object()?;
            json.key("uri")?;
            json.string(&uri)?;
            json.key("digest")?;
            json.display(format_args!("sha256:{}", Sha256(**sha256)))?;
            json.key("size")?;
            json.value(size)?;
            json.end()?;
        }
        json.end()?;
        json.end()
    })();
    let out = json.into_inner();
    Ok(out)
}

#[cfg(feature = "catalog")]
impl Catalog<'_> {
    /// Every listed skill's `skills/list` entry, sorted by URI as the
    /// extension's server lists them, as a compact JSON array; each skill's
    /// path is `prefix/name` (or `name`).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let list = catalog.manifest(None).unwrap();
    /// assert!(list.starts_with(r#"[{"uri":"skill://git-rebase/SKILL.md""#));
    /// ```
    pub fn manifest(&self, prefix: Option<&str>) -> Result<String, ManifestError> {
        let mut entries: Vec<(String, String)> = Vec::with_capacity(self.len());
        for skill in self.skills() {
            entries.push((skill_uri(skill, prefix)?, manifest_entry(skill, prefix)?));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut json = JsonWriter::new(String::new(), Style::COMPACT);
        let _ = json.begin_array();
        for (_, entry) in &entries {
            // Each entry is JSON text already.
            let _ = json.value(entry);
        }
        let _ = json.end();
        let out = json.into_inner();
        Ok(out)
    }
}
