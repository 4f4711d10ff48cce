//! The primitives of the bundle's encoding, written by hand: the subset of
//! postcard's format the wire types use (their encodings are in `codec`), byte for byte what postcard writes for them, with no
//! serde and no derive macros to compile.
//!
//! - unsigned integers wider than a byte (`u64`, `usize`, lengths, enum
//!   variant indices): LEB128 varints, seven bits a byte, low bits first;
//! - `u8`: one byte; `[u8; 32]`: 32 bytes;
//! - strings and byte strings: the length as a varint, then the bytes;
//! - `Option`: `0`, or `1` and the value; sequences: the count, then each
//!   element; structs: the fields in order.
//!
//! Decoding is strict, so one meaning has one byte string: a varint in a
//! longer form than needed (`0x80 0x00` for zero), a value past its type's
//! range, an option tag or a variant index other than those listed, and
//! text that is not UTF-8 are all refused ([`WireError`]). Otherwise the
//! same bundle could be written in many byte strings, each with its own
//! SHA-256, all of them verifying.

use alloc::vec::Vec;
use core::fmt;

/// Why bytes are not the encoding of a bundle, and where.
///
/// ```
/// use skills_core::{Catalog, FORMAT_VERSION, MAGIC};
/// // No stored prompt, then the usage text's length written as 0x80 0x00
/// // (zero, overlong).
/// let mut bytes = MAGIC.to_vec();
/// bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
/// bytes.extend_from_slice(&[0x00, 0x80, 0x00]);
/// let error = Catalog::from_bytes(&bytes).unwrap_err();
/// assert!(error.to_string().contains("longer form than needed"), "{error}");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireError {
    /// What is wrong.
    pub kind: WireErrorKind,
    /// The byte offset in the encoding being read (for a skill's nested
    /// encoding, in that encoding).
    pub offset: usize,
}

/// What is wrong with an encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireErrorKind {
    /// The bytes end inside a value.
    UnexpectedEnd,
    /// A varint is written in more bytes than its value needs.
    NonCanonicalVarint,
    /// A varint's value does not fit its type.
    VarintOverflow,
    /// An option tag other than 0 or 1.
    BadOptionTag,
    /// An enum variant index the type does not have.
    BadVariant,
    /// A string that is not valid UTF-8.
    BadUtf8,
    /// Bytes follow a skill's nested encoding.
    TrailingBytes,
    /// A text refers to bytes outside its skill's frontmatter text, or
    /// inside a character.
    BadReference,
    /// A table of the bundle's layout (the names' or the skills' ends, the
    /// name index) has the wrong length or runs backwards.
    BadTable,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            WireErrorKind::UnexpectedEnd => "the bytes end inside a value",
            WireErrorKind::NonCanonicalVarint => {
                "a number is written in a longer form than needed (non-canonical varint)"
            }
            WireErrorKind::VarintOverflow => "a number is too large for its field",
            WireErrorKind::BadOptionTag => "an optional value's tag is neither 0 nor 1",
            WireErrorKind::BadVariant => "an enum variant index is out of range",
            WireErrorKind::BadUtf8 => "a string is not valid UTF-8",
            WireErrorKind::TrailingBytes => "bytes follow the end of a skill",
            WireErrorKind::BadReference => "a text refers to bytes outside its skill's frontmatter",
            WireErrorKind::BadTable => "a table of the bundle's layout is inconsistent",
        };
        write!(f, "{what}, at byte {}", self.offset)
    }
}

impl core::error::Error for WireError {}

/// Where encoded bytes go: a buffer, a hasher (a skill's digest), or both.
pub(crate) trait Sink {
    /// Appends bytes.
    fn put(&mut self, bytes: &[u8]);

    /// Appends `bytes` that a skill's digest covers through `stand_in`
    /// instead (their recorded SHA-256, or an empty list for the skill's
    /// signatures): a buffer takes `bytes`, a hasher `stand_in`, so each
    /// file's bytes are hashed once, for their own digest (see
    /// `trust::revision`).
    fn put_digested(&mut self, bytes: &[u8], stand_in: &[u8]) {
        let _ = stand_in;
        self.put(bytes);
    }
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A value with an encoding.
pub(crate) trait Encode {
    /// Writes the value's encoding.
    fn encode(&self, out: &mut dyn Sink);
}

/// A value decoded from bytes it borrows from.
pub(crate) trait Decode<'a>: Sized {
    /// Reads one value.
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError>;
}

/// Writes `value` as a varint.
pub(crate) fn put_varint(out: &mut dyn Sink, mut value: u64) {
    let mut buf = [0u8; 10];
    let mut n = 0;
    while value >= 0x80 {
        buf[n] = (value as u8) | 0x80;
        value >>= 7;
        n += 1;
    }
    buf[n] = value as u8;
    out.put(&buf[..=n]);
}

/// Writes a length-prefixed byte string.
pub(crate) fn put_bytes(out: &mut dyn Sink, bytes: &[u8]) {
    put_varint(out, bytes.len() as u64);
    out.put(bytes);
}

/// The encoding of a value, in a new buffer.
pub(crate) fn to_vec(value: &dyn Encode) -> Vec<u8> {
    let mut out = Vec::new();
    value.encode(&mut out);
    out
}

/// Reads values from a byte slice, front to back.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.at..).unwrap_or_default()
    }

    /// How many bytes were read.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    pub(crate) fn error(&self, kind: WireErrorKind) -> WireError {
        WireError {
            kind,
            offset: self.at,
        }
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        let rest = self.rest();
        if n > rest.len() {
            return Err(self.error(WireErrorKind::UnexpectedEnd));
        }
        self.at += n;
        Ok(&rest[..n])
    }

    /// One byte.
    pub(crate) fn byte(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }

    /// A varint of at most `bits` bits, in its shortest form.
    pub(crate) fn varint(&mut self, bits: u32) -> Result<u64, WireError> {
        let start = self.at;
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let byte = self.byte()?;
            let low = u64::from(byte & 0x7f);
            // Too many bytes, or bits past the type's width in the last one.
            if shift >= bits || (bits - shift < 7 && low >> (bits - shift) != 0) {
                self.at = start;
                return Err(self.error(WireErrorKind::VarintOverflow));
            }
            value |= low << shift;
            if byte & 0x80 == 0 {
                if byte == 0 && shift > 0 {
                    self.at = start;
                    return Err(self.error(WireErrorKind::NonCanonicalVarint));
                }
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// A `usize` (a `u64` varint that fits this target's `usize`).
    pub(crate) fn usize(&mut self) -> Result<usize, WireError> {
        let start = self.at;
        let value = self.varint(64)?;
        usize::try_from(value).map_err(|_| WireError {
            kind: WireErrorKind::VarintOverflow,
            offset: start,
        })
    }

    /// A length-prefixed byte string.
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], WireError> {
        let len = self.usize()?;
        self.take(len)
    }

    /// A length-prefixed UTF-8 string.
    pub(crate) fn str(&mut self) -> Result<&'a str, WireError> {
        let start = self.at;
        let bytes = self.bytes()?;
        core::str::from_utf8(bytes).map_err(|_| WireError {
            kind: WireErrorKind::BadUtf8,
            offset: start,
        })
    }

    /// 32 raw bytes.
    pub(crate) fn array32(&mut self) -> Result<[u8; 32], WireError> {
        let mut out = [0u8; 32];
        out.copy_from_slice(self.take(32)?);
        Ok(out)
    }

    /// An option tag: whether a value follows.
    pub(crate) fn some(&mut self) -> Result<bool, WireError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => {
                self.at -= 1;
                Err(self.error(WireErrorKind::BadOptionTag))
            }
        }
    }

    /// An enum variant index below `count`.
    pub(crate) fn variant(&mut self, count: u32) -> Result<u32, WireError> {
        let start = self.at;
        let index = self.varint(32)?;
        if index >= u64::from(count) {
            self.at = start;
            return Err(self.error(WireErrorKind::BadVariant));
        }
        Ok(index as u32)
    }

    /// A sequence: the count, then each element.
    pub(crate) fn seq<T: Decode<'a>>(&mut self) -> Result<Vec<T>, WireError> {
        let count = self.usize()?;
        // Every element takes at least one byte: a hostile count cannot
        // make this allocate more than the input's size.
        let mut out = Vec::with_capacity(count.min(self.rest().len()));
        for _ in 0..count {
            out.push(T::decode(self)?);
        }
        Ok(out)
    }

    /// An optional value.
    pub(crate) fn option<T: Decode<'a>>(&mut self) -> Result<Option<T>, WireError> {
        Ok(if self.some()? {
            Some(T::decode(self)?)
        } else {
            None
        })
    }
}

impl<'a> Decode<'a> for &'a str {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        reader.str()
    }
}

impl<'a, A: Decode<'a>, B: Decode<'a>> Decode<'a> for (A, B) {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        Ok((A::decode(reader)?, B::decode(reader)?))
    }
}

impl Encode for &str {
    fn encode(&self, out: &mut dyn Sink) {
        put_bytes(out, self.as_bytes());
    }
}

impl<A: Encode, B: Encode> Encode for (A, B) {
    fn encode(&self, out: &mut dyn Sink) {
        self.0.encode(out);
        self.1.encode(out);
    }
}

impl<T: Encode> Encode for [T] {
    fn encode(&self, out: &mut dyn Sink) {
        put_varint(out, self.len() as u64);
        for item in self {
            item.encode(out);
        }
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, out: &mut dyn Sink) {
        self.as_slice().encode(out);
    }
}

impl<T: Encode> Encode for Option<T> {
    fn encode(&self, out: &mut dyn Sink) {
        match self {
            None => out.put(&[0]),
            Some(value) => {
                out.put(&[1]);
                value.encode(out);
            }
        }
    }
}

/// Writes a text of a skill: inline, or, when it occurs in the skill's
/// frontmatter text (a description, a license, a metadata value usually
/// do, verbatim), as where it is there.
///
/// On the wire it is what postcard writes for the serde enum
/// `enum Text<'a> { Inline(&'a str), Frontmatter { at: u64, len: u64 } }`:
/// the variant index as a varint, then the string (length and bytes), or
/// the offset and the length as varints. The encoder refers whenever it
/// finds the text in the frontmatter ([`find_in`]) and it is longer than
/// two bytes; which it finds depends on the skill alone, so the same skill
/// always gives the same bytes.
pub(crate) fn put_text(out: &mut dyn Sink, text: &str, frontmatter: &str) {
    if text.len() > 2
        && let Some(at) = find_in(frontmatter, text)
    {
        put_varint(out, 1);
        put_varint(out, at as u64);
        put_varint(out, text.len() as u64);
        return;
    }
    put_varint(out, 0);
    put_bytes(out, text.as_bytes());
}

/// Past this many bytes of frontmatter, a text that is not a slice of it
/// is not searched for (it is written inline): the search is linear in the
/// frontmatter, once per text, so a frontmatter of 80,000 metadata keys
/// would cost quadratic time. Real frontmatter is well under it.
const SEARCHED_FRONTMATTER: usize = 16 * 1024;

/// Where `text` is in `frontmatter`: from the pointers when it is a slice
/// of it (what the compiler hands over for texts it read without
/// unescaping), else its first occurrence, for a frontmatter up to
/// [`SEARCHED_FRONTMATTER`] bytes.
fn find_in(frontmatter: &str, text: &str) -> Option<usize> {
    let base = frontmatter.as_ptr() as usize;
    let at = (text.as_ptr() as usize).wrapping_sub(base);
    if at <= frontmatter.len() && frontmatter.len() - at >= text.len() {
        return Some(at);
    }
    if frontmatter.len() > SEARCHED_FRONTMATTER {
        return None;
    }
    frontmatter.find(text)
}

pub(crate) fn put_option_text(out: &mut dyn Sink, text: Option<&str>, frontmatter: &str) {
    match text {
        None => out.put(&[0]),
        Some(text) => {
            out.put(&[1]);
            put_text(out, text, frontmatter);
        }
    }
}

impl<'a> Reader<'a> {
    /// A text written by [`put_text`], borrowed from the bytes or from
    /// `frontmatter`.
    pub(crate) fn text(&mut self, frontmatter: &'a str) -> Result<&'a str, WireError> {
        let start = self.at;
        if self.variant(2)? == 0 {
            return self.str();
        }
        let bad = WireError {
            kind: WireErrorKind::BadReference,
            offset: start,
        };
        let at = self.usize()?;
        let len = self.usize()?;
        frontmatter
            .get(at..at.checked_add(len).ok_or(bad)?)
            .ok_or(bad)
    }

    pub(crate) fn option_text(
        &mut self,
        frontmatter: &'a str,
    ) -> Result<Option<&'a str>, WireError> {
        Ok(if self.some()? {
            Some(self.text(frontmatter)?)
        } else {
            None
        })
    }
}

/// The `at`-th little-endian `u32` of `table`, as a `usize` (0 past the end,
/// which the lengths checked at opening rule out).
pub(crate) fn entry(table: &[u8], at: usize) -> usize {
    at.checked_mul(4)
        .and_then(|start| table.get(start..start.checked_add(4)?))
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// Writes a table of `u32`, little-endian, as a byte string.
pub(crate) fn put_table(out: &mut dyn Sink, table: &[u32]) {
    put_varint(out, 4 * table.len() as u64);
    for value in table {
        out.put(&value.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn varint_bytes(value: u64) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, value);
        out
    }

    #[test]
    fn varints_round_trip_in_their_shortest_form() {
        for value in [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u32::MAX as u64,
            u64::MAX,
        ] {
            let bytes = varint_bytes(value);
            let mut reader = Reader::new(&bytes);
            assert_eq!(reader.varint(64), Ok(value), "{value}");
            assert!(reader.rest().is_empty());
        }
        assert_eq!(varint_bytes(300), [0xac, 0x02]);
        assert_eq!(varint_bytes(u64::MAX).len(), 10);
    }

    #[test]
    fn overlong_varints_are_refused() {
        for bytes in [&[0x80, 0x00][..], &[0x81, 0x00], &[0xff, 0x80, 0x00]] {
            let error = Reader::new(bytes).varint(64).unwrap_err();
            assert_eq!(error.kind, WireErrorKind::NonCanonicalVarint, "{bytes:?}");
            assert_eq!(error.offset, 0);
        }
    }

    #[test]
    fn varints_past_their_type_are_refused() {
        // u32::MAX + 1, and an 11-byte u64.
        let mut too_big = vec![0x80, 0x80, 0x80, 0x80, 0x10];
        assert_eq!(
            Reader::new(&too_big).varint(32).unwrap_err().kind,
            WireErrorKind::VarintOverflow
        );
        assert_eq!(Reader::new(&too_big).varint(64), Ok(1 << 32));
        assert_eq!(
            Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f]).varint(32),
            Ok(u64::from(u32::MAX))
        );
        too_big = vec![0xff; 9];
        too_big.push(0x02);
        assert_eq!(
            Reader::new(&too_big).varint(64).unwrap_err().kind,
            WireErrorKind::VarintOverflow
        );
        too_big[9] = 0x01;
        assert_eq!(Reader::new(&too_big).varint(64), Ok(u64::MAX));
        assert_eq!(
            Reader::new(&[0x80]).varint(64).unwrap_err().kind,
            WireErrorKind::UnexpectedEnd
        );
    }

    #[test]
    fn tags_strings_and_counts_are_checked() {
        assert_eq!(
            Reader::new(&[2]).some().unwrap_err().kind,
            WireErrorKind::BadOptionTag
        );
        assert_eq!(
            Reader::new(&[2, 0xff, 0xfe]).str().unwrap_err().kind,
            WireErrorKind::BadUtf8
        );
        assert_eq!(
            Reader::new(&[5, b'a']).str().unwrap_err().kind,
            WireErrorKind::UnexpectedEnd
        );
        assert_eq!(
            Reader::new(&[2]).variant(2).unwrap_err().kind,
            WireErrorKind::BadVariant
        );
        // A count far past the input fails at the end, without a huge
        // allocation first.
        let huge = varint_bytes(u64::from(u32::MAX));
        assert_eq!(
            Reader::new(&huge).seq::<&str>().unwrap_err().kind,
            WireErrorKind::UnexpectedEnd
        );
    }

    #[test]
    fn composites_encode_as_postcard_does() {
        let value: Vec<(&str, Option<&str>)> = vec![("a", None), ("bc", Some("d"))];
        let mut out = Vec::new();
        for (a, b) in &value {
            (*a, *b).encode(&mut out);
        }
        assert_eq!(out, [1, b'a', 0, 2, b'b', b'c', 1, 1, b'd']);
    }
}
