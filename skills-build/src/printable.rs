//! Text from a skill or a bundle made safe to print on a terminal or hand
//! to a model as one line.
//!
//! A name, a description or a file path can hold escape sequences (which
//! set a terminal's title, clear its screen, or hide what follows) and line
//! breaks (which forge whole lines of a listing). [`printable`] writes every
//! such character as a visible escape, so what is printed is what is there.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal as is: control characters (C0,
/// DEL, C1), line and paragraph separators, the invisible marks that
/// reorder text on screen (bidirectional embeddings, overrides, isolates),
/// and the tag characters (U+E0000-U+E007F), which spell text no font draws
/// and a model reads.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// `text` with each control character written as an escape: `\n`, `\r`,
/// `\t`, and `\u{…}` (Rust's notation) for the others. Text without one is
/// returned as is, unallocated.
///
/// ```
/// use skills_build::unstable::printable::printable;
/// assert_eq!(printable("pdf"), "pdf");
/// assert_eq!(printable("a\nb\tc"), "a\\nb\\tc");
/// assert_eq!(printable("\u{1b}]0;owned\u{7}"), "\\u{1b}]0;owned\\u{7}");
/// assert_eq!(printable("x\u{202e}y"), "x\\u{202e}y");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether `text` holds a character [`printable`] would escape: such a name
/// is refused for a file embedded in a bundle.
pub fn has_control(text: &str) -> bool {
    text.chars().any(needs_escape)
}

/// The most characters of a value a message quotes: enough to recognise
/// it, and an 8 MB name still gives a short error.
pub const MAX_ECHO_CHARS: usize = 200;

/// `text` cut to [`MAX_ECHO_CHARS`] characters and an ellipsis, for quoting
/// a value in a message; shorter text is returned as is.
pub fn capped(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(MAX_ECHO_CHARS) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}…", &text[..end])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_control_and_keeps_the_rest() {
        assert!(matches!(printable("é中🙂 ok"), Cow::Borrowed(_)));
        assert_eq!(
            printable("\u{0}\u{7f}\u{85}\u{9b}"),
            "\\u{0}\\u{7f}\\u{85}\\u{9b}"
        );
        assert_eq!(printable("\u{2028}\u{2066}"), "\\u{2028}\\u{2066}");
        assert_eq!(printable("\u{1b}[2J"), "\\u{1b}[2J");
    }

    #[test]
    fn finds_control_characters() {
        assert!(crate::printable::has_control("a\nb"));
        assert!(!crate::printable::has_control("notes.md"));
        // Tag characters spell hidden text in a file list (issue 39, item 10).
        assert!(crate::printable::has_control("notes\u{E0069}\u{E0067}.md"));
        assert_eq!(crate::printable::printable("a\u{E0041}"), "a\\u{e0041}");
    }

    #[test]
    fn caps_long_text() {
        use crate::printable::capped;
        assert_eq!(capped("pdf"), "pdf");
        let long = "a".repeat(8_000_000);
        assert_eq!(capped(&long).chars().count(), 201);
        assert!(capped(&long).ends_with("a…"));
    }
}
