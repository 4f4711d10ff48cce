//! A description that says what a skill does but not when to use it, or
//! that is still `skills new`'s placeholder. The description is all a
//! model sees of a skill before it picks one, so the situations that call
//! for it are what makes it trigger.

use super::findings::Findings;
use super::skill::Skill;
use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Problem};

/// Words that name a situation, alone.
const TRIGGER_WORDS: [&str; 23] = [
    "when",
    "whenever",
    "if",
    "trigger",
    "triggers",
    "triggered",
    "ask",
    "asks",
    "asked",
    "request",
    "requests",
    "requested",
    "wants",
    "need",
    "needs",
    "needed",
    "before",
    "after",
    "during",
    "while",
    "upon",
    "unless",
    "once",
];

/// Words that name a situation after "use" or "used" ("use for", "used
/// when"), and "for use".
const AFTER_USE: [&str; 10] = [
    "for", "to", "with", "this", "it", "on", "in", "after", "before", "when",
];

/// Whether `text` holds one of the trigger words or phrases, as whole
/// words, case-insensitively: one pass over its words.
fn names_a_situation(text: &str) -> bool {
    let mut previous = "";
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let is = |wanted: &str| word.eq_ignore_ascii_case(wanted);
        let was = |wanted: &str| previous.eq_ignore_ascii_case(wanted);
        if TRIGGER_WORDS.iter().any(|trigger| is(trigger))
            || ((was("use") || was("used")) && AFTER_USE.iter().any(|after| is(after)))
            || (was("for") && is("use"))
        {
            return true;
        }
        previous = word;
    }
    false
}

/// The sentence `skills new` writes in a new skill's description for the
/// author to replace: while the description holds it, the skill fails the
/// gate ([`Code::DescriptionPlaceholder`], an error).
pub const PLACEHOLDER: &str = "Replace this with one or two sentences";

/// The description's finding, if any: still [`PLACEHOLDER`] (an error),
/// or naming no situation to use the skill in (a note).
pub(super) fn check(skill: &Skill<'_>, document: &SkillDocument, findings: &mut Findings<'_>) {
    let (Some(entry), Some(text)) = (
        document.frontmatter.get("description"),
        document.frontmatter.text("description"),
    ) else {
        return;
    };
    let found = if text.contains(PLACEHOLDER) {
        Some((
            Code::DescriptionPlaceholder,
            "the description is still the placeholder `skills new` wrote",
            "replace it with what the skill does and when to use it, such as \"Fills PDF forms from a JSON file. Use when the user asks to fill in a PDF form.\"",
        ))
    } else if !text.trim().is_empty() && !names_a_situation(text) {
        Some((
            Code::DescriptionWithoutWhen,
            "the description says what the skill does, not when to use it: a model picks skills by their descriptions",
            "",
        ))
    } else {
        None
    };
    let Some((code, message, hint)) = found.filter(|(code, ..)| findings.wants(*code)) else {
        return;
    };
    let hint = match code {
        Code::DescriptionWithoutWhen => when_hint(document.frontmatter.text("name")),
        _ => hint.to_string(),
    };
    findings.push(
        Problem::new(code, message)
            .with_field("description")
            .with_hint(hint),
        skill.file_location.to_string(),
        Some(SkillDocument::position(entry.value.mark)),
    );
}

/// The help of [`Code::DescriptionWithoutWhen`]: a sentence to start
/// from, made of the skill's own name when it is a valid one (`pdf-forms`
/// gives "Use when the user asks about pdf forms, ..."), so that each
/// skill's help speaks of that skill.
fn when_hint(name: Option<&str>) -> String {
    let words = name
        .filter(|name| crate::skill_name::flaws(name).is_empty())
        .map(|name| name.replace('-', " "));
    match words {
        Some(words) => format!(
            "add the situations it is for, in the words a user would use, such as \"Use when the user asks about {words}, or ...\""
        ),
        None => "add the situations it is for, in the words a user would use: \"Use when the user asks to ...\"".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{names_a_situation, when_hint};

    #[test]
    fn the_hint_speaks_of_the_skill() {
        assert_eq!(
            when_hint(Some("pdf-forms")),
            "add the situations it is for, in the words a user would use, such as \"Use when the user asks about pdf forms, or ...\""
        );
        assert!(!when_hint(Some("PDF Forms")).contains("PDF"));
        assert!(!when_hint(None).contains("pdf"));
    }

    #[test]
    fn situations() {
        assert!(names_a_situation(
            "Fill PDF forms. Use when the user asks to fill a form."
        ));
        assert!(names_a_situation(
            "Rebase branches; use this before a merge."
        ));
        assert!(names_a_situation(
            "Applies brand colours whenever a slide is made"
        ));
        assert!(!names_a_situation("Fill PDF forms."));
        // A word that holds a trigger is not one.
        assert!(!names_a_situation("Wheneverland tools for iffy diffs."));
    }
}
