//! Percent-encoding as Python's `urllib.parse.quote` writes it, and its
//! inverse: the form of every `skill://` URI the MCP Skills extension's
//! servers publish, and of the order the bundle lists skills in (the byte
//! order of their URIs, see `wire::listing`).

use alloc::string::String;
use alloc::vec::Vec;

/// Whether `quote` keeps `byte` as it is: `A-Z a-z 0-9 _ . - ~`, and `/`
/// when `keep_slash`.
fn kept(byte: u8, keep_slash: bool) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(byte, b'_' | b'.' | b'-' | b'~')
        || (keep_slash && byte == b'/')
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Calls `put` with the bytes of `text` percent-encoded (see
/// [`push_quoted`]), a piece at a time.
pub(crate) fn quote_with(text: &str, keep_slash: bool, mut put: impl FnMut(&[u8])) {
    for byte in text.bytes() {
        if kept(byte, keep_slash) {
            put(&[byte]);
        } else {
            put(&[
                b'%',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 15)],
            ]);
        }
    }
}

/// Appends `text` percent-encoded as Python's `urllib.parse.quote` does:
/// `A-Z a-z 0-9 _ . - ~` kept, and `/` too when `keep_slash`, every other
/// byte of the UTF-8 as `%XX` (uppercase).
///
/// ```
/// let mut out = String::new();
/// skills_core::encoding::percent::push_quoted(&mut out, "references/a b é.md", true);
/// assert_eq!(out, "references/a%20b%20%C3%A9.md");
/// ```
pub fn push_quoted(out: &mut String, text: &str, keep_slash: bool) {
    out.reserve(text.len());
    quote_with(text, keep_slash, |piece| {
        // Every piece is ASCII.
        out.extend(piece.iter().map(|&byte| char::from(byte)));
    });
}

/// Decodes `%XX` escapes (either case) in `text`, or `None` when an
/// escape is malformed or the bytes are not UTF-8. Every other byte is
/// kept as it is, so a caller that needs the one canonical form compares
/// [`push_quoted`]'s output with what it was given.
///
/// ```
/// use skills_core::encoding::percent::unquote;
/// assert_eq!(unquote("a%20b%C3%a9").as_deref(), Some("a bé"));
/// assert_eq!(unquote("%2"), None);
/// assert_eq!(unquote("%FF"), None);
/// ```
pub fn unquote(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte == b'%' {
            let hex = |at: usize| char::from(*bytes.get(at)?).to_digit(16);
            out.push((hex(at + 1)? * 16 + hex(at + 2)?) as u8);
            at += 3;
        } else {
            out.push(byte);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_and_unquote_round_trip() {
        for text in ["plain", "a b/c", "é:ü~_.-", "%25", ""] {
            for keep_slash in [false, true] {
                let mut quoted = String::new();
                push_quoted(&mut quoted, text, keep_slash);
                assert!(quoted.is_ascii());
                assert_eq!(unquote(&quoted).as_deref(), Some(text));
            }
        }
        let mut quoted = String::new();
        push_quoted(&mut quoted, "a/b", false);
        assert_eq!(quoted, "a%2Fb");
        assert_eq!(unquote("%zz"), None);
        assert_eq!(unquote("x%"), None);
    }
}
