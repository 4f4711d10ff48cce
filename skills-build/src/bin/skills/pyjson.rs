//! JSON text the way Python's `json.dumps(value, indent=2)` writes it,
//! with `ensure_ascii` on: every character outside printable ASCII is a
//! `\uXXXX` escape (astral characters as surrogate pairs).

use skills_build::yaml::Value;

/// A JSON value to print.
#[derive(Debug, Clone, PartialEq)]
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
    /// An object, keys in insertion order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// A loaded YAML value as Python's `json` module prints it.
    pub fn from_yaml(value: &Value) -> Json {
        match value {
            Value::Str(text) => Json::Str(text.clone()),
            Value::Seq(items) => {
                Json::Array(items.iter().map(|n| Json::from_yaml(&n.value)).collect())
            }
            Value::Map(entries) => Json::Object(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), Json::from_yaml(&e.value.value)))
                    .collect(),
            ),
        }
    }

    /// The text with `indent=2` (one item a line), no trailing newline.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out
    }

    fn write(&self, out: &mut String, indent: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Json::Int(n) => out.push_str(&n.to_string()),
            Json::Str(s) => write_str(s, out),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(items) if items.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    separator(out, i, indent);
                    item.write(out, indent + 1);
                }
                close(out, indent, ']');
            }
            Json::Object(items) => {
                out.push('{');
                for (i, (key, item)) in items.iter().enumerate() {
                    separator(out, i, indent);
                    write_str(key, out);
                    out.push_str(": ");
                    item.write(out, indent + 1);
                }
                close(out, indent, '}');
            }
        }
    }
}

fn separator(out: &mut String, index: usize, level: usize) {
    if index > 0 {
        out.push(',');
    }
    out.push('\n');
    out.push_str(&"  ".repeat(level + 1));
}

fn close(out: &mut String, level: usize, bracket: char) {
    out.push('\n');
    out.push_str(&"  ".repeat(level));
    out.push(bracket);
}

fn write_str(text: &str, out: &mut String) {
    skills_core::resources::push_json_string(out, text, true);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_ensure_ascii() {
        let json = Json::Str("é\u{1f600}\u{1b}\u{7f}</&>\"".into());
        assert_eq!(json.pretty(), r#""\u00e9\ud83d\ude00\u001b\u007f</&>\"""#);
    }

    #[test]
    fn indents_nested_values() {
        let json = Json::Object(vec![
            ("a".into(), Json::Array(vec![Json::Str("x".into())])),
            ("b".into(), Json::Object(vec![])),
        ]);
        assert_eq!(
            json.pretty(),
            "{\n  \"a\": [\n    \"x\"\n  ],\n  \"b\": {}\n}"
        );
    }
}
