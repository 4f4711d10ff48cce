//! The character buffer the scanner walks, with ruamel's line and column counting.

use super::marked::RawMark;

/// End of input as the scanner sees it (ruamel appends a NUL to the buffer).
pub(crate) const NUL: char = '\0';

/// A cursor over the input's code points.
///
/// Lines advance on `\n` and on a `\r` not followed by `\n` only; NEL, LS and PS
/// end snippet lines but do not advance the line counter, exactly as ruamel's
/// reader does. A BOM does not advance the column.
#[derive(Debug)]
pub(crate) struct Reader {
    chars: Vec<char>,
    pointer: usize,
    line: usize,
    column: usize,
}

impl Reader {
    /// A reader at the start of `text`.
    pub(crate) fn new(text: &str) -> Self {
        let mut chars: Vec<char> = text.chars().collect();
        chars.push(NUL);
        Self {
            chars,
            pointer: 0,
            line: 0,
            column: 0,
        }
    }

    /// The whole buffer, NUL-terminated, for snippets.
    pub(crate) fn buffer(&self) -> &[char] {
        &self.chars
    }

    /// The character `offset` places ahead (NUL past the end).
    pub(crate) fn peek(&self, offset: usize) -> char {
        self.chars
            .get(self.pointer + offset)
            .copied()
            .unwrap_or(NUL)
    }

    /// The next `length` characters (fewer at the end of the buffer).
    pub(crate) fn prefix(&self, length: usize) -> String {
        let start = self.pointer.min(self.chars.len());
        let end = (self.pointer + length).min(self.chars.len());
        self.chars[start..end].iter().collect()
    }

    /// Whether the next characters are `text`.
    pub(crate) fn starts_with(&self, text: &str) -> bool {
        text.chars().enumerate().all(|(i, c)| self.peek(i) == c)
    }

    /// Move past `length` characters, counting lines and columns.
    pub(crate) fn forward(&mut self, length: usize) {
        for _ in 0..length {
            let Some(&ch) = self.chars.get(self.pointer) else {
                return;
            };
            self.pointer += 1;
            if ch == '\n' || (ch == '\r' && self.peek(0) != '\n') {
                self.line += 1;
                self.column = 0;
            } else if ch != '\u{FEFF}' {
                self.column += 1;
            }
        }
    }

    /// Where the cursor is.
    pub(crate) fn mark(&self) -> RawMark {
        RawMark {
            pointer: self.pointer,
            line: self.line,
            column: self.column,
        }
    }

    /// The 0-based column.
    pub(crate) fn column(&self) -> usize {
        self.column
    }

    /// The 0-based line.
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// The number of characters consumed so far.
    pub(crate) fn index(&self) -> usize {
        self.pointer
    }
}

/// Whether ruamel's reader refuses `ch` (its NON_PRINTABLE set).
pub(crate) fn is_non_printable(ch: char) -> bool {
    !matches!(ch,
        '\t' | '\n' | '\r' | '\x20'..='\x7E' | '\u{85}'
        | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_like_ruamel() {
        let mut r = Reader::new("a\r\nb\rc\u{85}d\n");
        r.forward(3);
        assert_eq!((r.line(), r.column()), (1, 0));
        r.forward(2);
        assert_eq!((r.line(), r.column()), (2, 0));
        r.forward(2);
        assert_eq!((r.line(), r.column()), (2, 2));
        r.forward(100);
        assert_eq!(r.peek(0), NUL);
    }

    #[test]
    fn non_printable_set() {
        for ch in ['\x07', '\x7f', '\0', '\u{9b}', '\u{fffe}', '\u{1b}'] {
            assert!(is_non_printable(ch), "{ch:?}");
        }
        for ch in ['\t', 'a', '\u{85}', '\u{a0}', '日', '😀', '\u{feff}'] {
            assert!(!is_non_printable(ch), "{ch:?}");
        }
    }
}
