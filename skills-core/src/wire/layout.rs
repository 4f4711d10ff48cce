//! The bundle's top-level layout (format 7): the catalog-wide texts, then
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
