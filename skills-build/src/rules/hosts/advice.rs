//! The help line of the unknown-key problem: which host reads a key, or
//! which known key a near miss meant.
//!
//! The problem itself keeps the reference's wording (`Unexpected fields in
//! frontmatter: ...`); only its help line changes, and only for keys a
//! host documents or (under a profile) near misses:
//!
//! - without a profile, a key a host documents names the host and how to
//!   choose it, instead of the advice to move the key under `metadata:`
//!   (which would hide it from the host that reads it at the top level);
//! - under a profile, a near miss of a known key gets "did you mean", and
//!   Claude Code's `user-invocable` and VS Code's `user-invokable` say
//!   whose spelling is whose;
//! - any other key keeps the advice to put custom fields under
//!   `metadata:`.
//!

use std::collections::BTreeMap;

use skills_core::text::difflib::close_matches;

use super::fields::{FIELDS, field};
use super::{Host, Hosts};

/// The advice for a key no rule knows.
pub const METADATA_ADVICE: &str = "put custom fields under `metadata:`";

/// The most pieces of advice one help line gives.
const MAX_PARTS: usize = 4;

/// Keys two hosts spell differently for the same setting: (Claude Code's,
/// VS Code's).
const SPELLINGS: [(&str, Host, &str, Host); 1] = [(
    "user-invocable",
    Host::ClaudeCode,
    "user-invokable",
    Host::Vscode,
)];

/// The help line for the `unknown` keys (in the order the message names
/// them), given the keys `known` under the chosen `hosts`.
pub fn unknown_keys_hint(unknown: &[&str], known: &[&str], hosts: Hosts) -> String {
    let mut parts = Vec::new();
    let mut by_host: BTreeMap<Host, Vec<&str>> = BTreeMap::new();
    let mut rest = 0;
    for key in unknown {
        if let Some(spelling) = spelling(key, hosts) {
            parts.push(spelling);
        } else if let Some(host) = reader(key, hosts) {
            by_host.entry(host).or_default().push(key);
        } else if let Some(near) = near_miss(key, known, hosts) {
            parts.push(near);
        } else {
            rest += 1;
        }
    }
    for (host, keys) in by_host {
        let (list, noun) = match keys.as_slice() {
            [one] => (one.to_string(), "a"),
            [head @ .., last] => (format!("{} and {last}", head.join(", ")), ""),
            [] => continue,
        };
        let fields = if noun.is_empty() {
            format!("are {} fields", host.name())
        } else {
            format!("is a {} field", host.name())
        };
        parts.push(format!(
            "{list} {fields}: add hosts = [\"{id}\"] (--host {id})",
            id = host.id()
        ));
    }
    // The keys are the skill's: a frontmatter of many near misses gets a
    // help line of a few.
    if parts.len() > MAX_PARTS {
        let more = parts.len() - MAX_PARTS;
        parts.truncate(MAX_PARTS);
        parts.push(format!("{more} more like these"));
    }
    if rest > 0 {
        parts.push(match parts.is_empty() {
            true => METADATA_ADVICE.to_string(),
            false => "put other custom fields under `metadata:`".to_string(),
        });
    }
    parts.join("; ")
}

/// A key spelled as the other host spells it.
fn spelling(key: &str, hosts: Hosts) -> Option<String> {
    for (claude, claude_host, vscode, vscode_host) in SPELLINGS {
        let (meant, by, theirs, other) = match key {
            k if k == vscode && hosts.contains(claude_host) => {
                (claude, claude_host, "with a k", vscode_host)
            }
            k if k == claude && hosts.contains(vscode_host) => {
                (vscode, vscode_host, "with a c", claude_host)
            }
            _ => continue,
        };
        return Some(format!(
            "did you mean `{meant}`, as {} spells it? `{key}`, {theirs}, is {}'s spelling (hosts = [\"{}\"])",
            by.name(),
            other.name(),
            other.id()
        ));
    }
    None
}

/// "did you mean" for a near miss: under a profile, of any known key;
/// without one, of a host's documented field (naming the host).
fn near_miss(key: &str, known: &[&str], hosts: Hosts) -> Option<String> {
    if !hosts.is_empty() {
        let near = close_matches(key, known.iter().copied(), 1);
        return near.first().map(|near| format!("did you mean `{near}`?"));
    }
    let documented = FIELDS
        .iter()
        .filter(|field| field.documented)
        .map(|field| field.key);
    let near = *close_matches(key, documented, 1).first()?;
    // A near miss of a key only the spec's own rules read is the
    // reference's business.
    let host = field(near)?.readers.first()?;
    Some(format!(
        "did you mean `{near}`, a {} field? add hosts = [\"{id}\"] (--host {id})",
        host.name(),
        id = host.id()
    ))
}

/// The first host (in [`Host::ALL`]'s order) not chosen that documents
/// `key` as a field of its own.
fn reader(key: &str, hosts: Hosts) -> Option<Host> {
    let field = field(key).filter(|field| field.documented)?;
    field
        .readers
        .iter()
        .copied()
        .filter(|host| !hosts.contains(*host))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(host: Host) -> Hosts {
        [host].into_iter().collect()
    }

    #[test]
    fn one_host_field_or_none() {
        assert_eq!(
            unknown_keys_hint(&["disable-model-invocation"], &[], Hosts::default()),
            "disable-model-invocation is a Claude Code field: add hosts = [\"claude-code\"] (--host claude-code)"
        );
        assert_eq!(
            unknown_keys_hint(&["owner"], &[], Hosts::default()),
            METADATA_ADVICE
        );
    }

    #[test]
    fn many_near_misses_give_a_short_line() {
        let keys: Vec<String> = (0..1000).map(|n| format!("efort{n}")).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let hint = unknown_keys_hint(&keys, &["effort"], one(Host::ClaudeCode));
        assert!(hint.ends_with("; 996 more like these"), "{hint}");
    }

    #[test]
    fn the_issue_skill_names_claude_code() {
        assert_eq!(
            unknown_keys_hint(
                &["argument-hint", "disable-model-invocation", "model"],
                &[],
                Hosts::default()
            ),
            "argument-hint, disable-model-invocation and model are Claude Code fields: add hosts = [\"claude-code\"] (--host claude-code)"
        );
    }

    #[test]
    fn spellings_name_both_hosts() {
        assert_eq!(
            unknown_keys_hint(&["user-invokable"], &[], one(Host::ClaudeCode)),
            "did you mean `user-invocable`, as Claude Code spells it? `user-invokable`, with a k, is VS Code's spelling (hosts = [\"vscode\"])"
        );
        assert_eq!(
            unknown_keys_hint(&["user-invocable"], &[], one(Host::Vscode)),
            "did you mean `user-invokable`, as VS Code spells it? `user-invocable`, with a c, is Claude Code's spelling (hosts = [\"claude-code\"])"
        );
    }

    #[test]
    fn near_misses_and_the_rest() {
        let known = ["description", "effort", "model", "name"];
        assert_eq!(
            unknown_keys_hint(&["efort", "owner"], &known, one(Host::ClaudeCode)),
            "did you mean `effort`?; put other custom fields under `metadata:`"
        );
        // Without a profile, only host fields are suggested.
        assert_eq!(
            unknown_keys_hint(&["Name"], &known, Hosts::default()),
            METADATA_ADVICE
        );
        assert_eq!(
            unknown_keys_hint(&["disable-model-invokation"], &[], Hosts::default()),
            "did you mean `disable-model-invocation`, a Claude Code field? add hosts = [\"claude-code\"] (--host claude-code)"
        );
        // An undocumented field is never suggested.
        assert_eq!(
            unknown_keys_hint(&["background"], &[], Hosts::default()),
            METADATA_ADVICE
        );
        // Under another profile, a Claude Code key names Claude Code.
        assert_eq!(
            unknown_keys_hint(&["model"], &["name"], one(Host::Codex)),
            "model is a Claude Code field: add hosts = [\"claude-code\"] (--host claude-code)"
        );
    }
}
