//! Signing a compiled bundle with an Ed25519 publisher key (the `sign`
//! feature), and the content revisions signatures are made over (always).
//!
//! Each skill is signed over agentskills-core's `agentskills-snapshot-v1`
//! payload (its origin, content revision, listed name as `skillId`, and
//! frontmatter `version`), so the Python SDK's `TrustPolicy.verify` accepts
//! the signature for the same skill directory; the bundle is signed over
//! its bundle revision (`skills-bundle-v2`). The signatures are added to
//! the bundle; the secret key never is.
//!
//! ```
//! # #[cfg(feature = "sign")] {
//! use skills_build::keys::SecretKey;
//! use skills_build::signing::{Signer, sign_bundle};
//! use skills_build::source::MemorySource;
//! use skills_core::verify::TrustPolicy;
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
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use skills_core::bundle::{Bytes, Skill};
use skills_core::revision::{Revision, recorded_revision, sha256};
#[cfg(feature = "sign")]
use skills_core::{
    bundle::{Bundle, Signature},
    revision::{PayloadError, bundle_payload, bundle_revision, check_origin, snapshot_payload},
    verify::{Check, rehash_skill},
};

#[cfg(feature = "sign")]
use crate::keys::{KeyError, KeySource, SecretKey};

/// A secret key with the origin and key id its signatures carry. `Debug`
/// shows the public key only.
///
/// ```
/// use skills_build::keys::SecretKey;
/// let signer = skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
/// assert!(signer.id().starts_with("ed25519-"));
/// assert!(skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "").is_err());
/// ```
#[cfg(feature = "sign")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    key: SecretKey,
    key_id: String,
    origin: String,
}

#[cfg(feature = "sign")]
impl Signer {
    /// A signer for `origin` (nonempty, at most 512 characters, no control
    /// characters), with the key id defaulting to the public key's
    /// [fingerprint](crate::keys::PublicKey::fingerprint).
    ///
    /// ```
    /// use skills_build::keys::SecretKey;
    /// let signer = skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
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
    /// use skills_build::keys::KeySource;
    /// use skills_build::signing::Signer;
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
    /// use skills_build::keys::SecretKey;
    /// let signer = skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap().key_id("k1");
    /// assert_eq!(signer.id(), "k1");
    /// ```
    pub fn key_id(mut self, key_id: impl Into<String>) -> Self {
        self.key_id = key_id.into();
        self
    }

    /// The key id.
    ///
    /// ```
    /// use skills_build::keys::SecretKey;
    /// let signer = skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
    /// assert_eq!(signer.id(), SecretKey::from_seed([1; 32]).public_key().fingerprint());
    /// ```
    pub fn id(&self) -> &str {
        &self.key_id
    }

    /// The origin.
    ///
    /// ```
    /// use skills_build::keys::SecretKey;
    /// let signer = skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
    /// assert_eq!(signer.origin(), "acme");
    /// ```
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The public half of the key.
    ///
    /// ```
    /// use skills_build::keys::SecretKey;
    /// let signer = skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
    /// assert_eq!(signer.public_key(), SecretKey::from_seed([1; 32]).public_key());
    /// ```
    pub fn public_key(&self) -> crate::keys::PublicKey {
        self.key.public_key()
    }

    /// agentskills-core's detached signature for one skill: the Ed25519
    /// signature of its `agentskills-snapshot-v1` payload.
    ///
    /// ```
    /// use skills_build::keys::SecretKey;
    /// use skills_build::signing::Signer;
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
    /// use skills_build::keys::SecretKey;
    /// let signer = skills_build::signing::Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
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
/// use skills_build::keys::SecretKey;
/// use skills_build::signing::{sign_bundle, Signer};
/// let signer = Signer::new(SecretKey::from_seed([1; 32]), "acme").unwrap();
/// let error = sign_bundle(b"not a bundle", &signer).unwrap_err();
/// assert!(error.to_string().contains("not a skills bundle"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
#[cfg(feature = "sign")]
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
    Encode(skills_core::bundle::EncodeError),
}

#[cfg(feature = "sign")]
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

#[cfg(feature = "sign")]
impl std::error::Error for SigningError {}

#[cfg(feature = "sign")]
impl From<KeyError> for SigningError {
    fn from(error: KeyError) -> Self {
        SigningError::Key(error)
    }
}

#[cfg(feature = "sign")]
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
/// See the [module documentation](self) for an example.
#[cfg(feature = "sign")]
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

#[cfg(feature = "sign")]
fn signature_of<'a>(signer: &'a Signer, bytes: &'a [u8; 64]) -> Signature<'a> {
    Signature {
        key_id: &signer.key_id,
        origin: &signer.origin,
        signature: Bytes(bytes.as_slice()),
    }
}

/// Records a compiled skill's skill file and content revision: its size and
/// SHA-256, its exact bytes when the frontmatter and body do not rebuild
/// them, and the content revision over it and the skill's files. Call it
/// after the skill's frontmatter, instructions and files are filled.
///
/// ```
/// use skills_core::bundle::Skill;
/// let raw = b"---\nname: a\n---\nGo";
/// let mut skill = Skill { frontmatter: "name: a\n", body_len: 2, instructions: "Go\n\nfiles: none\n", ..Skill::default() };
/// skills_build::signing::record_skill_file(&mut skill, raw);
/// assert_eq!(skill.skill_file_bytes, None); // rebuilt from the frontmatter and body
/// let crlf = b"---\r\nname: a\r\n---\r\nGo";
/// skills_build::signing::record_skill_file(&mut skill, crlf);
/// assert_eq!(skill.skill_file_bytes.map(|b| b.0), Some(&crlf[..]));
/// assert_eq!(skill.skill_file_size, crlf.len() as u64);
/// ```
pub fn record_skill_file<'a>(skill: &mut Skill<'a>, raw: &'a [u8]) {
    let recorded = (raw.len() as u64, sha256(raw));
    (skill.skill_file_size, skill.skill_file_sha256) = recorded;
    skill.skill_file_bytes = None;
    // The pieces put together are the file, or the file is stored: a
    // comparison, not a second hash of the same bytes.
    let pieces = skills_core::revision::skill_file_pieces(skill);
    let mut rest = raw;
    let same = pieces.iter().all(|piece| match rest.strip_prefix(*piece) {
        Some(after) => {
            rest = after;
            true
        }
        None => false,
    }) && rest.is_empty();
    if !same {
        skill.skill_file_bytes = Some(Bytes(raw));
    }
    skill.revision = recorded_revision(skill).0;
}

/// Where the signing key comes from, and what the signatures say: the
/// build-time signing option of [`Builder::sign`](crate::Builder::sign)
/// and `include_skills!`. It holds no secret: the key is read when the
/// bundle is signed, and dropped (wiped) right after.
///
/// ```
/// use skills_build::keys::KeySource;
/// use skills_build::signing::Signing;
/// let signing = Signing::new(KeySource::Env("SKILLS_SIGNING_KEY".into()), "https://example.com/skills")
///     .key_id("release-2026");
/// assert_eq!(signing.env_var(), Some("SKILLS_SIGNING_KEY"));
/// assert_eq!(signing.cargo_rerun_line(), "cargo:rerun-if-env-changed=SKILLS_SIGNING_KEY");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg(feature = "sign")]
pub struct Signing {
    /// The key's file or environment variable.
    pub key: KeySource,
    /// The origin the signatures are made for.
    pub origin: String,
    /// The key id; by default the public key's fingerprint.
    pub key_id: Option<String>,
}

#[cfg(feature = "sign")]
impl Signing {
    /// Signing with the key from `key` for `origin`.
    ///
    /// ```
    /// use skills_build::{keys::KeySource, signing::Signing};
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
    /// use skills_build::{keys::KeySource, signing::Signing};
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
    /// use skills_build::{keys::KeySource, signing::Signing};
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
    /// use skills_build::{keys::KeySource, signing::Signing};
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
    /// use skills_build::{keys::KeySource, signing::Signing};
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
    ///
    /// ```
    /// use skills_build::{keys::KeySource, signing::Signing};
    /// assert!(Signing::new(KeySource::Env("SKILLS_NO_SUCH_KEY_2".into()), "acme").signer().is_err());
    /// ```
    pub fn signer(&self) -> Result<Signer, SigningError> {
        let signer = Signer::load(&self.key, self.origin.clone())?;
        Ok(match &self.key_id {
            Some(id) => signer.key_id(id.clone()),
            None => signer,
        })
    }

    /// Signs bundle bytes (see [`sign_bundle`]).
    ///
    /// ```
    /// use skills_build::{keys::KeySource, signing::Signing};
    /// let signing = Signing::new(KeySource::Env("SKILLS_NO_SUCH_KEY_3".into()), "acme");
    /// assert!(signing.sign(b"").is_err());
    /// ```
    pub fn sign(&self, bytes: &[u8]) -> Result<Vec<u8>, SigningError> {
        sign_bundle(bytes, &self.signer()?)
    }

    /// Signs a compilation's bundle, turning a signing failure into a
    /// compile error naming the key's source (never its contents).
    ///
    /// ```
    /// use skills_build::{keys::KeySource, signing::Signing};
    /// use skills_build::source::MemorySource;
    /// let signing = Signing::new(KeySource::Env("SKILLS_NO_SUCH_KEY_4".into()), "acme");
    /// let skills = MemorySource::new("skills")
    ///     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Forms.\n---\n");
    /// let error = signing.apply(skills_build::compile_sources(&[&skills])).unwrap_err();
    /// assert!(error.problems[0].message.contains("SKILLS_NO_SUCH_KEY_4"));
    /// ```
    pub fn apply(
        &self,
        compiled: Result<crate::compile::Compiled, crate::compile::CompileError>,
    ) -> Result<crate::compile::Compiled, crate::compile::CompileError> {
        let mut compiled = compiled?;
        match self.sign(&compiled.bytes) {
            Ok(bytes) => {
                compiled.bytes = bytes;
                Ok(compiled)
            }
            Err(error) => {
                let mut problems = compiled.warnings;
                problems.push(crate::problem::Problem::new(
                    crate::problem::Code::SigningFailed,
                    error.to_string(),
                ));
                crate::problem::Problem::sort(&mut problems);
                Err(crate::compile::CompileError { problems })
            }
        }
    }
}

/// A skill directory as agentskills-core's file-system provider captures
/// it: every file under it (hidden ones and nested directories included),
/// its id (the directory's name), its frontmatter `version`, and its
/// content revision.
///
/// ```
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/skills/git-rebase");
/// let snapshot = skills_build::signing::snapshot_dir(&dir).unwrap();
/// assert_eq!(snapshot.skill_id, "git-rebase");
/// assert!(snapshot.files.iter().any(|(path, _)| path == "SKILL.md"));
/// assert!(snapshot.revision.to_string().starts_with("sha256:"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirSnapshot {
    /// The directory's name: the id the file-system provider registers.
    pub skill_id: String,
    /// Every file, as a `/`-separated path and its bytes, sorted by path.
    pub files: Vec<(String, Vec<u8>)>,
    /// The frontmatter `version`, when the skill file reads and has one.
    pub version: Option<String>,
    /// The content revision.
    pub revision: Revision,
}

/// Why a skill directory could not be captured.
///
/// ```
/// let error = skills_build::signing::snapshot_dir("no/such/skill".as_ref()).unwrap_err();
/// assert!(error.to_string().contains("no/such/skill"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum SnapshotError {
    /// A file or directory could not be read.
    Io {
        /// The path.
        path: std::path::PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A symbolic link, which agentskills-core refuses to capture.
    Link {
        /// The path.
        path: std::path::PathBuf,
    },
    /// A name that is not Unicode.
    NotUnicode {
        /// The path.
        path: std::path::PathBuf,
    },
    /// No `SKILL.md` (or `skill.md`) in the directory.
    NoSkillFile {
        /// The directory.
        dir: std::path::PathBuf,
    },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            SnapshotError::Link { path } => write!(
                f,
                "{}: a symbolic link; a skill's files must be plain files inside it",
                path.display()
            ),
            SnapshotError::NotUnicode { path } => {
                write!(f, "{}: the name is not valid Unicode", path.display())
            }
            SnapshotError::NoSkillFile { dir } => {
                write!(f, "{}: no SKILL.md in this directory", dir.display())
            }
        }
    }
}

impl std::error::Error for SnapshotError {}

/// Captures a skill directory (see [`DirSnapshot`]).
///
/// See [`DirSnapshot`] for an example.
pub fn snapshot_dir(dir: &std::path::Path) -> Result<DirSnapshot, SnapshotError> {
    let mut files = Vec::new();
    let mut budget = skills_core::manifest::MAX_SKILL_BYTES;
    walk_dir(dir, "", &mut files, 0, &mut budget)?;
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let skill_file = files
        .iter()
        .find(|(path, _)| path == "SKILL.md")
        .or_else(|| files.iter().find(|(path, _)| path == "skill.md"))
        .ok_or_else(|| SnapshotError::NoSkillFile {
            dir: dir.to_path_buf(),
        })?;
    let version = crate::frontmatter::parse(&skill_file.1)
        .ok()
        .and_then(|doc| doc.frontmatter.text("version").map(str::to_string));
    let revision = skills_core::revision::content_revision(
        files
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.len() as u64, sha256(bytes))),
    );
    let skill_id = dir
        .canonicalize()
        .ok()
        .and_then(|dir| {
            dir.file_name()
                .map(|name| name.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| crate::skill_dir::dir_name(dir));
    Ok(DirSnapshot {
        skill_id,
        files,
        version,
        revision,
    })
}

fn walk_dir(
    root: &std::path::Path,
    rel: &str,
    files: &mut Vec<(String, Vec<u8>)>,
    depth: usize,
    budget: &mut u64,
) -> Result<(), SnapshotError> {
    let here = if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    };
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |error| SnapshotError::Io { path, error }
    };
    if depth > crate::discover::DEFAULT_MAX_DEPTH {
        return Err(SnapshotError::Io {
            path: here,
            error: std::io::Error::other("directories nest too deep"),
        });
    }
    for entry in std::fs::read_dir(&here).map_err(io(&here))? {
        let entry = entry.map_err(io(&here))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            return Err(SnapshotError::NotUnicode { path });
        };
        let rel_path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let kind = entry.file_type().map_err(io(&path))?;
        if kind.is_symlink() {
            return Err(SnapshotError::Link { path });
        } else if kind.is_dir() {
            walk_dir(root, &rel_path, files, depth + 1, budget)?;
        } else {
            // Special files are refused before opening; nothing is read
            // past the compiler's per-file limit, nor past the per-skill
            // limit all files share (`budget`, the bytes still allowed).
            let limit = crate::discover::DEFAULT_MAX_FILE_SIZE.min(*budget);
            let bytes = crate::read_limit::read_limited(&path, limit).map_err(|error| {
                let error = match error {
                    // Under the per-file limit, but over what the skill's
                    // other files left.
                    crate::read_limit::ReadLimitError::TooLarge { size, .. }
                        if size
                            .is_none_or(|size| size <= crate::discover::DEFAULT_MAX_FILE_SIZE) =>
                    {
                        std::io::Error::new(
                            std::io::ErrorKind::FileTooLarge,
                            "the skill's files add up to more than the 16 MiB limit per skill",
                        )
                    }
                    error => error.into(),
                };
                SnapshotError::Io {
                    path: path.clone(),
                    error,
                }
            })?;
            *budget -= bytes.len() as u64;
            files.push((rel_path, bytes));
        }
    }
    Ok(())
}
