//! JSON text the way Python's `json.dumps` writes it: the one writer of
//! JSON strings and values in the workspace.
//!
//! Revisions and signed payloads (compact, ASCII), resource listings and
//! envelopes (`json.dumps` defaults), manifests and frontmatter JSON
//! (compact, UTF-8) and the CLI's `indent=2` output all go through
//! [`JsonWriter`] or [`push_string`], so a string is escaped one way
//! everywhere. Python's rules, which the recordings under `testdata/` pin:
//!
//! - `"` and `\` are escaped, `\n \r \t \b \f` by name, every other control
//!   character as `\u00XX` (lowercase hex);
//! - with `ensure_ascii` ([`Style::ascii`]), every character outside
//!   printable ASCII (DEL included) is `\uXXXX`, one past U+FFFF as a
//!   surrogate pair;
//! - with an indent, each item stands on its own line and an empty array or
//!   object is `[]` or `{}`; the item separator is then `,` alone.
//!
//! ```
//! use skills_core::encoding::json::{Json, Style};
//! let value = Json::Object(vec![
//!     ("name".into(), Json::Str("pdf".into())),
//!     ("tags".into(), Json::Array(vec![Json::Str("é".into())])),
//!     ("size".into(), Json::Int(3)),
//!     ("none".into(), Json::Object(vec![])),
//! ]);
//! assert_eq!(value.to_text(Style::COMPACT), r#"{"name":"pdf","tags":["é"],"size":3,"none":{}}"#);
//! assert_eq!(value.to_text(Style::PYTHON), r#"{"name": "pdf", "tags": ["\u00e9"], "size": 3, "none": {}}"#);
//! assert_eq!(
//!     value.to_text(Style::indented(2)),
//!     "{\n  \"name\": \"pdf\",\n  \"tags\": [\n    \"\\u00e9\"\n  ],\n  \"size\": 3,\n  \"none\": {}\n}"
//! );
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// How a [`JsonWriter`] lays text out: Python's `indent`, `separators` and
/// `ensure_ascii` arguments.
///
/// ```
/// use skills_core::encoding::json::Style;
/// assert_eq!(Style::PYTHON.item_separator, ", ");
/// assert_eq!(Style::indented(2).item_separator, ",");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Spaces per level, each item on its own line; `None` writes one line.
    pub indent: Option<usize>,
    /// Between two items (before the line break when indented).
    pub item_separator: &'static str,
    /// Between a key and its value.
    pub key_separator: &'static str,
    /// `ensure_ascii`: every character outside printable ASCII escaped.
    pub ascii: bool,
}

impl Style {
    /// `separators=(",", ":"), ensure_ascii=False`: manifests and stored
    /// frontmatter JSON.
    pub const COMPACT: Style = Style {
        indent: None,
        item_separator: ",",
        key_separator: ":",
        ascii: false,
    };

    /// `separators=(",", ":")` with `ensure_ascii`: the preimages that are
    /// hashed or signed (revisions, payloads).
    pub const COMPACT_ASCII: Style = Style {
        ascii: true,
        ..Style::COMPACT
    };

    /// `json.dumps(value)` with every default: `", "`, `": "`, ASCII.
    pub const PYTHON: Style = Style {
        indent: None,
        item_separator: ", ",
        key_separator: ": ",
        ascii: true,
    };

    /// `json.dumps(value, indent=spaces)`: ASCII, `,` between items.
    pub const fn indented(spaces: usize) -> Style {
        Style {
            indent: Some(spaces),
            item_separator: ",",
            key_separator: ": ",
            ascii: true,
        }
    }

    /// The same layout with `ensure_ascii` set to `ascii`.
    ///
    /// ```
    /// use skills_core::encoding::json::Style;
    /// assert!(!Style::indented(1).with_ascii(false).ascii);
    /// ```
    pub const fn with_ascii(self, ascii: bool) -> Style {
        Style { ascii, ..self }
    }
}

/// Appends `text` as a JSON string (quotes included); `ascii` is
/// `ensure_ascii`.
///
/// ```
/// let mut out = String::new();
/// skills_core::encoding::json::push_string(&mut out, "é\"\n😀\u{7f}", true);
/// assert_eq!(out, r#""\u00e9\"\n\ud83d\ude00\u007f""#);
/// out.clear();
/// skills_core::encoding::json::push_string(&mut out, "é\u{1}", false);
/// assert_eq!(out, r#""é\u0001""#);
/// ```
pub fn push_string(out: &mut String, text: &str, ascii: bool) {
    // Writing to a String never fails.
    let _ = write_string(out, text, ascii);
}

/// Writes `text` as a JSON string (quotes included) to any
/// [`fmt::Write`], such as a hasher; `ascii` is `ensure_ascii`.
///
/// ```
/// let mut out = String::new();
/// skills_core::encoding::json::write_string(&mut out, "a\tb", true).unwrap();
/// assert_eq!(out, r#""a\tb""#);
/// ```
pub fn write_string(out: &mut impl Write, text: &str, ascii: bool) -> fmt::Result {
    out.write_char('"')?;
    Escaper { out, ascii }.write_str(text)?;
    out.write_char('"')
}

/// A [`fmt::Write`] that escapes what it is given as the inside of a JSON
/// string, so displayed values need no buffer of their own.
struct Escaper<'w, W: Write + ?Sized> {
    out: &'w mut W,
    ascii: bool,
}

impl<W: Write + ?Sized> Write for Escaper<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let mut plain = 0;
        for (at, c) in text.char_indices() {
            let named = match c {
                '"' => "\\\"",
                '\\' => "\\\\",
                '\n' => "\\n",
                '\r' => "\\r",
                '\t' => "\\t",
                '\u{8}' => "\\b",
                '\u{c}' => "\\f",
                ' '..='~' => continue,
                c if !self.ascii && u32::from(c) >= 0x20 => continue,
                _ => "",
            };
            self.out
                .write_str(text.get(plain..at).unwrap_or_default())?;
            plain = at + c.len_utf8();
            if named.is_empty() {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(self.out, "\\u{unit:04x}")?;
                }
            } else {
                self.out.write_str(named)?;
            }
        }
        self.out.write_str(text.get(plain..).unwrap_or_default())
    }
}

/// An open array or object: its closing bracket and whether an item has
/// been written in it.
#[derive(Debug, Clone, Copy)]
struct Open {
    close: char,
    items: bool,
}

/// Writes JSON values one token at a time to any [`fmt::Write`], placing
/// separators and indentation as its [`Style`] says. Values are written
/// in the order the caller gives them; a key must precede each value in an
/// object.
///
/// ```
/// use skills_core::encoding::json::{JsonWriter, Style};
/// let mut json = JsonWriter::new(String::new(), Style::PYTHON);
/// json.begin_object().unwrap();
/// json.key("scripts").unwrap();
/// json.begin_array().unwrap();
/// json.string("run.sh").unwrap();
/// json.value(2).unwrap();
/// json.end().unwrap();
/// json.end().unwrap();
/// assert_eq!(json.into_inner(), r#"{"scripts": ["run.sh", 2]}"#);
/// ```
#[derive(Debug)]
pub struct JsonWriter<W> {
    out: W,
    style: Style,
    open: Vec<Open>,
    after_key: bool,
}

impl<W: Write> JsonWriter<W> {
    /// A writer that appends to `out`.
    pub fn new(out: W, style: Style) -> Self {
        JsonWriter {
            out,
            style,
            open: Vec::new(),
            after_key: false,
        }
    }

    /// What was written to.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// The separator and line break before an item of the innermost array
    /// or object (nothing after a key, or at the top level).
    fn item(&mut self) -> fmt::Result {
        if core::mem::take(&mut self.after_key) {
            return Ok(());
        }
        let depth = self.open.len();
        let Some(open) = self.open.last_mut() else {
            return Ok(());
        };
        if core::mem::replace(&mut open.items, true) {
            self.out.write_str(self.style.item_separator)?;
        }
        self.line(depth)
    }

    fn line(&mut self, depth: usize) -> fmt::Result {
        if let Some(spaces) = self.style.indent {
            self.out.write_char('\n')?;
            for _ in 0..spaces * depth {
                self.out.write_char(' ')?;
            }
        }
        Ok(())
    }

    /// Opens an object (`{`).
    pub fn begin_object(&mut self) -> fmt::Result {
        self.begin('{', '}')
    }

    /// Opens an array (`[`).
    pub fn begin_array(&mut self) -> fmt::Result {
        self.begin('[', ']')
    }

    fn begin(&mut self, open: char, close: char) -> fmt::Result {
        self.item()?;
        self.open.push(Open {
            close,
            items: false,
        });
        self.out.write_char(open)
    }

    /// Closes the innermost array or object (nothing if none is open).
    pub fn end(&mut self) -> fmt::Result {
        let Some(open) = self.open.pop() else {
            return Ok(());
        };
        if open.items {
            self.line(self.open.len())?;
        }
        self.out.write_char(open.close)
    }

    /// An object's key; the next value written is its value.
    pub fn key(&mut self, key: &str) -> fmt::Result {
        self.item()?;
        write_string(&mut self.out, key, self.style.ascii)?;
        self.out.write_str(self.style.key_separator)?;
        self.after_key = true;
        Ok(())
    }

    /// A string value.
    pub fn string(&mut self, text: &str) -> fmt::Result {
        self.item()?;
        write_string(&mut self.out, text, self.style.ascii)
    }

    /// A string value made of what `text` displays, escaped as it is
    /// written (no buffer).
    ///
    /// ```
    /// use skills_core::encoding::json::{JsonWriter, Style};
    /// let mut json = JsonWriter::new(String::new(), Style::COMPACT_ASCII);
    /// json.display(format_args!("sha256:{}", "ab")).unwrap();
    /// assert_eq!(json.into_inner(), r#""sha256:ab""#);
    /// ```
    pub fn display(&mut self, text: impl fmt::Display) -> fmt::Result {
        self.item()?;
        self.out.write_char('"')?;
        write!(
            Escaper {
                out: &mut self.out,
                ascii: self.style.ascii
            },
            "{text}"
        )?;
        self.out.write_char('"')
    }

    /// A number, `true`, `false` or `null`: a value whose text is its
    /// [`Display`](fmt::Display) as is.
    pub fn value(&mut self, literal: impl fmt::Display) -> fmt::Result {
        self.item()?;
        write!(self.out, "{literal}")
    }

    /// `null`.
    pub fn null(&mut self) -> fmt::Result {
        self.value("null")
    }
}

/// A JSON value to write, objects' keys in the order given (Python's
/// dicts keep insertion order).
///
/// ```
/// use skills_core::encoding::json::{Json, Style};
/// assert_eq!(Json::Array(vec![Json::Null, Json::Bool(true)]).to_text(Style::PYTHON), "[null, true]");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Writes the value through `json`.
    pub fn write<W: Write>(&self, json: &mut JsonWriter<W>) -> fmt::Result {
        match self {
            Json::Null => json.null(),
            Json::Bool(value) => json.value(value),
            Json::Int(n) => json.value(n),
            Json::Str(text) => json.string(text),
            Json::Array(items) => {
                json.begin_array()?;
                for item in items {
                    item.write(json)?;
                }
                json.end()
            }
            Json::Object(entries) => {
                json.begin_object()?;
                for (key, item) in entries {
                    json.key(key)?;
                    item.write(json)?;
                }
                json.end()
            }
        }
    }

    /// The value's text in `style`, no trailing newline.
    pub fn to_text(&self, style: Style) -> String {
        let mut json = JsonWriter::new(String::new(), style);
        // Writing to a String never fails.
        let _ = self.write(&mut json);
        json.into_inner()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn ascii(text: &str) -> String {
        let mut out = String::new();
        push_string(&mut out, text, true);
        out
    }

    #[test]
    fn strings_escape_like_python_ensure_ascii() {
        assert_eq!(ascii("a b/c"), "\"a b/c\"");
        assert_eq!(ascii("\"\\"), "\"\\\"\\\\\"");
        assert_eq!(ascii("\n\r\t\u{8}\u{c}"), "\"\\n\\r\\t\\b\\f\"");
        assert_eq!(ascii("\u{1f}\u{7f}"), "\"\\u001f\\u007f\"");
        assert_eq!(ascii("é😀"), "\"\\u00e9\\ud83d\\ude00\"");
        assert_eq!(ascii("\u{2028}x"), "\"\\u2028x\"");
        assert_eq!(ascii("</&>"), "\"</&>\"");
    }

    #[test]
    fn without_ensure_ascii_only_controls_are_escaped() {
        let mut out = String::new();
        push_string(&mut out, "é😀\u{7f}\u{1b}\u{2028}\"", false);
        assert_eq!(out, "\"é😀\u{7f}\\u001b\u{2028}\\\"\"");
    }

    #[test]
    fn displayed_strings_are_escaped_too() {
        let mut json = JsonWriter::new(String::new(), Style::PYTHON);
        json.display(format_args!("{}\"{}", 'é', 1)).unwrap();
        assert_eq!(json.into_inner(), "\"\\u00e9\\\"1\"");
    }

    #[test]
    fn indents_nested_values_and_keeps_empty_ones_short() {
        let value = Json::Object(vec![
            ("a".into(), Json::Array(vec![Json::Str("x".into())])),
            ("b".into(), Json::Object(vec![])),
            ("c".into(), Json::Array(vec![])),
        ]);
        assert_eq!(
            value.to_text(Style::indented(2)),
            "{\n  \"a\": [\n    \"x\"\n  ],\n  \"b\": {},\n  \"c\": []\n}"
        );
        assert_eq!(
            value.to_text(Style::indented(1).with_ascii(false)),
            "{\n \"a\": [\n  \"x\"\n ],\n \"b\": {},\n \"c\": []\n}"
        );
        assert_eq!(
            value.to_text(Style::COMPACT),
            r#"{"a":["x"],"b":{},"c":[]}"#
        );
    }

    #[test]
    fn scalars_and_top_level_values() {
        assert_eq!(Json::Int(-7).to_text(Style::PYTHON), "-7");
        assert_eq!(Json::Bool(false).to_text(Style::COMPACT), "false");
        assert_eq!(Json::Null.to_text(Style::indented(2)), "null");
        let nested = Json::Array(vec![
            Json::Array(vec![Json::Int(1), Json::Int(2)]),
            Json::Null,
        ]);
        assert_eq!(nested.to_text(Style::PYTHON), "[[1, 2], null]");
    }

    #[test]
    fn an_extra_end_writes_nothing() {
        let mut json = JsonWriter::new(String::new(), Style::COMPACT);
        json.begin_array().unwrap();
        json.end().unwrap();
        json.end().unwrap();
        assert_eq!(json.into_inner(), "[]");
    }
}
