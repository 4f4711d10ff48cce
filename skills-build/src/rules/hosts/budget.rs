//! Listing budgets: how much of a skill, and of the catalog, a host puts
//! in the model's prompt before it starts cutting.
//!
//! - Claude Code shows each skill as its `description` and `when_to_use`,
//!   cut at [`CLAUDE_CODE_ENTRY_CHARS`](super::profile::CLAUDE_CODE_ENTRY_CHARS) characters per skill: past it, a
//!   warning ([`Code::ListingEntryTooLong`]) located at the description.
//! - Codex lists every skill as `- name: description (file: path)` within
//!   about 2 % of the context window, [`CODEX_CATALOG_CHARS`] characters
//!   when it does not know the window; past it, it shortens descriptions,
//!   then leaves skills out. The catalog past the budget is a warning
//!   ([`Code::ListingBudgetExceeded`]) naming the longest entries. Where a
//!   skill will be installed is not known at build time, so the file paths
//!   Codex appends are not counted: the real listing is longer.
//!
//! Both are warnings: allowable (`allow`) like every warning.

use skills_pycompat::yaml::Value;

pub use super::profile::CODEX_CATALOG_CHARS;

use super::Hosts;
use crate::diagnostic::thousands;
use crate::frontmatter::SkillDocument;
use crate::printable::capped;
use crate::problem::{Code, Problem};

/// How many of the longest entries the catalog warning names.
const LONGEST_SHOWN: usize = 3;

/// Under `claude-code`: the warning for a skill whose description and
/// `when_to_use` pass the per-entry cap.
pub(crate) fn entry(doc: &SkillDocument, hosts: Hosts) -> Option<Problem> {
    let cap = hosts.iter().find_map(|host| host.profile().entry_budget)?;
    let fm = &doc.frontmatter;
    let description = fm.get("description")?;
    let Value::Str(text) = &description.value.value else {
        return None;
    };
    let described = text.chars().count();
    let when = match fm.get("when_to_use").map(|entry| &entry.value.value) {
        Some(Value::Str(text)) => text.chars().count(),
        // The extensions' list form, shown one case after another.
        Some(Value::Seq(items)) => items
            .iter()
            .filter_map(|item| match &item.value {
                Value::Str(text) => Some(text.chars().count() + 1),
                _ => None,
            })
            .sum(),
        _ => 0,
    };
    let total = described + when;
    (total > cap).then(|| {
        Problem::new(
            Code::ListingEntryTooLong,
            format!(
                "the listing entry is {} characters (description {} + when_to_use {}), over the {} Claude Code shows per skill",
                thousands(total),
                thousands(described),
                thousands(when),
                thousands(cap)
            ),
        )
        .with_field("description")
        .at(SkillDocument::position(description.value.mark))
        .with_hint("Claude Code cuts the rest from the listing the model chooses skills by: shorten the description or when_to_use")
    })
}

/// The Codex listing of a catalog, added up skill by skill.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    on: bool,
    chars: usize,
    skills: usize,
    /// The longest entries: (characters, name), longest first.
    longest: Vec<(usize, String)>,
}

impl Catalog {
    /// A tally for `hosts`: empty unless `codex` is chosen.
    pub(crate) fn new(hosts: Hosts) -> Self {
        Catalog {
            on: hosts
                .iter()
                .any(|host| host.profile().catalog_budget.is_some()),
            ..Catalog::default()
        }
    }

    /// Adds one listed skill.
    pub(crate) fn add(&mut self, name: &str, description: &str) {
        if !self.on {
            return;
        }
        // `- name: description` and the line break after it.
        let chars = 2 + name.chars().count() + 2 + description.chars().count() + 1;
        self.chars += chars;
        self.skills += 1;
        let at = self.longest.partition_point(|(longer, _)| *longer >= chars);
        if at < LONGEST_SHOWN {
            self.longest.insert(at, (chars, name.to_string()));
            self.longest.truncate(LONGEST_SHOWN);
        }
    }

    /// The warning, when the catalog passes Codex's budget.
    pub(crate) fn finish(self) -> Option<Problem> {
        if self.chars <= CODEX_CATALOG_CHARS {
            return None;
        }
        let longest: Vec<String> = self
            .longest
            .iter()
            .map(|(chars, name)| format!("{} ({})", capped(name), thousands(*chars)))
            .collect();
        Some(
            Problem::new(
                Code::ListingBudgetExceeded,
                format!(
                    "the Codex skills list is {} characters for {} skills (name and description; the file paths Codex adds are not counted), over the {} Codex allows when it does not know the context window",
                    thousands(self.chars),
                    thousands(self.skills),
                    thousands(CODEX_CATALOG_CHARS)
                ),
            )
            .with_hint(format!(
                "past it Codex shortens descriptions, then leaves skills out; the longest entries: {}",
                longest.join(", ")
            )),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::hosts::Host;

    #[test]
    fn the_catalog_names_its_longest_entries() {
        let codex: Hosts = [Host::Codex].into_iter().collect();
        let mut catalog = Catalog::new(codex);
        for (name, size) in [("a", 3000), ("b", 100), ("c", 2500), ("d", 2600)] {
            catalog.add(name, &"x".repeat(size));
        }
        let problem = catalog.finish().unwrap();
        assert_eq!(
            problem.message,
            "the Codex skills list is 8,224 characters for 4 skills (name and description; the file paths Codex adds are not counted), over the 8,000 Codex allows when it does not know the context window"
        );
        assert!(
            problem
                .hint
                .unwrap()
                .ends_with("a (3,006), d (2,606), c (2,506)"),
        );
        let mut small = Catalog::new(codex);
        small.add("a", "short");
        assert!(small.finish().is_none());
        let mut off = Catalog::new(Hosts::default());
        off.add("a", &"x".repeat(9000));
        assert!(off.finish().is_none());
    }
}
