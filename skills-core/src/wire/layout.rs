//! The bundle's top-level layout (format 8): the catalog-wide texts, then
//! tables of fixed-width offsets, a name index and the listing order the
//! compiler writes, so a reader finds any skill, and any page of a
//! listing, without reading the others.
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
//! listing           bytes         n × u32 LE: the indices in the byte order
//!                                 of the skills' URIs (see `listing`)
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
//! no name is listed twice), and whether the listing order is the one the
//! compiler writes, is [`View::check_tables`]'s job, which a full decode
//! and `Catalog::check` run: a lookup through an index that does not is
//! bounded all the same, and can only miss; a listing through such an
//! order can only repeat or leave out a skill.
//!
//! Everything before the skills' encodings (the head) and after them (the
//! tail) is small beside them, so a reader that keeps a bundle in a file
//! reads only those ([`head_len`], [`decode_parts`](crate::wire::decode))
//! and each skill's encoding when it serves the skill (`serve::paged`).

use alloc::vec::Vec;

use crate::wire::bundle::Signature;
use crate::wire::names::Index;
use crate::wire::postcard::{Decode, Reader, WireError, WireErrorKind, entry};

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
    listing: &'a [u8],
    detail_ends: &'a [u8],
    /// The skills' encodings, when the bytes read hold them; empty for the
    /// view of a head and a tail ([`View::decode_parts`]).
    details: &'a [u8],
    /// How many bytes the skills' encodings take.
    details_len: usize,
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

/// Reads the layout up to and including the length of the skills'
/// encodings (not the encodings): a [`View`] without its details, revision
/// and signatures.
fn decode_head<'a>(reader: &mut Reader<'a>) -> Result<View<'a>, WireError> {
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
    let listing_at = reader.position();
    let listing = reader.bytes()?;
    if count.checked_mul(4) != Some(listing.len()) {
        return Err(WireError {
            kind: WireErrorKind::BadTable,
            offset: listing_at,
        });
    }
    let details_ends_at = reader.position();
    let detail_ends = reader.bytes()?;
    let details_len = reader.usize()?;
    check_ends(detail_ends, count, details_len, |_| true, details_ends_at)?;
    Ok(View {
        prompt,
        usage,
        tool_description,
        tool_schema,
        count,
        names,
        name_ends,
        index,
        listing,
        detail_ends,
        details: &[],
        details_len,
        revision: [0; 32],
        signatures: Vec::new(),
    })
}

/// Reads the tail: the revision and the signatures.
fn decode_tail<'a>(reader: &mut Reader<'a>, view: &mut View<'a>) -> Result<(), WireError> {
    view.revision = reader.array32()?;
    view.signatures = reader.seq()?;
    Ok(())
}

impl<'a> Decode<'a> for View<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        let mut view = decode_head(reader)?;
        view.details = reader.take(view.details_len)?;
        decode_tail(reader, &mut view)?;
        Ok(view)
    }
}

/// Where the skills' encodings start in a bundle's body (the bytes after
/// the header) and how long they are, read from the body's first bytes:
/// `None` when `body` ends before the head does (read more), an error when
/// the head is not a bundle's.
#[cfg(feature = "catalog")]
pub(crate) fn head_len(body: &[u8]) -> Result<Option<(usize, usize)>, WireError> {
    let mut reader = Reader::new(body);
    match decode_head(&mut reader) {
        Ok(view) => Ok(Some((reader.position(), view.details_len))),
        Err(error) if error.kind == WireErrorKind::UnexpectedEnd => Ok(None),
        Err(error) => Err(error),
    }
}

impl<'a> View<'a> {
    /// The view of a bundle held as its head (the body up to the skills'
    /// encodings, as [`head_len`] measured it) and its tail (the bytes
    /// after them), each read to its end; the skills' encodings are read
    /// elsewhere, at [`detail_span`](Self::detail_span).
    #[cfg(feature = "catalog")]
    pub(crate) fn decode_parts(
        head: &mut Reader<'a>,
        tail: &mut Reader<'a>,
    ) -> Result<Self, WireError> {
        let mut view = decode_head(head)?;
        decode_tail(tail, &mut view)?;
        Ok(view)
    }

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

    /// Where the own encoding of the skill at `at` lies among the skills'
    /// encodings (empty past the end).
    pub(crate) fn detail_span(&self, at: usize) -> core::ops::Range<usize> {
        let start = if at == 0 {
            0
        } else {
            entry(self.detail_ends, at - 1)
        };
        let end = entry(self.detail_ends, at).max(start);
        if at < self.count { start..end } else { 0..0 }
    }

    /// The own encoding of the skill at `at` (empty past the end, and for
    /// a view whose bytes do not hold the encodings).
    pub(crate) fn detail(&self, at: usize) -> &'a [u8] {
        self.details.get(self.detail_span(at)).unwrap_or_default()
    }

    /// The stored name index.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn index(&self) -> &Index<'a> {
        &self.index
    }

    /// The stored listing order.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn listing(&self) -> &'a [u8] {
        self.listing
    }

    /// The index of the skill listed as `wanted`, through the stored index.
    #[cfg_attr(not(feature = "catalog"), allow(dead_code))]
    pub(crate) fn find(&self, wanted: &str) -> Option<usize> {
        self.index.find(wanted, self.count, |at| self.name(at))
    }

    /// Whether the stored index is the one the encoder writes for these
    /// names with its seed, which finds every name at its place (refusing a
    /// name listed twice, or a table that would miss a name), and the
    /// listing order the one it writes.
    pub(crate) fn check_tables(&self) -> Result<(), crate::wire::bundle::BundleError> {
        self.index.check(self.count, |at| self.name(at))?;
        crate::wire::listing::check(self.listing, self.count, |at| self.name(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::bundle::{Bundle, HEADER_LEN, Skill};

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
        assert!(view.check_tables().is_ok());
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
