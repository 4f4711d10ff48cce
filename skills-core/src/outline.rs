//! Outlines and sections: a skill's body split at its headings, with token
//! estimates, computed at build time the way agentskills-core computes
//! them and stored in the bundle, so a section is served as a slice.
//!
//! The split itself lives in `skills-build` (it runs once, at build
//! time); this module holds the stored shape, the outline text and the
//! lookup of a section by key, with agentskills-core's wording.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Below this many estimated tokens, reading the whole body is cheaper than
/// an outline and a section fetch (agentskills-core's
/// `WHOLE_BODY_CHEAPER_TOKENS`).
///
/// ```
/// assert_eq!(skills_core::outline::WHOLE_BODY_CHEAPER_TOKENS, 1000);
/// ```
pub const WHOLE_BODY_CHEAPER_TOKENS: u64 = 1000;

/// The title of the text before the first heading.
///
/// ```
/// assert_eq!(skills_core::outline::PREAMBLE_TITLE, "(before the first heading)");
/// ```
pub const PREAMBLE_TITLE: &str = "(before the first heading)";

/// The key of the text before the first heading.
///
/// ```
/// assert_eq!(skills_core::outline::PREAMBLE_KEY, "preamble");
/// ```
pub const PREAMBLE_KEY: &str = "preamble";

/// The estimated token cost of `text`: one token per four code points,
/// rounded up (agentskills-core's `estimate_tokens`).
///
/// ```
/// use skills_core::outline::estimate_tokens;
/// assert_eq!([estimate_tokens(""), estimate_tokens("a"), estimate_tokens("abcd"), estimate_tokens("abcde")], [0, 1, 1, 2]);
/// assert_eq!(estimate_tokens("é"), 1);
/// ```
pub fn estimate_tokens(text: &str) -> u64 {
    (crate::pytext::char_len(text) as u64).div_ceil(4)
}

/// A skill's outline as stored in the bundle.
///
/// The body it describes is agentskills-core's: the skill's body with
/// surrounding whitespace stripped, the byte range
/// [`body_start`](Self::body_start)..[`body_end`](Self::body_end) of
/// [`Skill::body`](crate::bundle::Skill::body).
///
/// ```
/// use skills_core::outline::{Outline, Section};
/// let outline = Outline {
///     body_start: 0,
///     body_end: 9,
///     total_tokens: 3,
///     sections: vec![Section { key: "a", title: "A", level: 1, tokens: 3, start: 0, end: 9, text: None }],
/// };
/// assert!(outline.whole_body_is_cheaper());
/// assert_eq!(outline.render("x"), "'x': ~3 tokens in 1 sections.\n\n- a (~3) — A\n\nCall get_skill_body instead: the whole body is only ~3 tokens, less than this outline plus a section fetch.");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outline<'a> {
    /// Where the stripped body starts in the skill's body, in bytes.
    pub body_start: usize,
    /// Where it ends.
    pub body_end: usize,
    /// [`estimate_tokens`] of the stripped body.
    pub total_tokens: u64,
    /// The sections in body order; empty for an empty body.
    pub sections: Vec<Section<'a>>,
}

/// One section: a heading and the text up to the next heading of any
/// level, or the text before the first heading.
///
/// ```
/// use skills_core::outline::Section;
/// let section = Section { key: "setup", title: "Setup", level: 2, tokens: 3, start: 0, end: 9, text: None };
/// assert_eq!(section.text_in("## Setup\nrest"), "## Setup\n");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Section<'a> {
    /// The key to fetch it by: the title slugified, `preamble`, or
    /// `section` for a title of punctuation only, with `-2`, `-3`, ... on
    /// repeats.
    pub key: &'a str,
    /// The heading's title, or [`PREAMBLE_TITLE`].
    pub title: &'a str,
    /// The number of `#`, or 0 for the preamble.
    pub level: u8,
    /// [`estimate_tokens`] of the section's text.
    pub tokens: u64,
    /// Where the section's text starts in the stripped body, in bytes.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
    /// The text, when it is not exactly the slice `start..end` (a body
    /// whose lines end in characters other than `\n`, which the split
    /// rejoins with `\n`).
    pub text: Option<&'a str>,
}

impl<'a> Section<'a> {
    /// The section's text within `stripped_body` (empty if the stored
    /// range does not fit it).
    pub fn text_in(&self, stripped_body: &'a str) -> &'a str {
        match self.text {
            Some(text) => text,
            None => stripped_body.get(self.start..self.end).unwrap_or_default(),
        }
    }
}

impl<'a> Outline<'a> {
    /// Whether the whole body costs fewer than
    /// [`WHOLE_BODY_CHEAPER_TOKENS`], so an agent should read it rather
    /// than the outline.
    ///
    /// ```
    /// let outline = skills_core::outline::Outline { total_tokens: 1000, ..Default::default() };
    /// assert!(!outline.whole_body_is_cheaper());
    /// ```
    pub fn whole_body_is_cheaper(&self) -> bool {
        self.total_tokens < WHOLE_BODY_CHEAPER_TOKENS
    }

    /// The stripped body within the skill's `body`.
    ///
    /// ```
    /// let outline = skills_core::outline::Outline { body_start: 1, body_end: 3, ..Default::default() };
    /// assert_eq!(outline.stripped_body("\nhi\n"), "hi");
    /// ```
    pub fn stripped_body(&self, body: &'a str) -> &'a str {
        body.get(self.body_start..self.body_end).unwrap_or_default()
    }

    /// The outline as text for an agent, as agentskills-core's
    /// `SkillOutline.render` writes it, for the skill called `name`.
    ///
    /// ```
    /// let empty = skills_core::outline::Outline::default();
    /// assert_eq!(empty.render("x"), "'x' has an empty body; there is nothing to fetch.");
    /// ```
    pub fn render(&self, name: &str) -> String {
        use core::fmt::Write;
        let mut out = String::new();
        if self.sections.is_empty() {
            let _ = write!(
                out,
                "'{name}' has an empty body; there is nothing to fetch."
            );
            return out;
        }
        let _ = write!(
            out,
            "'{name}': ~{} tokens in {} sections.\n\n",
            self.total_tokens,
            self.sections.len()
        );
        for section in &self.sections {
            for _ in 1..section.level.max(1) {
                out.push_str("  ");
            }
            let _ = writeln!(
                out,
                "- {} (~{}) — {}",
                section.key, section.tokens, section.title
            );
        }
        out.push('\n');
        if self.whole_body_is_cheaper() {
            let _ = write!(
                out,
                "Call get_skill_body instead: the whole body is only ~{} tokens, less than this outline plus a section fetch.",
                self.total_tokens
            );
        } else {
            let _ = write!(
                out,
                "Fetch one with get_skill_section using the key. Sections do not nest — a section covers only its own text, up to the next heading of any level, so fetching a parent does not include what is indented under it. Past about three sections, call get_skill_body instead (~{} tokens).",
                self.total_tokens
            );
        }
        out
    }

    /// The text of the section `key` of the skill `name` whose body is
    /// `body`, or agentskills-core's error naming the keys there are.
    ///
    /// ```
    /// use skills_core::outline::{Outline, Section};
    /// let outline = Outline {
    ///     body_end: 6,
    ///     sections: vec![Section { key: "a", title: "A", level: 1, tokens: 2, start: 0, end: 6, text: None }],
    ///     ..Default::default()
    /// };
    /// assert_eq!(outline.section("s", "# A\nx\n", "a"), Ok("# A\nx\n"));
    /// let error = outline.section("s", "# A\nx\n", "b").unwrap_err();
    /// assert_eq!(error.to_string(), "Skill 's' has no section 'b'; available keys: a");
    /// ```
    pub fn section(
        &self,
        name: &str,
        body: &'a str,
        key: &str,
    ) -> Result<&'a str, SectionNotFound> {
        let stripped = self.stripped_body(body);
        match self.sections.iter().find(|section| section.key == key) {
            Some(section) => Ok(section.text_in(stripped)),
            None => Err(SectionNotFound {
                skill: name.into(),
                key: key.into(),
                available: self
                    .sections
                    .iter()
                    .map(|section| String::from(section.key))
                    .collect(),
            }),
        }
    }
}

/// A section key the skill does not have.
///
/// ```
/// let error = skills_core::outline::SectionNotFound { skill: "s".into(), key: "k".into(), available: vec![] };
/// assert_eq!(error.to_string(), "Skill 's' has no section 'k'; available keys: none");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionNotFound {
    /// The skill.
    pub skill: String,
    /// The key asked for.
    pub key: String,
    /// The keys the skill has, in body order.
    pub available: Vec<String>,
}

impl fmt::Display for SectionNotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Skill '{}' has no section '{}'; available keys: ",
            self.skill, self.key
        )?;
        if self.available.is_empty() {
            return f.write_str("none");
        }
        for (at, key) in self.available.iter().enumerate() {
            if at > 0 {
                f.write_str(", ")?;
            }
            f.write_str(key)?;
        }
        Ok(())
    }
}

impl core::error::Error for SectionNotFound {}
