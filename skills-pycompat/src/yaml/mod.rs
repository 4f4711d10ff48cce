//! A strict YAML reader with the verdicts and error text of strictyaml 1.7.3.
//!
//! The reference validator reads frontmatter with `strictyaml.load(text)`
//! (schema-less), which runs ruamel.yaml's pure-Python reader, scanner, parser
//! and composer with strictyaml's refusals layered on top. To give the same
//! verdicts *and* the same messages byte for byte, this module follows that
//! pipeline step by step:
//!
//! * `reader`: the code-point buffer with ruamel's line/column counting;
//! * `scanner`: tokens, simple keys, comment tokens and every scanner error;
//!   strictyaml's refusal of tags, flow collections and anchors happens when
//!   the parser asks for those tokens, as in strictyaml;
//! * `parser`: the block-context parser states and their errors;
//! * `composer`: the node tree, undefined aliases, the single-document rule,
//!   then strictyaml's construction checks (merge keys, duplicate keys,
//!   inconsistent sibling indentation) in the constructor's order;
//! * `marked`: ruamel's `MarkedYAMLError` text with its 75-column snippets.
//!
//! The pipeline mirrors ruamel rather than an event-level YAML 1.2 parser such
//! as saphyr-parser, because which problem is reported first, and where,
//! depends on ruamel's token look-ahead; no second parser is consulted.
//!
//! Every scalar is text as written; an empty value is `''`. When the document
//! is not a mapping or a sequence (empty, only comments, a scalar),
//! strictyaml returns the whole input text, and so does [`parse`].

mod composer;
mod error;
mod marked;
mod parser;
mod reader;
mod scanner;

use composer::{Body, RawNode};
pub use error::{ErrorKind, Mark};
use marked::{Failure, RawMark};

use super::repr::push_repr_str;

/// A parsed node with the position where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// What the node holds.
    pub value: Value,
    /// Where the node starts.
    pub mark: Mark,
    /// Whether the node is a scalar written plain (an empty value, as in
    /// `key:`, included): the scalars a YAML reader with a schema types by
    /// their text (null, booleans, numbers), where strictyaml keeps text.
    /// Quoted and block scalars, lists and mappings are not plain.
    pub plain: bool,
}

/// The three shapes strictyaml produces: text, list, mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A scalar, always text as written (after YAML unquoting/folding).
    Str(String),
    /// A block sequence.
    Seq(Vec<Node>),
    /// A block mapping, entries in file order, keys unique.
    Map(Vec<Entry>),
}

impl Value {
    /// Python's `str()` of the loaded value: text as is, lists and mappings
    /// as their `repr()` (how the reference turns a nested `metadata` value
    /// into text).
    ///
    /// ```
    /// use skills_pycompat::yaml::{self, Value};
    /// let doc = yaml::parse("k:\n  a: x\n  b:\n  - it's\n").unwrap();
    /// let Value::Map(entries) = &doc.value else { unreachable!() };
    /// assert_eq!(entries[0].value.value.python_str(), "{'a': 'x', 'b': [\"it's\"]}");
    /// ```
    pub fn python_str(&self) -> String {
        match self {
            Value::Str(text) => text.clone(),
            other => {
                let mut out = String::new();
                other.push_repr(&mut out);
                out
            }
        }
    }

    fn push_repr(&self, out: &mut String) {
        match self {
            Value::Str(text) => push_repr_str(text, out),
            Value::Seq(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.value.push_repr(out);
                }
                out.push(']');
            }
            Value::Map(entries) => {
                out.push('{');
                for (i, entry) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    push_repr_str(&entry.key, out);
                    out.push_str(": ");
                    entry.value.value.push_repr(out);
                }
                out.push('}');
            }
        }
    }
}

/// One key/value pair of a mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key text.
    pub key: String,
    /// Where the key starts.
    pub key_mark: Mark,
    /// The value.
    pub value: Node,
}

/// Why the text is not strict YAML.
///
/// For every input the reference rejects with a `strictyaml.YAMLError`, the
/// [`Display`](core::fmt::Display) text is exactly that error's `str()`.
/// Where the reference crashes instead, the text is ours:
///
/// * a non-printable character (which makes strictyaml fail with an
///   `AttributeError`) gives a one-line message naming the character as
///   `U+XXXX` with its 1-based line and column, for example
///   `found non-printable character U+0007 at line 1, column 5 (special
///   characters are not allowed in YAML)`; the raw character is not echoed;
/// * a sequence used as a key, a repeated merge key, and nesting deeper than
///   100 levels give ruamel-style marked messages of our own wording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    kind: ErrorKind,
    message: String,
    mark: Mark,
}

impl YamlError {
    /// Where the problem is (the problem mark, 1-based).
    pub fn mark(&self) -> Mark {
        self.mark
    }

    /// Which rule was broken.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    fn from_failure(failure: &Failure, buffer: &[char]) -> Self {
        let mark = failure
            .problem_mark
            .or(failure.context_mark)
            .map_or(Mark { line: 1, column: 1 }, RawMark::public);
        Self {
            kind: failure.kind,
            message: failure.render(buffer),
            mark,
        }
    }
}

impl core::fmt::Display for YamlError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for YamlError {}

/// Parse `text` (the frontmatter between the fences) as `strictyaml.load` would.
///
/// A mapping or sequence document comes back as [`Value::Map`] or
/// [`Value::Seq`]; any other document (empty, comments only, a scalar) comes
/// back as the whole `text`, as strictyaml returns it. Lines count from the
/// first line of `text`.
///
/// # Errors
///
/// A [`YamlError`] whose text is the reference's, for anything strictyaml
/// refuses; see [`YamlError`] for the inputs where the reference crashes.
///
/// # Example
///
/// ```
/// use skills_pycompat::yaml::{parse, Value};
///
/// let node = parse("name: demo\nversion: 1.0\n").unwrap();
/// let Value::Map(entries) = node.value else { panic!("a mapping") };
/// assert_eq!(entries[1].key, "version");
/// assert_eq!(entries[1].value.value, Value::Str("1.0".into()));
/// assert_eq!((entries[1].key_mark.line, entries[1].key_mark.column), (2, 1));
///
/// let err = parse("tools: [a, b]\n").unwrap_err();
/// assert!(err.to_string().contains("JSONesque flow mapping"));
/// ```
pub fn parse(text: &str) -> Result<Node, YamlError> {
    if let Some(error) = non_printable(text) {
        return Err(error);
    }
    let mut parser = parser::Parser::new(text);
    let composed = composer::compose(&mut parser).and_then(|root| {
        if let Some(root) = &root {
            composer::check(root)?;
        }
        Ok(root)
    });
    match composed {
        Err(failure) => Err(YamlError::from_failure(
            &failure,
            parser.scanner.reader.buffer(),
        )),
        Ok(Some(root)) if !matches!(root.body, Body::Scalar { .. }) => Ok(public(root)),
        Ok(_) => Ok(Node {
            value: Value::Str(text.to_owned()),
            mark: Mark { line: 1, column: 1 },
            plain: false,
        }),
    }
}

/// Where the first comment of `text` starts, if it holds one: a `#` that
/// no scalar token covers (or one on a block scalar's header line).
///
/// Meant for text [`parse`] accepts: parsing drops comments, so a tool
/// that writes a document back from its parsed form must know whether it
/// would lose one. Text the scanner refuses counts as holding a comment
/// at its start, so such a tool errs on the side of leaving it alone.
///
/// ```
/// use skills_pycompat::yaml::{first_comment, Mark};
/// assert_eq!(first_comment("a: b # note\n"), Some(Mark { line: 1, column: 6 }));
/// assert_eq!(first_comment("a: 'b # not a comment'\nc: d#e\n"), None);
/// assert_eq!(first_comment("a: |\n  # text\n"), None);
/// ```
pub fn first_comment(text: &str) -> Option<Mark> {
    let chars: Vec<char> = text.chars().collect();
    let mut scanner = scanner::Scanner::new(text);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    // Every token of the text; each step consumes at least one, so this
    // ends, and the bound only guards against a scanner that would not.
    for _ in 0..=chars.len().saturating_mul(2).saturating_add(16) {
        let Ok(token) = scanner.next() else {
            return Some(Mark { line: 1, column: 1 });
        };
        match token.kind {
            scanner::Kind::StreamEnd => break,
            scanner::Kind::Scalar => {
                let (start, end) = (token.start.pointer, token.end.pointer);
                let header_end = match chars.get(start) {
                    Some('|' | '>') => chars[start..end.min(chars.len())]
                        .iter()
                        .position(|c| matches!(c, '\n' | '\r'))
                        .map_or(end, |i| start + i),
                    _ => start,
                };
                spans.push((header_end, end));
            }
            _ => {}
        }
    }
    let (mut line, mut column) = (1u32, 1u32);
    for (at, &c) in chars.iter().enumerate() {
        if c == '#' && !spans.iter().any(|&(s, e)| s <= at && at < e) {
            return Some(Mark { line, column });
        }
        if c == '\n' {
            line = line.saturating_add(1);
            column = 1;
        } else {
            column = column.saturating_add(1);
        }
    }
    None
}

/// The first character ruamel's reader refuses, as our error.
fn non_printable(text: &str) -> Option<YamlError> {
    let (offset, ch) = text
        .char_indices()
        .find(|&(_, c)| reader::is_non_printable(c))?;
    let before = text.get(..offset).unwrap_or_default();
    let mut cursor = reader::Reader::new(before);
    cursor.forward(before.chars().count());
    let mark = cursor.mark().public();
    let message = format!(
        "found non-printable character U+{:04X} at line {}, column {} \
         (special characters are not allowed in YAML)",
        u32::from(ch),
        mark.line,
        mark.column
    );
    Some(YamlError {
        kind: ErrorKind::NonPrintable,
        message,
        mark,
    })
}

/// The public tree; merge entries (already checked) are left out, as
/// strictyaml's data leaves them out.
fn public(node: RawNode) -> Node {
    let mark = node.start.public();
    let plain = matches!(node.body, Body::Scalar { plain: true, .. });
    let value = match node.body {
        Body::Scalar { value, .. } => Value::Str(value),
        Body::Seq(items) => Value::Seq(items.into_iter().map(public).collect()),
        Body::Map(pairs) => Value::Map(
            pairs
                .into_iter()
                .filter(|(key, _)| !key.is_merge_key())
                .map(|(key, value)| {
                    let key_mark = key.start.public();
                    let key = match key.body {
                        Body::Scalar { value, .. } => value,
                        // Refused by `composer::check` before we get here.
                        Body::Seq(_) | Body::Map(_) => String::new(),
                    };
                    Entry {
                        key,
                        key_mark,
                        value: public(value),
                    }
                })
                .collect(),
        ),
    };
    Node { value, mark, plain }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Vec<Entry> {
        match parse(text).map(|n| n.value) {
            Ok(Value::Map(entries)) => entries,
            other => panic!("not a map: {other:?}"),
        }
    }

    #[test]
    fn scalars_stay_text() {
        let entries = map("a: true\nb: ~\nc:\n");
        let values: Vec<_> = entries.iter().map(|e| e.value.value.clone()).collect();
        assert_eq!(
            values,
            [
                Value::Str("true".into()),
                Value::Str("~".into()),
                Value::Str(String::new())
            ]
        );
    }

    #[test]
    fn marks_are_one_based_code_points() {
        let entries = map("名前: 値\nk:\n  - x\n");
        assert_eq!(entries[0].value.mark, Mark { line: 1, column: 5 });
        assert_eq!(entries[1].key_mark, Mark { line: 2, column: 1 });
        let Value::Seq(items) = &entries[1].value.value else {
            panic!()
        };
        assert_eq!(items[0].mark, Mark { line: 3, column: 5 });
    }

    #[test]
    fn non_mapping_documents_return_the_text() {
        for text in ["", "# c\n", "plain\n"] {
            assert_eq!(parse(text).map(|n| n.value), Ok(Value::Str(text.into())));
        }
    }

    #[test]
    fn non_printable_is_named() {
        let err = parse("a: b\nc: x\x07\n").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NonPrintable);
        assert_eq!(err.mark(), Mark { line: 2, column: 5 });
        assert!(err.to_string().contains("U+0007"), "{err}");
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let text: String = (0..300).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        assert_eq!(parse(&text).unwrap_err().kind(), ErrorKind::TooDeep);
    }

    #[test]
    fn error_mark_is_the_problem_mark() {
        let err = parse("a: 1\na: 2\n").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DuplicateKey);
        assert_eq!(err.mark(), Mark { line: 2, column: 2 });
    }
}
