//! A description that says what a skill does but not when to use it. The
//! description is all a model sees of a skill before it picks one, so the
//! situations that call for it are what makes it trigger.

use super::{Findings, Skill};
use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Problem};

/// Words and phrases that name a situation, as whole words,
/// case-insensitively.
const TRIGGERS: [&str; 33] = [
    "when", "whenever", "if", "use for", "use it", "use this", "use to", "use with", "use on",
    "use in", "use after", "use before", "used for", "used to", "used when", "for use",
    "trigger", "triggers", "triggered", "ask", "asks", "asked", "request", "requests",
    "requested", "wants", "need", "needs", "needed", "before", "after", "during", "while",
];

/// Whether `text` holds one of the [`TRIGGERS`] as whole words.
fn names_a_situation(text: &str) -> bool {
    let lower = text.to_lowercase();
    TRIGGERS.iter().any(|trigger| {
        lower.match_indices(trigger).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + trigger.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// The description, when it names no situation to use the skill in.
pub(super) fn when(skill: &Skill<'_>, document: &SkillDocument, findings: &mut Findings<'_>) {
    if !findings.wants(Code::DescriptionWithoutWhen) {
        return;
    }
    let (Some(entry), Some(text)) = (
        document.frontmatter.get("description"),
        document.frontmatter.text("description"),
    ) else {
        return;
    };
    if text.trim().is_empty() || names_a_situation(text) {
        return;
    }
    findings.push(
        Problem::new(
            Code::DescriptionWithoutWhen,
            "the description says what the skill does, not when to use it: a model picks skills by their descriptions",
        )
        .with_field("description")
        .with_hint("add the situations it is for, such as \"Use when the user asks to fill in a PDF form.\""),
        skill.file_location.to_string(),
        Some(SkillDocument::position(entry.value.mark)),
    );
}

#[cfg(test)]
mod tests {
    use super::names_a_situation;

    #[test]
    fn situations() {
        assert!(names_a_situation("Fill PDF forms. Use when the user asks to fill a form."));
        assert!(names_a_situation("Rebase branches; use this before a merge."));
        assert!(names_a_situation("Applies brand colours whenever a slide is made"));
        assert!(!names_a_situation("Fill PDF forms."));
        // A word that holds a trigger is not one.
        assert!(!names_a_situation("Wheneverland tools for iffy diffs."));
    }
}
