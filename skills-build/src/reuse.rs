//! Digests an earlier build already computed, taken from the bundle it
//! wrote.
//!
//! Build scripts and proc macros run unoptimised in Cargo's default dev
//! profile, where SHA-256 costs tens of nanoseconds a byte: hashing every
//! file again on every rebuild is most of a rebuild's time. A bundle holds
//! every file's bytes next to their digest, so the bundle the last build
//! wrote (in `OUT_DIR`) is a cache that cannot go stale: a file whose bytes
//! are, compared byte for byte, the ones the previous bundle holds for the
//! same skill and path gets the digest recorded with them; any other file
//! is hashed. The bundle is the same, bit for bit, as a cold build's.
//!
//! The bundle revision is composed of one digest per skill, over the
//! skill's encoding with the bytes its recorded digests cover replaced by
//! those digests (see `skills_core::trust::revision::bundle_revision`), so
//! it costs a few hundred bytes of hashing a skill, and is computed anew.
//! [`Builder::reuse_from`](crate::Builder::reuse_from) names the bundle.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use skills_core::sha256::digest as sha256;
use skills_core::wire::bundle::Bundle;

/// Where bytes are in the earlier bundle, and their digest.
type Recorded = (Range<usize>, [u8; 32]);

/// The file and skill digests of an earlier bundle.
#[derive(Default)]
pub struct Reuse {
    bytes: Vec<u8>,
    /// Listed name -> path -> where the file's bytes are in `bytes`, and
    /// their recorded digest.
    files: HashMap<String, HashMap<String, Recorded>>,
}

impl std::fmt::Debug for Reuse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reuse")
            .field("bundle_bytes", &self.bytes.len())
            .field("skills", &self.files.len())
            .finish()
    }
}

impl Reuse {
    /// The digests of a bundle's files, or `None` if the bytes are not a
    /// bundle this version reads (then everything is hashed).
    pub fn from_bundle(bytes: Vec<u8>) -> Option<Reuse> {
        let mut files = HashMap::new();
        {
            let bundle = Bundle::decode(&bytes).ok()?;
            let base = bytes.as_ptr() as usize;
            for skill in &bundle.skills {
                let entries: HashMap<String, Recorded> = skill
                    .files
                    .iter()
                    .map(|file| {
                        let data = file.bytes();
                        let start = data.as_ptr() as usize - base;
                        (
                            file.path.to_string(),
                            (start..start + data.len(), file.sha256),
                        )
                    })
                    .collect();
                files.insert(skill.name.to_string(), entries);
            }
        }
        Some(Reuse { bytes, files })
    }

    /// The bundle in the file at `path`; when there is no usable bundle
    /// there, nothing to reuse.
    pub fn load(path: &Path) -> Reuse {
        std::fs::read(path)
            .ok()
            .and_then(Reuse::from_bundle)
            .unwrap_or_default()
    }

    /// The SHA-256 of `bytes`, the file `path` of the skill listed as
    /// `skill`: the recorded one when the earlier bundle holds exactly
    /// these bytes there, computed otherwise.
    pub fn file_digest(&self, skill: &str, path: &str, bytes: &[u8]) -> [u8; 32] {
        let recorded = self
            .files
            .get(skill)
            .and_then(|files| files.get(path))
            .filter(|(range, _)| self.bytes.get(range.clone()) == Some(bytes));
        match recorded {
            Some((_, digest)) => *digest,
            None => sha256(bytes),
        }
    }
}
