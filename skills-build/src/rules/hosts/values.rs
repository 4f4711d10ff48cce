//! The checks of one host field's value, by kind (see
//! [`super::fields::Kind`]): each problem located at the value, item or
//! nested key it is about, naming the hosts that read the field.

use skills_core::text::difflib::close_matches;
use skills_pycompat::yaml::{Entry, Mark, Node, Value};

use super::{Host, names};
use crate::allowed_tools;
use crate::frontmatter::SkillDocument;
use crate::frontmatter::shape;
use crate::printable::capped;
use crate::problem::{Code, Problem};

/// The spellings of a bool every YAML 1.2 reader (Claude Code's and VS
/// Code's among them) reads as one.
const BOOLS: [&str; 6] = ["true", "false", "True", "False", "TRUE", "FALSE"];

/// What YAML 1.1 readers take for a bool and YAML 1.2 readers for text.
const OLD_BOOLS: [&str; 10] = ["yes", "no", "on", "off", "y", "n", "Yes", "No", "On", "Off"];

/// `/model` aliases Claude Code documents, besides `claude-*` ids.
pub(crate) const MODEL_ALIASES: [&str; 9] = [
    "inherit",
    "default",
    "best",
    "sonnet",
    "opus",
    "haiku",
    "sonnet[1m]",
    "opus[1m]",
    "opusplan",
];

/// The hook events Claude Code documents.
pub(crate) const HOOK_EVENTS: [&str; 12] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
];

/// The hook types Claude Code documents.
pub(crate) const HOOK_TYPES: [&str; 4] = ["command", "prompt", "agent", "http"];

/// The keys of one hook Claude Code documents.
const HOOK_KEYS: [&str; 9] = [
    "type",
    "command",
    "prompt",
    "url",
    "timeout",
    "once",
    "async",
    "model",
    "statusMessage",
];

/// Whether `text` is a bool to every YAML 1.2 reader.
pub(crate) fn is_bool(text: &str) -> bool {
    BOOLS.contains(&text)
}

/// A text's lines, to look at what a scalar's mark points to: whether it
/// was written in quotes. The strict reader keeps every scalar as text,
/// and a host's reader takes a quoted `"true"` for text, not a bool.
/// Built once per text, so each look is as long as its line, not the text.
pub(crate) struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Lines { text, starts }
    }

    /// Whether the scalar at `mark` was written in quotes.
    pub(crate) fn quoted(&self, mark: Mark) -> bool {
        let Some(start) = self.starts.get(mark.line.saturating_sub(1) as usize) else {
            return false;
        };
        let line = self.text[*start..].split('\n').next().unwrap_or_default();
        let first = line.chars().nth(mark.column.saturating_sub(1) as usize);
        matches!(first, Some('"' | '\''))
    }
}

/// One field's check: where problems go, and whom they name.
pub(super) struct Check<'c> {
    doc: &'c SkillDocument,
    entry: &'c Entry,
    readers: &'c [Host],
    problems: &'c mut Vec<Problem>,
    /// The frontmatter's lines, when a check needs them.
    lines: Option<Lines<'c>>,
}

impl<'c> Check<'c> {
    pub(super) fn new(
        doc: &'c SkillDocument,
        entry: &'c Entry,
        readers: &'c [Host],
        problems: &'c mut Vec<Problem>,
    ) -> Self {
        Check {
            doc,
            entry,
            readers,
            problems,
            lines: None,
        }
    }

    fn key(&self) -> &str {
        &self.entry.key
    }

    fn value(&self) -> &'c Node {
        &self.entry.value
    }

    fn push(&mut self, code: Code, at: Mark, message: String, hint: Option<String>) {
        let mut problem = Problem::new(code, message)
            .with_field(self.entry.key.clone())
            .at(SkillDocument::position(at));
        if let Some(hint) = hint {
            problem = problem.with_hint(hint);
        }
        self.problems.push(problem);
    }

    /// An error at `at`.
    fn invalid(&mut self, at: Mark, message: String, hint: Option<String>) {
        self.push(Code::HostFieldInvalid, at, message, hint);
    }

    /// A warning at `at`: a value the hosts do not document, which a newer
    /// release may know.
    fn unrecognized(&mut self, at: Mark, message: String) {
        let hint = format!(
            "a newer {} may know it; if it does, allow the rule host-field-unrecognized",
            names(self.readers.iter().copied())
        );
        self.push(Code::HostFieldUnrecognized, at, message, Some(hint));
    }

    /// "Claude Code reads it as X", for hints.
    fn reads_as(&self, what: &str) -> String {
        let readers = names(self.readers.iter().copied());
        let verb = if self.readers.len() == 1 {
            "reads"
        } else {
            "read"
        };
        format!("{readers} {verb} it as {what}")
    }

    /// The field's value as text, or an error naming what it is instead.
    fn scalar(&mut self, what: &str) -> Option<&'c str> {
        let node = self.value();
        match &node.value {
            Value::Str(text) => Some(text),
            other => {
                let message = format!("{} must be {what}, not {}", self.key(), shape(other));
                self.invalid(node.mark, message, None);
                None
            }
        }
    }

    /// Whether the scalar at `mark` was written in quotes.
    fn quoted(&mut self, mark: Mark) -> bool {
        let text = &self.doc.frontmatter_text;
        self.lines
            .get_or_insert_with(|| Lines::new(text))
            .quoted(mark)
    }

    /// Any text.
    pub(super) fn text(&mut self) {
        self.scalar("text");
    }

    /// The field's value as text that is not blank, with where it is, or
    /// an error saying it must be `what`.
    fn filled(&mut self, what: &str) -> Option<(&'c str, Mark)> {
        let text = self.scalar(what)?;
        let at = self.value().mark;
        if text.trim().is_empty() {
            let message = format!("{} is empty", self.key());
            self.invalid(at, message, Some(self.reads_as(what)));
            return None;
        }
        Some((text, at))
    }

    /// One line of text, not blank.
    pub(super) fn line(&mut self) {
        let Some((text, at)) = self.filled("a name") else {
            return;
        };
        if text.contains(['\n', '\r']) {
            let message = format!("{} must be one line", self.key());
            self.invalid(at, message, Some(self.reads_as("a name")));
        }
    }

    /// `true` or `false`, unquoted.
    pub(super) fn boolean(&mut self) {
        let Some(text) = self.scalar("true or false") else {
            return;
        };
        let (name, at, hint) = (
            self.entry.key.clone(),
            self.value().mark,
            self.reads_as("a bool"),
        );
        self.bool_at(&name, text, at, &hint);
    }

    /// The problem of `name` at `at` when `text` is not a bool written
    /// as one (`true`, unquoted); `hint` says who reads it so.
    fn bool_at(&mut self, name: &str, text: &str, at: Mark, hint: &str) {
        let (message, hint) = match (is_bool(text), self.quoted(at)) {
            (true, false) => return,
            (true, true) => (
                format!("{name} must be true or false, not the quoted text {text:?}"),
                format!(
                    "remove the quotes: a YAML reader takes a quoted {text:?} for text; {hint}"
                ),
            ),
            (false, _) if OLD_BOOLS.contains(&text) => (
                format!("{name} must be true or false, not `{text}`"),
                format!("write true or false: YAML 1.2 readers take `{text}` for text; {hint}"),
            ),
            (false, _) => (
                format!("{name} must be true or false, not `{}`", capped(text)),
                hint.to_string(),
            ),
        };
        self.invalid(at, message, Some(hint));
    }

    /// One of `words`, exactly.
    pub(super) fn one_of(&mut self, words: &[&str]) {
        let Some(text) = self.scalar(&format!("one of {}", words.join(", "))) else {
            return;
        };
        if words.contains(&text) {
            return;
        }
        let at = self.value().mark;
        let message = format!(
            "{} must be {}, not `{}`",
            self.key(),
            match words {
                [one] => format!("`{one}`"),
                _ => format!("one of {}", words.join(", ")),
            },
            capped(text)
        );
        let hint = close_matches(text, words.iter().copied(), 1)
            .first()
            .map(|near| format!("did you mean `{near}`?"));
        self.invalid(at, message, hint);
    }

    /// A model alias, `inherit` or a `claude-*` id.
    pub(super) fn model(&mut self) {
        let Some((text, at)) = self.filled("a model name") else {
            return;
        };
        if MODEL_ALIASES.contains(&text) || text.starts_with("claude-") {
            return;
        }
        self.unrecognized(
            at,
            format!(
                "model `{}` is none of the models {} documents: {}, or a claude-* model id",
                capped(text),
                names(self.readers.iter().copied()),
                MODEL_ALIASES.join(", ")
            ),
        );
    }

    /// Argument names: a space-separated string or a list of strings.
    pub(super) fn arguments(&mut self) {
        let node = self.value();
        let items: Vec<(&str, Mark)> = match &node.value {
            Value::Str(text) => text
                .split_ascii_whitespace()
                .map(|name| (name, node.mark))
                .collect(),
            Value::Seq(items) => {
                let mut names = Vec::new();
                for item in items {
                    match &item.value {
                        Value::Str(text) => names.push((text.as_str(), item.mark)),
                        other => {
                            let message = format!(
                                "every item of arguments must be a name, not {}",
                                shape(other)
                            );
                            self.invalid(item.mark, message, None);
                        }
                    }
                }
                names
            }
            Value::Map(_) => {
                self.invalid(
                    node.mark,
                    "arguments must be a space-separated string or a list of names, not a mapping"
                        .to_string(),
                    None,
                );
                return;
            }
        };
        let mut seen = std::collections::BTreeSet::new();
        for (name, at) in items {
            let is_name = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !is_name {
                let message = format!("argument `{}` is not a name", capped(name));
                let hint = format!(
                    "the body uses it as ${}: letters, digits and _, starting with a letter or _",
                    capped(name)
                );
                self.invalid(at, message, Some(hint));
            } else if !seen.insert(name) {
                self.invalid(at, format!("argument `{name}` is named twice"), None);
            }
        }
    }

    /// Permission rules: a space-separated string or a list of strings,
    /// each item one rule.
    pub(super) fn tool_rules(&mut self) {
        let node = self.value();
        match &node.value {
            Value::Str(text) => match allowed_tools::parse(text) {
                Ok(rules) => {
                    for rule in rules {
                        self.tool_name(&rule.tool, node.mark);
                    }
                }
                Err(error) => {
                    let message = format!(
                        "{} token \"{}\": {}",
                        self.key(),
                        capped(&error.token),
                        error.kind.as_str()
                    );
                    self.invalid(node.mark, message, None);
                }
            },
            Value::Seq(items) => {
                for item in items {
                    self.tool_item(item);
                }
            }
            Value::Map(_) => {
                let message = format!(
                    "{} must be a space-separated string or a list of permission rules, not a mapping",
                    self.key()
                );
                self.invalid(node.mark, message, None);
            }
        }
    }

    /// One item of a list of permission rules.
    fn tool_item(&mut self, item: &Node) {
        let Value::Str(text) = &item.value else {
            let message = format!(
                "every item of {} must be a permission rule, not {}",
                self.key(),
                shape(&item.value)
            );
            self.invalid(item.mark, message, None);
            return;
        };
        match allowed_tools::parse(text).as_deref() {
            Ok([rule]) => self.tool_name(&rule.tool, item.mark),
            Ok([]) => {
                let message = format!("an item of {} is empty", self.key());
                self.invalid(item.mark, message, None);
            }
            Ok(_) => {
                let message = format!(
                    "the {} item \"{}\" holds several rules",
                    self.key(),
                    capped(text)
                );
                self.invalid(
                    item.mark,
                    message,
                    Some("give each rule its own item".to_string()),
                );
            }
            Err(error) => {
                let message = format!(
                    "the {} item \"{}\" is not a permission rule: {}",
                    self.key(),
                    capped(text),
                    error.kind.as_str()
                );
                self.invalid(item.mark, message, None);
            }
        }
    }

    /// The specification's one-string `allowed-tools` (its grammar is
    /// checked by its own rule), with tool names as the host names them.
    pub(super) fn tool_names_of_text(&mut self) {
        let node = self.value();
        if let Value::Str(text) = &node.value
            && let Ok(rules) = allowed_tools::parse(text)
        {
            for rule in rules {
                self.tool_name(&rule.tool, node.mark);
            }
        }
    }

    /// A tool's name as a permission rule names it: `Read`, `Bash`,
    /// `mcp__server__tool`, `mcp__server__*`.
    fn tool_name(&mut self, tool: &str, at: Mark) {
        let valid = tool.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && tool
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '*'));
        if valid {
            return;
        }
        let message = format!("{}: `{}` is not a tool name", self.key(), capped(tool));
        let hint = match tool.contains(',') {
            true => "separate rules with spaces (or give a list), not commas".to_string(),
            false => format!(
                "{}: a tool name (Read, Bash, mcp__server__tool), then an optional (specifier)",
                self.reads_as("permission rules")
            ),
        };
        self.invalid(at, message, Some(hint));
    }

    /// Globs: a comma-separated string or a list of strings.
    pub(super) fn globs(&mut self) {
        let node = self.value();
        match &node.value {
            Value::Str(text) => {
                for glob in text.split(',') {
                    self.glob(glob.trim(), node.mark);
                }
            }
            Value::Seq(items) => {
                for item in items {
                    match &item.value {
                        Value::Str(text) => self.glob(text.trim(), item.mark),
                        other => {
                            let message = format!(
                                "every item of {} must be a glob, not {}",
                                self.key(),
                                shape(other)
                            );
                            self.invalid(item.mark, message, None);
                        }
                    }
                }
            }
            Value::Map(_) => {
                let message = format!(
                    "{} must be a comma-separated string or a list of globs, not a mapping",
                    self.key()
                );
                self.invalid(node.mark, message, None);
            }
        }
    }

    /// One glob: not empty, brackets and braces closed, no `..` segment,
    /// no control character.
    fn glob(&mut self, glob: &str, at: Mark) {
        let why = glob_problem(glob);
        if let Some(why) = why {
            let message = format!(
                "{} entry `{}` is not a glob: {why}",
                self.key(),
                capped(glob)
            );
            let hint = self.reads_as("globs of the files the skill is for, like src/**/*.rs");
            self.invalid(at, message, Some(hint));
        }
    }

    /// The settings file's `hooks` schema.
    pub(super) fn hooks(&mut self) {
        let node = self.value();
        let Value::Map(events) = &node.value else {
            let message = format!(
                "hooks must be a mapping of hook events to lists of matchers, not {}",
                describe(&node.value)
            );
            self.invalid(
                node.mark,
                message,
                Some("write it as a settings file's hooks, in block style: an event such as PreToolUse, under it a list of matchers, each with a hooks list of {type: command, command: ...}".to_string()),
            );
            return;
        };
        for event in events {
            if !HOOK_EVENTS.contains(&event.key.as_str()) {
                let near = close_matches(&event.key, HOOK_EVENTS, 1);
                match near.first() {
                    Some(near) => {
                        let message =
                            format!("hooks: `{}` is not a hook event", capped(&event.key));
                        self.invalid(
                            event.key_mark,
                            message,
                            Some(format!("did you mean `{near}`?")),
                        );
                    }
                    None => self.unrecognized(
                        event.key_mark,
                        format!(
                            "hooks: `{}` is none of the hook events Claude Code documents ({})",
                            capped(&event.key),
                            HOOK_EVENTS.join(", ")
                        ),
                    ),
                }
            }
            let path = format!("hooks.{}", event.key);
            for (at, group) in self.list(&path, &event.value, "a list of matchers") {
                self.hook_group(&format!("{path}[{at}]"), group);
            }
        }
    }

    /// The items of the list at `path`, or an error saying it must be
    /// `what`, and none.
    fn list<'n>(
        &mut self,
        path: &str,
        node: &'n Node,
        what: &str,
    ) -> std::iter::Enumerate<std::slice::Iter<'n, Node>> {
        let items: &[Node] = match &node.value {
            Value::Seq(items) => items,
            other => {
                let message = format!("{path} must be {what}, not {}", describe(other));
                self.invalid(node.mark, message, None);
                &[]
            }
        };
        items.iter().enumerate()
    }

    /// `{matcher, hooks: [...]}`.
    fn hook_group(&mut self, path: &str, group: &Node) {
        let Value::Map(entries) = &group.value else {
            let message = format!(
                "{path} must be a mapping of matcher and hooks, not {}",
                describe(&group.value)
            );
            self.invalid(group.mark, message, None);
            return;
        };
        let mut hooks = None;
        for entry in entries {
            match entry.key.as_str() {
                "matcher" => {
                    if !matches!(entry.value.value, Value::Str(_)) {
                        let message = format!(
                            "{path}.matcher must be text (a tool name or pattern), not {}",
                            shape(&entry.value.value)
                        );
                        self.invalid(entry.value.mark, message, None);
                    }
                }
                "hooks" => hooks = Some(entry),
                other => {
                    let message = format!(
                        "{path} holds `{}`; a matcher group holds only matcher and hooks",
                        capped(other)
                    );
                    self.invalid(entry.key_mark, message, None);
                }
            }
        }
        let Some(hooks) = hooks else {
            let message = format!("{path} has no hooks list");
            self.invalid(
                group.mark,
                message,
                Some("add hooks: with a list of {type: command, command: ...}".to_string()),
            );
            return;
        };
        let path = format!("{path}.hooks");
        for (at, item) in self.list(&path, &hooks.value, "a list of hooks") {
            self.hook(&format!("{path}[{at}]"), item);
        }
    }

    /// `{type, command | prompt | url, timeout?, once?...}`.
    fn hook(&mut self, path: &str, hook: &Node) {
        let Value::Map(entries) = &hook.value else {
            let message = format!(
                "{path} must be a mapping with type and command, not {}",
                describe(&hook.value)
            );
            self.invalid(hook.mark, message, None);
            return;
        };
        let get = |key: &str| entries.iter().find(|entry| entry.key == key);
        let kind = match get("type").map(|entry| (&entry.value.value, entry.value.mark)) {
            None => {
                self.invalid(
                    hook.mark,
                    format!("{path} has no type"),
                    Some(format!("add type: one of {}", HOOK_TYPES.join(", "))),
                );
                None
            }
            Some((Value::Str(kind), at)) => {
                if !HOOK_TYPES.contains(&kind.as_str()) {
                    self.unrecognized(
                        at,
                        format!(
                            "{path}.type `{}` is none of the hook types Claude Code documents ({})",
                            capped(kind),
                            HOOK_TYPES.join(", ")
                        ),
                    );
                }
                Some(kind.as_str())
            }
            Some((other, at)) => {
                let message = format!("{path}.type must be text, not {}", shape(other));
                self.invalid(at, message, None);
                None
            }
        };
        let needs = match kind {
            Some("command") => Some("command"),
            Some("prompt" | "agent") => Some("prompt"),
            Some("http") => Some("url"),
            _ => None,
        };
        if let Some(needed) = needs {
            match get(needed).map(|entry| &entry.value) {
                None => self.invalid(
                    hook.mark,
                    format!(
                        "{path} is a {} hook without {needed}",
                        kind.unwrap_or_default()
                    ),
                    None,
                ),
                Some(Node {
                    value: Value::Str(text),
                    mark,
                    ..
                }) if text.trim().is_empty() => {
                    self.invalid(*mark, format!("{path}.{needed} is empty"), None)
                }
                Some(Node {
                    value: Value::Str(_),
                    ..
                }) => {}
                Some(node) => {
                    let message =
                        format!("{path}.{needed} must be text, not {}", shape(&node.value));
                    self.invalid(node.mark, message, None);
                }
            }
        }
        for entry in entries {
            let at = entry.value.mark;
            match (entry.key.as_str(), &entry.value.value) {
                ("timeout", Value::Str(text)) => {
                    let seconds = text.parse::<u64>().ok().filter(|s| *s > 0);
                    if seconds.is_none() || self.quoted(at) {
                        let message = format!(
                            "{path}.timeout must be a whole number of seconds, not `{}`",
                            capped(text)
                        );
                        self.invalid(at, message, None);
                    }
                }
                ("once" | "async", Value::Str(text)) => {
                    let hint = self.reads_as("a bool");
                    self.bool_at(&format!("{path}.{}", entry.key), text, at, &hint);
                }
                (key, Value::Str(_)) if HOOK_KEYS.contains(&key) => {}
                (key, other) if HOOK_KEYS.contains(&key) => {
                    let message = format!("{path}.{key} must be text, not {}", shape(other));
                    self.invalid(at, message, None);
                }
                (key, _) => self.unrecognized(
                    entry.key_mark,
                    format!(
                        "{path} holds `{}`, none of the keys Claude Code documents for a hook ({})",
                        capped(key),
                        HOOK_KEYS.join(", ")
                    ),
                ),
            }
        }
    }
}

/// A value's shape for a message, quoting short text.
fn describe(value: &Value) -> String {
    match value {
        Value::Str(text) if text.is_empty() => "empty".to_string(),
        Value::Str(text) => format!("the text `{}`", capped(text)),
        other => shape(other).to_string(),
    }
}

/// Why `glob` is not a glob, if it is not one.
pub(crate) fn glob_problem(glob: &str) -> Option<&'static str> {
    if glob.is_empty() {
        return Some("it is empty");
    }
    if glob.chars().any(char::is_control) {
        return Some("it holds a control character");
    }
    if glob.split('/').any(|segment| segment == "..") {
        return Some("a `..` segment leaves the project");
    }
    let (mut brackets, mut braces) = (0i32, 0i32);
    let mut chars = glob.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if brackets == 0 => brackets = 1,
            ']' if brackets > 0 => brackets = 0,
            '{' if brackets == 0 => braces += 1,
            '}' if brackets == 0 => {
                braces -= 1;
                if braces < 0 {
                    return Some("a `}` closes no `{`");
                }
            }
            _ => {}
        }
    }
    if brackets > 0 {
        return Some("a `[` is never closed");
    }
    if braces > 0 {
        return Some("a `{` is never closed");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_are_closed_and_stay_inside() {
        assert_eq!(glob_problem("src/**/*.rs"), None);
        assert_eq!(glob_problem("src/*.{ts,tsx}"), None);
        assert_eq!(glob_problem("docs/[a-z]*.md"), None);
        assert_eq!(glob_problem("a\\[b"), None);
        assert_eq!(glob_problem(""), Some("it is empty"));
        assert_eq!(glob_problem("src/[ab"), Some("a `[` is never closed"));
        assert_eq!(glob_problem("src/{a,b"), Some("a `{` is never closed"));
        assert_eq!(glob_problem("src/a}"), Some("a `}` closes no `{`"));
        assert_eq!(
            glob_problem("../other/**"),
            Some("a `..` segment leaves the project")
        );
    }
}
