//! ruamel's marked error text: marks, source snippets and Python reprs.

use super::error::ErrorKind;

/// The name ruamel gives a string input in its marks.
const SOURCE_NAME: &str = "<unicode string>";

/// Characters that end a snippet line (ruamel's `get_snippet`).
const SNIPPET_BREAKS: &[char] = &['\0', '\r', '\n', '\u{85}', '\u{2028}', '\u{2029}'];

/// A position in the reader's buffer: 0-based line and column, and the offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawMark {
    /// Offset in code points from the start of the input.
    pub(crate) pointer: usize,
    /// 0-based line.
    pub(crate) line: usize,
    /// 0-based column in code points.
    pub(crate) column: usize,
}

impl RawMark {
    /// The public, 1-based form.
    pub(crate) fn public(self) -> super::error::Mark {
        let to_u32 = |n: usize| u32::try_from(n.saturating_add(1)).unwrap_or(u32::MAX);
        super::error::Mark {
            line: to_u32(self.line),
            column: to_u32(self.column),
        }
    }

    /// Whether two marks point at the same line and column (ruamel's test for
    /// leaving out the context mark).
    fn same_place(self, other: Self) -> bool {
        self.line == other.line && self.column == other.column
    }
}

/// A failure in ruamel's shape, rendered once the buffer is at hand.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub(crate) kind: ErrorKind,
    pub(crate) context: Option<String>,
    pub(crate) context_mark: Option<RawMark>,
    pub(crate) problem: String,
    pub(crate) problem_mark: Option<RawMark>,
    pub(crate) note: Option<String>,
}

impl Failure {
    /// A failure with a context line and mark.
    pub(crate) fn with_context(
        kind: ErrorKind,
        context: impl Into<String>,
        context_mark: RawMark,
        problem: impl Into<String>,
        problem_mark: RawMark,
    ) -> Box<Self> {
        Box::new(Self {
            kind,
            context: Some(context.into()),
            context_mark: Some(context_mark),
            problem: problem.into(),
            problem_mark: Some(problem_mark),
            note: None,
        })
    }

    /// A failure with only a problem and its mark.
    pub(crate) fn problem(kind: ErrorKind, problem: impl Into<String>, mark: RawMark) -> Box<Self> {
        Box::new(Self {
            kind,
            context: None,
            context_mark: None,
            problem: problem.into(),
            problem_mark: Some(mark),
            note: None,
        })
    }

    /// The same failure with a context line but no context mark.
    pub(crate) fn context_line(mut self: Box<Self>, context: impl Into<String>) -> Box<Self> {
        self.context = Some(context.into());
        self
    }

    /// ruamel's `MarkedYAMLError.__str__` over `buffer`.
    pub(crate) fn render(&self, buffer: &[char]) -> String {
        let mut lines: Vec<String> = Vec::new();
        if let Some(context) = &self.context {
            lines.push(context.clone());
        }
        if let Some(context_mark) = self.context_mark {
            let same = self
                .problem_mark
                .is_some_and(|p| p.same_place(context_mark));
            if !same {
                lines.push(render_mark(buffer, context_mark));
            }
        }
        lines.push(self.problem.clone());
        if let Some(mark) = self.problem_mark {
            lines.push(render_mark(buffer, mark));
        }
        if let Some(note) = self.note.as_deref().filter(|n| !n.is_empty()) {
            lines.push(note.to_owned());
        }
        lines.join("\n")
    }
}

/// One mark: the `in "<unicode string>", line L, column C:` line and its snippet.
pub(crate) fn render_mark(buffer: &[char], mark: RawMark) -> String {
    format!(
        "  in \"{SOURCE_NAME}\", line {}, column {}:\n{}",
        mark.line + 1,
        mark.column + 1,
        snippet(buffer, mark.pointer, mark.line)
    )
}

/// ruamel's `get_snippet(indent=4, max_length=75)`: the line around `pointer`,
/// cut to about 75 code points with ` ... ` markers, then a caret line.
pub(crate) fn snippet(buffer: &[char], pointer: usize, line: usize) -> String {
    const INDENT: usize = 4;
    const HALF: usize = 36; // ruamel cuts once a side exceeds 75 / 2 - 1 = 36.5
    let is_break = |i: usize| buffer.get(i).is_none_or(|c| SNIPPET_BREAKS.contains(c));
    let pointer = pointer.min(buffer.len());
    let mut head = "";
    let mut start = pointer;
    while start > 0 && !is_break(start - 1) {
        start -= 1;
        if pointer - start > HALF {
            head = " ... ";
            start += 5;
            break;
        }
    }
    let mut tail = "";
    let mut end = pointer;
    while end < buffer.len() && !is_break(end) {
        end += 1;
        if end - pointer > HALF {
            tail = " ... ";
            end -= 5;
            break;
        }
    }
    let text: String = buffer.get(start..end).unwrap_or_default().iter().collect();
    let caret_offset = INDENT + pointer.saturating_sub(start) + head.len();
    format!(
        "{pad}{head}{text}{tail}\n{caret_pad}^ (line: {line})",
        pad = " ".repeat(INDENT),
        caret_pad = " ".repeat(caret_offset),
        line = line + 1
    )
}

/// Python's `repr()` of a one-character string, as ruamel's `%r` shows it.
pub(crate) fn py_repr_char(ch: char) -> String {
    let mut buf = [0u8; 4];
    py_repr_str(ch.encode_utf8(&mut buf))
}

/// Python's `repr()` of a string (Unicode 14 printability, so unassigned
/// code points are escaped as Python escapes them).
pub(crate) fn py_repr_str(text: &str) -> String {
    crate::repr::repr_str(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        let mut v: Vec<char> = s.chars().collect();
        v.push('\0');
        v
    }

    #[test]
    fn short_line_snippet() {
        let buf = chars("a: b\nkey: a: b\n");
        assert_eq!(snippet(&buf, 11, 1), "    key: a: b\n          ^ (line: 2)");
    }

    #[test]
    fn empty_line_snippet() {
        let buf = chars("a\n");
        assert_eq!(snippet(&buf, 2, 1), "    \n    ^ (line: 2)");
    }

    #[test]
    fn long_line_is_cut_on_both_sides() {
        let line = format!("k: {}: b{}", "a".repeat(60), "c".repeat(60));
        let buf = chars(&line);
        let got = snippet(&buf, 63, 0);
        let want = format!(
            "     ... {}: b{} ... \n{}^ (line: 1)",
            "a".repeat(32),
            "c".repeat(29),
            " ".repeat(41)
        );
        assert_eq!(got, want);
    }

    #[test]
    fn mark_line_and_context_omission() {
        let buf = chars("a: 1\n");
        let m = RawMark {
            pointer: 3,
            line: 0,
            column: 3,
        };
        let f = Failure::with_context(ErrorKind::Syntax, "ctx", m, "prob", m);
        assert_eq!(
            f.render(&buf),
            "ctx\nprob\n  in \"<unicode string>\", line 1, column 4:\n    a: 1\n       ^ (line: 1)"
        );
    }

    #[test]
    fn reprs() {
        assert_eq!(py_repr_char('\t'), "'\\t'");
        assert_eq!(py_repr_char('\''), "\"'\"");
        assert_eq!(py_repr_char('\\'), "'\\\\'");
        assert_eq!(py_repr_char('\u{85}'), "'\\x85'");
        assert_eq!(py_repr_char('\u{2028}'), "'\\u2028'");
        assert_eq!(py_repr_char('é'), "'é'");
        assert_eq!(py_repr_str("a'b\"c"), "'a\\'b\"c'");
    }
}
