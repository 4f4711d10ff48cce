//! The record of a served call: which skill, which file, how many bytes and
//! their digest, so a host can log exactly what the model read.

use crate::trust::digest::Sha256;

/// What a successful `skill` tool call served, for the host's records; the
/// model never sees it.
///
/// A name alone is not an identity: `location` says which skill answered
/// to it and `sha256` which bytes were served, so a replay that serves
/// other bytes under the same name is caught. `frontmatter_sha256` covers
/// the frontmatter the catalog was built from, whose `allowed-tools` a
/// host may grant on a read of the instructions.
///
/// With the `serde` feature it serializes to the Go module's JSON record:
/// `{"name":…,"location":…,"path":…,"bytes":…,"sha256":…,"frontmatter_sha256":…}`,
/// digests as hex and `path` left out for a read of the instructions.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let served = catalog.call("pdf", Some("reference.md")).unwrap();
/// let read = served.read;
/// assert_eq!((read.name, read.path, read.bytes), ("pdf", "reference.md", 14));
/// assert_eq!(read.location, "skill://pdf/SKILL.md");
/// assert_eq!(read.sha256.to_string().len(), 64);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReadRecord<'c> {
    /// The skill's listed name.
    pub name: &'c str,
    /// The skill's location, as the prompt shows it.
    pub location: &'c str,
    /// The file served, as listed; `""` for a read of the instructions,
    /// whichever way it was asked for (no path, `""`, or `SKILL.md`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_empty"))]
    pub path: &'c str,
    /// How many bytes were served: the instructions text, or the file's
    /// own bytes (an image before base64).
    pub bytes: usize,
    /// The SHA-256 of exactly those bytes.
    pub sha256: Sha256,
    /// The SHA-256 of the skill's frontmatter, the text between the fences.
    pub frontmatter_sha256: Sha256,
}

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_empty(path: &&str) -> bool {
    path.is_empty()
}
