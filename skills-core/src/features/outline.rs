//! Outlines and sections: a skill's body split at its headings, with token
//! estimates, the way agentskills-core's `split_sections` computes them.
//!
//! The outline is derived from the body when it is asked for
//! ([`Outline::of`], [`crate::wire::bundle::Skill::outline`]), not stored in the
//! bundle: for a small skill its sections' keys, titles and ranges cost a
//! sixth of the skill's bytes, and splitting a body takes microseconds.
//! The build (`skills-build`'s `sections` module, the CLI's catalog) and
//! the runtime use this one split.
//!
//! The rules: a heading is a line of 1 to 6 `#` at the very start, then
//! spaces or tabs, then a title (a closing run of `#` is not part of it);
//! a line inside a fenced code block (three or more backticks or tildes,
//! closed by any fence line of the same character) is never a heading;
//! the text before the first heading is the `preamble` section if it is
//! not blank; a section runs from its heading line to the line before the
//! next heading of any level. Keys are the titles case-folded with every
//! run of characters other than `a-z0-9` turned into `-` (`section` when
//! nothing is left), and a repeated key gets `-2`, `-3`, ...

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::text::pytext;

/// Below this many estimated tokens, reading the whole body is cheaper than
/// an outline and a section fetch (agentskills-core's
/// `WHOLE_BODY_CHEAPER_TOKENS`).
///
/// ```
/// use skills_core::features::outline::{Outline, WHOLE_BODY_CHEAPER_TOKENS};
/// // Under the threshold a host serves the body, not an outline.
/// let short = Outline { total_tokens: WHOLE_BODY_CHEAPER_TOKENS - 1, ..Default::default() };
/// assert!(short.whole_body_is_cheaper());
/// ```
pub const WHOLE_BODY_CHEAPER_TOKENS: u64 = 1000;

/// The title of the text before the first heading.
///
/// ```
/// assert_eq!(skills_core::features::outline::PREAMBLE_TITLE, "(before the first heading)");
/// ```
pub const PREAMBLE_TITLE: &str = "(before the first heading)";

/// The key of the text before the first heading.
///
/// ```
/// assert_eq!(skills_core::features::outline::PREAMBLE_KEY, "preamble");
/// ```
pub const PREAMBLE_KEY: &str = "preamble";

/// The estimated token cost of a section (see [`crate::text::estimate_tokens`]).
pub use crate::text::estimate_tokens;

/// A skill's outline as stored in the bundle.
///
/// The body it describes is agentskills-core's: the skill's body with
/// surrounding whitespace stripped, the byte range
/// [`body_start`](Self::body_start)..[`body_end`](Self::body_end) of
/// [`Skill::body`](crate::wire::bundle::Skill::body).
///
/// ```
/// use skills_core::features::outline::{Outline, Section};
/// let outline = Outline {
///     body_start: 0,
///     body_end: 9,
///     total_tokens: 3,
///     sections: vec![Section { key: "a".into(), title: "A", level: 1, tokens: 3, start: 0, end: 9, text: None }],
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
/// use skills_core::features::outline::Section;
/// let section = Section { key: "setup".into(), title: "Setup", level: 2, tokens: 3, start: 0, end: 9, text: None };
/// assert_eq!(section.text_in("## Setup\nrest"), "## Setup\n");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Section<'a> {
    /// The key to fetch it by: the title slugified, `preamble`, or
    /// `section` for a title of punctuation only, with `-2`, `-3`, ... on
    /// repeats.
    pub key: Cow<'a, str>,
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
    pub text: Option<String>,
}

impl<'a> Section<'a> {
    /// The section's text within `stripped_body` (empty if the stored
    /// range does not fit it).
    pub fn text_in(&self, stripped_body: &'a str) -> Cow<'a, str> {
        match &self.text {
            Some(text) => Cow::Owned(text.clone()),
            None => Cow::Borrowed(stripped_body.get(self.start..self.end).unwrap_or_default()),
        }
    }
}

impl<'a> Outline<'a> {
    /// The outline of a skill's `body` (everything after the frontmatter's
    /// closing line): agentskills-core's `split_sections` over the body
    /// stripped of surrounding whitespace.
    ///
    /// ```
    /// use skills_core::features::outline::Outline;
    /// let outline = Outline::of("Intro.\n\n# PDF\n\n## Setup\n\n```\n# not a heading\n```\n\n## Setup\n");
    /// let keys: Vec<&str> = outline.sections.iter().map(|s| &*s.key).collect();
    /// assert_eq!(keys, ["preamble", "pdf", "setup", "setup-2"]);
    /// ```
    pub fn of(body: &'a str) -> Outline<'a> {
        let stripped = pytext::strip(body);
        let start = stripped.as_ptr() as usize - body.as_ptr() as usize;
        Outline {
            body_start: start,
            body_end: start + stripped.len(),
            total_tokens: estimate_tokens(stripped),
            sections: split(stripped),
        }
    }

    /// Whether the whole body costs fewer than
    /// [`WHOLE_BODY_CHEAPER_TOKENS`], so an agent should read it rather
    /// than the outline.
    ///
    /// ```
    /// let outline = skills_core::features::outline::Outline { total_tokens: 1000, ..Default::default() };
    /// assert!(!outline.whole_body_is_cheaper());
    /// ```
    pub fn whole_body_is_cheaper(&self) -> bool {
        self.total_tokens < WHOLE_BODY_CHEAPER_TOKENS
    }

    /// The stripped body within the skill's `body`.
    ///
    /// ```
    /// let outline = skills_core::features::outline::Outline { body_start: 1, body_end: 3, ..Default::default() };
    /// assert_eq!(outline.stripped_body("\nhi\n"), "hi");
    /// ```
    pub fn stripped_body(&self, body: &'a str) -> &'a str {
        body.get(self.body_start..self.body_end).unwrap_or_default()
    }

    /// The outline as text for an agent, as agentskills-core's
    /// `SkillOutline.render` writes it, for the skill called `name`.
    ///
    /// ```
    /// let empty = skills_core::features::outline::Outline::default();
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
    /// use skills_core::features::outline::{Outline, Section};
    /// let outline = Outline {
    ///     body_end: 6,
    ///     sections: vec![Section { key: "a".into(), title: "A", level: 1, tokens: 2, start: 0, end: 6, text: None }],
    ///     ..Default::default()
    /// };
    /// assert_eq!(outline.section("s", "# A\nx\n", "a").unwrap(), "# A\nx\n");
    /// let error = outline.section("s", "# A\nx\n", "b").unwrap_err();
    /// assert_eq!(error.to_string(), "Skill 's' has no section 'b'; available keys: a");
    /// ```
    pub fn section(
        &self,
        name: &str,
        body: &'a str,
        key: &str,
    ) -> Result<Cow<'a, str>, SectionNotFound> {
        let stripped = self.stripped_body(body);
        match self.sections.iter().find(|section| section.key == key) {
            Some(section) => Ok(section.text_in(stripped)),
            None => Err(SectionNotFound {
                skill: name.into(),
                key: key.into(),
                available: self
                    .sections
                    .iter()
                    .map(|section| section.key.to_string())
                    .collect(),
            }),
        }
    }
}

/// A section key the skill does not have.
///
/// ```
/// let error = skills_core::features::outline::SectionNotFound { skill: "s".into(), key: "k".into(), available: vec![] };
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

/// A fence opener or closer: up to three spaces or tabs, then three or
/// more backticks or tildes. Returns the fence character.
fn fence(line: &str) -> Option<char> {
    let indent = line
        .bytes()
        .take(3)
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let rest = line.get(indent..)?;
    let c = rest.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    (rest.chars().take_while(|&d| d == c).count() >= 3).then_some(c)
}

/// A heading line's level and title.
fn heading(line: &str) -> Option<(u8, &str)> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let after = line.get(hashes..)?;
    let text = after.trim_start_matches([' ', '\t']);
    if text.len() == after.len() {
        return None;
    }
    let first = text.chars().next().filter(|&c| !pytext::is_space(c))?;
    // The shortest title such that the rest is blanks, hashes, blanks.
    let tail = text.trim_end_matches([' ', '\t']);
    let tail = tail.trim_end_matches('#');
    let tail = tail.trim_end_matches([' ', '\t']);
    let end = tail.len().max(first.len_utf8());
    Some((u8::try_from(hashes).unwrap_or(6), text.get(..end)?))
}

/// The key of a title: case-folded, every run of characters other than
/// `a-z0-9` one `-`, `section` when nothing is left.
fn slug(title: &str) -> Cow<'_, str> {
    let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    // Already a key (the usual preamble, or a lower-case title): borrowed.
    let mut parts = title.split('-');
    if !title.is_empty() && parts.all(|part| !part.is_empty() && part.chars().all(plain)) {
        return Cow::Borrowed(title);
    }
    let folded = pytext::casefold(title);
    let mut out = String::with_capacity(folded.len());
    let mut dash = false;
    for c in folded.chars() {
        if plain(c) {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else {
            dash = true;
        }
    }
    if out.is_empty() {
        Cow::Borrowed("section")
    } else {
        Cow::Owned(out)
    }
}

struct Pending<'b> {
    title: &'b str,
    level: u8,
    lines: Vec<(usize, &'b str)>,
}

/// A section found: title, level, range, text when not the slice, tokens.
type Found<'b> = (&'b str, u8, (usize, usize), Option<String>, u64);

/// agentskills-core's `split_sections` over a stripped body.
fn split(body: &str) -> Vec<Section<'_>> {
    let mut found: Vec<Found<'_>> = Vec::new();
    let mut pending = Pending {
        title: PREAMBLE_TITLE,
        level: 0,
        lines: Vec::new(),
    };
    fn flush<'b>(body: &'b str, pending: &Pending<'b>, found: &mut Vec<Found<'b>>) {
        let range = match (pending.lines.first(), pending.lines.last()) {
            (Some(&(start, _)), Some(&(last, line))) => (start, last + line.len()),
            _ => (0, 0),
        };
        let slice = body.get(range.0..range.1).unwrap_or_default();
        // The lines joined with `\n`: the slice itself unless a line ended
        // in another line break.
        let rejoined = pending.lines.windows(2).any(|pair| {
            let (at, line) = pair[0];
            body.as_bytes().get(at + line.len()) != Some(&b'\n') || at + line.len() + 1 != pair[1].0
        });
        let text = rejoined.then(|| {
            pending
                .lines
                .iter()
                .map(|(_, line)| *line)
                .collect::<Vec<_>>()
                .join("\n")
        });
        let joined = text.as_deref().unwrap_or(slice);
        if pytext::strip(joined).is_empty() && pending.level == 0 {
            return;
        }
        let tokens = estimate_tokens(joined);
        found.push((pending.title, pending.level, range, text, tokens));
    }
    let mut open_fence: Option<char> = None;
    for (offset, line) in pytext::lines(body) {
        let opener = fence(line);
        if let Some(c) = open_fence {
            if opener == Some(c) {
                open_fence = None;
            }
            pending.lines.push((offset, line));
            continue;
        }
        if opener.is_some() {
            open_fence = opener;
            pending.lines.push((offset, line));
            continue;
        }
        let Some((level, title)) = heading(line) else {
            pending.lines.push((offset, line));
            continue;
        };
        flush(body, &pending, &mut found);
        pending = Pending {
            title,
            level,
            lines: vec![(offset, line)],
        };
    }
    flush(body, &pending, &mut found);
    let mut seen: Vec<(Cow<'_, str>, usize)> = Vec::new();
    found
        .into_iter()
        .map(|(title, level, range, text, tokens)| {
            let base = slug(if level == 0 { PREAMBLE_KEY } else { title });
            let count = match seen.iter_mut().find(|(slug, _)| *slug == base) {
                Some((_, count)) => {
                    *count += 1;
                    *count
                }
                None => {
                    seen.push((base.clone(), 1));
                    1
                }
            };
            Section {
                key: if count == 1 {
                    base
                } else {
                    Cow::Owned(format!("{base}-{count}"))
                },
                title,
                level,
                tokens,
                start: range.0,
                end: range.1,
                text,
            }
        })
        .collect()
}

impl<'a> crate::wire::bundle::Skill<'a> {
    /// The body's sections and token estimates ([`Outline::of`]
    /// over [`body`](Self::body)), derived when asked for: the bundle does
    /// not store them.
    ///
    /// ```
    /// use skills_core::wire::bundle::Skill;
    /// let skill = Skill { body_len: 9, instructions: "# A\n\nGo.\n\nfiles: none\n", ..Skill::default() };
    /// assert_eq!(skill.outline().sections[0].key, "a");
    /// ```
    pub fn outline(&self) -> crate::features::outline::Outline<'a> {
        Outline::of(self.body())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_follow_the_regex() {
        assert_eq!(heading("## C#"), Some((2, "C")));
        assert_eq!(heading("### Deep Dive ###"), Some((3, "Deep Dive")));
        assert_eq!(heading("## #"), Some((2, "#")));
        assert_eq!(heading("## a # b  "), Some((2, "a # b")));
        assert_eq!(heading("####### seven"), None);
        assert_eq!(heading(" # indented"), None);
        assert_eq!(heading("#nospace"), None);
        assert_eq!(heading("##   "), None);
        assert_eq!(heading("#\t\u{a0}x"), None);
    }

    #[test]
    fn slugs_and_repeats() {
        assert_eq!(slug("Café Ünïcode"), "caf-n-code");
        assert_eq!(slug("!!!"), "section");
        assert_eq!(slug("a-b"), "a-b");
        assert_eq!(slug("a--b"), "a-b");
        assert_eq!(slug("-a"), "a");
        assert_eq!(slug("a-"), "a");
        let keys: Vec<String> = split("# A\n# A\n# a")
            .into_iter()
            .map(|s| s.key.into_owned())
            .collect();
        assert_eq!(keys, ["a", "a-2", "a-3"]);
    }

    #[test]
    fn fences_close_on_the_same_character() {
        let sections = split("````\n# x\n```bash\n# y\n~~~\n# z");
        let keys: Vec<&str> = sections.iter().map(|s| &*s.key).collect();
        assert_eq!(keys, ["preamble", "y"]);
    }

    #[test]
    fn other_line_ends_are_rejoined() {
        let sections = split("# A\u{2028}x\n# B");
        assert_eq!(sections[0].text.as_deref(), Some("# A\nx"));
        assert_eq!(sections[1].text, None);
        let crlf = split("# A\r\nx\r\n# B");
        assert_eq!(crlf[0].text.as_deref(), Some("# A\nx"));
    }
}
