//! The skill file itself: its names, how its bytes become text, and where
//! the frontmatter ends.
//!
//! Everything here follows the reference reader exactly: the file is UTF-8
//! read with universal newlines (a byte-order mark is kept, and then fails
//! the `---` check), and the frontmatter is split on the first two `---`
//! substrings, wherever they are, not on fence lines.

use std::fmt;

/// The names a skill file may have, in the order they are looked for.
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// The bytes of a skill file are not UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotUtf8 {
    /// 1-based line of the first invalid byte.
    pub line: u32,
    /// 1-based column (in characters) of the first invalid byte.
    pub column: u32,
    /// The first invalid byte.
    pub byte: u8,
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SKILL.md is not valid UTF-8: byte 0x{:02X} at line {}, column {}",
            self.byte, self.line, self.column
        )
    }
}

impl std::error::Error for NotUtf8 {}

/// Decodes a skill file: strict UTF-8, then universal newlines (`\r\n` and a
/// lone `\r` both become `\n`). A byte-order mark is kept.
pub fn decode(bytes: &[u8]) -> Result<String, NotUtf8> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        // Safe to decode: the prefix up to `valid_up_to` is valid UTF-8.
        let prefix = String::from_utf8_lossy(valid);
        let line_start = prefix.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let lines = count_line_breaks(&prefix);
        NotUtf8 {
            line: saturating_u32(lines + 1),
            column: saturating_u32(prefix[line_start..].chars().count() + 1),
            byte: bytes.get(e.valid_up_to()).copied().unwrap_or(0),
        }
    })?;
    Ok(universal_newlines(text))
}

fn count_line_breaks(text: &str) -> usize {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count()
}

fn saturating_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Replaces `\r\n` and lone `\r` with `\n`, as Python's text mode does.
pub fn universal_newlines(text: &str) -> String {
    if !text.contains('\r') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            chars.next_if_eq(&'\n');
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// A decoded skill file cut at its `---` markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    /// The text between the first and second `---`: the YAML frontmatter.
    pub frontmatter: &'a str,
    /// Everything after the second `---`, unchanged.
    pub rest: &'a str,
}

/// Why a skill file could not be cut into frontmatter and body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// The text does not begin with `---`.
    NoFrontmatter,
    /// There is no second `---`.
    NotClosed,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SplitError::NoFrontmatter => "SKILL.md must start with YAML frontmatter (---)",
            SplitError::NotClosed => "SKILL.md frontmatter not properly closed with ---",
        })
    }
}

impl std::error::Error for SplitError {}

/// Cuts decoded text at its first two `---` substrings.
///
/// This is a plain substring search, as the reference does it: a `---`
/// inside a value closes the frontmatter, and text may follow the opening
/// `---` on its line.
pub fn split(text: &str) -> Result<Split<'_>, SplitError> {
    let after_open = text.strip_prefix("---").ok_or(SplitError::NoFrontmatter)?;
    let close = after_open.find("---").ok_or(SplitError::NotClosed)?;
    Ok(Split {
        frontmatter: &after_open[..close],
        rest: &after_open[close + 3..],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_byte_order_mark() {
        let text = decode("\u{feff}---\n".as_bytes()).unwrap();
        assert!(text.starts_with('\u{feff}'));
        assert_eq!(split(&text), Err(SplitError::NoFrontmatter));
    }

    #[test]
    fn locates_invalid_bytes_after_crlf_lines() {
        let err = decode(b"---\r\nname: x\r\n\xc3(").unwrap_err();
        assert_eq!((err.line, err.column, err.byte), (3, 1, 0xc3));
        let err = decode(b"a\rb\r\ncd\x80").unwrap_err();
        assert_eq!((err.line, err.column, err.byte), (3, 3, 0x80));
    }

    #[test]
    fn four_dashes_leave_a_stray_dash() {
        let s = split("----\nname: x\n---\n").unwrap();
        assert_eq!(s.frontmatter, "-\nname: x\n");
    }

    #[test]
    fn unclosed_and_missing_frontmatter() {
        assert_eq!(split("---\nname: x\n"), Err(SplitError::NotClosed));
        assert_eq!(split(" ---\n---\n"), Err(SplitError::NoFrontmatter));
        assert_eq!(split("").unwrap_err(), SplitError::NoFrontmatter);
        let s = split("------").unwrap();
        assert_eq!((s.frontmatter, s.rest), ("", ""));
    }

    #[test]
    fn not_utf8_names_where() {
        let err = crate::skill_file::decode(b"---\nname: \xff\n").unwrap_err();
        assert_eq!((err.line, err.column, err.byte), (2, 7, 0xff));
    }

    #[test]
    fn decodes_utf8_only() {
        assert_eq!(crate::skill_file::decode(b"a\r\nb\rc").unwrap(), "a\nb\nc");
    }

    #[test]
    fn splits_at_the_first_two_markers() {
        use crate::skill_file::split;
        let s = split("---\ndescription: before --- after\n---\nbody").unwrap();
        assert_eq!(s.frontmatter, "\ndescription: before ");
        assert_eq!(s.rest, " after\n---\nbody");
    }
}
