//! Signing a compiled bundle with an Ed25519 publisher key (the `sign`
//! feature). The content revisions signatures are made over are recorded by
//! [`skill_revision`](crate::skill_revision); a directory captured as the
//! SDK captures it is [`snapshot`](crate::snapshot).
//!
//! Each skill is signed over agentskills-core's `agentskills-snapshot-v1`
//! payload (its origin, content revision, listed name as `skillId`, and
//! frontmatter `version`), so the Python SDK's `TrustPolicy.verify` accepts
//! the signature for the same skill directory; the bundle is signed over
//! its bundle revision (`skills-bundle-v2`). The signatures are added to
//! the bundle; the secret key never is.
//!
//! ```
//! use skills_build::unstable::keys::SecretKey;
//! use skills_build::unstable::signing::{Signer, sign_bundle};
//! use skills_build::source::MemorySource;
//! use skills_core::trust::verify::TrustPolicy;
//!
//! let source = MemorySource::new("skills")
//!     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Fill PDF forms.\n---\nGo.\n");
//! let compiled = skills_build::compile_sources(&[&source])?;
//!
//! let key = SecretKey::from_seed([7; 32]);
//! let public = key.public_key();
//! let signer = Signer::new(key, "https://example.com/skills")?.key_id("release");
//! let signed = sign_bundle(&compiled.bytes, &signer)?;
//!
//! let catalog = skills_core::Catalog::from_bytes(&signed)?;
//! let policy = TrustPolicy::new("https://example.com/skills")?.trust("release", public.0)?;
//! assert!(policy.verify(catalog.bundle()).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use skills_core::trust::revision::{
    PayloadError, Revision, bundle_payload, bundle_revision, check_origin, snapshot_payload,
};
use skills_core::trust::verify::{Check, rehash_skill};
use skills_core::wire::bundle::{Bundle, Bytes, Signature};

use crate::keys::{KeyError, KeySource, SecretKey};

/// A secret key with the origin and key id its signatures carry. `Debug`
/// shows the public key only.
///
/// ```
/// use skills_build::unstable::keys::SecretKey;
/// let signer = skills_build::unstable::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
/// assert!(signer.id().starts_with("ed25519-"));
/// assert!(skills_build::unstable::signing::Signer::new(SecretKey::from_seed([1; 32]), "").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    key: SecretKey,
    key_id: String,
    origin: String,
}

impl Signer {
    /// A signer for `origin` (nonempty, at most 512 characters, no control
    /// characters), with the key id defaulting to the public key's
    /// [fingerprint](crate::keys::PublicKey::fingerprint).
    ///
    /// ```
    /// use skills_build::unstable::keys::SecretKey;
    /// let signer = skills_build::unstable::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
    /// assert_eq!(signer.origin(), "acme");
    /// ```
    pub fn new(key: SecretKey, origin: impl Into<String>) -> Result<Self, SigningError> {
        let origin = origin.into();
        check_origin(&origin)?;
        let key_id = key.public_key().fingerprint();
        Ok(Signer {
            key,
            key_id,
            origin,
        })
    }

    /// A signer whose key is read from `source` (a file, or an
    /// environment variable by name).
    ///
    /// ```
    /// use skills_build::KeySource;
    /// use skills_build::unstable::signing::Signer;
    /// let error = Signer::load(&KeySource::Env("SKILLS_NO_SUCH_KEY_1".into()), "acme").unwrap_err();
    /// assert!(error.to_string().contains("SKILLS_NO_SUCH_KEY_1"));
    /// ```
    pub fn load(source: &KeySource, origin: impl Into<String>) -> Result<Self, SigningError> {
        Signer::new(source.load()?, origin)
    }

    /// Uses `key_id` as the key id (what the verifier's trusted keys are
    /// looked up by).
    ///
    /// ```
    /// use skills_build::unstable::keys::SecretKey;
    /// let signer = skills_build::unstable::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap().key_id("k1");
    /// assert_eq!(signer.id(), "k1");
    /// ```
    pub fn key_id(mut self, key_id: impl Into<String>) -> Self {
        self.key_id = key_id.into();
        self
    }

    /// The key id.
    ///
    /// ```
    /// use skills_build::unstable::keys::SecretKey;
    /// let signer = skills_build::unstable::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
    /// assert_eq!(signer.id(), SecretKey::from_seed([1; 32]).public_key().fingerprint());
    /// ```
    pub fn id(&self) -> &str {
        &self.key_id
    }

    /// The origin.
    ///
    /// ```
    /// use skills_build::unstable::keys::SecretKey;
    /// let signer = skills_build::unstable::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
    /// assert_eq!(signer.origin(), "acme");
    /// ```
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// agentskills-core's detached signature for one skill: the Ed25519
    /// signature of its `agentskills-snapshot-v1` payload.
    ///
    /// ```
    /// use skills_build::unstable::keys::SecretKey;
    /// use skills_build::unstable::signing::Signer;
    /// let seed: [u8; 32] = std::array::from_fn(|at| at as u8);
    /// let signer = Signer::new(SecretKey::from_seed(seed), "https://example.com/skills").unwrap();
    /// let revision = "sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6".parse().unwrap();
    /// let signature = signer.sign_skill("sig-demo", revision, Some("0.1.0")).unwrap();
    /// assert_eq!(skills_core::Sha256(signature[..32].try_into().unwrap()).to_string(),
    ///     "59aa1b71202d6e88edd064b97014f1e7ac4bf6c4c727fa21a7b3d06ae83a0d8c");
    /// ```
    pub fn sign_skill(
        &self,
        skill_id: &str,
        revision: Revision,
        version: Option<&str>,
    ) -> Result<[u8; 64], SigningError> {
        let payload = snapshot_payload(&self.origin, skill_id, revision, version)?;
        Ok(self.key.sign(payload.as_bytes()))
    }

    /// The signature of a bundle revision (`skills-bundle-v2` payload).
    ///
    /// ```
    /// use skills_build::unstable::keys::SecretKey;
    /// let signer = skills_build::unstable::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
    /// assert_eq!(signer.sign_bundle_revision(Default::default()).unwrap().len(), 64);
    /// ```
    pub fn sign_bundle_revision(&self, revision: Revision) -> Result<[u8; 64], SigningError> {
        let payload = bundle_payload(&self.origin, revision)?;
        Ok(self.key.sign(payload.as_bytes()))
    }
}

/// Why a bundle could not be signed.
///
/// ```
/// use skills_build::{KeySource, Signing};
/// let dir = std::env::temp_dir().join(format!("signing-error-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("key.hex"), "01".repeat(32)).unwrap();
/// let signing = Signing::new(KeySource::File(dir.join("key.hex")), "acme");
/// let error = signing.sign(b"not a bundle").unwrap_err();
/// assert!(error.to_string().contains("not a skills bundle"));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum SigningError {
    /// The key could not be read.
    Key(KeyError),
    /// The origin is not one agentskills-core accepts.
    Origin(PayloadError),
    /// The bytes are not a bundle this crate reads.
    Decode(skills_core::DecodeError),
    /// A skill's embedded bytes do not match its recorded digests or
    /// revision, so its revision cannot be signed.
    Inconsistent {
        /// The skill.
        skill: String,
        /// The failed check.
        check: Check,
    },
    /// The signed bundle could not be encoded.
    Encode(skills_core::wire::bundle::EncodeError),
}

impl fmt::Display for SigningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SigningError::Key(error) => write!(f, "cannot read the signing key: {error}"),
            SigningError::Origin(error) => write!(f, "cannot sign: {error}"),
            SigningError::Decode(error) => write!(f, "cannot sign: {error}"),
            SigningError::Inconsistent { skill, check } => {
                write!(f, "cannot sign skill {skill:?}: {check}")
            }
            SigningError::Encode(error) => write!(f, "cannot sign: {error}"),
        }
    }
}

impl std::error::Error for SigningError {}

impl From<KeyError> for SigningError {
    fn from(error: KeyError) -> Self {
        SigningError::Key(error)
    }
}

impl From<PayloadError> for SigningError {
    fn from(error: PayloadError) -> Self {
        SigningError::Origin(error)
    }
}

/// Signs every skill of a bundle and the bundle itself, and returns the
/// new bundle bytes. Each skill's embedded bytes are hashed again first, so
/// only a revision that matches them is signed. A signature already there
/// under the same key id is replaced; others are kept.
///
/// The `signing` module's documentation has an example.
pub fn sign_bundle(bytes: &[u8], signer: &Signer) -> Result<Vec<u8>, SigningError> {
    let mut bundle = Bundle::decode(bytes).map_err(SigningError::Decode)?;
    let mut skill_signatures = Vec::with_capacity(bundle.skills.len());
    for skill in &bundle.skills {
        let revision = rehash_skill(skill).map_err(|check| SigningError::Inconsistent {
            skill: skill.name.to_string(),
            check,
        })?;
        skill_signatures.push(signer.sign_skill(skill.name, revision, skill.version)?);
    }
    let revision = bundle_revision(&bundle);
    bundle.revision = revision.0;
    let bundle_signature = signer.sign_bundle_revision(revision)?;
    let mut signed: Bundle<'_> = bundle.clone();
    for (skill, bytes) in signed.skills.iter_mut().zip(&skill_signatures) {
        skill.signatures.retain(|s| s.key_id != signer.key_id);
        skill.signatures.push(signature_of(signer, bytes));
    }
    signed.signatures.retain(|s| s.key_id != signer.key_id);
    signed
        .signatures
        .push(signature_of(signer, &bundle_signature));
    signed.encode().map_err(SigningError::Encode)
}

fn signature_of<'a>(signer: &'a Signer, bytes: &'a [u8; 64]) -> Signature<'a> {
    signer.signature(bytes)
}

impl Signer {
    /// The bundle's record of a signature this signer made: its key id,
    /// its origin and the bytes.
    pub(crate) fn signature<'a>(&'a self, bytes: &'a [u8; 64]) -> Signature<'a> {
        Signature {
            key_id: self.id(),
            origin: self.origin(),
            signature: Bytes(bytes.as_slice()),
        }
    }
}

/// Where the signing key comes from, and what the signatures say: the
/// build-time signing option of [`Builder::sign`](crate::Builder::sign)
/// and `include_skills!`. It holds no secret: the key is read when the
/// bundle is signed, and dropped (wiped) right after.
///
/// ```
/// use skills_build::{KeySource, Signing};
/// let signing = Signing::new(KeySource::Env("SKILLS_SIGNING_KEY".into()), "https://example.com/skills")
///     .key_id("release-2026");
/// assert_eq!(signing.env_var(), Some("SKILLS_SIGNING_KEY"));
/// assert_eq!(signing.cargo_rerun_line(), "cargo:rerun-if-env-changed=SKILLS_SIGNING_KEY");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signing {
    /// The key's file or environment variable.
    pub key: KeySource,
    /// The origin the signatures are made for.
    pub origin: String,
    /// The key id; by default the public key's fingerprint.
    pub key_id: Option<String>,
}

impl Signing {
    /// Signing with the key from `key` for `origin`.
    ///
    /// ```
    /// use skills_build::{KeySource, Signing};
    /// let signing = Signing::new(KeySource::File("keys/skills.pem".into()), "acme");
    /// assert_eq!(signing.key_file(), Some(std::path::Path::new("keys/skills.pem")));
    /// ```
    pub fn new(key: KeySource, origin: impl Into<String>) -> Self {
        Signing {
            key,
            origin: origin.into(),
            key_id: None,
        }
    }

    /// Uses `key_id` as the key id.
    ///
    /// ```
    /// use skills_build::{KeySource, Signing};
    /// let signing = Signing::new(KeySource::Env("K".into()), "acme").key_id("k1");
    /// assert_eq!(signing.key_id.as_deref(), Some("k1"));
    /// ```
    pub fn key_id(mut self, key_id: impl Into<String>) -> Self {
        self.key_id = Some(key_id.into());
        self
    }

    /// The environment variable holding the key, if that is where it is.
    ///
    /// ```
    /// use skills_build::{KeySource, Signing};
    /// assert_eq!(Signing::new(KeySource::Env("K".into()), "acme").env_var(), Some("K"));
    /// ```
    pub fn env_var(&self) -> Option<&str> {
        match &self.key {
            KeySource::Env(name) => Some(name),
            KeySource::File(_) => None,
        }
    }

    /// The file holding the key, if that is where it is.
    ///
    /// ```
    /// use skills_build::{KeySource, Signing};
    /// assert_eq!(Signing::new(KeySource::Env("K".into()), "acme").key_file(), None);
    /// ```
    pub fn key_file(&self) -> Option<&std::path::Path> {
        match &self.key {
            KeySource::File(path) => Some(path),
            KeySource::Env(_) => None,
        }
    }

    /// The line a build script prints so that cargo reruns it when the key
    /// changes (`rerun-if-env-changed` or `rerun-if-changed`).
    ///
    /// ```
    /// use skills_build::{KeySource, Signing};
    /// let signing = Signing::new(KeySource::File("k.pem".into()), "acme");
    /// assert_eq!(signing.cargo_rerun_line(), "cargo:rerun-if-changed=k.pem");
    /// ```
    pub fn cargo_rerun_line(&self) -> String {
        match &self.key {
            KeySource::Env(name) => format!("cargo:rerun-if-env-changed={name}"),
            KeySource::File(path) => format!("cargo:rerun-if-changed={}", path.display()),
        }
    }

    /// Reads the key and makes the [`Signer`].
    pub(crate) fn signer(&self) -> Result<Signer, SigningError> {
        let signer = Signer::load(&self.key, self.origin.clone())?;
        Ok(match &self.key_id {
            Some(id) => signer.key_id(id.clone()),
            None => signer,
        })
    }

    /// Signs bundle bytes: every skill over agentskills-core's
    /// `agentskills-snapshot-v1` payload, and the bundle over its revision,
    /// after hashing each skill's embedded bytes again. A signature already
    /// there under the same key id is replaced; others are kept.
    ///
    /// ```
    /// use skills_build::{KeySource, Signing};
    /// let signing = Signing::new(KeySource::Env("SKILLS_NO_SUCH_KEY_3".into()), "acme");
    /// assert!(signing.sign(b"").is_err());
    /// ```
    pub fn sign(&self, bytes: &[u8]) -> Result<Vec<u8>, SigningError> {
        sign_bundle(bytes, &self.signer()?)
    }
}
