//! Who published the embedded skills, and are they the bytes that were
//! signed (feature `verify`).
//!
//! A [`TrustPolicy`] is agentskills-core's `TrustPolicy` for a whole
//! bundle: the origin the host trusts, publisher keys by id, whether a
//! signature is required, and optional revision and version pins per
//! skill. It checks each skill in the order agentskills-core does
//! (content revision, revision pin, version pin, presence of a signature,
//! trusted key, Ed25519 signature with `verify_strict`), then the bundle
//! revision and its signature.
//!
//! With [`rehash`](TrustPolicy::rehash) (the default), it first hashes the
//! embedded bytes again (every file, the frontmatter, the skill file, the
//! instructions) and recomputes each content revision and the bundle
//! revision, so a binary whose skill bytes were changed after the build is
//! refused, whichever byte changed. Without it, only the recorded
//! revisions are checked against the signatures: cheaper, and enough when
//! the binary itself is trusted.
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.bin")).to_vec();
//! # let public_key: [u8; 32] = *include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.pub"));
//! use skills_core::trust::verify::{Status, TrustPolicy};
//! use skills_core::Catalog;
//!
//! let catalog = Catalog::from_bytes(&bytes)?;
//! let policy = TrustPolicy::new("https://example.com/skills")?
//!     .trust("release-2026", public_key)?;
//! let verified = policy.verify(catalog.bundle())?;
//! assert_eq!(verified.skills[0].status, Status::Verified);
//! assert_eq!(verified.skills[0].publisher, Some("release-2026"));
//!
//! // Another origin, or a key the host does not trust, is refused.
//! let other = TrustPolicy::new("https://elsewhere.example")?.trust("release-2026", public_key)?;
//! let error = other.verify(catalog.bundle()).unwrap_err();
//! assert_eq!(error.to_string(), r#"skill "pdf": Publisher signature verification failed"#);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use ed25519_dalek::{Signature as Ed25519Signature, VerifyingKey};

use crate::sha256::digest as sha256;
use crate::trust::revision::{
    PayloadError, Revision, bundle_payload, bundle_revision, check_origin, recorded_revision,
    skill_file_digest, snapshot_payload,
};
use crate::wire::bundle::{Bundle, Signature, Skill};
use crate::wire::instructions;

/// Whether a verified skill or bundle carried a trusted signature.
///
/// ```
/// use skills_core::trust::verify::{Status, TrustPolicy};
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// // A policy that allows unsigned content says so of each skill.
/// # // The example bundle's file digests are placeholders: no re-hashing.
/// let policy = TrustPolicy::new("acme").unwrap().require_signature(false);
/// # let policy = policy.rehash(false);
/// let verified = policy.verify(catalog.bundle()).unwrap();
/// assert!(verified.skills.iter().all(|skill| skill.status == Status::Unsigned));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// No signature, and the policy allows that.
    Unsigned,
    /// Signed by a trusted key, and the signature holds.
    Verified,
}

/// What verification established about one skill: agentskills-core's
/// `ContentIdentity`.
///
/// ```
/// use skills_core::trust::verify::TrustPolicy;
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// // What a host logs of each skill it serves: name, revision, publisher.
/// # // The example bundle's file digests are placeholders: no re-hashing.
/// let policy = TrustPolicy::new("acme").unwrap().require_signature(false);
/// # let policy = policy.rehash(false);
/// for identity in policy.verify(catalog.bundle()).unwrap().skills {
///     assert!(identity.publisher.is_none());
///     let _line = format!("{} {}", identity.skill, identity.revision);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity<'a> {
    /// The skill's listed name (the signed `skillId`).
    pub skill: &'a str,
    /// The content revision (recomputed from the bytes when re-hashing).
    pub revision: Revision,
    /// Signed or not.
    pub status: Status,
    /// The id of the trusted key that signed, when verified.
    pub publisher: Option<&'a str>,
}

/// What verification established about a bundle.
///
/// ```
/// use skills_core::trust::verify::TrustPolicy;
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// # // The example bundle's file digests are placeholders: no re-hashing.
/// let policy = TrustPolicy::new("acme").unwrap().require_signature(false);
/// # let policy = policy.rehash(false);
/// let verified = policy.verify(catalog.bundle()).unwrap();
/// assert_eq!(verified.skills.len(), catalog.len());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified<'a> {
    /// Each skill, in catalog order.
    pub skills: Vec<Identity<'a>>,
    /// The bundle as a whole.
    pub bundle: BundleIdentity<'a>,
}

/// What verification established about the bundle revision.
///
/// ```
/// use skills_core::trust::verify::{Status, TrustPolicy};
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// # // The example bundle's file digests are placeholders: no re-hashing.
/// let policy = TrustPolicy::new("acme").unwrap().require_signature(false);
/// # let policy = policy.rehash(false);
/// let bundle = policy.verify(catalog.bundle()).unwrap().bundle;
/// assert_eq!((bundle.status, bundle.publisher), (Status::Unsigned, None));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BundleIdentity<'a> {
    /// The bundle revision (recomputed when re-hashing).
    pub revision: Revision,
    /// Signed or not.
    pub status: Status,
    /// The id of the trusted key that signed, when verified.
    pub publisher: Option<&'a str>,
}

/// What a failed check was about.
///
/// ```
/// use skills_core::trust::verify::Subject;
/// assert_eq!(Subject::Skill("pdf".into()).to_string(), r#"skill "pdf""#);
/// assert_eq!(Subject::Bundle.to_string(), "the bundle");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    /// The skill listed under this name.
    Skill(String),
    /// The bundle as a whole.
    Bundle,
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Skill(name) => write!(f, "skill {name:?}"),
            Subject::Bundle => f.write_str("the bundle"),
        }
    }
}

/// Which check failed. The checks that agentskills-core also makes carry
/// its wording.
///
/// ```
/// use skills_core::trust::verify::Check;
/// assert_eq!(Check::RevisionPin.to_string(), "Content revision does not match the configured pin");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Check {
    /// Re-hashing: a file's bytes do not match its recorded SHA-256.
    FileDigest {
        /// The file's path in the skill.
        path: String,
    },
    /// Re-hashing: the instructions do not match their recorded SHA-256.
    InstructionsDigest,
    /// Re-hashing: the instructions are not the body followed by the list
    /// of the embedded files with their sizes.
    InstructionsText,
    /// Re-hashing: the frontmatter text does not match its recorded SHA-256.
    FrontmatterDigest,
    /// Re-hashing: the skill file (frontmatter and body) does not match its
    /// recorded size and SHA-256.
    SkillFileDigest,
    /// Re-hashing: the recorded content revision (or bundle revision) is
    /// not the one the embedded bytes give.
    Revision {
        /// The revision the bundle records.
        recorded: Revision,
        /// The revision of the embedded bytes.
        computed: Revision,
    },
    /// A revision pin names another revision.
    RevisionPin,
    /// A version pin names another version.
    VersionPin,
    /// There is no signature and the policy requires one.
    SignatureRequired,
    /// No signature is by a key the policy trusts.
    UntrustedKey {
        /// The key id of the first signature.
        key_id: String,
    },
    /// A signature record by a trusted key does not hold: its origin is not
    /// the policy's, its bytes do not verify for the policy's origin, or it
    /// is not 64 bytes.
    BadSignature {
        /// The key id.
        key_id: String,
    },
    /// A pin names a skill the bundle does not list.
    PinnedSkillMissing,
    /// The bytes are not the ones the compiler writes for what they hold
    /// (a text written inline where the compiler refers to the
    /// frontmatter, another name index, ...): a signature binds the exact
    /// bytes the compiler wrote, so no other byte string passes.
    NotCompilerEncoding,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::FileDigest { path } => write!(
                f,
                "the bytes of file {path:?} do not match its recorded SHA-256; the embedded skill was changed after it was built"
            ),
            Check::InstructionsDigest => f.write_str(
                "the instructions text does not match its recorded SHA-256; the embedded skill was changed after it was built",
            ),
            Check::InstructionsText => f.write_str(
                "the instructions text is not the body followed by the embedded files; the embedded skill was changed after it was built",
            ),
            Check::FrontmatterDigest => f.write_str(
                "the frontmatter does not match its recorded SHA-256; the embedded skill was changed after it was built",
            ),
            Check::SkillFileDigest => f.write_str(
                "the skill file does not match its recorded size and SHA-256; the embedded skill was changed after it was built",
            ),
            Check::Revision { recorded, computed } => write!(
                f,
                "the recorded revision {recorded} is not the revision of the embedded bytes, {computed}; the bundle was changed after it was built"
            ),
            Check::RevisionPin => f.write_str("Content revision does not match the configured pin"),
            Check::VersionPin => f.write_str("Content version does not match the configured pin"),
            Check::SignatureRequired => f.write_str("A trusted publisher signature is required"),
            Check::UntrustedKey { .. } => f.write_str("Publisher key is not trusted"),
            Check::BadSignature { .. } => f.write_str("Publisher signature verification failed"),
            Check::PinnedSkillMissing => {
                f.write_str("a pin names this skill, but the bundle does not list it")
            }
            Check::NotCompilerEncoding => f.write_str(
                "its bytes are not the ones the compiler writes for what they hold (a text or a table written another way), so no signature covers them; rebuild the bundle",
            ),
        }
    }
}

/// Why verification refused a bundle, a skill, or the policy itself.
///
/// ```
/// use skills_core::trust::verify::{Check, Subject, VerifyError};
/// let error = VerifyError::Failed { subject: Subject::Skill("pdf".into()), check: Check::SignatureRequired };
/// assert_eq!(error.to_string(), r#"skill "pdf": A trusted publisher signature is required"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The policy's origin is not one agentskills-core accepts.
    InvalidOrigin(PayloadError),
    /// A trusted key is not a valid Ed25519 public key.
    InvalidPublicKey {
        /// The key's id.
        key_id: String,
    },
    /// The bytes given to [`TrustPolicy::verify_bytes`] are not a bundle
    /// this crate reads.
    Decode(crate::DecodeError),
    /// A check failed.
    Failed {
        /// The skill, or the bundle.
        subject: Subject,
        /// The check.
        check: Check,
    },
}

impl VerifyError {
    /// The failed check, if this is a failed check.
    ///
    /// ```
    /// use skills_core::trust::verify::{Check, Subject, VerifyError};
    /// let error = VerifyError::Failed { subject: Subject::Bundle, check: Check::RevisionPin };
    /// assert_eq!(error.check(), Some(&Check::RevisionPin));
    /// ```
    pub fn check(&self) -> Option<&Check> {
        match self {
            VerifyError::Failed { check, .. } => Some(check),
            _ => None,
        }
    }

    /// What the failed check was about, if this is a failed check.
    ///
    /// ```
    /// use skills_core::trust::verify::{Check, Subject, VerifyError};
    /// let error = VerifyError::Failed { subject: Subject::Bundle, check: Check::RevisionPin };
    /// assert_eq!(error.subject(), Some(&Subject::Bundle));
    /// ```
    pub fn subject(&self) -> Option<&Subject> {
        match self {
            VerifyError::Failed { subject, .. } => Some(subject),
            _ => None,
        }
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::InvalidOrigin(error) => error.fmt(f),
            VerifyError::InvalidPublicKey { key_id } => {
                write!(
                    f,
                    "trusted key {key_id:?} is not a valid Ed25519 public key"
                )
            }
            VerifyError::Decode(error) => error.fmt(f),
            VerifyError::Failed { subject, check } => write!(f, "{subject}: {check}"),
        }
    }
}

impl core::error::Error for VerifyError {}

impl From<PayloadError> for VerifyError {
    fn from(error: PayloadError) -> Self {
        VerifyError::InvalidOrigin(error)
    }
}

/// The trust a host places in a bundle: see the [module documentation](self).
///
/// ```
/// use skills_core::trust::verify::TrustPolicy;
/// let policy = TrustPolicy::new("https://example.com/skills").unwrap()
///     .require_signature(false)
///     .pin_version("pdf", "1.2.0")
///     .rehash(false);
/// assert_eq!(policy.origin(), "https://example.com/skills");
/// assert!(TrustPolicy::new("").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct TrustPolicy {
    origin: String,
    keys: Vec<(String, VerifyingKey)>,
    require_signature: bool,
    revision_pins: Vec<(String, Revision)>,
    version_pins: Vec<(String, String)>,
    rehash: bool,
}

fn failed(subject: &Subject, check: Check) -> VerifyError {
    VerifyError::Failed {
        subject: subject.clone(),
        check,
    }
}

impl TrustPolicy {
    /// A policy for skills from `origin` (the stable identity the
    /// publisher signed for), with no trusted keys, signatures required,
    /// no pins, and re-hashing on. The origin must be nonempty, at most
    /// 512 characters, without control characters.
    ///
    /// ```
    /// let policy = skills_core::trust::verify::TrustPolicy::new("acme").unwrap();
    /// assert!(policy.requires_signature());
    /// ```
    pub fn new(origin: &str) -> Result<Self, VerifyError> {
        check_origin(origin)?;
        Ok(TrustPolicy {
            origin: origin.to_string(),
            keys: Vec::new(),
            require_signature: true,
            revision_pins: Vec::new(),
            version_pins: Vec::new(),
            rehash: true,
        })
    }

    /// The origin.
    ///
    /// ```
    /// assert_eq!(skills_core::trust::verify::TrustPolicy::new("acme").unwrap().origin(), "acme");
    /// ```
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Whether a signature is required.
    ///
    /// ```
    /// let policy = skills_core::trust::verify::TrustPolicy::new("acme").unwrap().require_signature(false);
    /// assert!(!policy.requires_signature());
    /// ```
    pub fn requires_signature(&self) -> bool {
        self.require_signature
    }

    /// Trusts the raw 32-byte Ed25519 public key `public_key` under
    /// `key_id`, replacing a key of the same id. Fails for bytes that are
    /// not a point on the curve.
    ///
    /// ```
    /// use skills_core::trust::verify::TrustPolicy;
    /// let public_key = [0x03, 0xa1, 0x07, 0xbf, 0xf3, 0xce, 0x10, 0xbe, 0x1d, 0x70, 0xdd, 0x18, 0xe7, 0x4b, 0xc0, 0x99,
    ///     0x67, 0xe4, 0xd6, 0x30, 0x9b, 0xa5, 0x0d, 0x5f, 0x1d, 0xdc, 0x86, 0x64, 0x12, 0x55, 0x31, 0xb8];
    /// let policy = TrustPolicy::new("acme")?.trust("k1", public_key)?;
    /// assert_eq!(policy.trusted_key_ids().collect::<Vec<_>>(), ["k1"]);
    /// # Ok::<(), skills_core::trust::verify::VerifyError>(())
    /// ```
    pub fn trust(mut self, key_id: &str, public_key: [u8; 32]) -> Result<Self, VerifyError> {
        let key =
            VerifyingKey::from_bytes(&public_key).map_err(|_| VerifyError::InvalidPublicKey {
                key_id: key_id.to_string(),
            })?;
        self.keys.retain(|(id, _)| id != key_id);
        self.keys.push((key_id.to_string(), key));
        Ok(self)
    }

    /// The ids of the trusted keys, in the order they were added.
    ///
    /// ```
    /// assert_eq!(skills_core::trust::verify::TrustPolicy::new("acme").unwrap().trusted_key_ids().count(), 0);
    /// ```
    pub fn trusted_key_ids(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|(id, _)| id.as_str())
    }

    /// Whether unsigned content is refused (default `true`). A signature
    /// that is present is checked either way, as agentskills-core does.
    ///
    /// ```
    /// let policy = skills_core::trust::verify::TrustPolicy::new("acme").unwrap().require_signature(false);
    /// # let _ = policy;
    /// ```
    pub fn require_signature(mut self, required: bool) -> Self {
        self.require_signature = required;
        self
    }

    /// Accepts the skill listed as `skill` only at exactly `revision`.
    ///
    /// ```
    /// use skills_core::trust::revision::Revision;
    /// let pin: Revision = "sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6".parse().unwrap();
    /// let policy = skills_core::trust::verify::TrustPolicy::new("acme").unwrap().pin_revision("sig-demo", pin);
    /// # let _ = policy;
    /// ```
    pub fn pin_revision(mut self, skill: &str, revision: Revision) -> Self {
        self.revision_pins.retain(|(name, _)| name != skill);
        self.revision_pins.push((skill.to_string(), revision));
        self
    }

    /// Accepts the skill listed as `skill` only with exactly this
    /// frontmatter `version` (a skill without one does not match).
    ///
    /// ```
    /// let policy = skills_core::trust::verify::TrustPolicy::new("acme").unwrap().pin_version("pdf", "1.2.0");
    /// # let _ = policy;
    /// ```
    pub fn pin_version(mut self, skill: &str, version: &str) -> Self {
        self.version_pins.retain(|(name, _)| name != skill);
        self.version_pins
            .push((skill.to_string(), version.to_string()));
        self
    }

    /// Whether to hash the embedded bytes again and recompute the
    /// revisions (default `true`), which detects bytes changed after the
    /// build; without it, the recorded revisions are trusted as they are.
    ///
    /// ```
    /// let fast = skills_core::trust::verify::TrustPolicy::new("acme").unwrap().rehash(false);
    /// # let _ = fast;
    /// ```
    pub fn rehash(mut self, rehash: bool) -> Self {
        self.rehash = rehash;
        self
    }

    /// Verifies the bundle whose exact bytes are `bytes`: decodes it (every
    /// skill, and the name index), checks that the bytes are the ones the
    /// compiler writes for what they hold, then [`verify`](Self::verify).
    /// So a signature binds the exact bytes served, not only what they
    /// decode to: a text written inline where the compiler refers to the
    /// frontmatter, or another name index, fails with
    /// [`Check::NotCompilerEncoding`].
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.bin")).to_vec();
    /// # let public_key: [u8; 32] = *include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.pub"));
    /// use skills_core::trust::verify::{Check, TrustPolicy};
    /// let policy = TrustPolicy::new("https://example.com/skills")?.trust("release-2026", public_key)?;
    /// assert!(policy.verify_bytes(&bytes).is_ok());
    /// let mut longer = bytes.clone();
    /// longer.push(0);
    /// assert!(policy.verify_bytes(&longer).is_err());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn verify_bytes<'a>(&self, bytes: &'a [u8]) -> Result<Verified<'a>, VerifyError> {
        let bundle = Bundle::decode(bytes).map_err(VerifyError::Decode)?;
        if !crate::wire::writer::is_encoding_of(&bundle, bytes) {
            return Err(failed(&Subject::Bundle, Check::NotCompilerEncoding));
        }
        self.verify(&bundle)
    }

    /// Verifies every skill of `bundle`, in catalog order, then the bundle
    /// revision and its signature; the first failure is returned. A pin
    /// for a skill the bundle does not list is a failure too.
    ///
    /// This binds what the bundle holds (every text and byte it serves);
    /// to bind the exact bytes it was decoded from as well, verify those
    /// with [`verify_bytes`](Self::verify_bytes).
    ///
    /// See the [module documentation](self) for an example.
    pub fn verify<'a>(&self, bundle: &Bundle<'a>) -> Result<Verified<'a>, VerifyError> {
        let mut skills = Vec::with_capacity(bundle.skills.len());
        for skill in &bundle.skills {
            skills.push(self.verify_skill(skill)?);
        }
        let pinned = self
            .revision_pins
            .iter()
            .map(|(name, _)| name)
            .chain(self.version_pins.iter().map(|(name, _)| name));
        for name in pinned {
            if !bundle.skills.iter().any(|skill| skill.name == name) {
                return Err(failed(
                    &Subject::Skill(name.clone()),
                    Check::PinnedSkillMissing,
                ));
            }
        }
        let subject = Subject::Bundle;
        let recorded = Revision(bundle.revision);
        let revision = if self.rehash {
            let computed = bundle_revision(bundle);
            if computed != recorded {
                return Err(failed(&subject, Check::Revision { recorded, computed }));
            }
            computed
        } else {
            recorded
        };
        let (status, publisher) = self.check_signatures(&subject, &bundle.signatures, || {
            bundle_payload(&self.origin, revision)
        })?;
        Ok(Verified {
            skills,
            bundle: BundleIdentity {
                revision,
                status,
                publisher,
            },
        })
    }

    /// Verifies one skill, in agentskills-core's order: its content
    /// revision (re-hashing the bytes, if on), the revision pin, the
    /// version pin, then its signature.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.bin")).to_vec();
    /// # let public_key: [u8; 32] = *include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.pub"));
    /// use skills_core::trust::verify::{Check, TrustPolicy};
    /// let catalog = skills_core::Catalog::from_bytes(&bytes)?;
    /// let skill = catalog.lookup("pdf").unwrap();
    /// let policy = TrustPolicy::new("https://example.com/skills")?;
    /// // No trusted key at all: the signature is not by a trusted publisher.
    /// let error = policy.verify_skill(skill).unwrap_err();
    /// assert!(matches!(error.check(), Some(Check::UntrustedKey { key_id }) if key_id == "release-2026"));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn verify_skill<'a>(&self, skill: &Skill<'a>) -> Result<Identity<'a>, VerifyError> {
        let subject = Subject::Skill(skill.name.to_string());
        let revision = if self.rehash {
            rehash_skill(skill).map_err(|check| failed(&subject, check))?
        } else {
            Revision(skill.revision)
        };
        if let Some((_, pin)) = self.revision_pins.iter().find(|(n, _)| n == skill.name)
            && *pin != revision
        {
            return Err(failed(&subject, Check::RevisionPin));
        }
        if let Some((_, pin)) = self.version_pins.iter().find(|(n, _)| n == skill.name)
            && skill.version != Some(pin.as_str())
        {
            return Err(failed(&subject, Check::VersionPin));
        }
        let (status, publisher) = self.check_signatures(&subject, &skill.signatures, || {
            snapshot_payload(&self.origin, skill.name, revision, skill.version)
        })?;
        Ok(Identity {
            skill: skill.name,
            revision,
            status,
            publisher,
        })
    }

    /// Steps 3 to 6 of agentskills-core's check: presence, trusted key,
    /// signature, for every record by a key the policy trusts.
    ///
    /// A record is accepted only for the policy's origin, and its signature
    /// is checked over the payload for that origin, so whatever a verified
    /// record says (its key id names the trusted key it verified under, its
    /// origin is the one signed) was signed. Every record by a trusted key
    /// must hold: a second trusted record cannot carry an altered origin
    /// past a verifier that checked only the first. A record by a key the
    /// policy does not trust cannot be checked and is left out (it names no
    /// publisher); at least one record must be by a trusted key.
    fn check_signatures<'a>(
        &self,
        subject: &Subject,
        signatures: &[Signature<'a>],
        payload: impl FnOnce() -> Result<String, PayloadError>,
    ) -> Result<(Status, Option<&'a str>), VerifyError> {
        let Some(first) = signatures.first() else {
            if self.require_signature {
                return Err(failed(subject, Check::SignatureRequired));
            }
            return Ok((Status::Unsigned, None));
        };
        let mut trusted = signatures.iter().filter_map(|signature| {
            self.keys
                .iter()
                .find(|(id, _)| id == signature.key_id)
                .map(|(_, key)| (signature, key))
        });
        let Some(publisher) = trusted.next() else {
            return Err(failed(
                subject,
                Check::UntrustedKey {
                    key_id: first.key_id.to_string(),
                },
            ));
        };
        let payload = payload()?;
        for (signature, key) in core::iter::once(publisher).chain(trusted) {
            let bad = || {
                failed(
                    subject,
                    Check::BadSignature {
                        key_id: signature.key_id.to_string(),
                    },
                )
            };
            // A record for another origin is no signature for this one,
            // whatever its bytes (agentskills-core fails a signature made
            // for another origin at this step too).
            if signature.origin != self.origin {
                return Err(bad());
            }
            let bytes: [u8; 64] = signature.signature.0.try_into().map_err(|_| bad())?;
            key.verify_strict(payload.as_bytes(), &Ed25519Signature::from_bytes(&bytes))
                .map_err(|_| bad())?;
        }
        Ok((Status::Verified, Some(publisher.0.key_id)))
    }
}

/// Hashes a skill's embedded bytes again and returns its content revision,
/// or the first check that fails: each file's digest, the instructions'
/// digest and text, the frontmatter's digest, the skill file's size and
/// digest, and last the recorded revision.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.bin")).to_vec();
/// let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let skill = catalog.lookup("pdf").unwrap();
/// assert_eq!(skills_core::trust::verify::rehash_skill(skill).unwrap().0, skill.revision);
/// ```
pub fn rehash_skill(skill: &Skill<'_>) -> Result<Revision, Check> {
    for file in &skill.files {
        if sha256(file.bytes()) != file.sha256 {
            return Err(Check::FileDigest {
                path: file.path.to_string(),
            });
        }
    }
    if sha256(skill.instructions.as_bytes()) != skill.instructions_sha256 {
        return Err(Check::InstructionsDigest);
    }
    let rendered = instructions::render(
        skill.body(),
        skill
            .files
            .iter()
            .map(|file| (file.path, file.size() as u64)),
    );
    if rendered != skill.instructions {
        return Err(Check::InstructionsText);
    }
    if sha256(skill.frontmatter.as_bytes()) != skill.frontmatter_sha256 {
        return Err(Check::FrontmatterDigest);
    }
    if skill_file_digest(skill) != (skill.skill_file_size, skill.skill_file_sha256) {
        return Err(Check::SkillFileDigest);
    }
    let computed = recorded_revision(skill);
    let recorded = Revision(skill.revision);
    if computed != recorded {
        return Err(Check::Revision { recorded, computed });
    }
    Ok(computed)
}
