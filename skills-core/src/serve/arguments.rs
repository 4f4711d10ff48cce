//! The `skill` tool's arguments, `{"name": "...", "path": "..."}`, read the
//! way the Go module reads them, with its error wording: a small parser for
//! this one shape rather than a JSON library (features `json` and `serde`).
//!
//! With `serde`, [`ToolArguments`] also implements `serde::Deserialize`,
//! for a host that already holds the arguments in a serde format (a
//! `serde_json::Value` from its model client, say); with `json`,
//! [`ToolDefinition::schema`] gives the tool's schema as a
//! `serde_json::Value`.

use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "json")]
use crate::serve::catalog::Catalog;
use crate::serve::quote::{push_go_quoted, push_go_quoted_byte};
use crate::serve::tool::ToolError;
#[cfg(feature = "json")]
use crate::serve::tool::{Served, ToolDefinition};

/// How deep arrays and objects may nest, as in Go's `encoding/json`.
const MAX_DEPTH: usize = 10_000;

/// The `skill` tool's arguments, parsed from the model's JSON.
///
/// ```
/// use skills_core::ToolArguments;
/// let args = ToolArguments::parse(r#"{"name": "pdf", "path": "reference.md", "extra": [1]}"#)?;
/// assert_eq!(args, ToolArguments { name: "pdf".into(), path: Some("reference.md".into()) });
/// let error = ToolArguments::parse(r#"{"path": "x"}"#).unwrap_err();
/// assert_eq!(error.to_string(), r#"invalid arguments: missing required property "name""#);
/// # Ok::<(), skills_core::ToolError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolArguments {
    /// The skill's name.
    pub name: String,
    /// The path, when given.
    pub path: Option<String>,
}

impl ToolArguments {
    /// Reads the arguments object as the Go module does: empty input is
    /// `{}`; the first JSON value must be an object (anything after it is
    /// ignored, as Go's decoder ignores it); `name` is required and must be
    /// a string; `path`, when present, must be a string; other properties
    /// are ignored; a repeated property keeps its last value.
    ///
    /// Errors are [`ToolError::InvalidArguments`], worded as Go's:
    /// `missing required property "name"`, `name: expected string, got 1`,
    /// `expected object, got array`, or `not valid JSON: ...` with
    /// `encoding/json`'s description of the first fault.
    ///
    /// ```
    /// use skills_core::ToolArguments;
    /// let error = ToolArguments::parse(r#"{"name": 1}"#).unwrap_err();
    /// assert_eq!(error.to_string(), "invalid arguments: name: expected string, got 1");
    /// let error = ToolArguments::parse("{").unwrap_err();
    /// assert_eq!(error.to_string(), "invalid arguments: not valid JSON: unexpected EOF");
    /// ```
    pub fn parse(json: &str) -> Result<Self, ToolError> {
        parse_arguments(json).map_err(|message| ToolError::InvalidArguments { message })
    }
}

#[cfg(feature = "json")]
impl Catalog<'_> {
    /// The `skill` tool called with the model's JSON arguments: parses them
    /// with [`ToolArguments::parse`], then [`call`](Self::call)s. A host
    /// that wants the claim step parses and [`resolve`](Self::resolve)s itself.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let served = catalog.call_json(r#"{"name":"pdf","path":"SKILL.md"}"#)?;
    /// assert_eq!(served.read.path, "");
    /// let error = catalog.call_json("[]").unwrap_err();
    /// assert_eq!(error.to_string(), "invalid arguments: expected object, got array");
    /// # Ok::<(), skills_core::ToolError>(())
    /// ```
    pub fn call_json(&self, arguments: &str) -> Result<Served<'_>, ToolError> {
        let arguments = ToolArguments::parse(arguments)?;
        self.call(&arguments.name, arguments.path.as_deref())
    }
}

#[cfg(feature = "json")]
impl ToolDefinition<'_> {
    /// The JSON schema of the arguments as a `serde_json::Value` (an
    /// object), for a host that builds its request to the model with
    /// serde_json, or a framework that takes the schema as a value (rig's
    /// `Tool::parameters`). It cannot fail: a bundle whose schema text is
    /// not a JSON object (none the compiler writes; only a hand-made
    /// bundle could carry one) gets [`TOOL_SCHEMA`](crate::TOOL_SCHEMA),
    /// which says what the tool's argument parser reads whatever the
    /// bundle carries. [`crate::serve::providers`] puts it into each provider's
    /// tool entry.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let tool = catalog.tool_definition();
    /// let request = serde_json::json!({
    ///     "type": "function",
    ///     "function": {
    ///         "name": tool.name,
    ///         "description": tool.description,
    ///         "parameters": tool.schema(),
    ///     },
    /// });
    /// assert_eq!(request["function"]["parameters"]["required"][0], "name");
    /// ```
    pub fn schema(&self) -> serde_json::Value {
        let object = |text: &str| match serde_json::from_str(text) {
            Ok(value @ serde_json::Value::Object(_)) => Some(value),
            _ => None,
        };
        object(self.parameters)
            .or_else(|| object(crate::TOOL_SCHEMA))
            .unwrap_or_default()
    }

    /// The JSON schema of the arguments parsed from
    /// [`parameters`](Self::parameters), or why it is not JSON (only a
    /// hand-made bundle's schema can fail).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// # #[allow(deprecated)]
    /// let schema = catalog.tool_definition().parameters_value()?;
    /// assert_eq!(schema, catalog.tool_definition().schema());
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[deprecated(
        since = "0.1.0",
        note = "use `schema()`, the same value without a `Result`"
    )]
    pub fn parameters_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::from_str(self.parameters)
    }
}

/// A JSON value as far as the checks need it.
enum Value {
    String(String),
    /// Anything else, described as Go describes it in messages: a number or
    /// literal as written, `object` or `array`.
    Other(String),
}

impl Value {
    fn describe(&self) -> String {
        match self {
            Value::String(text) => {
                let mut out = String::new();
                push_go_quoted(&mut out, text);
                out
            }
            Value::Other(text) => text.clone(),
        }
    }
}

fn parse_arguments(json: &str) -> Result<ToolArguments, String> {
    if json.is_empty() {
        return Err(String::from("missing required property \"name\""));
    }
    let mut parser = Parser {
        text: json.as_bytes(),
        at: 0,
    };
    parser.skip_space();
    if parser.peek().is_none() {
        return Err(String::from("not valid JSON: EOF"));
    }
    let top = parser.top_level().map_err(|fault| {
        let mut message = String::from("not valid JSON: ");
        message.push_str(&fault);
        message
    })?;
    let mut name = None;
    let mut path = None;
    match top {
        TopLevel::Object(members) => {
            for (key, value) in members {
                match key.as_str() {
                    "name" => name = Some(value),
                    "path" => path = Some(value),
                    _ => {}
                }
            }
        }
        TopLevel::Other(value) => {
            let mut message = String::from("expected object, got ");
            message.push_str(&value.describe());
            return Err(message);
        }
    }
    let name = match name {
        None => return Err(String::from("missing required property \"name\"")),
        Some(Value::String(name)) => name,
        Some(other) => return Err(expected_string("name", &other)),
    };
    let path = match path {
        None => None,
        Some(Value::String(path)) => Some(path),
        Some(other) => return Err(expected_string("path", &other)),
    };
    Ok(ToolArguments { name, path })
}

fn expected_string(property: &str, value: &Value) -> String {
    let mut message = String::from(property);
    message.push_str(": expected string, got ");
    message.push_str(&value.describe());
    message
}

enum TopLevel {
    /// The members that matter (`name`, `path`), in order.
    Object(Vec<(String, Value)>),
    Other(Value),
}

struct Parser<'j> {
    text: &'j [u8],
    at: usize,
}

/// A parse fault, in Go's words.
type Fault = String;

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// The first value of the input; what follows it is not read.
    fn top_level(&mut self) -> Result<TopLevel, Fault> {
        if self.peek() != Some(b'{') {
            return Ok(TopLevel::Other(self.value(1)?));
        }
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(TopLevel::Object(members));
        }
        loop {
            let key = self.key()?;
            self.skip_space();
            let value = self.value(1)?;
            if key == "name" || key == "path" {
                members.push((key, value));
            }
            self.skip_space();
            match self.bump() {
                Some(b',') => self.skip_space(),
                Some(b'}') => return Ok(TopLevel::Object(members)),
                Some(byte) => return Err(invalid(byte, "after object key:value pair")),
                None => return Err(eof()),
            }
        }
    }

    /// An object key and its colon; at the key's opening quote (after space).
    fn key(&mut self) -> Result<String, Fault> {
        match self.peek() {
            Some(b'"') => {}
            Some(byte) => return Err(invalid(byte, "looking for beginning of object key string")),
            None => return Err(eof()),
        }
        let key = self.string()?;
        self.skip_space();
        match self.bump() {
            Some(b':') => Ok(key),
            Some(byte) => Err(invalid(byte, "after object key")),
            None => Err(eof()),
        }
    }

    /// One value at nesting `depth` (the top-level object is depth 1);
    /// at its first byte, after space.
    fn value(&mut self, depth: usize) -> Result<Value, Fault> {
        match self.peek() {
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'{' | b'[') => self.skip_container(depth),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true"),
            Some(b'f') => self.literal("false"),
            Some(b'n') => self.literal("null"),
            Some(byte) => Err(invalid(byte, "looking for beginning of value")),
            None => Err(eof()),
        }
    }

    /// Skips an object or array, however deeply nested, without recursion.
    fn skip_container(&mut self, depth: usize) -> Result<Value, Fault> {
        let outer = if self.peek() == Some(b'{') {
            "object"
        } else {
            "array"
        };
        // `true` for an object, `false` for an array.
        let mut open: Vec<bool> = Vec::new();
        'value: loop {
            // At the start of a value.
            match self.peek() {
                Some(byte @ (b'{' | b'[')) => {
                    self.at += 1;
                    if depth + open.len() >= MAX_DEPTH {
                        return Err(String::from("exceeded max depth"));
                    }
                    let object = byte == b'{';
                    open.push(object);
                    self.skip_space();
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.at += 1;
                        open.pop();
                    } else {
                        if object {
                            self.key()?;
                            self.skip_space();
                        }
                        continue 'value;
                    }
                }
                _ => {
                    self.value(depth + open.len())?;
                }
            }
            // After a complete value: close containers or go on to the next.
            loop {
                let Some(&object) = open.last() else {
                    return Ok(Value::Other(String::from(outer)));
                };
                self.skip_space();
                match self.bump() {
                    Some(b',') => {
                        self.skip_space();
                        if object {
                            self.key()?;
                            self.skip_space();
                        }
                        continue 'value;
                    }
                    Some(b'}') if object => {
                        open.pop();
                    }
                    Some(b']') if !object => {
                        open.pop();
                    }
                    Some(byte) if object => {
                        return Err(invalid(byte, "after object key:value pair"));
                    }
                    Some(byte) => return Err(invalid(byte, "after array element")),
                    None => return Err(eof()),
                }
            }
        }
    }

    /// A string, unescaped; at its opening quote.
    fn string(&mut self) -> Result<String, Fault> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The input is a `str` and the run stops only at ASCII bytes,
            // so the run is whole characters.
            out.push_str(
                core::str::from_utf8(self.text.get(start..self.at).unwrap_or_default())
                    .unwrap_or_default(),
            );
            match self.bump() {
                Some(b'"') => return Ok(out),
                Some(b'\\') => self.escape(&mut out)?,
                Some(byte) => return Err(invalid(byte, "in string literal")),
                None => return Err(eof()),
            }
        }
    }

    /// One escape, after its backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), Fault> {
        let short = match self.bump() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let first = self.hex4()?;
                let code = if (0xd800..0xdc00).contains(&first)
                    && self.text.get(self.at..self.at + 2) == Some(b"\\u")
                {
                    // A high surrogate: pair it with a low one if one follows.
                    let save = self.at;
                    self.at += 2;
                    let second = self.hex4()?;
                    if (0xdc00..0xe000).contains(&second) {
                        0x1_0000 + ((first - 0xd800) << 10) + (second - 0xdc00)
                    } else {
                        self.at = save;
                        0xfffd
                    }
                } else {
                    first
                };
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                return Ok(());
            }
            Some(byte) => return Err(invalid(byte, "in string escape code")),
            None => return Err(eof()),
        };
        out.push(short);
        Ok(())
    }

    /// Four hex digits of a `\u` escape.
    fn hex4(&mut self) -> Result<u32, Fault> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = match self.bump() {
                Some(byte @ b'0'..=b'9') => byte - b'0',
                Some(byte @ b'a'..=b'f') => byte - b'a' + 10,
                Some(byte @ b'A'..=b'F') => byte - b'A' + 10,
                Some(byte) => return Err(invalid(byte, "in \\u hexadecimal character escape")),
                None => return Err(eof()),
            };
            code = code << 4 | u32::from(digit);
        }
        Ok(code)
    }

    /// A number, kept as written; at its first byte.
    fn number(&mut self) -> Result<Value, Fault> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.bump() {
            Some(b'0') => {}
            Some(b'1'..=b'9') => self.digits(),
            Some(byte) => return Err(invalid(byte, "in numeric literal")),
            None => return Err(eof()),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.digit()?;
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.digit()?;
            self.digits();
        }
        let written = self.text.get(start..self.at).unwrap_or_default();
        Ok(Value::Other(String::from(
            core::str::from_utf8(written).unwrap_or_default(),
        )))
    }

    fn digit(&mut self) -> Result<(), Fault> {
        match self.bump() {
            Some(b'0'..=b'9') => Ok(()),
            Some(byte) => Err(invalid(byte, "in numeric literal")),
            None => Err(eof()),
        }
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    /// `true`, `false` or `null`; at its first byte.
    fn literal(&mut self, word: &'static str) -> Result<Value, Fault> {
        for expected in word.bytes() {
            match self.bump() {
                Some(byte) if byte == expected => {}
                Some(byte) => {
                    let mut fault = invalid(byte, "in literal ");
                    fault.push_str(word);
                    fault.push_str(" (expecting ");
                    push_go_quoted_byte(&mut fault, expected);
                    fault.push(')');
                    return Err(fault);
                }
                None => return Err(eof()),
            }
        }
        Ok(Value::Other(String::from(word)))
    }
}

/// `invalid character 'x' <context>`.
fn invalid(byte: u8, context: &str) -> Fault {
    let mut fault = String::from("invalid character ");
    push_go_quoted_byte(&mut fault, byte);
    fault.push(' ');
    fault.push_str(context);
    fault
}

fn eof() -> Fault {
    String::from("unexpected EOF")
}

/// `ToolArguments: serde::Deserialize`, and what the serde path sees of a
/// value: the shape the checks need, as [`Value`] is for the parser.
#[cfg(feature = "serde")]
mod seen {
    use alloc::format;
    use alloc::string::{String, ToString};
    use core::fmt;

    use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};

    use super::{ToolArguments, Value, expected_string};

    /// The arguments from any serde format, with the verdicts of
    /// [`ToolArguments::parse`]: the value must be an object; `name` is
    /// required and must be a string; `path`, when present, must be a string
    /// (`null` is refused); other properties are ignored; a repeated property
    /// keeps its last value. The messages are [`parse`](ToolArguments::parse)'s
    /// (without `invalid arguments: `), with numbers as the format gives them
    /// rather than as written.
    ///
    /// What only the text shows stays with `parse`: `serde_json::from_str`
    /// refuses text after the object (which Go's decoder, and `parse`, ignore),
    /// reports empty input as a syntax error (where `parse` reports the missing
    /// name), words syntax errors its own way, and refuses nesting deeper than
    /// 128 levels (`parse`: 10,000).
    ///
    /// ```
    /// use skills_core::ToolArguments;
    /// // The arguments as a model client hands them over, already parsed.
    /// let value = serde_json::json!({"name": "pdf", "path": "reference.md", "extra": [1]});
    /// let args: ToolArguments = serde_json::from_value(value)?;
    /// assert_eq!(args, ToolArguments { name: "pdf".into(), path: Some("reference.md".into()) });
    ///
    /// let error = serde_json::from_value::<ToolArguments>(serde_json::json!({"name": 1})).unwrap_err();
    /// assert_eq!(error.to_string(), "name: expected string, got 1");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    impl<'de> serde::Deserialize<'de> for ToolArguments {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let (name, path) = match deserializer.deserialize_any(Look { top: true })? {
                Seen::Object { name, path } => (name, path),
                other => {
                    let mut message = String::from("expected object, got ");
                    message.push_str(&other.describe());
                    return Err(de::Error::custom(message));
                }
            };
            let name = match name {
                None => return Err(de::Error::custom("missing required property \"name\"")),
                Some(Value::String(name)) => name,
                Some(other) => return Err(de::Error::custom(expected_string("name", &other))),
            };
            let path = match path {
                None => None,
                Some(Value::String(path)) => Some(path),
                Some(other) => return Err(de::Error::custom(expected_string("path", &other))),
            };
            Ok(ToolArguments { name, path })
        }
    }

    pub(super) enum Seen {
        /// A string.
        Text(String),
        /// The top-level object: its `name` and `path`, last one wins.
        Object {
            name: Option<Value>,
            path: Option<Value>,
        },
        /// Anything else, described as Go describes it.
        Other(String),
    }

    impl Seen {
        pub(super) fn into_value(self) -> Value {
            match self {
                Seen::Text(text) => Value::String(text),
                Seen::Object { .. } => Value::Other(String::from("object")),
                Seen::Other(text) => Value::Other(text),
            }
        }

        pub(super) fn describe(self) -> String {
            self.into_value().describe()
        }
    }

    /// Reads one value; at the top, an object's `name` and `path` too.
    pub(super) struct Look {
        pub(super) top: bool,
    }

    impl<'de> de::DeserializeSeed<'de> for Look {
        type Value = Seen;
        fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Seen, D::Error> {
            deserializer.deserialize_any(self)
        }
    }

    /// An object key: `name`, `path`, or another (ignored).
    enum Key {
        Name,
        Path,
        Other,
    }

    impl<'de> de::Deserialize<'de> for Key {
        fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
            struct KeyVisitor;
            impl Visitor<'_> for KeyVisitor {
                type Value = Key;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a property name")
                }
                fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                    Ok(match key {
                        "name" => Key::Name,
                        "path" => Key::Path,
                        _ => Key::Other,
                    })
                }
            }
            deserializer.deserialize_identifier(KeyVisitor)
        }
    }

    fn other<E>(text: impl ToString) -> Result<Seen, E> {
        Ok(Seen::Other(text.to_string()))
    }

    impl<'de> Visitor<'de> for Look {
        type Value = Seen;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_bool<E: de::Error>(self, value: bool) -> Result<Seen, E> {
            other(value)
        }
        fn visit_i64<E: de::Error>(self, value: i64) -> Result<Seen, E> {
            other(value)
        }
        fn visit_i128<E: de::Error>(self, value: i128) -> Result<Seen, E> {
            other(value)
        }
        fn visit_u64<E: de::Error>(self, value: u64) -> Result<Seen, E> {
            other(value)
        }
        fn visit_u128<E: de::Error>(self, value: u128) -> Result<Seen, E> {
            other(value)
        }
        fn visit_f64<E: de::Error>(self, value: f64) -> Result<Seen, E> {
            other(format!("{value}"))
        }
        fn visit_char<E: de::Error>(self, value: char) -> Result<Seen, E> {
            Ok(Seen::Text(value.to_string()))
        }
        fn visit_str<E: de::Error>(self, value: &str) -> Result<Seen, E> {
            Ok(Seen::Text(String::from(value)))
        }
        fn visit_string<E: de::Error>(self, value: String) -> Result<Seen, E> {
            Ok(Seen::Text(value))
        }
        fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Seen, E> {
            other("array")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Seen, E> {
            other("null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Seen, E> {
            other("null")
        }
        fn visit_some<D: de::Deserializer<'de>>(self, inner: D) -> Result<Seen, D::Error> {
            inner.deserialize_any(self)
        }
        fn visit_newtype_struct<D: de::Deserializer<'de>>(
            self,
            inner: D,
        ) -> Result<Seen, D::Error> {
            inner.deserialize_any(self)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Seen, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            other("array")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Seen, A::Error> {
            if !self.top {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                return other("object");
            }
            let (mut name, mut path) = (None, None);
            while let Some(key) = map.next_key::<Key>()? {
                match key {
                    Key::Name => {
                        name = Some(map.next_value_seed(Look { top: false })?.into_value())
                    }
                    Key::Path => {
                        path = Some(map.next_value_seed(Look { top: false })?.into_value())
                    }
                    Key::Other => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(Seen::Object { name, path })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn error(json: &str) -> String {
        ToolArguments::parse(json).unwrap_err().to_string()
    }

    #[cfg(feature = "json")]
    #[test]
    fn the_schema_is_a_value_whatever_the_bundle_carries() {
        let default: serde_json::Value = serde_json::from_str(crate::TOOL_SCHEMA).unwrap();
        assert!(default.is_object());
        let with = |parameters| ToolDefinition {
            parameters,
            ..ToolDefinition::default()
        };
        assert_eq!(ToolDefinition::default().schema(), default);
        // A hand-made bundle's own object schema is kept as it is.
        let own = r#"{"type":"object","properties":{"name":{"type":"string"}}}"#;
        assert_eq!(
            with(own).schema(),
            serde_json::from_str::<serde_json::Value>(own).unwrap()
        );
        // Text that is no JSON object gives the schema the parser reads.
        for broken in ["", "not json", "[]", "\"object\"", "{\"type\":"] {
            assert_eq!(with(broken).schema(), default, "{broken}");
        }
    }

    fn args(json: &str) -> (String, Option<String>) {
        let parsed = ToolArguments::parse(json).unwrap();
        (parsed.name, parsed.path)
    }

    #[test]
    fn accepts_the_shape() {
        assert_eq!(args(r#"{"name":"pdf"}"#), ("pdf".into(), None));
        assert_eq!(
            args(" {\n\"path\" : \"a/b\" , \"name\":\"x\"}\n"),
            ("x".into(), Some("a/b".into()))
        );
        assert_eq!(args(r#"{"name":"a","name":"b"}"#), ("b".into(), None));
        assert_eq!(
            args(r#"{"name":"","path":""}"#),
            ("".into(), Some("".into()))
        );
        assert_eq!(
            args(r#"{"x":{"a":[1,2.5e-3,{"b":null}],"c":{}},"name":"n","y":[],"z":[[]],"w":true}"#),
            ("n".into(), None)
        );
        assert_eq!(args(r#"{"name":"a"} trailing junk"#), ("a".into(), None));
    }

    #[test]
    fn unescapes_strings() {
        assert_eq!(
            args(r#"{"name":"a\"b\\c\/d\b\f\n\r\t"}"#).0,
            "a\"b\\c/d\u{8}\u{c}\n\r\t"
        );
        assert_eq!(args(r#"{"name":"\u00e9\u4E2D\ud83d\ude42"}"#).0, "é中🙂");
        assert_eq!(args(r#"{"name":"\ud83dx"}"#).0, "\u{fffd}x");
        assert_eq!(args(r#"{"name":"\ud83d\u0041"}"#).0, "\u{fffd}A");
        assert_eq!(args(r#"{"name":"\ude42"}"#).0, "\u{fffd}");
        assert_eq!(args("{\"name\":\"é中\"}").0, "é中");
    }

    #[test]
    fn schema_errors_in_go_wording() {
        assert_eq!(
            error(""),
            r#"invalid arguments: missing required property "name""#
        );
        assert_eq!(
            error("{}"),
            r#"invalid arguments: missing required property "name""#
        );
        assert_eq!(
            error(r#"{"path":1}"#),
            r#"invalid arguments: missing required property "name""#
        );
        assert_eq!(
            error(r#"{"name":1}"#),
            "invalid arguments: name: expected string, got 1"
        );
        assert_eq!(
            error(r#"{"name":-1.50e+3}"#),
            "invalid arguments: name: expected string, got -1.50e+3"
        );
        assert_eq!(
            error(r#"{"name":null}"#),
            "invalid arguments: name: expected string, got null"
        );
        assert_eq!(
            error(r#"{"name":true}"#),
            "invalid arguments: name: expected string, got true"
        );
        assert_eq!(
            error(r#"{"name":{}}"#),
            "invalid arguments: name: expected string, got object"
        );
        assert_eq!(
            error(r#"{"name":[1]}"#),
            "invalid arguments: name: expected string, got array"
        );
        assert_eq!(
            error(r#"{"path":2,"name":1}"#),
            "invalid arguments: name: expected string, got 1"
        );
        assert_eq!(
            error(r#"{"path":false,"name":"a"}"#),
            "invalid arguments: path: expected string, got false"
        );
        assert_eq!(
            error(r#"{"path":null,"name":"a"}"#),
            "invalid arguments: path: expected string, got null"
        );
        assert_eq!(error("[]"), "invalid arguments: expected object, got array");
        assert_eq!(
            error("null"),
            "invalid arguments: expected object, got null"
        );
        assert_eq!(error("12"), "invalid arguments: expected object, got 12");
        assert_eq!(
            error(r#""a\"b""#),
            r#"invalid arguments: expected object, got "a\"b""#
        );
    }

    #[test]
    fn syntax_errors_in_go_wording() {
        let bad = |json: &str, fault: &str| {
            assert_eq!(
                error(json),
                ["invalid arguments: not valid JSON: ", fault].concat(),
                "{json}"
            )
        };
        bad(" ", "EOF");
        bad("{", "unexpected EOF");
        bad(r#"{"name""#, "unexpected EOF");
        bad(r#"{"name":"pdf""#, "unexpected EOF");
        bad(r#"{"name":"pd"#, "unexpected EOF");
        bad("x", "invalid character 'x' looking for beginning of value");
        bad(
            "{name:1}",
            "invalid character 'n' looking for beginning of object key string",
        );
        bad(r#"{"name" 1}"#, "invalid character '1' after object key");
        bad(
            r#"{"name":1 2}"#,
            "invalid character '2' after object key:value pair",
        );
        bad(
            r#"{"name":1,}"#,
            "invalid character '}' looking for beginning of object key string",
        );
        bad(
            r#"{"x":[1,]}"#,
            "invalid character ']' looking for beginning of value",
        );
        bad(
            r#"{"x":[1 2]}"#,
            "invalid character '2' after array element",
        );
        bad(r#"{"x":{"a" 1}}"#, "invalid character '1' after object key");
        bad(
            r#"{"x":{"a":1 "b"}}"#,
            "invalid character '\"' after object key:value pair",
        );
        bad(
            "{\"name\":\"a\nb\"}",
            "invalid character '\\n' in string literal",
        );
        bad(
            r#"{"name":"\x"}"#,
            "invalid character 'x' in string escape code",
        );
        bad(
            r#"{"name":"\u12g4"}"#,
            "invalid character 'g' in \\u hexadecimal character escape",
        );
        bad(r#"{"name":-x}"#, "invalid character 'x' in numeric literal");
        bad(r#"{"name":1.}"#, "invalid character '}' in numeric literal");
        bad(r#"{"name":1e}"#, "invalid character '}' in numeric literal");
        bad(
            r#"{"name":01}"#,
            "invalid character '1' after object key:value pair",
        );
        bad(
            r#"{"name":tru}"#,
            "invalid character '}' in literal true (expecting 'e')",
        );
        bad(r#"{"name":nul"#, "unexpected EOF");
        bad(
            "{'name':1}",
            "invalid character '\\'' looking for beginning of object key string",
        );
        bad(
            "{\"name\":é}",
            "invalid character 'Ã' looking for beginning of value",
        );
    }

    #[test]
    fn depth_is_bounded_without_recursion() {
        let deep = ["{\"x\":", &"[".repeat(20_000), &"]".repeat(20_000), "}"].concat();
        assert_eq!(
            error(&deep),
            "invalid arguments: not valid JSON: exceeded max depth"
        );
        let fine = [
            "{\"name\":\"a\",\"x\":",
            &"[".repeat(500),
            &"]".repeat(500),
            "}",
        ]
        .concat();
        assert_eq!(args(&fine).0, "a");
    }
}

/// The serde path against the parser, over the cases where JSON text can
/// give both the same input.
#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use super::*;
    use alloc::string::ToString;

    fn from_text(json: &str) -> Result<ToolArguments, String> {
        serde_json::from_str(json).map_err(|error| error.to_string())
    }

    fn from_value(json: &str) -> Result<ToolArguments, String> {
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        serde_json::from_value(value).map_err(|error| error.to_string())
    }

    /// Accepted by both, with the same result.
    #[test]
    fn accepts_what_parse_accepts() {
        for json in [
            r#"{"name":"pdf"}"#,
            " {\n\"path\" : \"a/b\" , \"name\":\"x\"}\n",
            r#"{"name":"a","name":"b"}"#,
            r#"{"name":"","path":""}"#,
            r#"{"x":{"a":[1,2.5e-3,{"b":null}],"c":{}},"name":"n","y":[],"z":[[]],"w":true}"#,
            r#"{"name":"a\"b\\c\/d\b\f\n\r\t"}"#,
            r#"{"name":"\u00e9\u4E2D\ud83d\ude42"}"#,
            r#"{"n\u0061me":"escaped key","path":"p"}"#,
            r#"{"name":1,"name":"a"}"#,
            r#"{"path":null,"path":"p","name":"a"}"#,
        ] {
            let parsed = ToolArguments::parse(json).unwrap();
            assert_eq!(from_text(json).as_ref(), Ok(&parsed), "{json}");
            assert_eq!(from_value(json).as_ref(), Ok(&parsed), "{json}");
        }
    }

    /// Refused by both, with the parser's message (serde_json may add the
    /// position when it reads text).
    #[test]
    fn refuses_what_parse_refuses_in_its_words() {
        for json in [
            "{}",
            r#"{"path":1}"#,
            r#"{"name":1}"#,
            r#"{"name":-15}"#,
            r#"{"name":null}"#,
            r#"{"name":true}"#,
            r#"{"name":{}}"#,
            r#"{"name":[1]}"#,
            r#"{"name":{"name":"nested"}}"#,
            r#"{"path":2,"name":1}"#,
            r#"{"path":false,"name":"a"}"#,
            r#"{"path":null,"name":"a"}"#,
            r#"{"name":"a","path":"p","path":[]}"#,
            "[]",
            r#"["name"]"#,
            "null",
            "12",
            "false",
            r#""a\"b""#,
        ] {
            let message = ToolArguments::parse(json).unwrap_err().to_string();
            let message = message.strip_prefix("invalid arguments: ").unwrap();
            let text = from_text(json).unwrap_err();
            let text = text.split(" at line ").next().unwrap_or_default();
            assert_eq!(text, message, "{json}");
            assert_eq!(from_value(json).unwrap_err(), message, "{json}");
        }
    }

    /// Numbers come as serde gives them, not as written.
    #[test]
    fn describes_numbers_as_parsed() {
        assert_eq!(
            ToolArguments::parse(r#"{"name":-1.50e+3}"#)
                .unwrap_err()
                .to_string(),
            "invalid arguments: name: expected string, got -1.50e+3"
        );
        assert_eq!(
            from_value(r#"{"name":-1.50e+3}"#).unwrap_err(),
            "name: expected string, got -1500"
        );
        assert_eq!(
            from_value(r#"{"name":2.5}"#).unwrap_err(),
            "name: expected string, got 2.5"
        );
    }

    /// Syntax errors are refused by both (each in its own words).
    #[test]
    fn refuses_bad_syntax() {
        for json in [
            "{",
            r#"{"name":"pdf""#,
            "x",
            "{name:1}",
            r#"{"name":1,}"#,
            r#"{"name":01}"#,
        ] {
            assert!(ToolArguments::parse(json).is_err(), "{json}");
            assert!(from_text(json).is_err(), "{json}");
        }
    }
}
