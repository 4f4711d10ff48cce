//! Codex's own settings: the sidecar file `agents/openai.yaml` in a skill
//! folder, and `metadata.short-description` in SKILL.md.
//!
//! Under the `codex` profile, the sidecar (when there is one) is read with
//! the same strict YAML reader as SKILL.md and checked: its keys, their
//! types, the lengths Codex allows, icon paths that name a file of the
//! skill, `#RRGGBB` colours. Every problem is located in the sidecar
//! ([`Code::CodexSidecarInvalid`], [`Code::CodexIconMissing`]). A key
//! Codex does not read is a warning ([`Code::CodexSidecarUnknownKey`]),
//! as Codex ignores it: allowed by its code, it is silent; a known key of
//! the wrong type stays an error. The file
//! itself is embedded like any other: a host that reads it finds it.
//!
//! The reader is strict: a sidecar in flow style (`products: [codex]`),
//! which Codex's own reader accepts, is refused with the reader's error;
//! write lists in block style.
//!
//! ```yaml
//! interface:
//!   display_name: Deploy helper
//!   short_description: Ship to staging
//!   icon_small: assets/icon.png
//!   brand_color: "#0A7CFF"
//!   default_prompt: Use $deploy-helper to ship this branch to staging.
//! policy:
//!   allow_implicit_invocation: false
//!   products:
//!     - codex-cli
//! dependencies:
//!   tools:
//!     - type: mcp
//!       value: github
//! ```

use skills_core::text::difflib::close_matches;
use skills_pycompat::yaml::{self, Entry, Mark, Node, Value};

pub use super::profile::SIDECAR;

use super::Hosts;
use super::values::{Lines, is_bool};
use crate::frontmatter::shape;
use crate::printable::capped;
use crate::problem::{Code, Position, Problem};

/// The longest `interface.display_name`, in characters.
pub const MAX_DISPLAY_NAME_CHARS: usize = 64;

/// The longest `interface.short_description`, `interface.default_prompt`
/// and `metadata.short-description`, in characters.
pub const MAX_SHORT_TEXT_CHARS: usize = 1024;

/// The sections of the sidecar.
const SECTIONS: [&str; 3] = ["interface", "dependencies", "policy"];
const INTERFACE_KEYS: [&str; 6] = [
    "display_name",
    "short_description",
    "icon_small",
    "icon_large",
    "brand_color",
    "default_prompt",
];
const POLICY_KEYS: [&str; 2] = ["allow_implicit_invocation", "products"];
const DEPENDENCY_KEYS: [&str; 1] = ["tools"];
const TOOL_KEYS: [&str; 6] = [
    "type",
    "value",
    "description",
    "transport",
    "command",
    "url",
];

/// Under `codex`: the problem of a `metadata.short-description` longer
/// than Codex allows (the caller adds the file).
pub(crate) fn short_description(
    doc: &crate::frontmatter::SkillDocument,
    hosts: Hosts,
) -> Option<Problem> {
    if !hosts
        .iter()
        .any(|host| host.profile().sidecar == Some(SIDECAR))
    {
        return None;
    }
    let Value::Map(entries) = &doc.frontmatter.get("metadata")?.value.value else {
        return None;
    };
    let entry = entries
        .iter()
        .find(|entry| entry.key == "short-description")?;
    let Value::Str(text) = &entry.value.value else {
        return None;
    };
    let chars = text.chars().count();
    (chars > MAX_SHORT_TEXT_CHARS).then(|| {
        Problem::new(
            Code::ShortDescriptionTooLong,
            format!(
                "metadata.short-description is {} characters, over the {} Codex reads",
                crate::diagnostic::thousands(chars),
                crate::diagnostic::thousands(MAX_SHORT_TEXT_CHARS)
            ),
        )
        .with_field("metadata")
        .at(crate::frontmatter::SkillDocument::position(
            entry.value.mark,
        ))
        .with_hint("Codex shows it in its skill picker: one line or two")
    })
}

/// A skill's files as the sidecar check sees them: by path, relative to
/// its folder.
pub(crate) trait SkillFiles {
    /// The bytes of the file at `path`, if the skill has one.
    fn bytes_of(&self, path: &str) -> Option<&[u8]>;
}

/// Under `codex`: checks the sidecar among a skill's `files`, locating
/// problems in `location` (the sidecar's path as problems name files).
pub(crate) fn check(files: &dyn SkillFiles, hosts: Hosts, location: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    if !hosts
        .iter()
        .any(|host| host.profile().sidecar == Some(SIDECAR))
    {
        return problems;
    }
    let Some(bytes) = files.bytes_of(SIDECAR) else {
        return problems;
    };
    let text = match crate::skill_file::decode(bytes) {
        Ok(text) => text,
        Err(error) => {
            problems.push(
                Problem::new(
                    Code::CodexSidecarInvalid,
                    format!(
                        "{SIDECAR} is not UTF-8 text: byte 0x{:02X} at line {}, column {}",
                        error.byte, error.line, error.column
                    ),
                )
                .with_file(location)
                .at(Position {
                    line: error.line,
                    column: error.column,
                }),
            );
            return problems;
        }
    };
    let node = match yaml::parse(&text) {
        Ok(node) => node,
        Err(error) => {
            let mark = error.mark();
            problems.push(
                Problem::new(
                    Code::CodexSidecarInvalid,
                    crate::diagnostic::plain(&format!("{SIDECAR} is not strict YAML: {error}")),
                )
                .with_file(location)
                .at(position(mark))
                .with_hint("the reader is the one SKILL.md is read with: block style, no flow lists ([a, b]), anchors or tags"),
            );
            return problems;
        }
    };
    let mut sidecar = Sidecar {
        lines: Lines::new(&text),
        files,
        problems: Vec::new(),
    };
    match &node.value {
        Value::Map(sections) => sidecar.sections(sections),
        other => sidecar.invalid(
            node.mark,
            format!(
                "{SIDECAR} must be a mapping of {}, not {}",
                SECTIONS.join(", "),
                shape(other)
            ),
            None,
        ),
    }
    problems.extend(
        sidecar
            .problems
            .into_iter()
            .map(|problem| problem.with_file(location)),
    );
    problems
}

fn position(mark: Mark) -> Position {
    Position {
        line: mark.line,
        column: mark.column,
    }
}

/// The check of one sidecar.
struct Sidecar<'s> {
    lines: Lines<'s>,
    files: &'s dyn SkillFiles,
    problems: Vec<Problem>,
}

impl Sidecar<'_> {
    fn push(&mut self, code: Code, at: Mark, message: String, hint: Option<String>) {
        let mut problem = Problem::new(code, message).at(position(at));
        if let Some(hint) = hint {
            problem = problem.with_hint(hint);
        }
        self.problems.push(problem);
    }

    fn invalid(&mut self, at: Mark, message: String, hint: Option<String>) {
        self.push(Code::CodexSidecarInvalid, at, message, hint);
    }

    /// A key Codex does not read, with "did you mean" for a near miss.
    fn unknown(&mut self, path: &str, entry: &Entry, known: &[&str]) {
        let near = close_matches(&entry.key, known.iter().copied(), 1);
        let hint = match near.first() {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!("Codex reads {}", known.join(", ")),
        };
        let message = match path {
            "" => format!(
                "{SIDECAR} holds `{}`, which Codex does not read",
                capped(&entry.key)
            ),
            path => format!(
                "{path} holds `{}`, which Codex does not read",
                capped(&entry.key)
            ),
        };
        // Codex ignores a key it does not know: a warning (allowed by its
        // code), never an error, so a host's own field does not break a
        // build.
        self.push(
            Code::CodexSidecarUnknownKey,
            entry.key_mark,
            message,
            Some(hint),
        );
    }

    /// The entries of `node` when it is a mapping, or an error.
    fn mapping<'n>(&mut self, path: &str, node: &'n Node) -> Option<&'n [Entry]> {
        match &node.value {
            Value::Map(entries) => Some(entries),
            other => {
                self.invalid(
                    node.mark,
                    format!("{path} must be a mapping, not {}", shape(other)),
                    None,
                );
                None
            }
        }
    }

    /// The text of `node`, or an error.
    fn text<'n>(&mut self, path: &str, node: &'n Node) -> Option<&'n str> {
        match &node.value {
            Value::Str(text) => Some(text),
            other => {
                self.invalid(
                    node.mark,
                    format!("{path} must be text, not {}", shape(other)),
                    None,
                );
                None
            }
        }
    }

    /// Text of at most `max` characters.
    fn short_text(&mut self, path: &str, node: &Node, max: usize) {
        let Some(text) = self.text(path, node) else {
            return;
        };
        let chars = text.chars().count();
        if chars > max {
            self.invalid(
                node.mark,
                format!(
                    "{path} is {} characters, over the {} Codex allows",
                    crate::diagnostic::thousands(chars),
                    crate::diagnostic::thousands(max)
                ),
                None,
            );
        }
    }

    fn sections(&mut self, sections: &[Entry]) {
        for section in sections {
            match section.key.as_str() {
                "interface" => self.interface(&section.value),
                "policy" => self.policy(&section.value),
                "dependencies" => self.dependencies(&section.value),
                _ => self.unknown("", section, &SECTIONS),
            }
        }
    }

    fn interface(&mut self, node: &Node) {
        let Some(entries) = self.mapping("interface", node) else {
            return;
        };
        for entry in entries {
            let path = format!("interface.{}", entry.key);
            match entry.key.as_str() {
                "display_name" => self.short_text(&path, &entry.value, MAX_DISPLAY_NAME_CHARS),
                "short_description" | "default_prompt" => {
                    self.short_text(&path, &entry.value, MAX_SHORT_TEXT_CHARS)
                }
                "icon_small" | "icon_large" => self.icon(&path, &entry.value),
                "brand_color" => self.colour(&path, &entry.value),
                _ => self.unknown("interface", entry, &INTERFACE_KEYS),
            }
        }
    }

    /// A path relative to the skill folder that names one of its files.
    fn icon(&mut self, path: &str, node: &Node) {
        let Some(icon) = self.text(path, node) else {
            return;
        };
        let relative = icon.strip_prefix("./").unwrap_or(icon);
        let escapes = relative.is_empty()
            || relative.starts_with('/')
            || relative.contains('\\')
            || relative
                .split('/')
                .any(|segment| segment == ".." || segment.is_empty());
        if escapes {
            self.invalid(
                node.mark,
                format!(
                    "{path} `{}` is not a path inside the skill folder",
                    capped(icon)
                ),
                Some(
                    "give the icon's path relative to the skill folder, like assets/icon.png"
                        .to_string(),
                ),
            );
        } else if self.files.bytes_of(relative).is_none() {
            self.push(
                Code::CodexIconMissing,
                node.mark,
                format!(
                    "{path} names {}, which is not a file of the skill",
                    capped(relative)
                ),
                Some("add the icon to the skill folder (an exclude rule may have left it out), or fix the path".to_string()),
            );
        }
    }

    /// `#RRGGBB`.
    fn colour(&mut self, path: &str, node: &Node) {
        let Some(colour) = self.text(path, node) else {
            return;
        };
        let valid = colour.len() == 7
            && colour.starts_with('#')
            && colour[1..].bytes().all(|b| b.is_ascii_hexdigit());
        if !valid {
            let hint = match colour.len() == 6 && colour.bytes().all(|b| b.is_ascii_hexdigit()) {
                true => format!("write \"#{colour}\", in quotes: a plain # starts a comment"),
                false => "six hexadecimal digits after a #, in quotes: \"#0A7CFF\"".to_string(),
            };
            self.invalid(
                node.mark,
                format!("{path} `{}` is not a #RRGGBB colour", capped(colour)),
                Some(hint),
            );
        }
    }

    fn policy(&mut self, node: &Node) {
        let Some(entries) = self.mapping("policy", node) else {
            return;
        };
        for entry in entries {
            let path = format!("policy.{}", entry.key);
            match entry.key.as_str() {
                "allow_implicit_invocation" => {
                    let Some(text) = self.text(&path, &entry.value) else {
                        continue;
                    };
                    if !is_bool(text) || self.lines.quoted(entry.value.mark) {
                        self.invalid(
                            entry.value.mark,
                            format!("{path} must be true or false, not `{}`", capped(text)),
                            None,
                        );
                    }
                }
                "products" => match &entry.value.value {
                    Value::Seq(items) => {
                        for item in items {
                            self.text(&format!("an item of {path}"), item);
                        }
                    }
                    other => self.invalid(
                        entry.value.mark,
                        format!(
                            "{path} must be a list of product names, not {}",
                            shape(other)
                        ),
                        None,
                    ),
                },
                _ => self.unknown("policy", entry, &POLICY_KEYS),
            }
        }
    }

    fn dependencies(&mut self, node: &Node) {
        let Some(entries) = self.mapping("dependencies", node) else {
            return;
        };
        for entry in entries {
            if entry.key != "tools" {
                self.unknown("dependencies", entry, &DEPENDENCY_KEYS);
                continue;
            }
            let Value::Seq(tools) = &entry.value.value else {
                self.invalid(
                    entry.value.mark,
                    format!(
                        "dependencies.tools must be a list of tools, not {}",
                        shape(&entry.value.value)
                    ),
                    None,
                );
                continue;
            };
            for (at, tool) in tools.iter().enumerate() {
                self.tool(&format!("dependencies.tools[{at}]"), tool);
            }
        }
    }

    /// `{type: mcp, value, description?, transport?, command?, url?}`.
    fn tool(&mut self, path: &str, node: &Node) {
        let Some(entries) = self.mapping(path, node) else {
            return;
        };
        for required in ["type", "value"] {
            if !entries.iter().any(|entry| entry.key == required) {
                self.invalid(node.mark, format!("{path} has no {required}"), None);
            }
        }
        for entry in entries {
            let key = format!("{path}.{}", entry.key);
            if !TOOL_KEYS.contains(&entry.key.as_str()) {
                self.unknown(path, entry, &TOOL_KEYS);
                continue;
            }
            let Some(text) = self.text(&key, &entry.value) else {
                continue;
            };
            if entry.key == "type" && text != "mcp" {
                self.invalid(
                    entry.value.mark,
                    format!("{key} must be `mcp`, not `{}`", capped(text)),
                    Some("Codex knows MCP tools as dependencies".to_string()),
                );
            }
            if entry.key == "value" && text.trim().is_empty() {
                self.invalid(entry.value.mark, format!("{key} is empty"), None);
            }
        }
    }
}
