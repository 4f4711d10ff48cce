//! Go's `%q` for strings (`strconv.Quote`), which the `skill` tool's error
//! messages use for names and paths, so a host sees the Go module's text.

use alloc::string::String;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `text` to `out` in double quotes, escaped as Go's
/// `strconv.Quote` escapes it.
///
/// `"` and `\` are backslashed, the usual control characters get their
/// short escapes (`\n`, `\t`, ...), other ASCII controls `\xNN`, and
/// characters Go does not count as printable `\uNNNN` or `\UNNNNNNNN`.
/// Printability is decided for the characters that occur in practice:
/// controls, spaces other than U+0020, separators, format characters,
/// private-use characters and noncharacters. Any other non-ASCII
/// character is kept as is.
pub(crate) fn push_go_quoted(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        push_escaped(out, c);
    }
    out.push('"');
}

/// Quotes one byte as Go's JSON scanner does in its messages: the byte
/// read as a Latin-1 character between single quotes.
#[cfg(any(feature = "json", feature = "serde"))]
pub(crate) fn push_go_quoted_byte(out: &mut String, byte: u8) {
    match byte {
        b'\'' => out.push_str("'\\''"),
        b'"' => out.push_str("'\"'"),
        _ => {
            out.push('\'');
            push_escaped(out, char::from(byte));
            out.push('\'');
        }
    }
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{b}' => out.push_str("\\v"),
        c if is_printable(c) => out.push(c),
        c => {
            let code = u32::from(c);
            let (prefix, digits) = if code < 0x20 || code == 0x7f {
                ("\\x", 2)
            } else if code < 0x1_0000 {
                ("\\u", 4)
            } else {
                ("\\U", 8)
            };
            out.push_str(prefix);
            for shift in (0..digits).rev() {
                let nibble = (code >> (shift * 4)) & 0xf;
                // `nibble` is below 16 by the mask.
                out.push(char::from(HEX[nibble as usize]));
            }
        }
    }
}

/// Go's `unicode.IsPrint` for the characters that matter here.
fn is_printable(c: char) -> bool {
    let code = u32::from(c);
    if code < 0x80 {
        return (0x20..0x7f).contains(&code);
    }
    !matches!(code,
        // C1 controls, no-break space, soft hyphen
        0x80..=0xa0 | 0xad
        // Arabic and Syriac format characters, Mongolian vowel separator
        | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e
        // spaces, zero-width and directional format characters, separators
        | 0x1680 | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x206f | 0x3000
        // private use, noncharacters, byte order mark, interlinear annotations
        | 0xe000..=0xf8ff | 0xfdd0..=0xfdef | 0xfeff | 0xfff9..=0xfffb | 0xfffe | 0xffff
        // supplementary format characters and tags
        | 0x110bd | 0x110cd | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a | 0xe0001 | 0xe0020..=0xe007f
        // supplementary private use
        | 0xf0000..=0x10ffff
    ) && (code & 0xfffe) != 0xfffe
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(text: &str) -> String {
        let mut out = String::new();
        push_go_quoted(&mut out, text);
        out
    }

    #[test]
    fn matches_go_strconv_quote() {
        assert_eq!(quoted("pdf"), "\"pdf\"");
        assert_eq!(quoted(""), "\"\"");
        assert_eq!(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(
            quoted("\n\t\r\u{7}\u{8}\u{c}\u{b}"),
            "\"\\n\\t\\r\\a\\b\\f\\v\""
        );
        assert_eq!(quoted("\0\u{1b}\u{7f}"), "\"\\x00\\x1b\\x7f\"");
        assert_eq!(quoted("é中🙂"), "\"é中🙂\"");
        assert_eq!(
            quoted("\u{85}\u{a0}\u{200b}\u{2028}\u{feff}"),
            "\"\\u0085\\u00a0\\u200b\\u2028\\ufeff\""
        );
        assert_eq!(quoted("\u{e0001}\u{10fffd}"), "\"\\U000e0001\\U0010fffd\"");
        assert_eq!(quoted("\u{1fffe}"), "\"\\U0001fffe\"");
    }

    #[cfg(feature = "json")]
    #[test]
    fn bytes_are_quoted_as_latin1() {
        let quote = |b| {
            let mut out = String::new();
            push_go_quoted_byte(&mut out, b);
            out
        };
        assert_eq!(quote(b'x'), "'x'");
        assert_eq!(quote(b'\''), "'\\''");
        assert_eq!(quote(b'"'), "'\"'");
        assert_eq!(quote(b'\n'), "'\\n'");
        assert_eq!(quote(0xc3), "'Ã'");
        assert_eq!(quote(0x85), "'\\u0085'");
    }
}
