//! A bundle kept outside memory (a file) and read a skill at a time:
//! [`PagedBundle`], which a [`Catalog`](crate::Catalog) opens with
//! [`Catalog::paged`](crate::Catalog::paged).
//!
//! Opening reads the head (the texts, the names, the name index, the
//! listing order and the tables of ends: about 40 bytes a skill) and the
//! tail (the revision and the signatures), and nothing else; a skill's
//! encoding is read, with one positioned read, when the catalog first uses
//! the skill. What was read is what is served: a skill's bytes are read
//! into memory once and kept (for a call or a read of its files), or read
//! for one use and dropped (for a listing), never borrowed from a mapping
//! that another process could change or truncate underneath.
//!
//! A bundle verified at start ([`PagedBundle::pinned`]) pins each skill's
//! encoding by its SHA-256 as verified, and a skill read later is served
//! only if its bytes are those: a file rewritten in place after the check
//! gives an error for each skill whose bytes changed
//! ([`DecodeError::Unreadable`]), never those bytes under a verified
//! status. An unpinned bundle trusts its [`ReadAt`] to say when the file is
//! no longer the one opened (the `skills` command compares the file's
//! identity, size and times after each read).
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! use skills_core::serve::paged::{PagedBundle, ReadAt, ReadAtError};
//!
//! /// Bytes in memory, read as a file would be.
//! struct Memory(Vec<u8>);
//! impl ReadAt for Memory {
//!     fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadAtError> {
//!         let start = usize::try_from(offset).map_err(|_| ReadAtError::new("past the end"))?;
//!         let there = self.0.get(start..start + buf.len()).ok_or_else(|| ReadAtError::new("past the end"))?;
//!         buf.copy_from_slice(there);
//!         Ok(())
//!     }
//! }
//!
//! let len = bytes.len() as u64;
//! let paged = PagedBundle::open(Memory(bytes), len)?;
//! let catalog = skills_core::Catalog::paged(&paged)?;
//! assert_eq!(catalog.call("pdf", Some("reference.md")).unwrap().reply.as_text(), Some("Use pdfplumber"));
//! # Ok::<(), skills_core::DecodeError>(())
//! ```

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

use once_cell::race::OnceBox;

use crate::sha256::digest;
use crate::wire::bundle::HEADER_LEN;
use crate::wire::decode::{DecodeError, body, decode_body, decode_parts};
use crate::wire::layout::{View, head_len};
use crate::wire::postcard::{WireError, WireErrorKind};

/// Positioned reads of the bytes of a bundle kept outside memory: what a
/// [`PagedBundle`] reads through. A file's implementation reads with
/// `pread` (`std::os::unix::fs::FileExt::read_exact_at`), and fails when
/// the file is no longer the one opened.
pub trait ReadAt: Sync {
    /// Fills `buf` with the bytes at `offset`, all of them, or says why
    /// not.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadAtError>;
}

/// Why a [`ReadAt`] could not read, for a person.
///
/// ```
/// let error = skills_core::serve::paged::ReadAtError::new("the file shrank");
/// assert_eq!(error.to_string(), "the file shrank");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadAtError(String);

impl ReadAtError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        ReadAtError(message.into())
    }
}

impl fmt::Display for ReadAtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for ReadAtError {}

impl From<ReadAtError> for DecodeError {
    fn from(error: ReadAtError) -> Self {
        DecodeError::Unreadable { message: error.0 }
    }
}

/// The first read of a bundle's head; the head is read again, twice as
/// long, until it holds the whole head.
const FIRST_HEAD_READ: u64 = 64 * 1024;

/// A bundle read a skill at a time through a [`ReadAt`]: see the [module
/// documentation](self).
pub struct PagedBundle<R> {
    source: R,
    /// The bytes before the skills' encodings, header included.
    head: Vec<u8>,
    /// The bytes after them: the revision and the signatures.
    tail: Vec<u8>,
    /// Each skill's encoding, read once and kept.
    kept: Vec<OnceBox<Result<Box<[u8]>, DecodeError>>>,
    /// Each skill's encoding's SHA-256 as verified, for a pinned bundle.
    pins: Option<Vec<[u8; 32]>>,
}

impl<R> fmt::Debug for PagedBundle<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PagedBundle")
            .field("head", &self.head.len())
            .field("tail", &self.tail.len())
            .field("skills", &self.kept.len())
            .field("pinned", &self.pins.is_some())
            .finish()
    }
}

/// The encodings would run past the end of the bundle.
fn ends_early(at: usize) -> DecodeError {
    DecodeError::Corrupt(WireError {
        kind: WireErrorKind::UnexpectedEnd,
        offset: at,
    })
}

impl<R: ReadAt> PagedBundle<R> {
    /// Opens the bundle of `len` bytes that `source` reads: reads and
    /// checks its head and its tail (as [`Catalog::open`](crate::Catalog::open)
    /// checks them), nothing of its skills.
    pub fn open(source: R, len: u64) -> Result<Self, DecodeError> {
        let mut head: Vec<u8> = Vec::new();
        let mut want = FIRST_HEAD_READ.min(len);
        let (body_len, details_len) = loop {
            let read = head.len();
            let want_usize = usize::try_from(want).map_err(|_| ends_early(read))?;
            head.resize(want_usize, 0);
            source.read_at(read as u64, &mut head[read..])?;
            let body = body(&head)?;
            match head_len(body).map_err(DecodeError::Corrupt)? {
                Some(found) => break found,
                None if want >= len => return Err(ends_early(body.len())),
                None => want = want.saturating_mul(2).min(len),
            }
        };
        head.truncate(HEADER_LEN + body_len);
        let tail_at = (head.len() as u64)
            .checked_add(details_len as u64)
            .filter(|&at| at <= len)
            .ok_or_else(|| ends_early(body_len))?;
        let tail_len = usize::try_from(len - tail_at).map_err(|_| ends_early(body_len))?;
        let mut tail = vec![0; tail_len];
        source.read_at(tail_at, &mut tail)?;
        let count = decode_parts(&head, &tail)?.len();
        Ok(PagedBundle {
            source,
            head,
            tail,
            kept: (0..count).map(|_| OnceBox::new()).collect(),
            pins: None,
        })
    }

    /// Opens the bundle whose exact bytes are `bytes`, as read from
    /// `source` and checked by the caller (a trust policy's
    /// `verify_bytes`): the head and the tail are taken from `bytes`, and
    /// each skill's encoding is pinned to its SHA-256 in `bytes`, so a
    /// skill read later from `source` is served only if it is what was
    /// checked. `bytes` can be dropped afterwards.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # use skills_core::serve::paged::{PagedBundle, ReadAt, ReadAtError};
    /// # struct Memory(std::sync::Mutex<Vec<u8>>);
    /// # impl ReadAt for Memory {
    /// #     fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadAtError> {
    /// #         let bytes = self.0.lock().unwrap();
    /// #         buf.copy_from_slice(&bytes[offset as usize..offset as usize + buf.len()]);
    /// #         Ok(())
    /// #     }
    /// # }
    /// let file = Memory(std::sync::Mutex::new(bytes.clone()));
    /// let paged = PagedBundle::pinned(file, &bytes)?;
    /// // The file changes after the check: the skill is not served.
    /// let at = bytes.windows(4).rposition(|w| w == b"Use ").unwrap();
    /// paged.source().0.lock().unwrap()[at] = b'R';
    /// let catalog = skills_core::Catalog::paged(&paged)?;
    /// let error = catalog.call("pdf", Some("reference.md")).unwrap_err();
    /// assert!(error.to_string().contains("changed after it was verified"), "{error}");
    /// # Ok::<(), skills_core::DecodeError>(())
    /// ```
    pub fn pinned(source: R, bytes: &[u8]) -> Result<Self, DecodeError> {
        let view: View<'_> = decode_body(bytes)?;
        let Some((body_len, details_len)) = head_len(body(bytes)?).map_err(DecodeError::Corrupt)?
        else {
            return Err(ends_early(bytes.len()));
        };
        let details_at = HEADER_LEN + body_len;
        let tail_at = details_at + details_len;
        let pins = (0..view.len()).map(|at| digest(view.detail(at))).collect();
        Ok(PagedBundle {
            source,
            head: bytes.get(..details_at).unwrap_or_default().to_vec(),
            tail: bytes.get(tail_at..).unwrap_or_default().to_vec(),
            kept: (0..view.len()).map(|_| OnceBox::new()).collect(),
            pins: Some(pins),
        })
    }

    /// What the bundle is read through.
    pub fn source(&self) -> &R {
        &self.source
    }

    /// The bundle's head (header included) and tail, as read or given.
    pub(crate) fn parts(&self) -> (&[u8], &[u8]) {
        (&self.head, &self.tail)
    }

    /// Reads the encoding of skill `at`, which lies at `span` among the
    /// skills' encodings, and checks it against its pin.
    fn fetch(&self, at: usize, span: Range<usize>) -> Result<Vec<u8>, DecodeError> {
        let mut buf = vec![0; span.len()];
        let offset = (self.head.len() as u64).saturating_add(span.start as u64);
        self.source.read_at(offset, &mut buf)?;
        if let Some(pins) = &self.pins
            && pins.get(at) != Some(&digest(&buf))
        {
            return Err(DecodeError::Unreadable {
                message: format!(
                    "the bundle file changed after it was verified: this skill's {} bytes differ from those checked at start, so they are not served; restart the server to serve the new file",
                    buf.len()
                ),
            });
        }
        Ok(buf)
    }
}

/// A catalog's way to a paged bundle's skills, whatever its [`ReadAt`].
pub(crate) trait Records: Sync {
    /// The encoding of skill `at` (at `span` among the encodings), read
    /// once and kept as long as the bundle.
    fn kept(&self, at: usize, span: Range<usize>) -> Result<&[u8], DecodeError>;

    /// The encoding of skill `at`, read for one use.
    fn read(&self, at: usize, span: Range<usize>) -> Result<Vec<u8>, DecodeError>;
}

impl<R: ReadAt> Records for PagedBundle<R> {
    fn kept(&self, at: usize, span: Range<usize>) -> Result<&[u8], DecodeError> {
        let Some(cell) = self.kept.get(at) else {
            return Err(ends_early(0));
        };
        cell.get_or_init(|| Box::new(self.fetch(at, span).map(Vec::into_boxed_slice)))
            .as_deref()
            .map_err(Clone::clone)
    }

    fn read(&self, at: usize, span: Range<usize>) -> Result<Vec<u8>, DecodeError> {
        match self.kept.get(at).and_then(OnceBox::get) {
            Some(Ok(kept)) => Ok(kept.to_vec()),
            _ => self.fetch(at, span),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::Catalog;
    use crate::wire::bundle::{Bundle, Skill};
    use alloc::borrow::ToOwned;
    use alloc::string::ToString;
    use core::sync::atomic::{AtomicUsize, Ordering};

    /// Bytes read as a file, counting the reads and the bytes read.
    struct Counted {
        bytes: Vec<u8>,
        reads: AtomicUsize,
        read_bytes: AtomicUsize,
    }

    impl ReadAt for Counted {
        fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadAtError> {
            self.reads.fetch_add(1, Ordering::Relaxed);
            self.read_bytes.fetch_add(buf.len(), Ordering::Relaxed);
            let start = offset as usize;
            let there = self
                .bytes
                .get(start..start + buf.len())
                .ok_or_else(|| ReadAtError::new("the file is shorter than when it was opened"))?;
            buf.copy_from_slice(there);
            Ok(())
        }
    }

    fn counted(bytes: Vec<u8>) -> Counted {
        Counted {
            bytes,
            reads: AtomicUsize::new(0),
            read_bytes: AtomicUsize::new(0),
        }
    }

    /// `count` skills, `skill-00000` on, each with its own instructions.
    pub(crate) fn bundle(count: usize) -> Vec<u8> {
        let names: Vec<String> = (0..count).map(|at| format!("skill-{at:05}")).collect();
        let instructions: Vec<String> = (0..count)
            .map(|at| format!("Step {at}.\n{}", "x".repeat(200)))
            .collect();
        Bundle {
            skills: names
                .iter()
                .zip(&instructions)
                .map(|(name, text)| Skill {
                    name,
                    description: "A skill.",
                    instructions: text,
                    body_len: text.len(),
                    ..Skill::default()
                })
                .collect(),
            ..Bundle::default()
        }
        .encode()
        .unwrap()
    }

    #[test]
    fn opening_reads_the_head_and_tail_only_and_a_call_one_skill() {
        let bytes = bundle(2000);
        let len = bytes.len() as u64;
        let paged = PagedBundle::open(counted(bytes.clone()), len).unwrap();
        let opened = paged.source().read_bytes.load(Ordering::Relaxed);
        assert!(
            opened < bytes.len() / 4,
            "{opened} of {} bytes",
            bytes.len()
        );
        let catalog = Catalog::paged(&paged).unwrap();
        let held = Catalog::from_bytes(&bytes).unwrap();
        assert_eq!(catalog.len(), 2000);
        let before = paged.source().reads.load(Ordering::Relaxed);
        let served = catalog.call("skill-01234", None).unwrap();
        assert_eq!(served, held.call("skill-01234", None).unwrap());
        assert_eq!(paged.source().reads.load(Ordering::Relaxed), before + 1);
        // Kept: a second call reads nothing.
        catalog.call("skill-01234", None).unwrap();
        assert_eq!(paged.source().reads.load(Ordering::Relaxed), before + 1);
        for at in [0, 1999] {
            assert_eq!(
                catalog.with_skill(at, |skill| skill.instructions.to_owned()),
                Ok(held.skill_at(at).unwrap().instructions.to_owned())
            );
        }
        assert_eq!(catalog.check(), Ok(()));
    }

    /// The head grows past its first read: a bundle with a long usage text.
    #[test]
    fn a_head_longer_than_the_first_read_is_read_whole() {
        let usage = "u".repeat(200_000);
        let bytes = Bundle {
            usage: &usage,
            skills: alloc::vec![Skill {
                name: "a",
                ..Skill::default()
            }],
            ..Bundle::default()
        }
        .encode()
        .unwrap();
        let len = bytes.len() as u64;
        let paged = PagedBundle::open(counted(bytes), len).unwrap();
        let catalog = Catalog::paged(&paged).unwrap();
        assert_eq!(catalog.usage().len(), 200_000);
        assert!(catalog.call("a", None).is_ok());
    }

    #[test]
    fn what_does_not_open_is_refused_and_a_short_file_is_an_error_per_skill() {
        let bytes = bundle(3);
        for cut in [0, 3, 6, 20, bytes.len() - 1] {
            assert!(
                PagedBundle::open(counted(bytes[..cut].to_vec()), cut as u64).is_err(),
                "cut at {cut}"
            );
        }
        // A file that shrinks after opening: the skills past its end are
        // errors, the others served.
        let paged = PagedBundle::open(counted(bytes.clone()), bytes.len() as u64).unwrap();
        let view: View<'_> = decode_body(&bytes).unwrap();
        let mut short = bytes.clone();
        short.truncate(paged.head.len() + view.detail_span(2).start);
        let paged = PagedBundle {
            source: counted(short),
            ..paged
        };
        let catalog = Catalog::paged(&paged).unwrap();
        assert!(catalog.call("skill-00000", None).is_ok());
        let error = catalog.call("skill-00002", None).unwrap_err().to_string();
        assert!(error.contains("shorter than when it was opened"), "{error}");
    }

    #[test]
    fn a_pinned_bundle_serves_only_the_bytes_checked() {
        let bytes = bundle(3);
        let mut changed = bytes.clone();
        let at = changed.windows(6).rposition(|w| w == b"Step 1").unwrap();
        changed[at] = b's';
        let paged = PagedBundle::pinned(counted(changed), &bytes).unwrap();
        let catalog = Catalog::paged(&paged).unwrap();
        assert!(catalog.call("skill-00000", None).is_ok());
        let error = catalog.call("skill-00001", None).unwrap_err().to_string();
        assert!(error.contains("changed after it was verified"), "{error}");
        assert!(catalog.with_skill(1, |_| ()).is_err());
        assert!(catalog.with_skill(2, |_| ()).is_ok());
        // Past the end: not a skill, not a changed file.
        let past = catalog.with_skill(3, |_| ()).unwrap_err().to_string();
        assert!(!past.contains("after it was verified"), "{past}");
    }
}
