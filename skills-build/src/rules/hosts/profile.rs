//! The host profiles and sets of them: which coding agents a project
//! targets.

use std::fmt;
use std::str::FromStr;

use skills_core::text::difflib::close_matches;

use crate::printable::capped;

/// A coding-agent host with a profile of the SKILL.md fields it reads.
///
/// ```
/// use skills_build::Host;
/// let host: Host = "claude-code".parse().unwrap();
/// assert_eq!((host, host.name()), (Host::ClaudeCode, "Claude Code"));
/// assert_eq!(Host::Vscode.id(), "vscode");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Host {
    /// Anthropic's Claude Code (`claude-code`).
    ClaudeCode,
    /// OpenAI's Codex (`codex`): the spec's fields, and a sidecar file.
    Codex,
    /// VS Code with GitHub Copilot (`vscode`).
    Vscode,
    /// Google's Gemini CLI (`gemini`): `name` and `description` only.
    Gemini,
    /// OpenCode (`opencode`): the specification's fields only.
    Opencode,
    /// Cursor (`cursor`): `disable-model-invocation`.
    Cursor,
}

impl Host {
    /// Every host, in the order the documentation lists them.
    pub const ALL: [Host; 6] = [
        Host::ClaudeCode,
        Host::Codex,
        Host::Vscode,
        Host::Gemini,
        Host::Opencode,
        Host::Cursor,
    ];

    /// The host's profile row: what it is called, what it warns on, its
    /// budgets and its sidecar (see [`Profile`]).
    pub(crate) fn profile(self) -> &'static Profile {
        &PROFILES[self as usize]
    }

    /// The profile's id, as `hosts = [...]` and `--host` take it.
    pub fn id(self) -> &'static str {
        self.profile().id
    }

    /// The host's name, for people.
    pub fn name(self) -> &'static str {
        self.profile().name
    }

    /// Whether the host warns about a frontmatter key it does not read
    /// (VS Code's editor does); the others drop such keys silently.
    ///
    /// ```
    /// use skills_build::Host;
    /// assert!(Host::Vscode.warns_on_unread() && !Host::Codex.warns_on_unread());
    /// ```
    pub fn warns_on_unread(self) -> bool {
        self.profile().warns_on_unread
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One host's profile row: every fact about a host that the rules read
/// beyond the fields it documents (which are `fields`' table). The facts,
/// with their sources, are in `docs/hosts.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The id, as `hosts = [...]` and `--host` take it.
    pub(crate) id: &'static str,
    /// The name, for people.
    pub(crate) name: &'static str,
    /// Whether it warns about a frontmatter key it does not read.
    pub(crate) warns_on_unread: bool,
    /// The characters of one skill's listing entry (description and
    /// `when_to_use`) it shows before cutting, when it caps them.
    pub(crate) entry_budget: Option<usize>,
    /// The characters of the whole catalog's listing it shows before
    /// shortening, when it has such a budget.
    pub(crate) catalog_budget: Option<usize>,
    /// The file beside `SKILL.md` it reads, when it reads one.
    pub(crate) sidecar: Option<&'static str>,
}

/// Claude Code's cap on one skill's listing entry (description and
/// `when_to_use`), in characters.
pub const CLAUDE_CODE_ENTRY_CHARS: usize = 1_536;

/// Codex's skills-list budget when it does not know the model's context
/// window, in characters.
pub const CODEX_CATALOG_CHARS: usize = 8_000;

/// Where the sidecar sits in a skill folder.
pub const SIDECAR: &str = "agents/openai.yaml";

/// The rows, in [`Host::ALL`]'s order.
const PROFILES: [Profile; 6] = [
    Profile {
        id: "claude-code",
        name: "Claude Code",
        warns_on_unread: false,
        entry_budget: Some(CLAUDE_CODE_ENTRY_CHARS),
        catalog_budget: None,
        sidecar: None,
    },
    Profile {
        id: "codex",
        name: "Codex",
        warns_on_unread: false,
        entry_budget: None,
        catalog_budget: Some(CODEX_CATALOG_CHARS),
        sidecar: Some(SIDECAR),
    },
    Profile {
        id: "vscode",
        name: "VS Code",
        warns_on_unread: true,
        entry_budget: None,
        catalog_budget: None,
        sidecar: None,
    },
    Profile {
        id: "gemini",
        name: "Gemini CLI",
        warns_on_unread: false,
        entry_budget: None,
        catalog_budget: None,
        sidecar: None,
    },
    Profile {
        id: "opencode",
        name: "OpenCode",
        warns_on_unread: false,
        entry_budget: None,
        catalog_budget: None,
        sidecar: None,
    },
    Profile {
        id: "cursor",
        name: "Cursor",
        warns_on_unread: false,
        entry_budget: None,
        catalog_budget: None,
        sidecar: None,
    },
];

/// A host id that names no profile.
///
/// ```
/// let error = "claud-code".parse::<skills_build::Host>().unwrap_err();
/// assert_eq!(error.to_string(), "unknown host `claud-code`: did you mean `claude-code`? The hosts are claude-code, codex, vscode, gemini, opencode, cursor");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownHost {
    /// The id as given.
    pub given: String,
}

impl fmt::Display for UnknownHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown host `{}`", capped(&self.given))?;
        let ids = Host::ALL.map(Host::id);
        match close_matches(&self.given, ids, 1).first() {
            Some(near) => write!(f, ": did you mean `{near}`? The hosts are ")?,
            None => f.write_str("; the hosts are ")?,
        }
        f.write_str(&ids.join(", "))
    }
}

impl std::error::Error for UnknownHost {}

impl FromStr for Host {
    type Err = UnknownHost;

    fn from_str(id: &str) -> Result<Host, UnknownHost> {
        Host::ALL
            .into_iter()
            .find(|host| host.id() == id)
            .ok_or_else(|| UnknownHost {
                given: id.to_string(),
            })
    }
}

/// A set of hosts: the profiles a project targets. Empty is the default,
/// the reference's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hosts(u8);

impl Hosts {
    /// Whether no host is chosen.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `host` is chosen.
    pub fn contains(self, host: Host) -> bool {
        self.0 & host.bit() != 0
    }

    /// Chooses `host` too.
    pub fn insert(&mut self, host: Host) {
        self.0 |= host.bit();
    }

    /// The chosen hosts, in [`Host::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Host> {
        Host::ALL
            .into_iter()
            .filter(move |host| self.contains(*host))
    }
}

impl FromIterator<Host> for Hosts {
    fn from_iter<I: IntoIterator<Item = Host>>(iter: I) -> Self {
        let mut hosts = Hosts::default();
        for host in iter {
            hosts.insert(host);
        }
        hosts
    }
}

impl fmt::Display for Hosts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<&str> = self.iter().map(Host::id).collect();
        f.write_str(&ids.join(", "))
    }
}

/// Host names joined for a sentence: `A`, `A and B`, `A, B and C`.
pub(crate) fn names(hosts: impl IntoIterator<Item = Host>) -> String {
    let names: Vec<&str> = hosts.into_iter().map(Host::name).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_lists_its_hosts_in_order() {
        let mut hosts = Hosts::default();
        assert!(hosts.is_empty());
        hosts.insert(Host::Cursor);
        hosts.insert(Host::ClaudeCode);
        assert_eq!(
            hosts.iter().collect::<Vec<_>>(),
            [Host::ClaudeCode, Host::Cursor]
        );
        assert_eq!(hosts.to_string(), "claude-code, cursor");
    }

    #[test]
    fn ids_round_trip_and_are_listed_once() {
        for (at, host) in Host::ALL.into_iter().enumerate() {
            assert_eq!(host as usize, at, "Host::ALL and PROFILES share one order");
            assert_eq!(host.id().parse::<Host>(), Ok(host));
        }
        let all: Hosts = Host::ALL.into_iter().collect();
        assert_eq!(all.iter().count(), 6);
        assert_eq!(all.iter().collect::<Vec<_>>(), Host::ALL);
    }

    #[test]
    fn each_host_is_one_row() {
        let row = Host::Vscode.profile();
        assert_eq!(
            (row.id, row.name, row.warns_on_unread),
            ("vscode", "VS Code", true)
        );
        assert_eq!(Host::Codex.profile().sidecar, Some("agents/openai.yaml"));
        assert_eq!(Host::ClaudeCode.profile().entry_budget, Some(1_536));
        assert_eq!(Host::Codex.profile().catalog_budget, Some(8_000));
        let sidecars = Host::ALL
            .iter()
            .filter(|host| host.profile().sidecar.is_some());
        assert_eq!(sidecars.count(), 1);
    }

    #[test]
    fn an_unknown_id_without_a_near_one_lists_them() {
        let error = "zzz".parse::<Host>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown host `zzz`; the hosts are claude-code, codex, vscode, gemini, opencode, cursor"
        );
    }

    #[test]
    fn names_read_as_a_sentence() {
        assert_eq!(names([Host::Codex]), "Codex");
        assert_eq!(names([Host::Codex, Host::Gemini]), "Codex and Gemini CLI");
        assert_eq!(
            names([Host::Codex, Host::Gemini, Host::Vscode]),
            "Codex, Gemini CLI and VS Code"
        );
    }
}
