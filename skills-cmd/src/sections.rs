//! A skill body split into sections as agentskills-core's `split_sections`
//! splits it, owned: for the CLI's catalog of skills read from disk. The
//! split itself is `skills_core::features::outline::Outline::of`, the one the
//! runtime uses on an embedded skill's body (the bundle does not store
//! outlines), so the two cannot disagree.

use skills_core::features::outline::Outline;

/// One section, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltSection {
    /// The key.
    pub key: String,
    /// The title.
    pub title: String,
    /// The heading level, 0 for the preamble.
    pub level: u8,
    /// Estimated tokens of the text.
    pub tokens: u64,
    /// The text's byte range in the stripped body.
    pub range: (usize, usize),
    /// The text, when it is not exactly that slice.
    pub text: Option<String>,
}

/// A body's outline, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltOutline {
    /// The stripped body's byte range in the body given.
    pub body_range: (usize, usize),
    /// Estimated tokens of the stripped body.
    pub total_tokens: u64,
    /// The sections, in order.
    pub sections: Vec<BuiltSection>,
    /// The outline text for the skill.
    pub rendered: String,
}

/// Builds the outline of the skill `name` whose body (everything after the
/// frontmatter's closing line) is `body`.
pub fn outline(name: &str, body: &str) -> BuiltOutline {
    let split = Outline::of(body);
    BuiltOutline {
        body_range: (split.body_start, split.body_end),
        total_tokens: split.total_tokens,
        sections: split
            .sections
            .iter()
            .map(|section| BuiltSection {
                key: section.key.to_string(),
                title: section.title.to_string(),
                level: section.level,
                tokens: section.tokens,
                range: (section.start, section.end),
                text: section.text.clone(),
            })
            .collect(),
        rendered: split.render(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_owned_outline_is_the_split() {
        let body = "# A\u{2028}x\n# B\n";
        let built = outline("s", body);
        let split = Outline::of(body);
        assert_eq!(built.body_range, (split.body_start, split.body_end));
        assert_eq!(built.total_tokens, split.total_tokens);
        assert_eq!(built.sections.len(), split.sections.len());
        for (owned, section) in built.sections.iter().zip(&split.sections) {
            assert_eq!(
                (owned.key.as_str(), owned.title.as_str()),
                (&*section.key, section.title)
            );
            assert_eq!((owned.level, owned.tokens), (section.level, section.tokens));
            assert_eq!(owned.range, (section.start, section.end));
            assert_eq!(owned.text, section.text);
        }
        assert_eq!(built.sections[0].text.as_deref(), Some("# A\nx"));
        assert_eq!(built.rendered, split.render("s"));
    }

    #[test]
    fn sections_get_keys_and_fences_hide_headings() {
        let built = outline(
            "pdf",
            "Intro.\n\n# PDF\n\n## Setup\n\n```\n# not a heading\n```\n\n## Setup\n",
        );
        let keys: Vec<&str> = built.sections.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["preamble", "pdf", "setup", "setup-2"]);
    }
}
