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
//! The bundle revision is composed of one SHA-256 per skill (see
//! `skills_core::trust::revision::bundle_revision`). Beside the bundle
//! ([`Reuse::load`]'s path plus `.skill-digests`) the compiler keeps those
//! digests, bound to the revision they made; the next build compares each
//! skill's nested encoding with the one the previous bundle holds for the
//! same name (a `memcmp`, fast at any optimisation level) and hashes only
//! the skills that differ. A digest file that does not belong to the
//! bundle beside it is ignored.
//!
//! ```
//! use skills_build::reuse::Reuse;
//! use skills_build::source::MemorySource;
//! let source = MemorySource::new("skills")
//!     .with_file("pdf/SKILL.md", "---\nname: pdf\ndescription: Forms.\n---\nGo.\n")
//!     .with_file("pdf/reference.md", "Use pdfplumber.");
//! let first = skills_build::compile_sources(&[&source]).unwrap().bytes;
//! let reuse = Reuse::from_bundle(first).unwrap();
//! assert_eq!(reuse.file_digest("pdf", "reference.md", b"Use pdfplumber."), skills_core::trust::sha256::digest(b"Use pdfplumber."));
//! assert_eq!(reuse.reused(), 1);
//! reuse.file_digest("pdf", "reference.md", b"changed");
//! assert_eq!(reuse.reused(), 1); // hashed, not reused
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use skills_core::wire::bundle::{Bundle, EncodeError, SkillEntry};

use skills_core::trust::sha256::digest as sha256;

/// Where bytes are in the earlier bundle, and their digest.
type Recorded = (Range<usize>, [u8; 32]);

/// The file and skill digests of an earlier bundle.
#[derive(Default)]
pub struct Reuse {
    bytes: Vec<u8>,
    /// Listed name -> path -> where the file's bytes are in `bytes`, and
    /// their recorded digest.
    files: HashMap<String, HashMap<String, Recorded>>,
    reused: AtomicUsize,
    /// Listed name -> where the skill's nested encoding is in `bytes`, and
    /// the digest of that encoding the last build recorded (when the digest
    /// file belongs to `bytes`).
    skills: HashMap<String, Recorded>,
    /// Where this build's skill digests go.
    digests_path: Option<PathBuf>,
    /// How many skills' digests the last [`encode`](Self::encode) reused.
    skills_reused: AtomicUsize,
}

impl std::fmt::Debug for Reuse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reuse")
            .field("bundle_bytes", &self.bytes.len())
            .field("skills", &self.files.len())
            .field("reused", &self.reused.load(Ordering::Relaxed))
            .field("skills_reused", &self.skills_reused.load(Ordering::Relaxed))
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

    /// The bundle in the file at `path` and the skill digests beside it;
    /// when there is no usable bundle there, nothing to reuse, but the
    /// digests of this build are still written for the next one.
    pub fn load(path: &Path) -> Reuse {
        let mut reuse = std::fs::read(path)
            .ok()
            .and_then(Reuse::from_bundle)
            .unwrap_or_default();
        let digests_path = PathBuf::from(format!("{}.skill-digests", path.display()));
        if let Ok(file) = std::fs::read(&digests_path) {
            reuse.skills = reuse.recorded_skills(&file).unwrap_or_default();
        }
        reuse.digests_path = Some(digests_path);
        reuse
    }

    /// The earlier bundle's skills, each with the digest a digest file
    /// records for it, when the file belongs to the bundle: the bundle's
    /// revision, then one digest per skill in catalog order.
    fn recorded_skills(&self, file: &[u8]) -> Option<HashMap<String, Recorded>> {
        let (entries, revision) = SkillEntry::list(&self.bytes).ok()?;
        let (recorded, digests) = file.split_at_checked(32)?;
        if recorded != revision || revision == [0; 32] || digests.len() != 32 * entries.len() {
            return None;
        }
        let base = self.bytes.as_ptr() as usize;
        let skills = entries
            .iter()
            .zip(digests.chunks_exact(32))
            .map(|(entry, digest)| {
                let start = entry.detail.0.as_ptr() as usize - base;
                let digest: [u8; 32] = digest.try_into().unwrap_or_default();
                (
                    entry.name.to_string(),
                    (start..start + entry.detail.0.len(), digest),
                )
            });
        Some(skills.collect())
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

    /// How many file digests were taken from the earlier bundle so far.
    pub fn reused(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }

    /// How many skills' digests the last [`encode`](Self::encode) took from
    /// the earlier build instead of hashing the skill's encoding again.
    pub fn skills_reused(&self) -> usize {
        self.skills_reused.load(Ordering::Relaxed)
    }

    /// The SHA-256 of `detail`, the nested encoding (signatures left
    /// empty) of the skill listed as `skill`: the recorded one when the
    /// earlier bundle holds exactly these bytes for that skill, computed
    /// otherwise.
    pub fn skill_digest(&self, skill: &str, detail: &[u8]) -> [u8; 32] {
        let recorded = self
            .skills
            .get(skill)
            .filter(|(range, _)| self.bytes.get(range.clone()) == Some(detail));
        match recorded {
            Some((_, digest)) => {
                self.skills_reused.fetch_add(1, Ordering::Relaxed);
                *digest
            }
            None => sha256(detail),
        }
    }

    /// Records the bundle's revision and encodes it
    /// (`skills_core::trust::revision::encode_with_revision`), each skill's digest
    /// from [`skill_digest`](Self::skill_digest); then writes the digests
    /// for the next build (when loaded from a path).
    pub fn encode(&self, bundle: &mut Bundle<'_>) -> Result<Vec<u8>, EncodeError> {
        self.skills_reused.store(0, Ordering::Relaxed);
        let digests = RefCell::new(Vec::with_capacity(bundle.skills.len()));
        let bytes = skills_core::trust::revision::encode_with_revision_by(bundle, &mut |name, detail| {
            let digest = self.skill_digest(name, detail);
            digests.borrow_mut().push(digest);
            digest
        })?;
        self.record(bundle.revision, digests.into_inner().iter());
        Ok(bytes)
    }

    /// Writes the skill digests of a bundle of this `revision` for the next
    /// build (when loaded from a path), one per skill in catalog order.
    pub fn record<'d>(&self, revision: [u8; 32], digests: impl Iterator<Item = &'d [u8; 32]>) {
        if let Some(path) = &self.digests_path {
            // Bound to the revision: a later build uses these digests only
            // beside the bundle that records it. A failed write only costs
            // the next build a full hash.
            let mut file = revision.to_vec();
            for digest in digests {
                file.extend_from_slice(digest);
            }
            let _ = std::fs::write(path, file);
        }
    }
}
