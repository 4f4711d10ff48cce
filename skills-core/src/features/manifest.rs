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
use core::fmt;

use crate::encoding::json::{JsonWriter, Style};
#[cfg(feature = "catalog")]
use crate::serve::catalog::Catalog;
use crate::trust::digest::Sha256;
use crate::wire::bundle::{File, MAX_SKILL_BYTES, MAX_SKILL_FILES, Skill};

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

/// The frontmatter `name` of a listed name without a `qualifier:` in
/// front, and the qualifier.
fn frontmatter_name(listed: &str) -> (&str, Option<&str>) {
    match listed.rsplit_once(':') {
        Some((qualifier, name)) => (name, Some(qualifier)),
        None => (listed, None),
    }
}

/// Percent-encoding as the extension's URIs take it: see
/// [`crate::encoding::percent::push_quoted`].
pub use crate::encoding::percent::push_quoted;

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
    root_uri(skill.name, prefix)
}

/// [`skill_uri`] from the skill's listed name alone (what a server
/// resolving a URI has before it reads the skill).
///
/// ```
/// use skills_core::features::manifest::root_uri;
/// assert_eq!(root_uri("team:pdf", None).unwrap(), "skill://team/pdf");
/// assert_eq!(root_uri("a b", None).unwrap(), "skill://a%20b");
/// ```
pub fn root_uri(listed: &str, prefix: Option<&str>) -> Result<String, ManifestError> {
    let (name, qualifier) = frontmatter_name(listed);
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

/// One file of a skill as the extension lists it, the skill file among
/// them: see [`manifest_files`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManifestFile<'s> {
    /// The path inside the skill (`SKILL.md`, or `skill.md`, for the skill
    /// file).
    pub path: &'s str,
    /// The size in bytes.
    pub size: u64,
    /// The SHA-256 of the bytes.
    pub sha256: &'s [u8; 32],
    /// The file, or `None` for the skill file (whose bytes are
    /// `trust::revision::skill_file_pieces`).
    pub file: Option<&'s File<'s>>,
}

/// Every file of `skill` as the extension lists it: its files and its
/// skill file, sorted by path in byte order.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// use skills_core::features::manifest::manifest_files;
/// let paths: Vec<&str> = manifest_files(catalog.lookup("pdf").unwrap()).iter().map(|f| f.path).collect();
/// assert_eq!(paths, ["SKILL.md", "assets/form.pdf", "assets/logo.png", "reference.md"]);
/// ```
pub fn manifest_files<'s>(skill: &'s Skill<'_>) -> Vec<ManifestFile<'s>> {
    let skill_file = skill.skill_file.as_str();
    let mut files: Vec<ManifestFile<'s>> = Vec::with_capacity(skill.files.len() + 1);
    files.extend(skill.files.iter().map(|file| ManifestFile {
        path: file.path,
        size: file.size() as u64,
        sha256: &file.sha256,
        file: Some(file),
    }));
    let at = files.partition_point(|file| file.path < skill_file);
    files.insert(
        at,
        ManifestFile {
            path: skill_file,
            size: skill.skill_file_size,
            sha256: &skill.skill_file_sha256,
            file: None,
        },
    );
    files
}

/// Whether the extension's per-skill limits hold for these files: at most
/// [`MAX_SKILL_FILES`] of them, of at most [`MAX_SKILL_BYTES`] bytes in all.
fn check_limits(files: &[ManifestFile<'_>]) -> Result<(), ManifestError> {
    if files.len() > MAX_SKILL_FILES {
        return Err(ManifestError::TooManyFiles);
    }
    let total: u64 = files.iter().map(|file| file.size).sum();
    if total > MAX_SKILL_BYTES {
        return Err(ManifestError::TooLarge);
    }
    Ok(())
}

/// Whether `skill` can be listed: its URI can be made with `prefix`, and
/// the extension's per-skill limits hold ([`manifest_entry`]'s checks,
/// without writing the entry).
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// use skills_core::features::manifest::check_entry;
/// assert!(check_entry(catalog.lookup("pdf").unwrap(), None).is_ok());
/// ```
pub fn check_entry(skill: &Skill<'_>, prefix: Option<&str>) -> Result<(), ManifestError> {
    skill_uri(skill, prefix)?;
    check_limits(&manifest_files(skill))
}

/// The skill's `skills/list` entry as compact JSON:
/// `{"uri":…,"frontmatter":{…},"resources":[{"uri":…,"digest":"sha256:…","size":N},…]}`.
pub fn manifest_entry(skill: &Skill<'_>, prefix: Option<&str>) -> Result<String, ManifestError> {
    let root = skill_uri(skill, prefix)?;
    let skill_file = skill.skill_file.as_str();
    let files = manifest_files(skill);
    check_limits(&files)?;
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
        for file in &files {
            uri.truncate(root.len() + 1);
            push_quoted(&mut uri, file.path, true);
            json.begin_object()?;
            json.key("uri")?;
            json.string(&uri)?;
            json.key("digest")?;
            json.display(format_args!("sha256:{}", Sha256(*file.sha256)))?;
            json.key("size")?;
            json.value(file.size)?;
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
    /// extension's server lists them (the byte order of the `SKILL.md`
    /// URIs), as a compact JSON array; each skill's path is `prefix/name`
    /// (or `name`).
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
            // Sorted as the `SKILL.md` URIs are: by the root and a slash
            // (`pdf-forms/` before `pdf/`), the listing order.
            let mut root = skill_uri(skill, prefix)?;
            root.push('/');
            entries.push((root, manifest_entry(skill, prefix)?));
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
