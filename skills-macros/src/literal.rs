//! The values of the literals `include_skills!` takes, read from their
//! source text: strings (plain with every escape Rust allows, and raw),
//! integers (decimal, `0x`, `0o`, `0b`, underscores, a type suffix) and
//! `true`/`false`. This is the part of `syn` the macro used; reading it
//! here spares a user's cold build the `syn` crate (see
//! `docs/dependencies.md`).

/// The value of a string literal, or why the text is not one (a byte
/// string, a C string, a character...).
///
/// ```ignore
/// assert_eq!(string(r#""a\tb""#).unwrap(), "a\tb");
/// assert_eq!(string(r##"r#"x"y"#"##).unwrap(), "x\"y");
/// ```
pub fn string(text: &str) -> Result<String, &'static str> {
    if let Some(raw) = text.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let inner = raw[hashes..]
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix(&format!("\"{}", "#".repeat(hashes))))
            .ok_or(EXPECTED_STRING)?;
        return Ok(inner.to_string());
    }
    let inner = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or(EXPECTED_STRING)?;
    unescape(inner)
}

/// What a literal that is not a string gets.
pub const EXPECTED_STRING: &str = "expected a string literal";

/// The characters a cooked string's escapes stand for.
fn unescape(inner: &str) -> Result<String, &'static str> {
    const BAD: &str = "invalid escape in the string literal";
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next().ok_or(BAD)? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '\\' => out.push('\\'),
            '0' => out.push('\0'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'x' => {
                let digits: String = (0..2).filter_map(|_| chars.next()).collect();
                let value = u8::from_str_radix(&digits, 16).map_err(|_| BAD)?;
                if digits.len() != 2 || value > 0x7f {
                    return Err(BAD);
                }
                out.push(char::from(value));
            }
            'u' => {
                if chars.next() != Some('{') {
                    return Err(BAD);
                }
                let mut digits = String::new();
                loop {
                    match chars.next().ok_or(BAD)? {
                        '}' => break,
                        '_' => {}
                        d => digits.push(d),
                    }
                }
                let value = u32::from_str_radix(&digits, 16).map_err(|_| BAD)?;
                out.push(char::from_u32(value).ok_or(BAD)?);
            }
            // A line continuation: the newline and the whitespace after it
            // are not part of the string.
            '\n' | '\r' => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            _ => return Err(BAD),
        }
    }
    Ok(out)
}

/// The value of an integer literal, or why it is not one that fits a
/// `u64`.
///
/// ```ignore
/// assert_eq!(integer("1_048_576u64"), Ok(1 << 20));
/// assert_eq!(integer("0x10"), Ok(16));
/// ```
pub fn integer(text: &str) -> Result<u64, &'static str> {
    const NOT: &str = "expected an integer literal";
    let (radix, digits) = match text.get(..2) {
        Some("0x") => (16, &text[2..]),
        Some("0o") => (8, &text[2..]),
        Some("0b") => (2, &text[2..]),
        _ => (10, text),
    };
    // A suffix starts at the first `u` or `i` (never a digit, even in hex).
    let digits = digits.find(['u', 'i']).map_or(digits, |at| &digits[..at]);
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    if digits.is_empty() {
        return Err(NOT);
    }
    u64::from_str_radix(&digits, radix).map_err(|error| match error.kind() {
        std::num::IntErrorKind::PosOverflow => "the number is too large (over 2^64 - 1)",
        _ => NOT,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_plain_and_raw() {
        assert_eq!(string(r#""skills""#).unwrap(), "skills");
        assert_eq!(string(r#""a\tb\n\\\"\'\0""#).unwrap(), "a\tb\n\\\"'\0");
        assert_eq!(string(r#""\x41\u{e9}\u{1_F600}""#).unwrap(), "Aé😀");
        assert_eq!(string("\"one \\\n    two\"").unwrap(), "one two");
        assert_eq!(string(r#"r"C:\dir""#).unwrap(), "C:\\dir");
        assert_eq!(string(r###"r##"a"#b"##"###).unwrap(), "a\"#b");
    }

    #[test]
    fn other_literals_are_not_strings() {
        for text in [
            r#"b"x""#,
            r#"c"x""#,
            "'x'",
            "12",
            r#""\q""#,
            r#""\x80""#,
            r#""\u{d800}""#,
        ] {
            assert!(string(text).is_err(), "{text}");
        }
    }

    #[test]
    fn integers_in_every_base() {
        assert_eq!(integer("1048576"), Ok(1 << 20));
        assert_eq!(integer("1_048_576u64"), Ok(1 << 20));
        assert_eq!(integer("0x10_00"), Ok(4096));
        assert_eq!(integer("0o17"), Ok(15));
        assert_eq!(integer("0b101usize"), Ok(5));
        assert_eq!(integer("18446744073709551615"), Ok(u64::MAX));
        assert!(
            integer("18446744073709551616")
                .unwrap_err()
                .contains("too large")
        );
        assert!(integer("1.5").is_err() && integer("\"1\"").is_err() && integer("0x").is_err());
    }
}
