//! The fields each host documents beyond the specification's six, what
//! type each one is, and the checks a frontmatter gets under a profile.
//!
//! One table ([`FIELDS`]) says, per key, which hosts read it and how its
//! value is checked; `docs/hosts.md` is written from the same facts and
//! says where each comes from (the host's documentation, source or issue
//! threads). Every check is located at the value (or the item, or the
//! nested key) it is about.

use std::borrow::Cow;

use skills_pycompat::yaml::{Entry, Value};

use super::values::Check;
use super::{Host, Hosts, names};
use crate::frontmatter::{Frontmatter, SkillDocument};
use crate::problem::{Code, Problem};

/// How a field's value is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text (a scalar), any.
    Text,
    /// One line of text, not blank.
    Line,
    /// `true` or `false`, unquoted.
    Bool,
    /// One of these words, exactly.
    OneOf(&'static [&'static str]),
    /// A model: `inherit`, a `/model` alias or a `claude-*` id (another
    /// word is a warning: a newer host may know it).
    Model,
    /// Argument names: a space-separated string or a list of strings, each
    /// usable as `$name` in the body.
    Arguments,
    /// Permission rules: a space-separated string or a list of strings,
    /// each item one rule (`Read`, `Bash(git add *)`, `mcp__server__tool`).
    ToolRules,
    /// Globs: a comma-separated string or a list of strings.
    Globs,
    /// Hooks: the settings file's `hooks` schema (event -> list of
    /// `{matcher, hooks: [{type, command...}]}`).
    Hooks,
}

/// One host field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The key, as the host spells it.
    pub key: &'static str,
    /// The hosts that read it.
    pub readers: &'static [Host],
    /// How its value is checked.
    pub kind: Kind,
    /// Whether a host documents it; an undocumented key (seen in a host's
    /// source or its issue threads) is accepted under the profile, but
    /// never suggested without one.
    pub documented: bool,
}

const CLAUDE: &[Host] = &[Host::ClaudeCode];

/// The words Claude Code's `effort` takes.
pub const EFFORTS: &[&str] = &["low", "medium", "high", "xhigh", "max"];

/// Every host field, in the order `docs/hosts.md` lists them. The
/// specification's `allowed-tools` is here for the list form Claude Code
/// documents; every other key of the specification is checked by the
/// reference's rules alone.
pub const FIELDS: &[Field] = &[
    Field {
        key: "when_to_use",
        readers: CLAUDE,
        kind: Kind::Text,
        documented: true,
    },
    Field {
        key: "argument-hint",
        readers: &[Host::ClaudeCode, Host::Vscode],
        kind: Kind::Text,
        documented: true,
    },
    Field {
        key: "arguments",
        readers: CLAUDE,
        kind: Kind::Arguments,
        documented: true,
    },
    Field {
        key: "disable-model-invocation",
        readers: &[Host::ClaudeCode, Host::Vscode, Host::Cursor],
        kind: Kind::Bool,
        documented: true,
    },
    Field {
        key: "user-invocable",
        readers: CLAUDE,
        kind: Kind::Bool,
        documented: true,
    },
    Field {
        key: "user-invokable",
        readers: &[Host::Vscode],
        kind: Kind::Bool,
        documented: true,
    },
    Field {
        key: "allowed-tools",
        readers: CLAUDE,
        kind: Kind::ToolRules,
        documented: true,
    },
    Field {
        key: "disallowed-tools",
        readers: CLAUDE,
        kind: Kind::ToolRules,
        documented: true,
    },
    Field {
        key: "model",
        readers: CLAUDE,
        kind: Kind::Model,
        documented: true,
    },
    Field {
        key: "effort",
        readers: CLAUDE,
        kind: Kind::OneOf(EFFORTS),
        documented: true,
    },
    Field {
        key: "context",
        readers: CLAUDE,
        kind: Kind::OneOf(&["fork"]),
        documented: true,
    },
    Field {
        key: "agent",
        readers: CLAUDE,
        kind: Kind::Line,
        documented: true,
    },
    Field {
        key: "background",
        readers: CLAUDE,
        kind: Kind::Bool,
        documented: false,
    },
    Field {
        key: "hooks",
        readers: CLAUDE,
        kind: Kind::Hooks,
        documented: true,
    },
    Field {
        key: "paths",
        readers: CLAUDE,
        kind: Kind::Globs,
        documented: true,
    },
    Field {
        key: "shell",
        readers: CLAUDE,
        kind: Kind::OneOf(&["bash", "powershell"]),
        documented: true,
    },
    Field {
        key: "version",
        readers: CLAUDE,
        kind: Kind::Text,
        documented: false,
    },
];

impl Host {
    /// Whether the host reads `key` as a field of its own (one the
    /// specification does not define, or Claude Code's list form of
    /// `allowed-tools`).
    ///
    /// ```
    /// use skills_build::Host;
    /// assert!(Host::ClaudeCode.reads("model") && !Host::Codex.reads("model"));
    /// assert!(Host::Vscode.reads("user-invokable") && !Host::ClaudeCode.reads("user-invokable"));
    /// ```
    pub fn reads(self, key: &str) -> bool {
        field(key).is_some_and(|field| field.readers.contains(&self))
    }

    /// Whether some host reads `key` as a field of its own, beyond the
    /// specification's six.
    ///
    /// ```
    /// use skills_build::Host;
    /// assert!(Host::is_host_field("disable-model-invocation"));
    /// assert!(!Host::is_host_field("allowed-tools") && !Host::is_host_field("owner"));
    /// ```
    pub fn is_host_field(key: &str) -> bool {
        field(key).is_some() && !crate::frontmatter::KNOWN_FIELDS.contains(&key)
    }

    /// Whether some host reads `key` as a bool (`disable-model-invocation`,
    /// `user-invocable`...): a writer that quotes `true` so every YAML
    /// reader takes it for text (`skills fmt`) leaves such a field's
    /// `true` and `false` plain, as the host reads them.
    ///
    /// ```
    /// use skills_build::Host;
    /// assert!(Host::is_bool_field("disable-model-invocation"));
    /// assert!(!Host::is_bool_field("model") && !Host::is_bool_field("license"));
    /// ```
    pub fn is_bool_field(key: &str) -> bool {
        field(key).is_some_and(|field| field.kind == Kind::Bool)
    }

    /// Whether `text` is `true` or `false` as every YAML 1.2 reader
    /// spells a bool (`true`, `True`, `TRUE`, `false`...).
    ///
    /// ```
    /// use skills_build::Host;
    /// assert!(Host::is_bool("True") && !Host::is_bool("yes"));
    /// ```
    pub fn is_bool(text: &str) -> bool {
        super::values::is_bool(text)
    }
}

/// The host field `key`, if a host documents (or reads) one.
pub fn field(key: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|field| field.key == key)
}

/// The keys of [`FIELDS`] a chosen host reads.
pub(crate) fn read_keys(hosts: Hosts) -> impl Iterator<Item = &'static str> {
    FIELDS
        .iter()
        .filter(move |field| field.readers.iter().any(|host| hosts.contains(*host)))
        .map(|field| field.key)
}

/// The `allowed-tools` rules as one space-separated string: the text as
/// written, or the items of the list form Claude Code documents joined by
/// spaces (which parses to the same rules); `None` when absent or empty.
pub(crate) fn allowed_tools_text(fm: &Frontmatter) -> Option<Cow<'_, str>> {
    match &fm.get("allowed-tools")?.value.value {
        Value::Str(text) if !text.is_empty() => Some(Cow::Borrowed(text)),
        Value::Seq(items) => {
            let texts: Option<Vec<&str>> = items
                .iter()
                .map(|item| match &item.value {
                    Value::Str(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            Some(Cow::<str>::Owned(texts?.join(" "))).filter(|text| !text.is_empty())
        }
        _ => None,
    }
}

/// Whether `allowed-tools` is in the list form and a chosen host reads
/// that form (Claude Code): the specification's one-string rule is then
/// the host's to check instead.
pub(crate) fn tools_list_read(fm: &Frontmatter, hosts: Hosts) -> bool {
    hosts.contains(Host::ClaudeCode)
        && fm
            .get("allowed-tools")
            .is_some_and(|entry| matches!(entry.value.value, Value::Seq(_)))
}

/// Whether `when_to_use` is text that a chosen host reads as text (Claude
/// Code): agentskills-core's list rule (the extensions) is then not asked
/// of it.
pub(crate) fn when_to_use_text_read(fm: &Frontmatter, hosts: Hosts) -> bool {
    hosts.contains(Host::ClaudeCode)
        && fm
            .get("when_to_use")
            .is_some_and(|entry| matches!(entry.value.value, Value::Str(_)))
}

/// Checks the host fields of `doc` under `hosts`: every field a chosen
/// host reads is type-checked; with several hosts, a note per field names
/// the chosen hosts that do not read it. `extensions`: agentskills-core's
/// extension fields are on, and their rules take the keys they share
/// (`version`, a `when_to_use` list).
pub(crate) fn check(doc: &SkillDocument, hosts: Hosts, extensions: bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    if hosts.is_empty() {
        return problems;
    }
    for entry in doc.frontmatter.entries() {
        let Some(field) = field(&entry.key) else {
            continue;
        };
        let chosen: Vec<Host> = field
            .readers
            .iter()
            .copied()
            .filter(|host| hosts.contains(*host))
            .collect();
        if chosen.is_empty() {
            continue;
        }
        let by_extension = extensions
            && match entry.key.as_str() {
                "version" => true,
                "when_to_use" => matches!(entry.value.value, Value::Seq(_)),
                _ => false,
            };
        // The specification's `allowed-tools` as one string is its rules'.
        let by_specification =
            entry.key == "allowed-tools" && matches!(entry.value.value, Value::Str(_));
        if !by_extension {
            let mut check = Check::new(doc, entry, &chosen, &mut problems);
            match field.kind {
                _ if by_specification => check.tool_names_of_text(),
                Kind::Text => check.text(),
                Kind::Line => check.line(),
                Kind::Bool => check.boolean(),
                Kind::OneOf(words) => check.one_of(words),
                Kind::Model => check.model(),
                Kind::Arguments => check.arguments(),
                Kind::ToolRules => check.tool_rules(),
                Kind::Globs => check.globs(),
                Kind::Hooks => check.hooks(),
            }
        }
        if let Some(note) = unread_note(entry, field, hosts) {
            problems.push(note);
        }
    }
    problems
}

/// With several hosts: the note naming the chosen hosts that do not read
/// a field another chosen host reads (for `allowed-tools`, its list form).
fn unread_note(entry: &Entry, field: &Field, hosts: Hosts) -> Option<Problem> {
    let readers: Vec<Host> = hosts
        .iter()
        .filter(|host| field.readers.contains(host))
        .collect();
    let others: Vec<Host> = hosts
        .iter()
        .filter(|host| !field.readers.contains(host))
        .collect();
    if others.is_empty() {
        return None;
    }
    let by = |warns: bool| -> Vec<Host> {
        others
            .iter()
            .copied()
            .filter(|host| host.warns_on_unread() == warns)
            .collect()
    };
    let (ignored, warned) = (by(false), by(true));
    let key = &entry.key;
    let message = if key == "allowed-tools" {
        if !matches!(entry.value.value, Value::Seq(_)) {
            return None;
        }
        format!(
            "allowed-tools is a list, {}'s form; the specification, which {} {}, writes one space-separated string",
            names(readers),
            names(others.iter().copied()),
            if others.len() == 1 {
                "follows"
            } else {
                "follow"
            }
        )
    } else {
        let mut says = Vec::new();
        if !ignored.is_empty() {
            says.push(format!(
                "{} {} it",
                names(ignored.iter().copied()),
                if ignored.len() == 1 {
                    "ignores"
                } else {
                    "ignore"
                }
            ));
        }
        if !warned.is_empty() {
            says.push(format!(
                "{} {} on it",
                names(warned.iter().copied()),
                if warned.len() == 1 { "warns" } else { "warn" }
            ));
        }
        format!("{key} is read by {}; {}", names(readers), says.join("; "))
    };
    Some(
        Problem::new(Code::HostFieldIgnored, message)
            .with_field(key.clone())
            .at(SkillDocument::position(entry.key_mark)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_name_their_readers() {
        assert_eq!(field("model").unwrap().readers, [Host::ClaudeCode]);
        assert!(
            field("user-invokable")
                .unwrap()
                .readers
                .contains(&Host::Vscode)
        );
        assert!(field("name").is_none()); // the specification's own
    }

    #[test]
    fn the_list_form_of_allowed_tools_reads_as_one_string() {
        let doc = crate::frontmatter::parse_text(
            "---\nallowed-tools:\n  - Bash(git add *)\n  - Read\n---\n",
        )
        .unwrap();
        assert_eq!(
            allowed_tools_text(&doc.frontmatter).as_deref(),
            Some("Bash(git add *) Read")
        );
    }

    #[test]
    fn every_key_is_listed_once_and_read_by_a_host() {
        let mut keys = std::collections::BTreeSet::new();
        for field in FIELDS {
            assert!(keys.insert(field.key), "{} twice", field.key);
            assert!(!field.readers.is_empty(), "{}", field.key);
        }
    }

    #[test]
    fn a_note_names_the_hosts_that_do_not_read_a_field() {
        let doc = crate::frontmatter::parse_text(
            "---\nname: x\ndescription: y\nmodel: sonnet\nargument-hint: '[n]'\n---\n",
        )
        .unwrap();
        let hosts: Hosts = [Host::ClaudeCode, Host::Vscode, Host::Codex]
            .into_iter()
            .collect();
        let notes: Vec<String> = check(&doc, hosts, false)
            .into_iter()
            .map(|p| p.message)
            .collect();
        assert_eq!(
            notes,
            [
                "model is read by Claude Code; Codex ignores it; VS Code warns on it",
                "argument-hint is read by Claude Code and VS Code; Codex ignores it",
            ]
        );
    }
}
