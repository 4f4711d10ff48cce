//! Ed25519 public keys as people pass them around: a PEM
//! SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`), 64 hex digits, or
//! base64 of the 32 raw bytes (as agentskills-core's MCP server
//! configuration carries it). `skills keygen` writes them and `skills
//! verify --key` reads them; the compiler itself only signs, with a secret
//! key, and never reads one.
//!
//! PEM and DER are ed25519-dalek's (its `pkcs8` and `pem` features);
//! errors are the compiler's [`KeyError`], naming where the text came from
//! and never quoting it.

use std::path::Path;

use ed25519_dalek::VerifyingKey;
use ed25519_dalek::pkcs8::{DecodePublicKey, PublicKeyBytes};
use skills_build::KeyError;
use skills_build::unstable::keys::{MAX_KEY_FILE_BYTES, PublicKey, has_label};

use crate::targets::read_text_limited;

/// Reads a public key: a PEM `PUBLIC KEY` block, 64 hex digits, or base64
/// of the 32 bytes. The bytes must be a valid Ed25519 point.
pub fn from_text(text: &str) -> Result<PublicKey, KeyError> {
    parse(text, "text")
}

/// Reads a public key from a file (see [`from_text`]).
pub fn from_file(path: &Path) -> Result<PublicKey, KeyError> {
    let text = read_text_limited(path, MAX_KEY_FILE_BYTES).map_err(|error| KeyError::Io {
        path: path.to_path_buf(),
        error: error.into(),
    })?;
    parse(&text, &path.display().to_string())
}

fn parse(text: &str, origin: &str) -> Result<PublicKey, KeyError> {
    let malformed = |why| KeyError::Malformed {
        origin: origin.to_string(),
        why,
    };
    let text = text.trim();
    let bytes = if text.starts_with("-----BEGIN") {
        if !has_label(text, "PUBLIC KEY") {
            return Err(malformed("not a PEM `PUBLIC KEY` block"));
        }
        PublicKeyBytes::from_public_key_pem(text)
            .map_err(|_| malformed("the PEM block is not an Ed25519 SubjectPublicKeyInfo"))?
            .0
    } else if let Some(bytes) = skills_core::trust::revision::parse_hex::<32>(text) {
        bytes
    } else {
        skills_core::encoding::base64::decode(text)
            .and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok())
            .ok_or_else(|| {
                malformed("expected a PEM public key, 64 hex digits, or base64 of 32 bytes")
            })?
    };
    VerifyingKey::from_bytes(&bytes).map_err(|_| malformed("not a valid Ed25519 public key"))?;
    Ok(PublicKey(bytes))
}

/// The key as standard base64 of its 32 bytes.
#[cfg(not(target_os = "wasi"))] // for keygen, which the WASI build leaves out
pub fn to_base64(key: PublicKey) -> String {
    skills_core::encoding::base64::encode(&key.0)
}

/// The key as a PEM SubjectPublicKeyInfo document.
#[cfg(not(target_os = "wasi"))] // for keygen, which the WASI build leaves out
pub fn to_pem(key: PublicKey) -> String {
    use ed25519_dalek::pkcs8::EncodePublicKey as _;
    use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
    PublicKeyBytes(key.0)
        .to_public_key_pem(LineEnding::LF)
        .expect("32 bytes encode as an Ed25519 SubjectPublicKeyInfo")
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_build::unstable::keys::SecretKey;

    #[test]
    fn every_format_reads_back() {
        let key = SecretKey::from_seed(std::array::from_fn(|at| at as u8)).public_key();
        assert_eq!(from_text(&to_pem(key)).unwrap(), key);
        assert_eq!(from_text(&key.to_hex()).unwrap(), key);
        assert_eq!(from_text(&to_base64(key)).unwrap(), key);
        assert_eq!(
            to_base64(PublicKey([0; 32])),
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        );
        assert!(
            to_pem(PublicKey([0; 32])).starts_with("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA")
        );
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "zz",
            "-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----",
            "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----",
        ] {
            assert!(from_text(text).is_err(), "{text}");
        }
        for len in 0..60 {
            let body = skills_core::encoding::base64::encode(&vec![0x30; len]);
            let text = format!("-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----\n");
            assert!(from_text(&text).is_err());
        }
        assert!(from_file(Path::new("no/such/key.pem")).is_err());
        let private = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n-----END PRIVATE KEY-----\n";
        let error = from_text(private).unwrap_err().to_string();
        assert!(error.contains("not a PEM `PUBLIC KEY` block"), "{error}");
        let error = from_text("-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n");
        let error = error.unwrap_err().to_string();
        assert!(
            error.contains("not an Ed25519 SubjectPublicKeyInfo"),
            "{error}"
        );
    }
}
