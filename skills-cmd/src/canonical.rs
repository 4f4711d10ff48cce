//! The canonical form of a skill file, which `skills fmt` writes: the
//! frontmatter re-emitted from what the reader understood of it, the body
//! kept byte for byte.
//!
//! * Top-level keys: the specification's in its order (`name`,
//!   `description`, `license`, `compatibility`, `metadata`,
//!   `allowed-tools`), then every other key sorted by its bytes. Nested
//!   mappings keep their order, which is the order tools hand them on in.
//! * Block style throughout, two spaces per level, list items under their
//!   key.
//! * Each scalar plain where every common reader reads it back as the same
//!   text, else single-quoted, else double-quoted with escapes. Our reader
//!   is strictyaml's (see [`skills_pycompat::yaml`]), where every scalar is
//!   text; each choice is checked by reading it back with it, not assumed.
//!   YAML 1.1 readers (PyYAML, which agentskills-core uses) and YAML 1.2
//!   readers take `true`, `1.10`, `007`, `~` or `2024-01-01` for a
//!   boolean, a number, null or a date, so those keep their quotes
//!   ([`resolves_elsewhere`]), as keys and as values. The exception: a
//!   top-level field a host reads as a bool (`disable-model-invocation:
//!   true`) keeps its `true` or `false` plain, which is what it means.
//! * The file's line ending (`\n`, or `\r\n` when its frontmatter uses it).
//!
//! Nothing is produced unless it reads back to the same fields: the
//! result is parsed again and compared before it is returned. A file that
//! does not parse, or whose frontmatter holds a comment (which the parsed
//! form cannot keep), is refused.

use std::fmt;

use skills_build::Host;
use skills_build::problem::Position;
use skills_build::unstable::frontmatter::{self, ParseError, SkillDocument};
use skills_pycompat::yaml::{self, Entry, Node, Value};

/// The specification's keys, in the specification's order.
pub const SPEC_ORDER: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Why a skill file was not formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The file does not parse.
    Parse(ParseError),
    /// The frontmatter holds a comment, which formatting would drop.
    Comment(Position),
    /// The canonical text would not read back to the same fields (a gap
    /// in the emitter; the file is left alone).
    NotFaithful(String),
}

impl FormatError {
    /// Where in the file the problem is, when known.
    pub fn position(&self) -> Option<Position> {
        match self {
            FormatError::Parse(error) => error.position(),
            FormatError::Comment(position) => Some(*position),
            FormatError::NotFaithful(_) => None,
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Parse(error) => error.fmt(f),
            FormatError::Comment(_) => f.write_str(
                "the frontmatter holds a comment, which formatting would drop; move it into the body or remove it",
            ),
            FormatError::NotFaithful(what) => write!(
                f,
                "cannot format this frontmatter without changing what it says ({what}); it is left as it is"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// The canonical form of a skill file's bytes (which may be the bytes
/// themselves, when they already are canonical).
///
/// # Errors
///
/// See [`FormatError`]; nothing is produced then.
pub fn format(bytes: &[u8]) -> Result<Vec<u8>, FormatError> {
    let document = frontmatter::parse(bytes).map_err(FormatError::Parse)?;
    if let Some(mark) = yaml::first_comment(&document.frontmatter_text) {
        return Err(FormatError::Comment(SkillDocument::position(mark)));
    }
    // `parse` succeeded, so the bytes are UTF-8 and hold two `---`: the
    // body is everything after the second, as written (line endings too).
    let raw = std::str::from_utf8(bytes).map_err(|_| not_faithful("not UTF-8"))?;
    let after_open = raw
        .strip_prefix("---")
        .ok_or_else(|| not_faithful("no opening ---"))?;
    let close = after_open
        .find("---")
        .ok_or_else(|| not_faithful("no closing ---"))?;
    let newline = if after_open[..close].contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let body = &after_open[close + 3..];
    let mut entries: Vec<&Entry> = document.frontmatter.entries().iter().collect();
    entries.sort_by(|a, b| order_key(&a.key).cmp(&order_key(&b.key)));
    let mut lines = String::new();
    for entry in entries {
        emit_entry(entry, 0, &mut lines)?;
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    out.push_str("---");
    out.push_str(newline);
    out.push_str(&lines.replace('\n', newline));
    out.push_str("---");
    out.push_str(body);
    check_faithful(&document, out.as_bytes())?;
    Ok(out.into_bytes())
}

fn not_faithful(what: &str) -> FormatError {
    FormatError::NotFaithful(what.to_string())
}

/// Sorts spec keys first in spec order, then the rest by bytes.
fn order_key(key: &str) -> (usize, &[u8]) {
    match SPEC_ORDER.iter().position(|k| *k == key) {
        Some(i) => (i, &[]),
        None => (SPEC_ORDER.len(), key.as_bytes()),
    }
}

/// The output reads back to the same fields: the same top-level entries
/// (in any order), each with exactly the same value.
fn check_faithful(before: &SkillDocument, output: &[u8]) -> Result<(), FormatError> {
    let after = frontmatter::parse(output)
        .map_err(|error| FormatError::NotFaithful(format!("it would not parse: {error}")))?;
    let (a, b) = (before.frontmatter.entries(), after.frontmatter.entries());
    if a.len() != b.len() {
        return Err(not_faithful("a key would be lost"));
    }
    for entry in a {
        let same = after
            .frontmatter
            .get(&entry.key)
            .is_some_and(|other| same_value(&entry.value.value, &other.value.value));
        if !same {
            return Err(FormatError::NotFaithful(format!(
                "the value of {:?} would change",
                entry.key
            )));
        }
    }
    if after.rest != before.rest {
        return Err(not_faithful("the body would change"));
    }
    Ok(())
}

/// Values equal as text, lists and mappings, marks aside.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Seq(a), Value::Seq(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(&x.value, &y.value))
        }
        (Value::Map(a), Value::Map(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.key == y.key && same_value(&x.value.value, &y.value.value))
        }
        _ => false,
    }
}

fn indent(level: usize, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', level * 2));
}

fn emit_entry(entry: &Entry, level: usize, out: &mut String) -> Result<(), FormatError> {
    indent(level, out);
    out.push_str(&scalar(&entry.key, Role::Key)?);
    out.push(':');
    match &entry.value.value {
        // A host's bool stays one: quoted, the host would read text.
        Value::Str(text)
            if level == 0 && Host::is_bool_field(&entry.key) && Host::is_bool(text) =>
        {
            out.push(' ');
            out.push_str(text);
            out.push('\n');
            Ok(())
        }
        _ => emit_value(&entry.value, level, out),
    }
}

/// Writes what follows `key:` or `-`: ` scalar\n`, or a newline and the
/// nested block one level deeper.
fn emit_value(node: &Node, level: usize, out: &mut String) -> Result<(), FormatError> {
    match &node.value {
        Value::Str(text) => {
            out.push(' ');
            out.push_str(&scalar(text, Role::Value)?);
            out.push('\n');
        }
        Value::Map(entries) => {
            out.push('\n');
            for entry in entries {
                emit_entry(entry, level + 1, out)?;
            }
        }
        Value::Seq(items) => {
            out.push('\n');
            for item in items {
                indent(level + 1, out);
                out.push('-');
                emit_value(item, level + 1, out)?;
            }
        }
    }
    Ok(())
}

/// The spelling of `text` as a frontmatter value that [`format()`] would
/// write: plain where the reader reads it back as the same text, else
/// quoted.
///
/// # Errors
///
/// [`FormatError::NotFaithful`] when no spelling reads back as `text`.
pub fn spelling(text: &str) -> Result<String, FormatError> {
    scalar(text, Role::Value)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Key,
    Value,
}

/// The shortest faithful spelling of `text`: plain, single-quoted or
/// double-quoted, each tried by reading it back.
fn scalar(text: &str, role: Role) -> Result<String, FormatError> {
    // A line break as a YAML 1.1 reader (PyYAML, which agentskills-core
    // reads with) counts them, U+0085, U+2028 and U+2029 included, cannot
    // stand plain or single-quoted: that reader folds it or refuses it,
    // though ours (like any YAML 1.2 reader) keeps it as text.
    let breaks = text.contains(YAML_1_1_BREAKS);
    let candidates = [
        // Plain only where every common reader reads the same text.
        (resolves_elsewhere(text).is_none() && !breaks).then(|| text.to_string()),
        (!breaks).then(|| format!("'{}'", text.replace('\'', "''"))),
        Some(double_quoted(text)),
    ];
    for candidate in candidates.into_iter().flatten() {
        if !candidate.contains("---") && reads_back(&candidate, text, role) {
            return Ok(candidate);
        }
    }
    Err(FormatError::NotFaithful(format!(
        "no spelling of {text:?} reads back as itself"
    )))
}

/// The characters YAML 1.1 reads as line breaks.
const YAML_1_1_BREAKS: [char; 5] = ['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'];

/// Whether `spelling` reads back as exactly `text`, as a key or as a value
/// both in a mapping and in a list.
fn reads_back(spelling: &str, text: &str, role: Role) -> bool {
    let one_entry = |doc: String| match yaml::parse(&doc).map(|node| node.value) {
        Ok(Value::Map(entries)) if entries.len() == 1 => Some(entries.into_iter().next()?),
        _ => None,
    };
    match role {
        Role::Key => one_entry(format!("{spelling}: v\n"))
            .is_some_and(|entry| entry.key == text && entry.value.value == Value::Str("v".into())),
        Role::Value => {
            let in_map = one_entry(format!("k: {spelling}\n")).is_some_and(|entry| {
                entry.key == "k" && entry.value.value == Value::Str(text.into())
            });
            let in_list = matches!(
                yaml::parse(&format!("- {spelling}\n")).map(|node| node.value),
                Ok(Value::Seq(items)) if items.len() == 1 && items[0].value == Value::Str(text.into())
            );
            in_map && in_list
        }
    }
}

/// `text` double-quoted, with YAML escapes for what cannot stand as is
/// (and `-` escaped where three would close the frontmatter).
fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let dashes = text.contains("---");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '-' if dashes => out.push_str("\\x2d"),
            c if c.is_control()
                || matches!(
                    c,
                    '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                ) =>
            {
                let code = u32::from(c);
                if code <= 0xFF {
                    out.push_str(&format!("\\x{code:02x}"));
                } else {
                    out.push_str(&format!("\\u{code:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

mod other_readers;
pub use other_readers::resolves_elsewhere;

#[cfg(test)]
mod round_trip;

#[cfg(test)]
mod recorded_readers;

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        String::from_utf8(format(text.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn quotes_only_where_needed() {
        let out = fmt(
            "---\nname: x\ndescription: 'a: b'\nlicense: \"true\"\ncompatibility: ''\nmetadata:\n  z: \"1\"\n  a: '#x'\n---\n",
        );
        assert_eq!(
            out,
            "---\nname: x\ndescription: 'a: b'\nlicense: 'true'\ncompatibility: ''\nmetadata:\n  z: '1'\n  a: '#x'\n---\n"
        );
    }

    #[test]
    fn multi_line_values_are_double_quoted() {
        let out = fmt("---\nname: x\ndescription: |\n  one\n  two\n---\nbody");
        assert_eq!(
            out,
            "---\nname: x\ndescription: \"one\\ntwo\\n\"\n---\nbody"
        );
    }

    #[test]
    fn lists_and_crlf_bodies() {
        let out =
            fmt("---\r\nallowed-tools:\r\n- Read\r\n- 'Bash(git:*)'\r\nname: x\r\n---\r\nbody\r\n");
        assert_eq!(
            out,
            "---\r\nname: x\r\nallowed-tools:\r\n  - Read\r\n  - Bash(git:*)\r\n---\r\nbody\r\n"
        );
    }

    #[test]
    fn three_dashes_in_a_value_are_escaped() {
        let out = fmt("---\nname: x\ndescription: \"a\\x2d--b\"\n---\n");
        assert_eq!(
            out,
            "---\nname: x\ndescription: \"a\\x2d\\x2d\\x2db\"\n---\n"
        );
    }

    #[test]
    fn comments_and_broken_files_are_refused() {
        let err = format(b"---\nname: x # the name\n---\n").unwrap_err();
        assert!(
            matches!(err, FormatError::Comment(Position { line: 2, column: 9 })),
            "{err:?}"
        );
        assert!(matches!(
            format(b"---\nname: [x]\n---\n"),
            Err(FormatError::Parse(_))
        ));
    }

    #[test]
    fn fields_in_spec_order_unknown_keys_last() {
        let input = "---\ndescription: \"Fills PDF forms. Use for forms.\"\nname: pdf\nx-team: docs\nlicense: MIT\n---\n# PDF\n";
        let output = format(input.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8(output).unwrap(),
            "---\nname: pdf\ndescription: Fills PDF forms. Use for forms.\nlicense: MIT\nx-team: docs\n---\n# PDF\n"
        );
        assert_eq!(SPEC_ORDER[0], "name");
    }

    /// Issue 30: a field a host reads as a bool stays a bool; other
    /// `true`s are quoted, so every reader reads the same text.
    #[test]
    fn host_bools_stay_plain() {
        let input = "---\nname: x\ndescription: d\nlicense: true\ndisable-model-invocation: true\nuser-invokable: False\nmetadata:\n  user-invocable: true\n---\n";
        assert_eq!(
            String::from_utf8(format(input.as_bytes()).unwrap()).unwrap(),
            "---\nname: x\ndescription: d\nlicense: 'true'\nmetadata:\n  user-invocable: 'true'\ndisable-model-invocation: true\nuser-invokable: False\n---\n"
        );
    }

    /// A literal U+2028 or U+2029 inside a quoted value stays quoted and
    /// escaped: written plain, PyYAML refuses the file (issue 28, finding
    /// 6). (A literal U+0085 in quotes is a line break to this reader too,
    /// folded to a space; the text U+0085 is escaped all the same.)
    #[test]
    fn yaml_1_1_line_breaks_stay_escaped() {
        for (c, escape) in [('\u{2028}', "\\u2028"), ('\u{2029}', "\\u2029")] {
            for quoted in [format!("\"a{c}b\""), format!("'a{c}b'")] {
                let out = fmt(&format!(
                    "---\nname: x\ndescription: {quoted}\nmetadata:\n  {quoted}: {quoted}\n---\n"
                ));
                assert_eq!(
                    out,
                    format!(
                        "---\nname: x\ndescription: \"a{escape}b\"\nmetadata:\n  \"a{escape}b\": \"a{escape}b\"\n---\n"
                    ),
                    "{quoted:?}"
                );
            }
        }
        for (c, escape) in [
            ('\u{2028}', "\\u2028"),
            ('\u{2029}', "\\u2029"),
            ('\u{85}', "\\x85"),
        ] {
            assert_eq!(spelling(&format!("{c}")).unwrap(), format!("\"{escape}\""));
            assert_eq!(
                spelling(&format!("a{c}b")).unwrap(),
                format!("\"a{escape}b\"")
            );
        }
        assert_eq!(
            fmt("---\nname: x\ndescription: \"a\\x85b\"\n---\n"),
            "---\nname: x\ndescription: \"a\\x85b\"\n---\n"
        );
    }

    #[test]
    fn spellings_quote_only_where_needed() {
        assert_eq!(spelling("pdf").unwrap(), "pdf");
        assert_eq!(spelling("a: b").unwrap(), "'a: b'");
        assert_eq!(spelling("two\nlines").unwrap(), "\"two\\nlines\"");
    }
}
