//! Where a byte offset in a text falls, as a file position.

use crate::problem::Position;

/// A text and the file position of its first character: the whole file
/// (at 1:1), or a part of it (a skill file's body).
///
/// ```ignore
/// let text = Located::new("ab\ncd", Position { line: 1, column: 1 });
/// assert_eq!(text.position(4), Position { line: 2, column: 2 });
/// ```
#[derive(Debug, Clone, Copy)]
pub(crate) struct Located<'a> {
    /// The text.
    pub text: &'a str,
    /// Where its first character sits in the file.
    pub base: Position,
}

impl<'a> Located<'a> {
    /// `text`, starting at `base`.
    pub fn new(text: &'a str, base: Position) -> Self {
        Located { text, base }
    }

    /// The file position of the character at byte `offset` (clamped to the
    /// text, and down to a character boundary). Lines end at `\n`; columns
    /// count Unicode scalar values, from 1.
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let lines = before.bytes().filter(|&b| b == b'\n').count();
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        match before.rfind('\n') {
            Some(newline) => Position {
                line: self.base.line.saturating_add(clamp(lines)),
                column: clamp(before[newline + 1..].chars().count() + 1),
            },
            None => Position {
                line: self.base.line,
                column: self
                    .base
                    .column
                    .saturating_add(clamp(before.chars().count())),
            },
        }
    }

    /// A [`Walker`] over this text, for many positions in order.
    pub fn walker(&self) -> Walker<'a> {
        Walker {
            text: *self,
            at: 0,
            position: self.base,
        }
    }

    /// The position just after `prefix`, were `prefix` the text before
    /// this one's start: for a part cut from a file.
    pub fn after(prefix: &str) -> Position {
        Located::new(prefix, Position { line: 1, column: 1 }).position(prefix.len())
    }
}

/// Positions of many offsets of one text, found walking forward: each
/// [`Walker::position`] reads only the text between the last offset asked
/// for and this one, so offsets in order cost one pass over the text in
/// all (where [`Located::position`] reads from the start each time). An
/// offset before the last one starts the walk again from the start.
///
/// ```ignore
/// let text = Located::new("ab\ncd", Position { line: 1, column: 1 });
/// let mut walker = text.walker();
/// assert_eq!(walker.position(1), Position { line: 1, column: 2 });
/// assert_eq!(walker.position(4), Position { line: 2, column: 2 });
/// ```
#[derive(Debug, Clone)]
pub(crate) struct Walker<'a> {
    text: Located<'a>,
    /// The offset walked to (a character boundary).
    at: usize,
    /// Its position.
    position: Position,
}

impl Walker<'_> {
    /// The file position of the character at byte `offset`, as
    /// [`Located::position`] gives it.
    pub fn position(&mut self, offset: usize) -> Position {
        let text = self.text.text;
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.at {
            self.at = 0;
            self.position = self.text.base;
        }
        let walked = &text[self.at..offset];
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        match walked.rfind('\n') {
            Some(newline) => {
                let lines = memchr::memchr_iter(b'\n', walked.as_bytes()).count();
                self.position = Position {
                    line: self.position.line.saturating_add(clamp(lines)),
                    column: clamp(walked[newline + 1..].chars().count() + 1),
                };
            }
            None => {
                self.position.column = self
                    .position
                    .column
                    .saturating_add(clamp(walked.chars().count()));
            }
        }
        self.at = offset;
        self.position
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters() {
        let text = Located::new("ab\nçd\n", Position { line: 1, column: 1 });
        assert_eq!(text.position(0), Position { line: 1, column: 1 });
        assert_eq!(text.position(5), Position { line: 2, column: 2 });
        // Inside a character: its start.
        assert_eq!(text.position(4), Position { line: 2, column: 1 });
        assert_eq!(text.position(99), Position { line: 3, column: 1 });
    }

    #[test]
    fn a_walker_agrees_with_position() {
        let text = Located::new("ab\nçd\n\nxyz", Position { line: 3, column: 4 });
        let mut walker = text.walker();
        for offset in [0, 1, 3, 4, 5, 5, 7, 9, 99, 2, 8] {
            assert_eq!(walker.position(offset), text.position(offset), "{offset}");
        }
    }

    #[test]
    fn a_part_starts_where_its_prefix_ends() {
        let base = Located::after("---\nname: x\n---");
        assert_eq!(base, Position { line: 3, column: 4 });
        let body = Located::new("\n# Title\n", base);
        assert_eq!(body.position(0), Position { line: 3, column: 4 });
        assert_eq!(body.position(3), Position { line: 4, column: 3 });
    }
}
