//! The `<available_skills>` prompt block, in the reference `to-prompt` shape.
//!
//! One renderer serves both sides: `skills-build` calls it to precompute a
//! bundle's default prompt and the `skills to-prompt` command prints it, so
//! the two cannot drift apart.

use alloc::string::String;

/// One skill as the prompt lists it.
///
/// ```
/// use skills_core::prompt::{PromptEntry, render_available_skills};
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

/// Appends `text` to `out` with `& < > " '` escaped the way Python's
/// `html.escape(text, quote=True)` does.
///
/// ```
/// let mut out = String::new();
/// skills_core::prompt::escape_html_into("a<b & 'c'", &mut out);
/// assert_eq!(out, "a&lt;b &amp; &#x27;c&#x27;");
/// ```
pub fn escape_html_into(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#x27;",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// Renders the `<available_skills>` block, without a trailing newline.
///
/// Each value sits on a line of its own between its tags; an empty list
/// gives `<available_skills>\n</available_skills>`.
///
/// ```
/// use skills_core::prompt::render_available_skills;
/// assert_eq!(render_available_skills([]), "<available_skills>\n</available_skills>");
/// ```
pub fn render_available_skills<'a>(entries: impl IntoIterator<Item = PromptEntry<'a>>) -> String {
    let mut out = String::from("<available_skills>\n");
    for entry in entries {
        out.push_str("<skill>\n<name>\n");
        escape_html_into(entry.name, &mut out);
        out.push_str("\n</name>\n<description>\n");
        escape_html_into(entry.description, &mut out);
        out.push_str("\n</description>\n<location>\n");
        out.push_str(entry.location);
        out.push_str("\n</location>\n</skill>\n");
    }
    out.push_str("</available_skills>");
    out
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
