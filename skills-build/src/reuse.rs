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
//! The bundle revision is the SHA-256 of the whole encoding, which an edit
//! anywhere changes. Beside the bundle ([`Reuse::load`]'s path plus
//! `.sha256-states`) the compiler keeps the hash's state every
//! [`CHECKPOINT`] bytes of that encoding, bound to the revision it ended
//! in; the next build compares its encoding with the previous one (a
//! `memcmp`, fast at any optimisation level) and resumes hashing from the
//! last checkpoint before the first difference. A checkpoint file that does
//! not belong to the bundle beside it is ignored.
//!
//! ```
//! use skills_build::reuse::Reuse;
//! use skills_build::source::MemorySource;
//! let source = MemorySource::new("skills")
//!     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Forms.\n---\nGo.\n")
//!     .with_file("pdf/reference.md", "Use pdfplumber.");
//! let first = skills_build::compile_sources(&[&source]).unwrap().bytes;
//! let reuse = Reuse::from_bundle(first).unwrap();
//! assert_eq!(reuse.file_digest("pdf", "reference.md", b"Use pdfplumber."), skills_build::compile::sha256(b"Use pdfplumber."));
//! assert_eq!(reuse.reused(), 1);
//! reuse.file_digest("pdf", "reference.md", b"changed");
//! assert_eq!(reuse.reused(), 1); // hashed, not reused
//! ```

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use skills_core::bundle::Bundle;
use skills_core::sha256::{CHECKPOINT_LEN, Checkpoint, Hasher};

use crate::compile::sha256;

/// How many bytes of the encoding lie between two saved hash states.
pub const CHECKPOINT: usize = 64 * 1024;

/// Where a file's bytes are in the earlier bundle, and their digest.
type Recorded = (Range<usize>, [u8; 32]);

/// The file digests of an earlier bundle, by skill and path.
#[derive(Default)]
pub struct Reuse {
    bytes: Vec<u8>,
    /// Listed name -> path -> where the file's bytes are in `bytes`, and
    /// their recorded digest.
    files: HashMap<String, HashMap<String, Recorded>>,
    reused: AtomicUsize,
    /// The hash states after each whole [`CHECKPOINT`] of `bytes` (with its
    /// revision blank), when the checkpoint file belongs to `bytes`.
    states: Vec<Checkpoint>,
    /// Where this build's checkpoints go.
    states_path: Option<PathBuf>,
    /// How many bytes of the last blank encoding were not hashed again.
    resumed: AtomicUsize,
}

impl std::fmt::Debug for Reuse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reuse")
            .field("bundle_bytes", &self.bytes.len())
            .field("skills", &self.files.len())
            .field("reused", &self.reused.load(Ordering::Relaxed))
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
        Some(Reuse {
            bytes,
            files,
            ..Reuse::default()
        })
    }

    /// The bundle in the file at `path` and the hash checkpoints beside it;
    /// when there is no usable bundle there, nothing to reuse, but the
    /// checkpoints of this build are still written for the next one.
    pub fn load(path: &Path) -> Reuse {
        let mut reuse = std::fs::read(path)
            .ok()
            .and_then(Reuse::from_bundle)
            .unwrap_or_default();
        let states_path = PathBuf::from(format!("{}.sha256-states", path.display()));
        if let Some(revision) = unsigned_revision(&reuse.bytes) {
            reuse.states = std::fs::read(&states_path)
                .ok()
                .and_then(|file| parse_states(&file, revision))
                .unwrap_or_default();
        }
        reuse.states_path = Some(states_path);
        reuse
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
            Some((_, digest)) => {
                self.reused.fetch_add(1, Ordering::Relaxed);
                *digest
            }
            None => sha256(bytes),
        }
    }

    /// How many digests were taken from the earlier bundle so far.
    pub fn reused(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }

    /// How many bytes of the last encoding [`blank_digest`](Self::blank_digest)
    /// did not hash again.
    pub fn resumed(&self) -> usize {
        self.resumed.load(Ordering::Relaxed)
    }

    /// The SHA-256 of `blank`, an unsigned bundle's encoding with its
    /// revision zeroed, resumed from the checkpoint before the first byte
    /// where it differs from the earlier bundle; records this encoding's
    /// checkpoints for the next build (when loaded from a path).
    pub fn blank_digest(&self, blank: &[u8]) -> [u8; 32] {
        // The earlier encoding's revision (its last 33 bytes but one) was
        // zero when it was hashed: compare only the bytes before it.
        let previous = self
            .bytes
            .get(..self.bytes.len().saturating_sub(33))
            .unwrap_or_default();
        let mut whole = 0;
        while whole < self.states.len() {
            let end = (whole + 1) * CHECKPOINT;
            let range = whole * CHECKPOINT..end;
            if end > previous.len() || end > blank.len() || previous[range.clone()] != blank[range]
            {
                break;
            }
            whole += 1;
        }
        let mut states: Vec<Checkpoint> = self.states[..whole].to_vec();
        let resumed = states.last().and_then(Hasher::resume);
        if resumed.is_none() {
            states.clear();
        }
        let mut hasher = resumed.unwrap_or_default();
        let start = states.len() * CHECKPOINT;
        self.resumed.store(start, Ordering::Relaxed);
        for chunk in blank[start..].chunks(CHECKPOINT) {
            hasher.update(chunk);
            if chunk.len() == CHECKPOINT {
                states.extend(hasher.checkpoint());
            }
        }
        let digest = hasher.finalize();
        if let Some(path) = &self.states_path {
            // Bound to the revision: a later build uses these states only
            // beside the bundle that ends in it. A failed write only costs
            // the next build a full hash.
            let mut file = digest.to_vec();
            for state in &states {
                file.extend_from_slice(state);
            }
            let _ = std::fs::write(path, file);
        }
        digest
    }
}

/// The revision an unsigned bundle ends with (then a zero: no bundle
/// signatures).
fn unsigned_revision(bytes: &[u8]) -> Option<&[u8]> {
    let at = bytes.len().checked_sub(33)?;
    (bytes.last() == Some(&0)).then(|| &bytes[at..at + 32])
}

/// The states of a checkpoint file that ends in `revision`.
fn parse_states(file: &[u8], revision: &[u8]) -> Option<Vec<Checkpoint>> {
    let (recorded, states) = file.split_at_checked(32)?;
    if recorded != revision || states.len() % CHECKPOINT_LEN != 0 {
        return None;
    }
    states
        .chunks_exact(CHECKPOINT_LEN)
        .map(|state| Checkpoint::try_from(state).ok())
        .collect()
}
