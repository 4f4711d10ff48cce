//! Reading a bundle: the header, the body (in its one canonical encoding,
//! see [`crate::wire::postcard`]), nothing after it, and the rules the catalog relies
//! on. No input makes it panic.

use core::fmt;

use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::bundle::{
    Bundle, BundleError, FORMAT_VERSION, HEADER_LEN, MAGIC, PREVIOUS_FORMAT_VERSION, SkillEntry,
};
use crate::wire::layout::View;
use crate::wire::postcard::{Decode, Reader, WireError};

/// Why bytes could not be opened as a skills bundle.
///
/// Each message says what is wrong and what to do about it; a bundle the
/// compiler wrote for this runtime's format version never fails.
///
/// ```
/// use skills_core::{Catalog, DecodeError};
/// let error = Catalog::from_bytes(b"SKB\0\x0a\x00").unwrap_err();
/// assert_eq!(error, DecodeError::UnsupportedVersion { found: 10 });
/// assert!(error.to_string().contains("format version 10"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// Fewer bytes than the header.
    TooShort {
        /// How many bytes there were.
        len: usize,
    },
    /// The bytes do not start with [`MAGIC`].
    BadMagic {
        /// The first four bytes found.
        found: [u8; 4],
    },
    /// The bundle has a format version this runtime does not read
    /// ([`FORMAT_VERSION`] is the one it reads).
    UnsupportedVersion {
        /// The bundle's format version.
        found: u16,
    },
    /// The body is not a bundle of this format version in its canonical
    /// encoding.
    Corrupt(WireError),
    /// Bytes follow the end of the bundle.
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// The bundle decoded but breaks a rule the catalog relies on.
    Invalid(BundleError),
    /// A skill's part of a bundle kept outside memory (a file read a skill
    /// at a time, `serve::paged`) could not be read as it was when the
    /// bundle was opened or verified: the file changed, shrank, or reading
    /// it failed. The skill is not served; the others are.
    Unreadable {
        /// What happened, for a person.
        message: String,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const REBUILD: &str = "embed the bundle file skills-build wrote, unchanged";
        match self {
            DecodeError::TooShort { len } => write!(
                f,
                "not a skills bundle: {len} bytes is shorter than the {HEADER_LEN}-byte header; {REBUILD}"
            ),
            DecodeError::BadMagic { found } => write!(
                f,
                "not a skills bundle: it starts with {} where a bundle starts with {}; {REBUILD}",
                Escaped(found),
                Escaped(&MAGIC)
            ),
            DecodeError::UnsupportedVersion { found } => write!(
                f,
                "the skills bundle has format version {found}, but skills-runtime {} reads format versions {PREVIOUS_FORMAT_VERSION} and {FORMAT_VERSION}; \
                 build the bundle with the skills-build release matching this skills-runtime",
                env!("CARGO_PKG_VERSION")
            ),
            DecodeError::Corrupt(error) => {
                write!(f, "the skills bundle is corrupt ({error}); {REBUILD}")
            }
            DecodeError::TrailingBytes { count } => write!(
                f,
                "the skills bundle is followed by {count} unexpected bytes; {REBUILD}"
            ),
            DecodeError::Invalid(error) => {
                write!(f, "the skills bundle is inconsistent: {error}; {REBUILD}")
            }
            DecodeError::Unreadable { message } => {
                write!(
                    f,
                    "the skill's part of the bundle cannot be read: {message}"
                )
            }
        }
    }
}

impl core::error::Error for DecodeError {}

impl From<BundleError> for DecodeError {
    fn from(error: BundleError) -> Self {
        DecodeError::Invalid(error)
    }
}

/// Shows bytes as a byte-string literal, `b"SKB\x00"`.
struct Escaped<'b>(&'b [u8]);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("b\"")?;
        for &byte in self.0 {
            fmt::Display::fmt(&core::ascii::escape_default(byte), f)?;
        }
        f.write_str("\"")
    }
}

impl<'a> Bundle<'a> {
    /// Decodes a bundle from its encoding, borrowing every string and byte
    /// string from `bytes`, and checks it (see [`Bundle::check`]), its name
    /// index included.
    ///
    /// The header comes first: a wrong magic or another format version is
    /// reported as such before the body is read. Bytes after the body are
    /// an error.
    ///
    /// ```
    /// use skills_core::wire::bundle::Bundle;
    /// let bytes = Bundle { prompt: Some("hello"), ..Bundle::default() }.encode().unwrap();
    /// assert_eq!(Bundle::decode(&bytes).unwrap().prompt, Some("hello"));
    /// ```
    pub fn decode(bytes: &'a [u8]) -> Result<Bundle<'a>, DecodeError> {
        let view: View<'a> = decode_body(bytes)?;
        view.check_tables()?;
        let bundle = bundle_of(view)?;
        bundle.check()?;
        Ok(bundle)
    }
}

/// Every skill of a layout decoded (not checked).
pub(crate) fn bundle_of(view: View<'_>) -> Result<Bundle<'_>, DecodeError> {
    let skills = (0..view.len())
        .map(|at| crate::wire::codec::decode_skill(view.name(at), view.detail(at)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(DecodeError::Corrupt)?;
    Ok(Bundle {
        prompt: view.prompt,
        usage: view.usage,
        tool_description: view.tool_description,
        tool_schema: view.tool_schema,
        skills,
        revision: view.revision,
        signatures: view.signatures,
    })
}

/// Header, body and trailing bytes; not the rules of [`Bundle::check`].
#[cfg(test)]
pub(crate) fn decode_unchecked(bytes: &[u8]) -> Result<Bundle<'_>, DecodeError> {
    bundle_of(decode_body(bytes)?)
}

/// The body of a bundle (what follows its header), after checking the
/// header.
pub(crate) fn body(bytes: &[u8]) -> Result<&[u8], DecodeError> {
    let (Some(magic), Some(version)) = (bytes.first_chunk::<4>(), bytes.get(4..HEADER_LEN)) else {
        return Err(DecodeError::TooShort { len: bytes.len() });
    };
    if *magic != MAGIC {
        return Err(DecodeError::BadMagic { found: *magic });
    }
    let found = u16::from_le_bytes([version[0], version[1]]);
    if found != FORMAT_VERSION && found != PREVIOUS_FORMAT_VERSION {
        return Err(DecodeError::UnsupportedVersion { found });
    }
    Ok(bytes.get(HEADER_LEN..).unwrap_or_default())
}

/// The header checked, then the body decoded as `T` with nothing after it.
pub(crate) fn decode_body<'a, T: Decode<'a>>(bytes: &'a [u8]) -> Result<T, DecodeError> {
    let mut reader = Reader::new(body(bytes)?);
    let bundle = T::decode(&mut reader).map_err(DecodeError::Corrupt)?;
    let rest = reader.rest();
    if !rest.is_empty() {
        return Err(DecodeError::TrailingBytes { count: rest.len() });
    }
    Ok(bundle)
}

/// The layout of a bundle held as its head (header included, up to where
/// the skills' encodings start) and its tail (the bytes after them), each
/// read to its end.
#[cfg(feature = "catalog")]
pub(crate) fn decode_parts<'a>(head: &'a [u8], tail: &'a [u8]) -> Result<View<'a>, DecodeError> {
    let mut head = Reader::new(body(head)?);
    let mut tail = Reader::new(tail);
    let view = View::decode_parts(&mut head, &mut tail).map_err(DecodeError::Corrupt)?;
    let rest = head.rest().len() + tail.rest().len();
    if rest > 0 {
        return Err(DecodeError::TrailingBytes { count: rest });
    }
    Ok(view)
}

impl<'a> SkillEntry<'a> {
    /// The skills of a bundle's bytes, in catalog order, each left as its
    /// name and own encoding (borrowed from `bytes`), with the bundle's
    /// recorded revision: for a compiler that compares its skills'
    /// encodings with the last build's. Checks the header and the layout,
    /// not the rules of [`Bundle::check`].
    ///
    /// ```
    /// use skills_core::wire::bundle::{Bundle, Skill, SkillEntry};
    /// let skill = Skill { name: "pdf", description: "Forms.", ..Skill::default() };
    /// let bytes = Bundle { skills: vec![skill.clone()], ..Bundle::default() }.encode().unwrap();
    /// let (entries, revision) = SkillEntry::list(&bytes).unwrap();
    /// assert_eq!((entries[0].name, revision), ("pdf", [0; 32]));
    /// assert_eq!(entries[0].detail.0, SkillEntry::encode(&skill).detail);
    /// ```
    pub fn list(bytes: &'a [u8]) -> Result<(Vec<SkillEntry<'a>>, [u8; 32]), DecodeError> {
        let view: View<'a> = decode_body(bytes)?;
        let entries = (0..view.len())
            .map(|at| SkillEntry {
                name: view.name(at),
                detail: crate::wire::bundle::Bytes(view.detail(at)),
            })
            .collect();
        Ok((entries, view.revision))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    #[test]
    fn header_errors_come_first() {
        assert_eq!(decode_unchecked(b""), Err(DecodeError::TooShort { len: 0 }));
        assert_eq!(
            decode_unchecked(b"SKB\0\x01"),
            Err(DecodeError::TooShort { len: 5 })
        );
        assert_eq!(
            decode_unchecked(b"PK\x03\x04\x01\x00"),
            Err(DecodeError::BadMagic {
                found: *b"PK\x03\x04"
            })
        );
        assert_eq!(
            decode_unchecked(b"SKB\0\x00\x01garbage"),
            Err(DecodeError::UnsupportedVersion { found: 256 })
        );
        assert!(matches!(
            decode_unchecked(b"SKB\0\x08\x00"),
            Err(DecodeError::Corrupt(_))
        ));
    }

    #[test]
    fn trailing_bytes_are_refused() {
        let mut bytes = Bundle::default().encode().unwrap();
        bytes.extend_from_slice(&[9, 9, 9]);
        assert_eq!(
            Bundle::decode(&bytes),
            Err(DecodeError::TrailingBytes { count: 3 })
        );
    }

    #[test]
    fn messages_name_what_to_do() {
        let magic = DecodeError::BadMagic {
            found: *b"PK\x03\x04",
        }
        .to_string();
        assert!(
            magic.contains("b\"PK\\x03\\x04\"") && magic.contains("b\"SKB\\x00\""),
            "{magic}"
        );
        let version = DecodeError::UnsupportedVersion { found: 10 }.to_string();
        assert!(version.contains("format version 10"), "{version}");
        assert!(
            version.contains(&["skills-runtime ", env!("CARGO_PKG_VERSION")].concat()),
            "{version}"
        );
        assert!(
            version.contains("reads format versions 8 and 9"),
            "{version}"
        );
        let bytes: Vec<u8> = Vec::new();
        assert!(
            decode_unchecked(&bytes)
                .unwrap_err()
                .to_string()
                .contains("0 bytes")
        );
    }
}
