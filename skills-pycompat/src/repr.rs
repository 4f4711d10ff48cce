//! Python's `repr()` of a string.
//!
//! The reference turns nested `metadata` values into text with `str()`,
//! which prints dicts and lists with the `repr()` of their items
//! ([`Value::python_str`](super::yaml::Value::python_str)); its command
//! line quotes names with `repr()` in messages; ruamel quotes characters
//! with it in YAML errors. All must match byte for byte.

use super::unicode;

/// Python's `repr()` of a string: single quotes unless the text holds a
/// single quote and no double quote, with Python's escapes.
///
/// ```
/// use skills_pycompat::repr::repr_str;
/// assert_eq!(repr_str("it's"), "\"it's\"");
/// assert_eq!(repr_str("tab\there\u{7}"), "'tab\\there\\x07'");
/// ```
pub fn repr_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_repr_str(text, &mut out);
    out
}

/// Appends Python's `repr()` of `text` to `out` (see [`repr_str`]).
pub fn push_repr_str(text: &str, out: &mut String) {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_ascii() || unicode::is_printable(c) => out.push(c),
            c => {
                let code = c as u32;
                let escaped = if code <= 0xff {
                    format!("\\x{code:02x}")
                } else if code <= 0xffff {
                    format!("\\u{code:04x}")
                } else {
                    format!("\\U{code:08x}")
                };
                out.push_str(&escaped);
            }
        }
    }
    out.push(quote);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_quotes_like_python() {
        assert_eq!(repr_str("plain"), "'plain'");
        assert_eq!(repr_str("both ' and \""), "'both \\' and \"'");
        assert_eq!(repr_str("say \"hi\""), "'say \"hi\"'");
        assert_eq!(repr_str(""), "''");
    }

    #[test]
    fn escapes_non_printable_characters() {
        assert_eq!(repr_str("a\\b"), "'a\\\\b'");
        assert_eq!(repr_str("\u{7f}\u{85}\u{a0}"), "'\\x7f\\x85\\xa0'");
        assert_eq!(repr_str("\u{200b}x\u{e000}"), "'\\u200bx\\ue000'");
        assert_eq!(repr_str("\u{e0001}"), "'\\U000e0001'");
        assert_eq!(repr_str("été 日本 😀"), "'été 日本 😀'");
    }
}
