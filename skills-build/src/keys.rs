//! Ed25519 keys for signing skills: reading a secret key from a PEM file or
//! a hex seed (in a file or an environment variable). (Making a new key
//! pair, and reading and writing public keys in PEM, hex or base64, are
//! the `skills` command's: `skills keygen` and `skills verify`.)
//!
//! The secret key is never printed: [`SecretKey`]'s `Debug` shows only its
//! public half, no error message quotes key material, and the key's bytes
//! are wiped from memory when it is dropped.
//!
//! Formats understood:
//!
//! - secret key: PKCS#8 (`-----BEGIN PRIVATE KEY-----`, version 1 as
//!   OpenSSL and Python's `cryptography` write it, or version 2 with the
//!   public key, which is checked), or the 32-byte seed as 64 hex digits.
//!
//! PEM, DER and PKCS#8 are ed25519-dalek's (its `pkcs8` and `pem`
//! features, RustCrypto's `pkcs8`, `spki` and `der`); what is written here
//! is what they leave to us: telling a person which part of a key is wrong
//! (their errors are mapped to messages that name the file and never quote
//! it), checking a version 2 key's public half against its seed, the hex
//! form, and wiping.
//!
//! ```
//! use skills_build::unstable::keys::SecretKey;
//! let secret = SecretKey::from_seed([0; 32]);
//! assert_eq!(secret.public_key().to_hex().len(), 64);
//! assert!(!format!("{secret:?}").contains(&"00".repeat(32)));
//! # Ok::<(), skills_build::KeyError>(())
//! ```

use std::fmt;
use std::path::PathBuf;

use ed25519_dalek::pkcs8::spki::der::pem;
use ed25519_dalek::pkcs8::{DecodePrivateKey, KeypairBytes};
use ed25519_dalek::{Signer, SigningKey};
use zeroize::Zeroizing;

use crate::read_limit::read_limited;

/// The most bytes a key file may hold. A key is a few hundred bytes of PEM
/// or 64 hex digits; the limit stops a device or a huge file given by
/// mistake from being read without end.
pub const MAX_KEY_FILE_BYTES: u64 = 64 * 1024;

/// Why a key could not be read. Messages name the file or variable, never
/// the key's bytes.
///
/// ```
/// use skills_build::{KeySource, Signing};
/// let signing = Signing::new(KeySource::Env("SKILLS_DOC_UNSET_KEY".into()), "acme");
/// let error = signing.sign(b"").unwrap_err();
/// assert!(error.to_string().contains("environment variable SKILLS_DOC_UNSET_KEY"), "{error}");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum KeyError {
    /// A key file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// The environment variable is not set, or not Unicode.
    MissingVariable {
        /// The variable's name.
        name: String,
    },
    /// The text is not a key in a format this module reads.
    Malformed {
        /// Where the text came from (a path, a variable, or `text`).
        origin: String,
        /// What is wrong, without quoting the text.
        why: &'static str,
    },
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            KeyError::MissingVariable { name } => write!(
                f,
                "the environment variable {name} holding the signing key is not set (or not Unicode)"
            ),
            KeyError::Malformed { origin, why } => write!(f, "{origin}: {why}"),
        }
    }
}

impl std::error::Error for KeyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KeyError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Where a secret key comes from.
///
/// ```
/// use skills_build::KeySource;
/// let source = KeySource::Env("SKILLS_SIGNING_KEY".into());
/// assert_eq!(source.to_string(), "environment variable SKILLS_SIGNING_KEY");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum KeySource {
    /// A file holding a PKCS#8 PEM key or a hex seed.
    File(PathBuf),
    /// An environment variable, by name, holding a PKCS#8 PEM key or a hex seed.
    Env(String),
}

impl fmt::Display for KeySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySource::File(path) => write!(f, "{}", path.display()),
            KeySource::Env(name) => write!(f, "environment variable {name}"),
        }
    }
}

impl KeySource {
    /// Reads the secret key.
    pub(crate) fn load(&self) -> Result<SecretKey, KeyError> {
        let text = match self {
            KeySource::File(path) => {
                let bytes =
                    Zeroizing::new(read_limited(path, MAX_KEY_FILE_BYTES).map_err(|error| {
                        KeyError::Io {
                            path: path.clone(),
                            error: error.into(),
                        }
                    })?);
                match std::str::from_utf8(&bytes) {
                    Ok(text) => Zeroizing::new(text.to_string()),
                    Err(_) => {
                        return Err(KeyError::Malformed {
                            origin: self.to_string(),
                            why: "not text; expected a PKCS#8 PEM key or 64 hex digits",
                        });
                    }
                }
            }
            KeySource::Env(name) => Zeroizing::new(
                std::env::var(name)
                    .map_err(|_| KeyError::MissingVariable { name: name.clone() })?,
            ),
        };
        SecretKey::parse(&text, &self.to_string())
    }
}

/// An Ed25519 secret key. Its `Debug` shows only the public key; its bytes
/// are wiped on drop.
///
/// ```
/// let key = skills_build::unstable::keys::SecretKey::from_seed([7; 32]);
/// assert!(format!("{key:?}").starts_with("SecretKey { public: "));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SecretKey(SigningKey);

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SecretKey {{ public: {}, secret: <redacted> }}",
            self.public_key()
        )
    }
}

impl SecretKey {
    /// The key whose seed is `seed`.
    ///
    /// ```
    /// // The Python SDK's test vector: seed bytes 0, 1, ..., 31.
    /// let key = skills_build::unstable::keys::SecretKey::from_seed(std::array::from_fn(|at| at as u8));
    /// assert_eq!(key.public_key().to_hex(), "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8");
    /// ```
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let seed = Zeroizing::new(seed);
        SecretKey(SigningKey::from_bytes(&seed))
    }

    /// Reads a key from `text`, which came from `origin` (what an error
    /// names): a PKCS#8 PEM block or 64 hex digits, with surrounding
    /// whitespace ignored.
    fn parse(text: &str, origin: &str) -> Result<Self, KeyError> {
        let malformed = |why| KeyError::Malformed {
            origin: origin.to_string(),
            why,
        };
        let text = text.trim();
        if text.starts_with("-----BEGIN") {
            if !has_label(text, "PRIVATE KEY") {
                return Err(malformed(
                    "not a PEM `PRIVATE KEY` block (PKCS#8); encrypted keys are not supported",
                ));
            }
            let pair = KeypairBytes::from_pkcs8_pem(text).map_err(|error| {
                malformed(match error {
                    Pkcs8Error::Asn1(error) if is_version_error(&error) => {
                        "the PKCS#8 key has an unknown version"
                    }
                    Pkcs8Error::PublicKey(_) | Pkcs8Error::ParametersMalformed => {
                        "the PKCS#8 key is not an Ed25519 key"
                    }
                    Pkcs8Error::KeyMalformed(_) => {
                        "the PKCS#8 key does not hold a 32-byte Ed25519 seed (and public key)"
                    }
                    _ => "the PEM block is not a PKCS#8 private key",
                })
            })?;
            let key = SecretKey::from_seed(pair.secret_key);
            return match &pair.public_key {
                Some(public) if public.0 != key.public_key().0 => Err(malformed(
                    "the PKCS#8 key's public key does not belong to its private key",
                )),
                _ => Ok(key),
            };
        }
        match skills_core::trust::revision::parse_hex::<32>(text) {
            Some(seed) => Ok(SecretKey::from_seed(seed)),
            None => Err(malformed(
                "expected a PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----) or a 32-byte seed as 64 hex digits",
            )),
        }
    }

    /// The public half.
    ///
    /// ```
    /// let key = skills_build::unstable::keys::SecretKey::from_seed([0; 32]);
    /// assert_eq!(key.public_key().to_hex().len(), 64);
    /// ```
    pub fn public_key(&self) -> PublicKey {
        PublicKey(self.0.verifying_key().to_bytes())
    }

    /// The detached Ed25519 signature of `message`.
    ///
    /// ```
    /// let key = skills_build::unstable::keys::SecretKey::from_seed([0; 32]);
    /// assert_eq!(key.sign(b"hello").len(), 64);
    /// ```
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.0.sign(message).to_bytes()
    }
}

/// An Ed25519 public key: 32 bytes.
///
/// ```
/// use skills_build::unstable::keys::{PublicKey, SecretKey};
/// let hex = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
/// let key = SecretKey::from_seed(std::array::from_fn(|at| at as u8)).public_key();
/// assert_eq!(key.to_string(), hex);
/// assert_eq!(PublicKey(key.0), key);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PublicKey(pub [u8; 32]);

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl PublicKey {
    /// The key as 64 lowercase hex digits.
    ///
    /// ```
    /// assert_eq!(skills_build::unstable::keys::PublicKey([0; 32]).to_hex(), "0".repeat(64));
    /// ```
    pub fn to_hex(self) -> String {
        skills_core::Sha256(self.0).to_string()
    }

    /// A short id for the key when none is given: `ed25519-` and the
    /// first 16 hex digits of the SHA-256 of its bytes.
    ///
    /// ```
    /// let id = skills_build::unstable::keys::PublicKey([0; 32]).fingerprint();
    /// assert!(id.starts_with("ed25519-") && id.len() == 24);
    /// ```
    pub fn fingerprint(&self) -> String {
        let digest = skills_core::sha256::digest(&self.0);
        let hex = skills_core::Sha256(digest).to_string();
        format!("ed25519-{}", &hex[..16])
    }
}

type Pkcs8Error = ed25519_dalek::pkcs8::Error;

/// Whether `text` is one PEM block labelled `label` (checked first, so that
/// an encrypted or other key is named as such rather than as bad DER).
///
/// ```
/// use skills_build::unstable::keys::has_label;
/// assert!(has_label("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n", "PUBLIC KEY"));
/// assert!(!has_label("not pem", "PUBLIC KEY"));
/// ```
pub fn has_label(text: &str, label: &str) -> bool {
    pem::decode_label(text.as_bytes()).is_ok_and(|found| found == label)
}

/// Whether a DER error is PKCS#8's version number (an INTEGER other than 0
/// or 1).
fn is_version_error(error: &ed25519_dalek::pkcs8::spki::der::Error) -> bool {
    use ed25519_dalek::pkcs8::spki::der::{ErrorKind, Tag};
    matches!(error.kind(), ErrorKind::Value { tag: Tag::Integer })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> [u8; 32] {
        std::array::from_fn(|at| at as u8)
    }

    #[test]
    fn the_sdk_vector_key() {
        let key = SecretKey::from_seed(seed());
        assert_eq!(
            key.public_key().to_hex(),
            "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
        );
    }

    /// Base64 PEM of `der`, 64 characters a line, for hand-made keys.
    fn pem(label: &str, der: &[u8]) -> String {
        let body = skills_core::encoding::base64::encode(der);
        let lines: Vec<&str> = body
            .as_bytes()
            .chunks(64)
            .map(|line| std::str::from_utf8(line).unwrap())
            .collect();
        format!(
            "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
            lines.join("\n")
        )
    }

    /// The DER of the Ed25519 algorithm identifier: `SEQUENCE { OID 1.3.101.112 }`.
    const ED25519_ALGORITHM: [u8; 7] = [0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70];

    /// Reads a secret key from text, as a key file's is read.
    fn secret(text: &str) -> Result<SecretKey, KeyError> {
        SecretKey::parse(text, "text")
    }

    /// A PKCS#8 version 1 key (no public key), as OpenSSL writes it.
    fn v1(seed: [u8; 32]) -> String {
        let mut der = vec![0x30, 0x2e, 0x02, 0x01, 0x00];
        der.extend_from_slice(&ED25519_ALGORITHM);
        der.extend_from_slice(&[0x04, 0x22, 0x04, 0x20]);
        der.extend_from_slice(&seed);
        pem("PRIVATE KEY", &der)
    }

    #[test]
    fn reads_the_key_openssl_writes() {
        let openssl = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n-----END PRIVATE KEY-----\n";
        assert_eq!(v1([1; 32]), openssl);
        assert_eq!(secret(openssl).unwrap(), SecretKey::from_seed([1; 32]));
    }

    #[test]
    fn pkcs8_v1_and_v2_round_trip() {
        let key = SecretKey::from_seed(seed());
        assert_eq!(secret(&v1(seed())).unwrap(), key);
        // Version 2 with the public key, as RFC 8410 shows it.
        let mut der = vec![0x30, 0x51, 0x02, 0x01, 0x01];
        der.extend_from_slice(&ED25519_ALGORITHM);
        der.extend_from_slice(&[0x04, 0x22, 0x04, 0x20]);
        der.extend_from_slice(&seed());
        der.extend_from_slice(&[0x81, 0x21, 0x00]);
        der.extend_from_slice(&key.public_key().0);
        assert_eq!(secret(&pem("PRIVATE KEY", &der)).unwrap(), key);
        // CRLF line ends, as a key saved on Windows has them.
        let crlf = pem("PRIVATE KEY", &der).replace('\n', "\r\n");
        assert_eq!(secret(&crlf).unwrap(), key);
        // A public key of another key is refused.
        let last = der.len() - 1;
        der[last] ^= 1;
        let error = secret(&pem("PRIVATE KEY", &der)).unwrap_err();
        assert!(error.to_string().contains("does not belong"), "{error}");
    }

    #[test]
    fn each_wrong_part_is_named() {
        let why = |der: &[u8]| secret(&pem("PRIVATE KEY", der)).unwrap_err().to_string();
        let mut v3 = vec![0x30, 0x2e, 0x02, 0x01, 0x02];
        v3.extend_from_slice(&ED25519_ALGORITHM);
        v3.extend_from_slice(&[0x04, 0x22, 0x04, 0x20]);
        v3.extend_from_slice(&seed());
        assert!(why(&v3).contains("unknown version"), "{}", why(&v3));
        let mut x25519 = v3.clone();
        x25519[4] = 0;
        x25519[11] = 0x6e; // 1.3.101.110
        assert!(
            why(&x25519).contains("not an Ed25519 key"),
            "{}",
            why(&x25519)
        );
        let mut short = v3.clone();
        short[4] = 0;
        short[1] = 0x2d;
        short[13] = 0x21;
        short[15] = 0x1f;
        short.pop();
        assert!(
            why(&short).contains("32-byte Ed25519 seed"),
            "{}",
            why(&short)
        );
        assert!(why(&[0x30, 0x00]).contains("not a PKCS#8 private key"));
        let encrypted = pem("ENCRYPTED PRIVATE KEY", &v3);
        let error = secret(&encrypted).unwrap_err().to_string();
        assert!(
            error.contains("encrypted keys are not supported"),
            "{error}"
        );
    }

    #[test]
    fn hex_seed_and_whitespace() {
        let hex: String = seed().iter().map(|b| format!("{b:02x}")).collect();
        let key = secret(&format!("  {hex}\n")).unwrap();
        assert_eq!(key, SecretKey::from_seed(seed()));
        assert!(secret(&hex[..62]).is_err());
    }

    #[test]
    fn errors_never_quote_the_key() {
        let hex: String = "ab".repeat(31) + "zz";
        let error = secret(&hex).unwrap_err().to_string();
        assert!(!error.contains("abab"), "{error}");
        let key = SecretKey::from_seed([0xab; 32]);
        assert!(!format!("{key:?}").contains("abab"));
        assert!(!format!("{key:?}").contains("171, 171"));
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "-----BEGIN PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\nMIIBAA==\n-----END PRIVATE KEY-----",
            "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----",
        ] {
            assert!(secret(text).is_err());
        }
        for len in 0..60 {
            let text = pem("PRIVATE KEY", &vec![0x30; len]);
            assert!(secret(&text).is_err());
        }
    }
}
