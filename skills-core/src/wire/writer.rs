//! Writing a bundle one skill at a time: the one encoder every route of
//! the compiler ends in (and [`Bundle::encode`], for a bundle held whole).
//!
//! A [`BundleWriter`] takes the catalog-wide texts, then each skill in
//! catalog order, either as a [`Skill`] it encodes itself
//! ([`push`](BundleWriter::push)) or as an encoding made elsewhere, on
//! another thread ([`push_encoded`](BundleWriter::push_encoded), with what
//! [`encode_skill`] gave). It appends each encoding to the one buffer that
//! becomes the bundle, keeps the names and the two tables of ends, and the
//! skills' digests for the bundle revision. [`finish`](BundleWriter::finish)
//! builds the name index, writes the layout's head in front of the
//! encodings where they lie (one move of the buffer, no second copy of
//! the bundle), then the revision and the signatures.
//!
//! A skill's digest is the SHA-256 of its own encoding with the bytes its
//! recorded digests cover (frontmatter, instructions, stored skill file,
//! each file's bytes) replaced by those digests, and its signatures by an
//! empty list; it is computed while the skill is encoded, so every byte of
//! a file is hashed once, for the file's own digest. The bundle revision
//! is composed of these digests (see `trust::revision`, feature
//! `revision`).
//!
//! ```
//! use skills_core::wire::bundle::{Bundle, Skill};
//! use skills_core::wire::writer::{BundleWriter, encode_skill};
//!
//! let pdf = Skill { name: "pdf", description: "Fill PDF forms.", ..Skill::default() };
//! let git = Skill { name: "git", description: "Rebase.", ..Skill::default() };
//! let mut writer = BundleWriter::new(&Bundle::default());
//! writer.push(&pdf).unwrap();
//! // A skill encoded elsewhere (another thread), handed over as bytes.
//! let mut detail = Vec::new();
//! let digest = encode_skill(&git, &mut detail);
//! writer.push_encoded("git", &detail, digest).unwrap();
//! let revision = writer.revision();
//! let bytes = writer.finish(revision, &[]).unwrap();
//!
//! let whole = Bundle { skills: vec![pdf, git], revision, ..Bundle::default() };
//! assert_eq!(bytes, whole.encode().unwrap());
//! ```
//!
//! A bundle too large to hold can be streamed instead: the caller writes
//! each skill's encoding out itself (to a file) and pushes only its length
//! ([`push_written`](BundleWriter::push_written));
//! [`finish_around`](BundleWriter::finish_around) then gives the head and
//! the tail to write around those encodings, the same bytes in the end.

use alloc::string::String;
use alloc::vec::Vec;

use crate::sha256::Hasher;
use crate::wire::bundle::{
    Bundle, BundleError, EncodeError, FORMAT_VERSION, HEADER_LEN, MAGIC, Signature, Skill,
    check_skill,
};
use crate::wire::names::Index;
use crate::wire::postcard::{Encode, Sink, put_table, put_varint};

/// Appends an encoding to a buffer and hashes it as a skill's digest
/// covers it.
struct DigestSink<'o> {
    out: &'o mut Vec<u8>,
    hasher: Hasher,
}

impl Sink for DigestSink<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
        self.hasher.update(bytes);
    }

    fn put_digested(&mut self, bytes: &[u8], stand_in: &[u8]) {
        self.out.extend_from_slice(bytes);
        self.hasher.update(stand_in);
    }
}

/// Hashes an encoding as a skill's digest covers it, writing nothing.
struct HashSink(Hasher);

impl Sink for HashSink {
    fn put(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn put_digested(&mut self, _bytes: &[u8], stand_in: &[u8]) {
        self.0.update(stand_in);
    }
}

/// Appends `skill`'s own encoding (every field but its name) to `out` and
/// returns the skill's digest, in one pass. Does not check the skill's
/// rules (see [`Skill::check`]).
///
/// ```
/// use skills_core::wire::bundle::{Skill, SkillEntry};
/// use skills_core::wire::writer::{encode_skill, skill_digest};
/// let skill = Skill { name: "pdf", description: "Forms.", ..Skill::default() };
/// let mut detail = Vec::new();
/// let digest = encode_skill(&skill, &mut detail);
/// assert_eq!(detail, SkillEntry::encode(&skill).detail);
/// assert_eq!(digest, skill_digest(&skill));
/// ```
pub fn encode_skill(skill: &Skill<'_>, out: &mut Vec<u8>) -> [u8; 32] {
    let mut sink = DigestSink {
        out,
        hasher: Hasher::new(),
    };
    skill.encode(&mut sink);
    sink.hasher.finalize()
}

/// A skill's digest (see the [module documentation](self)), without
/// writing its encoding: what the bundle revision is composed of.
///
/// ```
/// use skills_core::wire::bundle::{Bytes, Signature, Skill};
/// use skills_core::wire::writer::skill_digest;
/// let skill = Skill { name: "pdf", ..Skill::default() };
/// let signed = Skill {
///     signatures: vec![Signature { key_id: "k", origin: "acme", signature: Bytes(&[0; 64]) }],
///     ..skill.clone()
/// };
/// // Signing does not change the digest; any other change does.
/// assert_eq!(skill_digest(&signed), skill_digest(&skill));
/// assert_ne!(skill_digest(&Skill { description: "x", ..skill.clone() }), skill_digest(&skill));
/// ```
pub fn skill_digest(skill: &Skill<'_>) -> [u8; 32] {
    let mut sink = HashSink(Hasher::new());
    skill.encode(&mut sink);
    sink.0.finalize()
}

/// Writes a bundle one skill at a time: see the [module documentation](self).
#[derive(Debug)]
pub struct BundleWriter<'t> {
    prompt: Option<&'t str>,
    usage: &'t str,
    tool_description: &'t str,
    tool_schema: &'t str,
    names: String,
    name_ends: Vec<u32>,
    /// The skills' encodings, one after the other; the bundle at the end.
    details: Vec<u8>,
    /// How many bytes of encodings: `details.len()`, or for a writer that
    /// only compares (`is_encoding_of`), what it would hold.
    details_len: usize,
    detail_ends: Vec<u32>,
    digests: Vec<[u8; 32]>,
}

impl<'t> BundleWriter<'t> {
    /// A writer of a bundle with `texts`' catalog-wide texts (its prompt,
    /// usage paragraph, tool description and schema; its skills, revision
    /// and signatures are not used).
    ///
    /// ```
    /// use skills_core::wire::{bundle::Bundle, writer::BundleWriter};
    /// let writer = BundleWriter::new(&Bundle::default());
    /// assert_eq!(writer.len(), 0);
    /// ```
    pub fn new(texts: &Bundle<'t>) -> Self {
        BundleWriter {
            prompt: texts.prompt,
            usage: texts.usage,
            tool_description: texts.tool_description,
            tool_schema: texts.tool_schema,
            names: String::new(),
            name_ends: Vec::new(),
            details: Vec::new(),
            details_len: 0,
            detail_ends: Vec::new(),
            digests: Vec::new(),
        }
    }

    /// Reserves room for `skills` more skills of `bytes` more bytes of
    /// encodings, for a caller that knows (or guesses) the size.
    ///
    /// ```
    /// use skills_core::wire::{bundle::Bundle, writer::BundleWriter};
    /// let mut writer = BundleWriter::new(&Bundle::default());
    /// writer.reserve(10, 4096);
    /// ```
    pub fn reserve(&mut self, skills: usize, bytes: usize) {
        self.details.reserve(bytes);
        self.name_ends.reserve(skills);
        self.detail_ends.reserve(skills);
        self.digests.reserve(skills);
    }

    /// How many skills were pushed.
    ///
    /// ```
    /// use skills_core::wire::{bundle::{Bundle, Skill}, writer::BundleWriter};
    /// let mut writer = BundleWriter::new(&Bundle::default());
    /// writer.push(&Skill { name: "a", ..Skill::default() }).unwrap();
    /// assert_eq!(writer.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.digests.len()
    }

    /// Whether no skill was pushed.
    ///
    /// ```
    /// use skills_core::wire::{bundle::Bundle, writer::BundleWriter};
    /// assert!(BundleWriter::new(&Bundle::default()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.digests.is_empty()
    }

    /// Checks `skill` (see [`Skill::check`]) and appends it, encoding it
    /// and computing its digest in one pass.
    ///
    /// ```
    /// use skills_core::wire::{bundle::{Bundle, Skill}, writer::BundleWriter};
    /// let mut writer = BundleWriter::new(&Bundle::default());
    /// assert!(writer.push(&Skill { name: "a", body_len: 9, ..Skill::default() }).is_err());
    /// ```
    pub fn push(&mut self, skill: &Skill<'_>) -> Result<(), EncodeError> {
        check_skill(skill)?;
        let digest = encode_skill(skill, &mut self.details);
        self.details_len = self.details.len();
        self.end_skill(skill.name, digest)
    }

    /// Appends a skill encoded elsewhere: `detail` and `digest` as
    /// [`encode_skill`] gave them for a skill listed as `name` that passed
    /// [`Skill::check`].
    ///
    /// ```
    /// use skills_core::wire::{bundle::{Bundle, Skill}, writer::{BundleWriter, encode_skill}};
    /// let mut detail = Vec::new();
    /// let digest = encode_skill(&Skill::default(), &mut detail);
    /// let mut writer = BundleWriter::new(&Bundle::default());
    /// writer.push_encoded("a", &detail, digest).unwrap();
    /// ```
    pub fn push_encoded(
        &mut self,
        name: &str,
        detail: &[u8],
        digest: [u8; 32],
    ) -> Result<(), EncodeError> {
        self.details.extend_from_slice(detail);
        self.details_len = self.details.len();
        self.end_skill(name, digest)
    }

    /// Appends a skill whose encoding the caller wrote elsewhere (streamed
    /// to a file, say): `len` bytes, and the `digest` that
    /// [`encode_skill`] gave with them. Every skill of such a writer goes
    /// in this way, and [`finish_around`](Self::finish_around) ends it.
    ///
    /// ```
    /// use skills_core::wire::{bundle::{Bundle, Skill}, writer::{BundleWriter, encode_skill}};
    /// let mut detail = Vec::new();
    /// let digest = encode_skill(&Skill::default(), &mut detail);
    /// let mut writer = BundleWriter::new(&Bundle::default());
    /// writer.push_written("a", detail.len(), digest).unwrap();
    /// assert_eq!(writer.len(), 1);
    /// ```
    pub fn push_written(
        &mut self,
        name: &str,
        len: usize,
        digest: [u8; 32],
    ) -> Result<(), EncodeError> {
        self.details_len = self
            .details_len
            .checked_add(len)
            .ok_or(EncodeError::TooLarge)?;
        self.end_skill(name, digest)
    }

    fn end_skill(&mut self, name: &str, digest: [u8; 32]) -> Result<(), EncodeError> {
        self.names.push_str(name);
        let name_end = u32::try_from(self.names.len()).map_err(|_| EncodeError::TooLarge)?;
        let detail_end = u32::try_from(self.details_len).map_err(|_| EncodeError::TooLarge)?;
        self.name_ends.push(name_end);
        self.detail_ends.push(detail_end);
        self.digests.push(digest);
        Ok(())
    }

    /// The listed name of the skill pushed `at`-th.
    fn name(&self, at: usize) -> &str {
        let start = match at {
            0 => 0,
            _ => self.name_ends.get(at - 1).map_or(0, |&end| end as usize),
        };
        let end = self.name_ends.get(at).map_or(0, |&end| end as usize);
        self.names.get(start..end).unwrap_or_default()
    }

    /// The bundle revision of the skills pushed so far: the SHA-256 of the
    /// header, the catalog-wide texts, the number of skills, and each
    /// skill's listed name and digest (exactly: see
    /// `trust::revision::bundle_revision`).
    ///
    /// ```
    /// use skills_core::wire::{bundle::{Bundle, Skill}, writer::BundleWriter};
    /// let mut writer = BundleWriter::new(&Bundle::default());
    /// let empty = writer.revision();
    /// writer.push(&Skill { name: "a", ..Skill::default() }).unwrap();
    /// assert_ne!(writer.revision(), empty);
    /// ```
    pub fn revision(&self) -> [u8; 32] {
        revision_of(
            self.texts(),
            self.len(),
            (0..self.len()).map(|at| (self.name(at), self.digests[at])),
        )
    }

    fn texts(&self) -> Texts<'_> {
        Texts {
            prompt: self.prompt,
            usage: self.usage,
            tool_description: self.tool_description,
            tool_schema: self.tool_schema,
        }
    }

    /// The bundle: the layout's head (the texts, the names and their ends,
    /// the name index, the encodings' ends) moved in front of the
    /// encodings, then `revision` and `signatures`. Fails when a name was
    /// pushed twice.
    ///
    /// ```
    /// use skills_core::wire::{bundle::{Bundle, EncodeError, Skill}, writer::BundleWriter};
    /// let mut writer = BundleWriter::new(&Bundle::default());
    /// writer.push(&Skill { name: "a", ..Skill::default() }).unwrap();
    /// writer.push(&Skill { name: "a", ..Skill::default() }).unwrap();
    /// assert!(matches!(writer.finish([0; 32], &[]), Err(EncodeError::Invalid(_))));
    /// ```
    pub fn finish(
        self,
        revision: [u8; 32],
        signatures: &[Signature<'_>],
    ) -> Result<Vec<u8>, EncodeError> {
        if self.details.len() != self.details_len {
            return Err(EncodeError::Misplaced);
        }
        let index = self.index()?;
        Ok(self.assemble(&index, revision, signatures))
    }

    /// For a writer whose skills were all pushed with
    /// [`push_written`](Self::push_written): the bytes that go before
    /// their encodings and those that go after, so that head, encodings
    /// (in the order pushed) and tail are the bundle [`finish`](Self::finish)
    /// would have made. Fails when a name was pushed twice.
    ///
    /// ```
    /// use skills_core::wire::{bundle::{Bundle, Skill}, writer::{BundleWriter, encode_skill}};
    /// let skill = Skill { name: "pdf", description: "Fill PDF forms.", ..Skill::default() };
    /// let mut detail = Vec::new();
    /// let digest = encode_skill(&skill, &mut detail);
    /// let mut streamed = BundleWriter::new(&Bundle::default());
    /// streamed.push_written("pdf", detail.len(), digest).unwrap();
    /// let revision = streamed.revision();
    /// let around = streamed.finish_around(revision, &[]).unwrap();
    /// let mut held = BundleWriter::new(&Bundle::default());
    /// held.push(&skill).unwrap();
    /// assert_eq!([around.head, detail, around.tail].concat(), held.finish(revision, &[]).unwrap());
    /// ```
    pub fn finish_around(
        self,
        revision: [u8; 32],
        signatures: &[Signature<'_>],
    ) -> Result<Around, EncodeError> {
        if !self.details.is_empty() {
            return Err(EncodeError::Misplaced);
        }
        let index = self.index()?;
        Ok(Around {
            head: self.head(&index),
            tail: tail(revision, signatures),
        })
    }

    /// The name index of the names pushed, or why there is none.
    fn index(&self) -> Result<Index<'static>, EncodeError> {
        Index::build(self.len(), |at| self.name(at))
            .map_err(|error| EncodeError::Invalid(BundleError::from(error)))
    }

    /// [`finish`](Self::finish) without refusing a name given twice: such
    /// names get a sorted index holding both (for tests of what the decoder
    /// refuses).
    #[cfg(test)]
    pub(crate) fn finish_unchecked(
        self,
        revision: [u8; 32],
        signatures: &[Signature<'_>],
    ) -> Vec<u8> {
        let index = Index::build(self.len(), |at| self.name(at)).unwrap_or_else(|_| {
            let mut order: Vec<u32> = (0..self.len() as u32).collect();
            order.sort_by(|&a, &b| self.name(a as usize).cmp(self.name(b as usize)));
            Index::Sorted {
                order: crate::wire::names::Table::Built(order),
            }
        });
        self.assemble(&index, revision, signatures)
    }

    /// The bytes before the encodings: header, texts, names and their
    /// ends, the name index, the listing order, the encodings' ends and
    /// their total length.
    fn head(&self, index: &Index<'_>) -> Vec<u8> {
        let mut head: Vec<u8> =
            Vec::with_capacity(HEADER_LEN + 512 + self.names.len() + 20 * self.len() + 8);
        head.extend_from_slice(&MAGIC);
        head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        self.texts().encode(&mut head);
        put_varint(&mut head, self.len() as u64);
        self.names.as_str().encode(&mut head);
        put_table(&mut head, &self.name_ends);
        index.encode(&mut head);
        put_table(
            &mut head,
            &crate::wire::listing::order(self.len(), |at| self.name(at)),
        );
        put_table(&mut head, &self.detail_ends);
        put_varint(&mut head, self.details_len as u64);
        head
    }

    fn assemble(
        self,
        index: &Index<'_>,
        revision: [u8; 32],
        signatures: &[Signature<'_>],
    ) -> Vec<u8> {
        let head = self.head(index);
        let mut out = self.details;
        let tail = tail(revision, signatures);
        out.reserve_exact(head.len() + tail.len());
        // The head goes in front of the encodings where they lie: one move
        // within the buffer, not a second buffer of the bundle's size.
        out.splice(0..0, head);
        out.extend_from_slice(&tail);
        out
    }
}

/// What [`BundleWriter::finish_around`] gives: the bytes before the skills'
/// encodings and the bytes after them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Around {
    /// The header, the catalog-wide texts, the names, the name index and
    /// the tables of ends.
    pub head: Vec<u8>,
    /// The bundle revision and the signatures.
    pub tail: Vec<u8>,
}

/// The bytes after the encodings: the revision and the signatures.
fn tail(revision: [u8; 32], signatures: &[Signature<'_>]) -> Vec<u8> {
    let mut tail: Vec<u8> = Vec::with_capacity(33 + 128 * signatures.len());
    tail.extend_from_slice(&revision);
    signatures.encode(&mut tail);
    tail
}

/// Counts the bytes of an encoding.
#[cfg(feature = "verify")]
struct CountSink(usize);

#[cfg(feature = "verify")]
impl Sink for CountSink {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Compares an encoding with bytes, front to back.
#[cfg(feature = "verify")]
struct CompareSink<'e> {
    expected: &'e [u8],
    at: usize,
    same: bool,
}

#[cfg(feature = "verify")]
impl Sink for CompareSink<'_> {
    fn put(&mut self, bytes: &[u8]) {
        let end = self.at.saturating_add(bytes.len());
        match self.expected.get(self.at..end) {
            // A slice of the very bytes compared (a decoded file) is equal.
            Some(there) if there.as_ptr() == bytes.as_ptr() || there == bytes => {}
            _ => self.same = false,
        }
        self.at = end;
    }
}

/// Whether `bytes` are exactly what [`Bundle::encode`] writes for
/// `bundle` (which must pass [`Bundle::check`]), compared piece by piece
/// without writing the encoding out.
#[cfg(feature = "verify")]
pub(crate) fn is_encoding_of(bundle: &Bundle<'_>, bytes: &[u8]) -> bool {
    let mut writer = BundleWriter::new(bundle);
    for skill in &bundle.skills {
        let mut count = CountSink(0);
        skill.encode(&mut count);
        writer.details_len = writer.details_len.saturating_add(count.0);
        if writer.end_skill(skill.name, [0; 32]).is_err() {
            return false;
        }
    }
    let Ok(index) = Index::build(writer.len(), |at| writer.name(at)) else {
        return false;
    };
    let head = writer.head(&index);
    if bytes.get(..head.len()) != Some(&head[..]) {
        return false;
    }
    let mut compare = CompareSink {
        expected: bytes,
        at: head.len(),
        same: true,
    };
    for skill in &bundle.skills {
        skill.encode(&mut compare);
        if !compare.same {
            return false;
        }
    }
    compare.put(&tail(bundle.revision, &bundle.signatures));
    compare.same && compare.at == bytes.len()
}

/// The catalog-wide texts, in their order on the wire.
struct Texts<'t> {
    prompt: Option<&'t str>,
    usage: &'t str,
    tool_description: &'t str,
    tool_schema: &'t str,
}

impl Encode for Texts<'_> {
    fn encode(&self, out: &mut dyn Sink) {
        self.prompt.encode(out);
        self.usage.encode(out);
        self.tool_description.encode(out);
        self.tool_schema.encode(out);
    }
}

/// The bundle revision's preimage, hashed: the header, the texts, the
/// count, then each skill's name and digest.
fn revision_of<'n>(
    texts: Texts<'_>,
    count: usize,
    skills: impl Iterator<Item = (&'n str, [u8; 32])>,
) -> [u8; 32] {
    let mut sink = HashSink(Hasher::new());
    sink.put(&MAGIC);
    sink.put(&FORMAT_VERSION.to_le_bytes());
    texts.encode(&mut sink);
    put_varint(&mut sink, count as u64);
    for (name, digest) in skills {
        name.encode(&mut sink);
        sink.put(&digest);
    }
    sink.0.finalize()
}

/// The bundle revision of a bundle held whole (see
/// [`BundleWriter::revision`]), each skill's digest computed without
/// writing its encoding.
#[cfg(any(feature = "revision", test))]
pub(crate) fn bundle_revision(bundle: &Bundle<'_>) -> [u8; 32] {
    revision_of(
        Texts {
            prompt: bundle.prompt,
            usage: bundle.usage,
            tool_description: bundle.tool_description,
            tool_schema: bundle.tool_schema,
        },
        bundle.skills.len(),
        bundle
            .skills
            .iter()
            .map(|skill| (skill.name, skill_digest(skill))),
    )
}

impl Bundle<'_> {
    /// Encodes the bundle: [`MAGIC`], [`FORMAT_VERSION`] little-endian,
    /// then the layout (the texts, the tables of offsets and the name
    /// index, then each skill's own encoding, the revision as recorded in
    /// [`revision`](Bundle::revision), the signatures), after
    /// [`check`](Self::check). The same bundle always gives the same bytes.
    ///
    /// ```
    /// let bytes = skills_core::wire::bundle::Bundle::default().encode().unwrap();
    /// assert_eq!(&bytes[..6], b"SKB\0\x09\x00");
    /// ```
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        let mut writer = BundleWriter::new(self);
        for skill in &self.skills {
            writer.push(skill)?;
        }
        writer.finish(self.revision, &self.signatures)
    }

    /// The encoding without [`check`](Self::check): for the tests of what
    /// the decoder refuses (`wire::refusals`). (A name given twice is
    /// written with a sorted index holding both.)
    #[cfg(test)]
    pub(crate) fn encode_unchecked(&self) -> Vec<u8> {
        let mut writer = BundleWriter::new(self);
        for skill in &self.skills {
            let digest = encode_skill(skill, &mut writer.details);
            writer.details_len = writer.details.len();
            // Past 4 GiB the tables wrap; no test goes there.
            let _ = writer.end_skill(skill.name, digest);
        }
        writer.finish_unchecked(self.revision, &self.signatures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::bundle::{Bytes, Content, File};
    use alloc::vec;

    fn skill(name: &'static str) -> Skill<'static> {
        Skill {
            name,
            description: "A skill of the tests.",
            frontmatter: "name: x\ndescription: A skill of the tests.\n",
            files: vec![File {
                path: "a.md",
                sha256: crate::sha256::digest(b"hello"),
                content: Content::Text("hello"),
            }],
            ..Skill::default()
        }
    }

    #[test]
    fn pushed_and_encoded_skills_give_the_same_bundle() {
        let skills = [skill("b"), skill("a"), skill("c")];
        let mut writer = BundleWriter::new(&Bundle::default());
        for skill in &skills {
            let mut detail = Vec::new();
            let digest = encode_skill(skill, &mut detail);
            writer.push_encoded(skill.name, &detail, digest).unwrap();
        }
        let revision = writer.revision();
        let bytes = writer.finish(revision, &[]).unwrap();
        let whole = Bundle {
            skills: skills.to_vec(),
            revision,
            ..Bundle::default()
        };
        assert_eq!(bundle_revision(&whole), revision);
        assert_eq!(bytes, whole.encode().unwrap());
        assert_eq!(Bundle::decode(&bytes).unwrap(), whole);
    }

    /// The digest stands the file's recorded SHA-256 in for its bytes: a
    /// file whose bytes change under the same recorded digest keeps the
    /// skill's digest (re-hashing catches it), any recorded digest change
    /// changes it.
    #[test]
    fn the_digest_covers_files_through_their_digests() {
        let base = skill("a");
        let mut same_digest = base.clone();
        same_digest.files[0].content = Content::Text("HELLO");
        assert_eq!(skill_digest(&same_digest), skill_digest(&base));
        let mut other_digest = base.clone();
        other_digest.files[0].sha256 = [7; 32];
        assert_ne!(skill_digest(&other_digest), skill_digest(&base));
        let mut image = base.clone();
        image.files[0].content = Content::Image {
            media_type: "image/png",
            bytes: Bytes(b"hello"),
        };
        assert_ne!(skill_digest(&image), skill_digest(&base));
    }
}
