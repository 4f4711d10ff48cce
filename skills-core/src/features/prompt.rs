//! The `<available_skills>` prompt block, in the reference `to-prompt` shape,
//! for a list of names, descriptions and locations (the `skills to-prompt`
//! command's input).
//!
//! There is one renderer of the block: [`crate::features::render`]'s
//! [`Format::SkillsRef`](crate::features::render::Format::SkillsRef), its default.
//! [`render_available_skills`] hands it these entries; a catalog renders
//! its default prompt with it from the bundle's skills (the compiler does
//! not store the prompt; see [`crate::wire::bundle::Bundle::prompt`]).

use alloc::string::String;

/// One skill as the prompt lists it.
///
/// ```
/// use skills_core::features::prompt::{PromptEntry, render_available_skills};
/// let pdf = PromptEntry { name: "pdf", description: "Fill <forms>.", location: "skill://pdf/SKILL.md" };
/// let text = render_available_skills([pdf]);
/// assert!(text.contains("<description>\nFill &lt;forms&gt;.\n</description>"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptEntry<'a> {
    /// The listed name, printed HTML-escaped.
    pub name: &'a str,
    /// The description, printed HTML-escaped; inner newlines are kept.
    pub description: &'a str,
    /// Where the model is told the skill lives, printed as is (not escaped).
    pub location: &'a str,
}

pub use crate::features::render::escape_html_into;

/// Renders the `<available_skills>` block, without a trailing newline.
///
/// Each value sits on a line of its own between its tags; an empty list
/// gives `<available_skills>\n</available_skills>`.
///
/// ```
/// use skills_core::features::prompt::render_available_skills;
/// assert_eq!(render_available_skills([]), "<available_skills>\n</available_skills>");
/// ```
pub fn render_available_skills<'a>(entries: impl IntoIterator<Item = PromptEntry<'a>>) -> String {
    use crate::features::render::{Entry, RenderOptions, render_catalog};
    let entries: alloc::vec::Vec<Entry<'a>> = entries
        .into_iter()
        .map(|entry| Entry {
            id: entry.name,
            name: entry.name,
            description: entry.description,
            location: entry.location,
            ..Entry::default()
        })
        .collect();
    // Default options select nothing away and set no budget: no error.
    render_catalog(&entries, &RenderOptions::default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_special_character_once() {
        let mut out = String::new();
        escape_html_into("&amp; <b>\"x\"</b> 'y'", &mut out);
        assert_eq!(
            out,
            "&amp;amp; &lt;b&gt;&quot;x&quot;&lt;/b&gt; &#x27;y&#x27;"
        );
    }

    #[test]
    fn renders_each_value_on_its_own_line() {
        let text = render_available_skills([PromptEntry {
            name: "a&b",
            description: "line one\nline two",
            location: "/x/<raw>/SKILL.md",
        }]);
        assert_eq!(
            text,
            "<available_skills>\n<skill>\n<name>\na&amp;b\n</name>\n<description>\nline one\nline two\n</description>\n<location>\n/x/<raw>/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
    }
}
