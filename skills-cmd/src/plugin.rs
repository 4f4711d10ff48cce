//! Agent Plugins 1.0.0: a plugin is a folder with `plugin.json` at its
//! root (a closed set of keys, `$schema` the 1.0.0 identifier), its skills
//! as the direct children of `skills/`, and its MCP servers in `mcp.json`
//! (a closed union on `type`: `stdio`, `streamable-http`, `sse`). Its
//! §7.1: a skill that does not conform to the Agent Skills specification
//! is skipped by every conforming client.
//!
//! [`build`] writes a plugin (and, on request, the Claude Code and Codex
//! adapters and a marketplace file) from a skills folder; [`check`]
//! judges a plugin folder. Both share the JSON rules here: what is
//! written is canonical (keys sorted, two spaces of indent, one final
//! newline), so the same input gives the same bytes.

pub mod build;
pub mod check;
pub mod mcp;

use serde_json::Value;
use skills_build::Host;
use skills_build::problem::Position;
use skills_core::encoding::json::{Json, Style};

/// `plugin.json`'s `$schema` for 1.0.0.
pub const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/// `mcp.json`'s `$schema` for 1.0.0.
pub const MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/// The manifest's keys (§5.2), the only ones it may hold.
pub const MANIFEST_KEYS: [&str; 10] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "extensions",
];

/// The hosts an adapter is written for, with the adapter's manifest and
/// the folder (a reverse-domain extension directory, §8.2) that carries
/// the skills only that host accepts.
pub const ADAPTERS: [(Host, &str, &str); 2] = [
    (
        Host::ClaudeCode,
        ".claude-plugin/plugin.json",
        "com.anthropic.claude-code",
    ),
    (Host::Codex, ".codex-plugin/plugin.json", "com.openai.codex"),
];

/// The adapter of `host`: its manifest's path and its extension folder.
pub fn adapter(host: Host) -> Option<(&'static str, &'static str)> {
    ADAPTERS
        .iter()
        .find(|(h, _, _)| *h == host)
        .map(|(_, manifest, folder)| (*manifest, *folder))
}

/// Whether `name` is a plugin name (§5.5): 1 to 64 of `a-z`, `0-9`, `-`
/// and `.`, alphanumeric first and last, no `--` or `..`.
pub fn is_plugin_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    (1..=64).contains(&bytes.len())
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.'))
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && !name.contains("--")
        && !name.contains("..")
}

/// `value` as canonical JSON text: object keys sorted by their bytes, two
/// spaces of indent, UTF-8 as is, a final newline. A number that is not an
/// integer is written as its text, which JSON reads back as the same
/// number.
pub fn canonical(value: &Value) -> Vec<u8> {
    fn convert(value: &Value) -> Json {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Json::Int(i),
                None => Json::Str(n.to_string()),
            },
            Value::String(s) => Json::Str(s.clone()),
            Value::Array(items) => Json::Array(items.iter().map(convert).collect()),
            Value::Object(map) => {
                let mut entries: Vec<(String, Json)> =
                    map.iter().map(|(k, v)| (k.clone(), convert(v))).collect();
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                Json::Object(entries)
            }
        }
    }
    (convert(value).to_text(Style::indented(2).with_ascii(false)) + "\n").into_bytes()
}

/// Where the string value `value` is first written in `text` (`"value"`),
/// for locating a problem of the object that holds it; the start of the
/// file when it is not (or is empty).
pub fn locate_value(text: &str, value: &str) -> Position {
    let at = match value.is_empty() {
        true => None,
        false => text.find(&format!("\"{value}\"")),
    };
    position_of(text, at.unwrap_or(0))
}

fn position_of(text: &str, at: usize) -> Position {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    Position {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

/// Where serde_json says `error` is, as a problem's position.
pub fn error_at(error: &serde_json::Error) -> Position {
    Position {
        line: u32::try_from(error.line()).unwrap_or(1).max(1),
        column: u32::try_from(error.column()).unwrap_or(1).max(1),
    }
}

/// Where the key `key` is first written in `text` (`"key"` followed by
/// `:`), for locating a problem; the start of the file when it is not.
pub fn locate(text: &str, key: &str) -> Position {
    let quoted = format!("\"{key}\"");
    let mut from = 0;
    while let Some(at) = text[from..].find(&quoted) {
        let at = from + at;
        let after = text[at + quoted.len()..].trim_start();
        if after.starts_with(':') {
            return position_of(text, at);
        }
        from = at + quoted.len();
    }
    Position { line: 1, column: 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_names_follow_section_5_5() {
        for good in ["my-plugin", "acme.tools", "lint3r", "a"] {
            assert!(is_plugin_name(good), "{good}");
        }
        for bad in [
            "My-Plugin",
            "-start",
            "has--double",
            "too.many..dots",
            "",
            "end.",
        ] {
            assert!(!is_plugin_name(bad), "{bad}");
        }
    }

    #[test]
    fn canonical_json_sorts_keys_and_ends_with_a_newline() {
        let value: Value =
            serde_json::from_str(r#"{"b":1,"a":{"d":[true,null],"c":"é"}}"#).unwrap();
        assert_eq!(
            String::from_utf8(canonical(&value)).unwrap(),
            "{\n  \"a\": {\n    \"c\": \"é\",\n    \"d\": [\n      true,\n      null\n    ]\n  },\n  \"b\": 1\n}\n"
        );
    }

    #[test]
    fn a_key_is_located_where_it_is_a_key_not_a_value() {
        let text = "{\n  \"x\": \"name\",\n  \"name\": 1\n}";
        assert_eq!(locate(text, "name"), Position { line: 3, column: 3 });
    }
}
