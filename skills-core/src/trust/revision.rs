//! Content revisions, the bundle revision, and the bytes a publisher signs.
//!
//! One implementation, used by the compiler when it records revisions and
//! signs, and by the runtime when it re-hashes and verifies (feature
//! `revision`).
//!
//! # Content revision
//!
//! A skill's content revision is agentskills-core's `content_revision`,
//! byte for byte: the list of `[path, size, "sha256:<hex>"]` entries for
//! every file of the skill, the skill file included, sorted by path, written
//! as compact JSON with every character outside printable ASCII escaped,
//! then hashed with SHA-256 and written `sha256:<hex>`. The same skill has
//! the same revision here and in the Python SDK.
//!
//! ```
//! use skills_core::trust::revision::content_revision;
//! use skills_core::sha256::digest as sha256;
//! let skill_md = b"---\nname: sig-demo\ndescription: Demo skill for signing.\nversion: \"0.1.0\"\nmetadata:\n  owner: team-a\n---\n# Sig Demo\n\nSee references/a b.md.\n";
//! let revision = content_revision([
//!     ("references/a b.md", 4, sha256(b"ref\n")),
//!     ("SKILL.md", skill_md.len() as u64, sha256(skill_md)),
//!     (".hidden/f.txt", 1, sha256(b"x")),
//! ]);
//! assert_eq!(
//!     revision.to_string(),
//!     "sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6",
//! );
//! ```
//!
//! # Bundle revision
//!
//! The bundle revision is the SHA-256 of the bundle's header, its
//! catalog-wide texts, and each skill's name and digest: the skill's own
//! encoding with the bytes its recorded digests cover (frontmatter,
//! instructions, stored skill file, every file) replaced by those digests
//! and its signatures left out (the exact bytes: [`bundle_revision`]). It
//! covers every text and byte the catalog serves, the files through their
//! digests, so a signature over it binds all of them once a verifier has
//! hashed the bytes again; and every embedded byte is hashed once when the
//! compiler builds, for its own digest. It is specific to this crate and
//! its format version (7 since it took this form; format 5 and 6 hashed
//! each skill's whole encoding, file bytes included, so a build hashed
//! every file twice; format 4 hashed the whole bundle in one pass).
//!
//! # Signature payloads
//!
//! [`snapshot_payload`] is agentskills-core's `signature_payload`: the JSON
//! object `{"contract":"agentskills-snapshot-v1","origin":…,"revision":…,
//! "skillId":…,"version":…}`, keys sorted, compact, ASCII-escaped.
//! [`bundle_payload`] is this crate's payload for the bundle revision, in
//! the same style under its own contract, `skills-bundle-v3`, so a bundle
//! signature can never pass for a skill's. (`skills-bundle-v1` signed the
//! format-4 bundle revision, `skills-bundle-v2` the revision of formats 5
//! and 6; the contract changes with the revision's preimage, so a
//! signature over one can never pass for another.)

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::sha256::Hasher;

use crate::encoding::json::{JsonWriter, Style};
use crate::trust::digest::Sha256;
use crate::wire::bundle::{Bundle, Skill};

/// The contract tag of agentskills-core's snapshot signature payload.
///
/// ```
/// use skills_core::trust::revision::{Revision, SNAPSHOT_CONTRACT, snapshot_payload};
/// // Every snapshot payload names its contract, so a verifier can tell it apart.
/// let payload = snapshot_payload("acme", "pdf", Revision([0; 32]), None).unwrap();
/// assert!(payload.contains(SNAPSHOT_CONTRACT));
/// ```
pub const SNAPSHOT_CONTRACT: &str = "agentskills-snapshot-v1";

/// The contract tag of this crate's bundle signature payload.
///
/// ```
/// use skills_core::trust::revision::{BUNDLE_CONTRACT, Revision, bundle_payload};
/// // A bundle signature's payload names this contract, never the snapshot's.
/// let payload = bundle_payload("acme", Revision([0; 32])).unwrap();
/// assert!(payload.contains(BUNDLE_CONTRACT));
/// ```
pub const BUNDLE_CONTRACT: &str = "skills-bundle-v3";

/// The longest origin, in characters, that agentskills-core accepts.
///
/// ```
/// use skills_core::trust::revision::{MAX_ORIGIN_CHARS, check_origin};
/// // An origin is refused past the limit, as agentskills-core refuses it.
/// assert!(check_origin(&"a".repeat(MAX_ORIGIN_CHARS)).is_ok());
/// assert!(check_origin(&"a".repeat(MAX_ORIGIN_CHARS + 1)).is_err());
/// ```
pub const MAX_ORIGIN_CHARS: usize = 512;

/// A revision: a SHA-256 digest written `sha256:<64 lowercase hex digits>`.
///
/// ```
/// use skills_core::trust::revision::Revision;
/// let text = "sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6";
/// let revision: Revision = text.parse().unwrap();
/// assert_eq!(revision.to_string(), text);
/// assert!("sha256:XYZ".parse::<Revision>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Revision(pub [u8; 32]);

impl Revision {
    /// Whether this is the all-zero value a bundle holds where no revision
    /// was computed.
    ///
    /// ```
    /// assert!(skills_core::trust::revision::Revision::default().is_unset());
    /// ```
    pub fn is_unset(&self) -> bool {
        self.0 == [0; 32]
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sha256:{}", Sha256(self.0))
    }
}

impl fmt::Debug for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Revision({self})")
    }
}

impl From<[u8; 32]> for Revision {
    fn from(bytes: [u8; 32]) -> Self {
        Revision(bytes)
    }
}

/// Text that is not `sha256:` and 64 hex digits.
///
/// ```
/// let error = "abc".parse::<skills_core::trust::revision::Revision>().unwrap_err();
/// assert!(error.to_string().contains("sha256:"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseRevisionError;

impl fmt::Display for ParseRevisionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a revision is `sha256:` followed by 64 hex digits")
    }
}

impl core::error::Error for ParseRevisionError {}

impl FromStr for Revision {
    type Err = ParseRevisionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let hex = text.strip_prefix("sha256:").ok_or(ParseRevisionError)?;
        parse_hex(hex).map(Revision).ok_or(ParseRevisionError)
    }
}

/// `N` bytes from exactly `2 * N` hex digits (either case).
///
/// ```
/// assert_eq!(skills_core::trust::revision::parse_hex::<2>("0aFf"), Some([0x0a, 0xff]));
/// assert_eq!(skills_core::trust::revision::parse_hex::<2>("0aF"), None);
/// ```
pub fn parse_hex<const N: usize>(hex: &str) -> Option<[u8; N]> {
    let digits = hex.as_bytes();
    if digits.len() != 2 * N {
        return None;
    }
    let mut out = [0u8; N];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let high = char::from(pair[0]).to_digit(16)?;
        let low = char::from(pair[1]).to_digit(16)?;
        *byte = u8::try_from(high * 16 + low).ok()?;
    }
    Some(out)
}

/// A SHA-256 hasher that [`fmt::Write`] feeds.
struct HashWriter(Hasher);

impl fmt::Write for HashWriter {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.0.update(text.as_bytes());
        Ok(())
    }
}

/// The content revision of a skill from its files' paths, sizes and
/// SHA-256 digests, the skill file included, in any order.
///
/// See the [module documentation](self) for the exact preimage and an
/// example with agentskills-core's test vector.
pub fn content_revision<'p>(
    entries: impl IntoIterator<Item = (&'p str, u64, [u8; 32])>,
) -> Revision {
    let mut entries: Vec<(&'p str, u64, [u8; 32])> = entries.into_iter().collect();
    // Byte order of UTF-8 is code-point order, which is Python's `sorted`.
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut out = HashWriter(Hasher::new());
    // Writing to a hasher never fails.
    let _ = write_entries(&mut out, &entries);
    Revision(out.0.finalize())
}

fn write_entries(out: &mut HashWriter, entries: &[(&str, u64, [u8; 32])]) -> fmt::Result {
    let mut json = JsonWriter::new(out, Style::COMPACT_ASCII);
    json.begin_array()?;
    for (path, size, digest) in entries {
        json.begin_array()?;
        json.string(path)?;
        json.value(size)?;
        json.display(format_args!("sha256:{}", Sha256(*digest)))?;
        json.end()?;
    }
    json.end()
}

/// The content revision of a compiled skill from the sizes and digests its
/// bundle records: the skill file's and every file's. It equals the
/// recorded [`Skill::revision`] in a bundle the compiler wrote; to check
/// the bytes themselves, see `verify::TrustPolicy::rehash` (feature
/// `verify`).
///
/// ```
/// use skills_core::wire::bundle::{Content, File, Skill};
/// use skills_core::trust::revision::recorded_revision;
/// use skills_core::sha256::digest as sha256;
/// let skill = Skill {
///     skill_file_size: 3,
///     skill_file_sha256: sha256(b"---"),
///     files: vec![File { path: "a.md", sha256: sha256(b"a"), content: Content::Text("a") }],
///     ..Skill::default()
/// };
/// let expected = skills_core::trust::revision::content_revision([
///     ("SKILL.md", 3, sha256(b"---")),
///     ("a.md", 1, sha256(b"a")),
/// ]);
/// assert_eq!(recorded_revision(&skill), expected);
/// ```
pub fn recorded_revision(skill: &Skill<'_>) -> Revision {
    let files = skill
        .files
        .iter()
        .map(|file| (file.path, file.size() as u64, file.sha256));
    content_revision(
        core::iter::once((
            skill.skill_file.as_str(),
            skill.skill_file_size,
            skill.skill_file_sha256,
        ))
        .chain(files),
    )
}

/// The pieces whose concatenation is a compiled skill's skill file: the
/// stored exact bytes, or the opening fence line, the frontmatter, the
/// closing fence line and the body.
///
/// ```
/// use skills_core::wire::bundle::Skill;
/// use skills_core::trust::revision::skill_file_pieces;
/// let skill = Skill { frontmatter: "name: a\n", body_len: 2, instructions: "Go\n\nfiles: none\n", ..Skill::default() };
/// assert_eq!(skill_file_pieces(&skill).concat(), b"---\nname: a\n---\nGo");
/// ```
pub fn skill_file_pieces<'a>(skill: &Skill<'a>) -> [&'a [u8]; 4] {
    match skill.skill_file_bytes {
        Some(bytes) => [bytes.0, b"", b"", b""],
        None => [
            b"---\n",
            skill.frontmatter.as_bytes(),
            b"---\n",
            skill.body().as_bytes(),
        ],
    }
}

/// The size and SHA-256 of a compiled skill's skill file, from its
/// embedded bytes (see [`skill_file_pieces`]).
///
/// ```
/// use skills_core::wire::bundle::Skill;
/// use skills_core::trust::revision::skill_file_digest;
/// use skills_core::sha256::digest as sha256;
/// let skill = Skill { frontmatter: "name: a\n", ..Skill::default() };
/// assert_eq!(skill_file_digest(&skill), (16, sha256(b"---\nname: a\n---\n")));
/// ```
pub fn skill_file_digest(skill: &Skill<'_>) -> (u64, [u8; 32]) {
    let mut hasher = Hasher::new();
    let mut size = 0u64;
    for piece in skill_file_pieces(skill) {
        hasher.update(piece);
        size = size.saturating_add(piece.len() as u64);
    }
    (size, hasher.finalize())
}

/// The bundle revision: the SHA-256 of [`MAGIC`](crate::MAGIC), the format version, the
/// catalog-wide texts, and each skill's listed name and digest, with no
/// revision and no signatures.
///
/// Exactly, the hashed bytes are the six header bytes, then the encodings
/// of the prompt (an option: `0` for the prompt rendered from the skills,
/// which the compiler writes, or `1` and the text), the usage paragraph,
/// the tool description and the tool schema, the number of skills as a
/// varint, and for each skill in order its listed name (encoded) and its
/// 32-byte digest. A skill's digest is the SHA-256 of its own encoding as
/// the bundle holds it, with the bytes of its frontmatter, its
/// instructions, its stored skill file and each of its files replaced by
/// their recorded SHA-256 (32 bytes where the bytes were; the lengths stay)
/// and its signatures by an empty list
/// ([`skill_digest`](crate::wire::writer::skill_digest)). Nothing follows.
///
/// So every text and byte the catalog serves is covered: the texts
/// directly, the files through their digests, which a verifier that
/// re-hashes checks against the bytes (`verify::TrustPolicy::rehash`).
/// Each embedded byte is hashed once when the compiler builds, for its
/// file's own digest. Signing does not change the revision, and neither
/// does adding a signature later; any other change does. The layout's
/// tables and name index are not hashed: the names and the encodings
/// determine them, and a verifier of bytes
/// (`verify::TrustPolicy::verify_bytes`) accepts only the bytes the
/// compiler writes for what they hold.
///
/// ```
/// use skills_core::wire::bundle::Bundle;
/// use skills_core::trust::revision::bundle_revision;
/// let bundle = Bundle::default();
/// let revision = bundle_revision(&bundle);
/// let prompted = Bundle { prompt: Some("p"), ..Bundle::default() };
/// assert_ne!(bundle_revision(&prompted), revision);
/// let recorded = Bundle { revision: revision.0, ..Bundle::default() };
/// assert_eq!(bundle_revision(&recorded), revision);
/// ```
pub fn bundle_revision(bundle: &Bundle<'_>) -> Revision {
    Revision(crate::wire::writer::bundle_revision(bundle))
}

/// Records the bundle's revision ([`bundle_revision`]) and encodes it,
/// each skill encoded once for both.
///
/// ```
/// use skills_core::wire::bundle::Bundle;
/// use skills_core::trust::revision::{bundle_revision, encode_with_revision};
/// let mut bundle = Bundle { prompt: Some("p"), ..Bundle::default() };
/// let bytes = encode_with_revision(&mut bundle).unwrap();
/// assert_eq!(bundle.revision, bundle_revision(&bundle).0);
/// assert_eq!(bytes, bundle.encode().unwrap());
/// ```
pub fn encode_with_revision(
    bundle: &mut Bundle<'_>,
) -> Result<Vec<u8>, crate::wire::bundle::EncodeError> {
    let mut writer = crate::wire::writer::BundleWriter::new(bundle);
    for skill in &bundle.skills {
        writer.push(skill)?;
    }
    let revision = writer.revision();
    let bytes = writer.finish(revision, &bundle.signatures)?;
    bundle.revision = revision;
    Ok(bytes)
}

/// Why a signature payload could not be made.
///
/// ```
/// use skills_core::trust::revision::{snapshot_payload, PayloadError, Revision};
/// let error = snapshot_payload("", "pdf", Revision::default(), None).unwrap_err();
/// assert_eq!(error, PayloadError::InvalidOrigin);
/// assert_eq!(error.to_string(), "origin must be a nonempty, bounded stable identity");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PayloadError {
    /// The origin is empty, longer than [`MAX_ORIGIN_CHARS`] characters, or
    /// holds a control character below U+0020 (agentskills-core's rule and
    /// wording).
    InvalidOrigin,
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayloadError::InvalidOrigin => {
                f.write_str("origin must be a nonempty, bounded stable identity")
            }
        }
    }
}

impl core::error::Error for PayloadError {}

/// Checks an origin as agentskills-core does: nonempty, at most
/// [`MAX_ORIGIN_CHARS`] characters, no character below U+0020.
///
/// ```
/// use skills_core::trust::revision::check_origin;
/// assert!(check_origin("https://example.com/skills").is_ok());
/// assert!(check_origin("a\nb").is_err());
/// assert!(check_origin(&"x".repeat(513)).is_err());
/// ```
pub fn check_origin(origin: &str) -> Result<(), PayloadError> {
    let bad = origin.is_empty()
        || origin.chars().count() > MAX_ORIGIN_CHARS
        || origin.chars().any(|c| u32::from(c) < 32);
    if bad {
        Err(PayloadError::InvalidOrigin)
    } else {
        Ok(())
    }
}

/// agentskills-core's `signature_payload`: the exact bytes an Ed25519
/// publisher key signs for one skill.
///
/// ```
/// use skills_core::trust::revision::{snapshot_payload, Revision};
/// let revision: Revision = "sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6".parse().unwrap();
/// let payload = snapshot_payload("https://example.com/skills", "sig-demo", revision, Some("0.1.0")).unwrap();
/// assert_eq!(payload, concat!(
///     r#"{"contract":"agentskills-snapshot-v1","origin":"https://example.com/skills","#,
///     r#""revision":"sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6","#,
///     r#""skillId":"sig-demo","version":"0.1.0"}"#,
/// ));
/// let unversioned = snapshot_payload("orig\u{ef}n", "a", revision, None).unwrap();
/// assert!(unversioned.contains(r#""origin":"orig\u00efn""#) && unversioned.ends_with(r#""version":null}"#));
/// ```
pub fn snapshot_payload(
    origin: &str,
    skill_id: &str,
    revision: Revision,
    version: Option<&str>,
) -> Result<String, PayloadError> {
    check_origin(origin)?;
    let mut out = String::new();
    // Writing to a String never fails.
    let _ = write_snapshot_payload(&mut out, origin, skill_id, revision, version);
    Ok(out)
}

fn write_snapshot_payload(
    out: &mut String,
    origin: &str,
    skill_id: &str,
    revision: Revision,
    version: Option<&str>,
) -> fmt::Result {
    let mut json = JsonWriter::new(out, Style::COMPACT_ASCII);
    begin_payload(&mut json, SNAPSHOT_CONTRACT, origin, revision)?;
    json.key("skillId")?;
    json.string(skill_id)?;
    json.key("version")?;
    match version {
        Some(version) => json.string(version)?,
        None => json.null()?,
    }
    json.end()
}

/// The bytes a publisher key signs for a whole bundle: `{"contract":
/// "skills-bundle-v3","origin":…,"revision":…}`, in the style of
/// [`snapshot_payload`].
///
/// ```
/// use skills_core::trust::revision::{bundle_payload, Revision};
/// let payload = bundle_payload("acme", Revision([0xab; 32])).unwrap();
/// assert_eq!(payload, format!(r#"{{"contract":"skills-bundle-v3","origin":"acme","revision":"sha256:{}"}}"#, "ab".repeat(32)));
/// ```
pub fn bundle_payload(origin: &str, revision: Revision) -> Result<String, PayloadError> {
    check_origin(origin)?;
    let mut out = String::new();
    // Writing to a String never fails.
    let _ = write_bundle_payload(&mut out, origin, revision);
    Ok(out)
}

fn write_bundle_payload(out: &mut String, origin: &str, revision: Revision) -> fmt::Result {
    let mut json = JsonWriter::new(out, Style::COMPACT_ASCII);
    begin_payload(&mut json, BUNDLE_CONTRACT, origin, revision)?;
    json.end()
}

/// Opens a signature payload: its `contract`, `origin` and `revision`, the
/// keys every payload starts with (in sorted order, as `sort_keys` writes
/// them).
fn begin_payload(
    json: &mut JsonWriter<&mut String>,
    contract: &str,
    origin: &str,
    revision: Revision,
) -> fmt::Result {
    json.begin_object()?;
    json.key("contract")?;
    json.string(contract)?;
    json.key("origin")?;
    json.string(origin)?;
    json.key("revision")?;
    json.display(revision)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sha256::digest as sha256;
    use alloc::string::ToString;

    #[test]
    fn the_sdk_vector_preimage() {
        let skill_md: &[u8] = b"---\nname: sig-demo\ndescription: Demo skill for signing.\nversion: \"0.1.0\"\nmetadata:\n  owner: team-a\n---\n# Sig Demo\n\nSee references/a b.md.\n";
        assert_eq!(skill_md.len(), 138);
        assert_eq!(
            Sha256(sha256(skill_md)).to_string(),
            "4daf519dede973b6cabb7c626458ed88e05861492101de92704faa65bed8d269"
        );
        let revision = content_revision([
            ("SKILL.md", 138, sha256(skill_md)),
            (".hidden/f.txt", 1, sha256(b"x")),
            ("references/a b.md", 4, sha256(b"ref\n")),
        ]);
        assert_eq!(
            revision.to_string(),
            "sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6"
        );
    }

    #[test]
    fn origins_are_counted_in_characters() {
        assert!(check_origin(&"é".repeat(512)).is_ok());
        assert!(check_origin(&"é".repeat(513)).is_err());
        assert!(check_origin("\u{7f}").is_ok());
        assert_eq!(
            bundle_payload("\u{1}", Revision::default()),
            Err(PayloadError::InvalidOrigin)
        );
    }

    #[test]
    fn revisions_parse_either_case_and_print_lowercase() {
        let upper = "sha256:".to_string() + &"AB".repeat(32);
        let revision: Revision = upper.parse().unwrap();
        assert_eq!(revision, Revision([0xab; 32]));
        assert!("sha256:".parse::<Revision>().is_err());
        assert!(
            ("sha256:".to_string() + &"é".repeat(32))
                .parse::<Revision>()
                .is_err()
        );
    }
}
