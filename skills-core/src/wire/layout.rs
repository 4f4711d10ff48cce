//! The bundle's top-level layout (format 6): the catalog-wide texts, then
//! tables of fixed-width offsets and a name index the compiler writes, so a
//! reader finds any skill without reading the others.
//!
//! After [`MAGIC`](crate::MAGIC) and the format version:
//!
//! ```text
//! prompt            Option<str>   None: rendered from the skills when read
//! usage             str
//! tool_description  str
//! tool_schema       str
//! count             varint        n, the number of skills
//! names             bytes         the listed names, one after the other
//! name_ends         bytes         n × u32 LE: where each name ends in `names`
//! index             varint        0: hashed (a u32 LE seed follows), 1: sorted
//! table             bytes         hashed: one u32 LE slot per slot (0 empty,
//!                                 else the skill's index + 1), a power of two
//!                                 at least 2n; sorted: n × u32 LE, the
//!                                 indices in byte order of their names
//! detail_ends       bytes         n × u32 LE: where each skill ends in `details`
//! details           bytes         each skill's own encoding (every field of
//!                                 `Skill` but the name), one after the other
//! revision          [u8; 32]
//! signatures        seq<Signature>
//! ```
//!
//! Opening ([`View::decode`]) reads the texts, checks that every table has
//! the length `n` gives it, that the names are UTF-8 with every end on a
//! character boundary, and that both tables of ends run forwards to the end
//! of their area: a few nanoseconds a skill, with no allocation but the
//! signatures. Whether the index finds every name where it is listed (so
//! no name is listed twice) is [`View::check_index`]'s job, which a full
//! decode and `Catalog::check` run: a lookup through an index that does not
//! is bounded all the same, and can only miss.

use alloc::vec::Vec;

use crate::wire::bundle::{Bundle, EncodeError, HEADER_LEN, MAGIC, Signature};
use crate::wire::names::{self, Index};
use crate::wire::postcard::{
    Decode, Encode, Reader, Sink, WireError, WireErrorKind, entry, put_varint,
};

/// A bundle's layout, read: slices of the bundle's bytes.
#[derive(Debug, Clone)]
pub(crate) struct View<'a> {
    pub(crate) prompt: Option<&'a str>,
    pub(crate) usage: &'a str,
    pub(crate) tool_description: &'a str,
    pub(crate) tool_schema: &'a str,
    count: usize,
    names: &'a str,
    name_ends: &'a [u8],
    index: Index<'a>,
    detail_ends: &'a [u8],
    details: &'a [u8],
    pub(crate) revision: [u8; 32],
    pub(crate) signatures: Vec<Signature<'a>>,
}

/// Checks a table of `count` ends into an area of `len` bytes: the right
/// length, non-decreasing, the last one `len`; `boundary` says whether an
/// end may fall at an offset.
fn check_ends(
    table: &[u8],
    count: usize,
    len: usize,
    boundary: impl Fn(usize) -> bool,
    offset: usize,
) -> Result<(), WireError> {
    let bad = WireError {
        kind: WireErrorKind::BadTable,
        offset,
    };
    if count.checked_mul(4) != Some(table.len()) {
        return Err(bad);
    }
    let mut previous = 0;
    for chunk in table.chunks_exact(4) {
        let end = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]) as usize;
        if end < previous || end > len || !boundary(end) {
            return Err(bad);
        }
        previous = end;
    }
    if previous != len {
        return Err(bad);
    }
    Ok(())
}

impl<'a> Decode<'a> for View<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        let prompt = reader.option()?;
        let usage = reader.str()?;
        let tool_description = reader.str()?;
        let tool_schema = reader.str()?;
        let count = reader.usize()?;
        let names = reader.str()?;
        let ends_at = reader.position();
        let name_ends = reader.bytes()?;
        check_ends(
            name_ends,
            count,
            names.len(),
            |end| names.is_char_boundary(end),
            ends_at,
        )?;
        let index_at = reader.position();
        let index = Index::decode(reader, count).map_err(|error| match error.kind {
            WireErrorKind::BadTable => WireError {
                offset: index_at,
                ..error
            },
            _ => error,
        })?;
        let details_ends_at = reader.position();
        let detail_ends = reader.bytes()?;
        let details = reader.bytes()?;
        check_ends(detail_ends, count, details.len(), |_| true, details_ends_at)?;
        Ok(View {
            prompt,
            usage,
            tool_description,
            tool_schema,
            count,
            names,
            name_ends,
            index,
            detail_ends,
            details,
            revision: reader.array32()?,
            signatures: reader.seq()?,
        })
    }
}

impl<'a> View<'a> {
    /// How many skills.
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// The listed name of the skill at `at` (empty past the end).
    pub(crate) fn name(&self, at: usize) -> &'a str {
        let start = if at == 0 {
            0
        } else {
            entry(self.name_ends, at - 1)
        };
        let end = entry(self.name_ends, at);
        self.names.get(start..end).unwrap_or_default()
    }

    /// The own encoding of the skill at `at` (empty past the end).
    pub(crate) fn detail(&self, at: usize) -> &'a [u8] {
        let start = if at == 0 {
            0
        } else {
            entry(self.detail_ends, at - 1)
        };
        let end = entry(self.detail_ends, at);
        self.details.get(start..end).unwrap_or_default()
    }

    /// The stored name index.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn index(&self) -> &Index<'a> {
        &self.index
    }

    /// The index of the skill listed as `wanted`, through the stored index.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn find(&self, wanted: &str) -> Option<usize> {
        self.index.find(wanted, self.count, |at| self.name(at))
    }

    /// Whether the stored index is the one the encoder writes for these
    /// names with its seed, which finds every name at its place: refuses a
    /// name listed twice, or a table that would miss a name.
    pub(crate) fn check_index(&self) -> Result<(), crate::wire::bundle::BundleError> {
        Ok(self.index.check(self.count, |at| self.name(at))?)
    }
}

/// Writes a bundle: header, layout, with `details[i]` the own encoding of
/// `bundle.skills[i]` (`SkillEntry::encode`), after [`Bundle::check`].
pub(crate) fn encode(bundle: &Bundle<'_>, details: &[&[u8]]) -> Result<Vec<u8>, EncodeError> {
    let skills = &bundle.skills;
    if details.len() != skills.len() {
        return Err(EncodeError::Mismatch {
            skills: skills.len(),
            details: details.len(),
        });
    }
    let names_len: usize = skills.iter().map(|skill| skill.name.len()).sum();
    let details_len: usize = details.iter().map(|detail| detail.len()).sum();
    if u32::try_from(names_len).is_err() || u32::try_from(details_len).is_err() {
        return Err(EncodeError::TooLarge);
    }
    let index = Index::build(skills.len(), |at| skills.get(at).map_or("", |s| s.name))
        .map_err(|error| EncodeError::Invalid(error.into()))?;
    Ok(write(bundle, details, &index, names_len, details_len))
}

/// [`encode`] without the checks: a name given twice gets a sorted index
/// holding both (for tests of what the decoder refuses).
pub(crate) fn encode_unchecked(bundle: &Bundle<'_>, details: &[&[u8]]) -> Vec<u8> {
    let skills = &bundle.skills;
    let name = |at: usize| skills.get(at).map_or("", |s| s.name);
    let index = Index::build(skills.len(), name).unwrap_or_else(|_| {
        let mut order: Vec<u32> = (0..skills.len() as u32).collect();
        order.sort_by(|&a, &b| name(a as usize).cmp(name(b as usize)));
        Index::Sorted {
            order: names::Table::Built(order),
        }
    });
    let names_len = skills.iter().map(|skill| skill.name.len()).sum();
    let details_len = details.iter().map(|detail| detail.len()).sum();
    write(bundle, details, &index, names_len, details_len)
}

fn write(
    bundle: &Bundle<'_>,
    details: &[&[u8]],
    index: &Index<'_>,
    names_len: usize,
    details_len: usize,
) -> Vec<u8> {
    let skills = &bundle.skills;
    let texts = bundle.prompt.map_or(0, str::len)
        + bundle.usage.len()
        + bundle.tool_description.len()
        + bundle.tool_schema.len();
    let mut out: Vec<u8> =
        Vec::with_capacity(HEADER_LEN + texts + names_len + details_len + 16 * skills.len() + 128);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&crate::wire::bundle::FORMAT_VERSION.to_le_bytes());
    bundle.prompt.encode(&mut out);
    bundle.usage.encode(&mut out);
    bundle.tool_description.encode(&mut out);
    bundle.tool_schema.encode(&mut out);
    put_varint(&mut out, skills.len() as u64);
    put_varint(&mut out, names_len as u64);
    for skill in skills {
        out.put(skill.name.as_bytes());
    }
    put_ends(&mut out, skills.iter().map(|skill| skill.name.len()));
    index.encode(&mut out);
    put_ends(&mut out, details.iter().map(|detail| detail.len()));
    put_varint(&mut out, details_len as u64);
    for detail in details {
        out.put(detail);
    }
    out.put(&bundle.revision);
    bundle.signatures.encode(&mut out);
    out
}

/// Writes the table of ends of consecutive parts of these lengths.
fn put_ends(out: &mut dyn Sink, lens: impl ExactSizeIterator<Item = usize>) {
    put_varint(out, 4 * lens.len() as u64);
    let mut end = 0u32;
    for len in lens {
        end = end.wrapping_add(len as u32);
        out.put(&end.to_le_bytes());
    }
}

impl Bundle<'_> {
    /// Encodes the bundle: [`MAGIC`], [`FORMAT_VERSION`](crate::FORMAT_VERSION) little-endian,
    /// then the layout (see the `layout` module's documentation in the
    /// source: the texts, the tables of offsets and the name index, then
    /// each skill's own encoding), after [`check`](Self::check). The same
    /// bundle always gives the same bytes.
    ///
    /// ```
    /// let bytes = skills_core::wire::bundle::Bundle::default().encode().unwrap();
    /// assert_eq!(&bytes[..6], b"SKB\0\x06\x00");
    /// ```
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        self.check()?;
        let details: Vec<Vec<u8>> = self
            .skills
            .iter()
            .map(|s| crate::wire::postcard::to_vec(s))
            .collect();
        let details: Vec<&[u8]> = details.iter().map(Vec::as_slice).collect();
        encode(self, &details)
    }

    /// [`encode`](Self::encode), with each skill's own encoding made
    /// already (`details[i]` is [`SkillEntry::encode`](crate::wire::bundle::SkillEntry::encode)`(&self.skills[i]).detail`,
    /// for a compiler that encodes its skills on several threads, or has
    /// them from the bundle revision's computation): the same bytes.
    ///
    /// ```
    /// use skills_core::wire::bundle::{Bundle, Skill, SkillEntry};
    /// let bundle = Bundle { skills: vec![Skill { name: "a", ..Skill::default() }], ..Bundle::default() };
    /// let details: Vec<Vec<u8>> = bundle.skills.iter().map(|s| SkillEntry::encode(s).detail).collect();
    /// let details: Vec<&[u8]> = details.iter().map(Vec::as_slice).collect();
    /// assert_eq!(bundle.encode_with_details(&details).unwrap(), bundle.encode().unwrap());
    /// ```
    pub fn encode_with_details(&self, details: &[&[u8]]) -> Result<Vec<u8>, EncodeError> {
        self.check()?;
        encode(self, details)
    }

    /// The encoding without [`check`](Self::check): for tests that need
    /// bundles breaking the rules the decoder enforces. (A name given twice
    /// is written with a sorted index holding both.)
    #[doc(hidden)]
    pub fn encode_unchecked(&self) -> Vec<u8> {
        let details: Vec<Vec<u8>> = self
            .skills
            .iter()
            .map(|s| crate::wire::postcard::to_vec(s))
            .collect();
        let details: Vec<&[u8]> = details.iter().map(Vec::as_slice).collect();
        encode_unchecked(self, &details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::bundle::Skill;

    #[test]
    fn names_and_details_are_found_by_index() {
        let skills: Vec<Skill<'_>> = ["b", "a", "ccc"]
            .into_iter()
            .map(|name| Skill {
                name,
                description: "x",
                ..Skill::default()
            })
            .collect();
        let bundle = Bundle {
            skills,
            ..Bundle::default()
        };
        let bytes = bundle.encode().unwrap();
        let mut reader = Reader::new(&bytes[HEADER_LEN..]);
        let view = View::decode(&mut reader).unwrap();
        assert!(reader.rest().is_empty());
        assert_eq!(
            (view.name(0), view.name(1), view.name(2), view.name(3)),
            ("b", "a", "ccc", "")
        );
        assert_eq!(view.find("ccc"), Some(2));
        assert_eq!(view.find("d"), None);
        assert!(view.check_index().is_ok());
        assert_eq!(view.detail(3), b"");
    }

    #[test]
    fn ends_must_run_forwards_to_the_end() {
        let table = |ends: &[u32]| {
            ends.iter()
                .flat_map(|e| e.to_le_bytes())
                .collect::<Vec<u8>>()
        };
        assert!(check_ends(&table(&[1, 3]), 2, 3, |_| true, 0).is_ok());
        assert!(check_ends(&table(&[3, 1]), 2, 3, |_| true, 0).is_err());
        assert!(check_ends(&table(&[1, 2]), 2, 3, |_| true, 0).is_err());
        assert!(check_ends(&table(&[1, 4]), 2, 3, |_| true, 0).is_err());
        assert!(check_ends(&table(&[1]), 2, 1, |_| true, 0).is_err());
        assert!(check_ends(&table(&[1, 3]), 2, 3, |end| end != 1, 0).is_err());
        assert!(check_ends(&[], 0, 0, |_| true, 0).is_ok());
        assert!(check_ends(&[0; 3], usize::MAX, 0, |_| true, 0).is_err());
    }
}
