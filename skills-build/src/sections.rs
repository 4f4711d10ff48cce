//! A skill body split into sections at build time, as agentskills-core's
//! `split_sections` splits it, so the runtime serves outlines and sections
//! without parsing Markdown.
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
//!
//! ```
//! use skills_build::sections::outline;
//! let built = outline("pdf", "Intro.\n\n# PDF\n\n## Setup\n\n```\n# not a heading\n```\n\n## Setup\n");
//! let keys: Vec<&str> = built.sections.iter().map(|s| s.key.as_str()).collect();
//! assert_eq!(keys, ["preamble", "pdf", "setup", "setup-2"]);
//! assert_eq!(built.borrow().section("pdf", built.body(), "setup-2").unwrap(), "## Setup");
//! ```

use skills_core::outline::{Outline, PREAMBLE_KEY, PREAMBLE_TITLE, Section, estimate_tokens};
use skills_core::pytext;

/// One section, owned (the bundle borrows it through [`BuiltOutline::borrow`]).
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
    body: String,
    /// The stripped body's byte range in the body given.
    pub body_range: (usize, usize),
    /// Estimated tokens of the stripped body.
    pub total_tokens: u64,
    /// The sections, in order.
    pub sections: Vec<BuiltSection>,
    /// The outline text for the skill.
    pub rendered: String,
}

impl BuiltOutline {
    /// The body the outline was built from.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// The outline as the bundle stores it, borrowing this one.
    pub fn borrow(&self) -> Outline<'_> {
        Outline {
            body_start: self.body_range.0,
            body_end: self.body_range.1,
            total_tokens: self.total_tokens,
            sections: self
                .sections
                .iter()
                .map(|section| Section {
                    key: &section.key,
                    title: &section.title,
                    level: section.level,
                    tokens: section.tokens,
                    start: section.range.0,
                    end: section.range.1,
                    text: section.text.as_deref(),
                })
                .collect(),
        }
    }
}

/// Builds the outline of the skill `name` whose body (everything after the
/// frontmatter's closing line) is `body`.
pub fn outline(name: &str, body: &str) -> BuiltOutline {
    let stripped = pytext::strip(body);
    let start = stripped.as_ptr() as usize - body.as_ptr() as usize;
    let sections = split(stripped);
    let mut built = BuiltOutline {
        body: body.to_string(),
        body_range: (start, start + stripped.len()),
        total_tokens: estimate_tokens(stripped),
        sections,
        rendered: String::new(),
    };
    built.rendered = built.borrow().render(name);
    built
}

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

fn slug(title: &str) -> String {
    let folded = pytext::casefold(title);
    let mut out = String::with_capacity(folded.len());
    let mut dash = false;
    for c in folded.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
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
        "section".to_string()
    } else {
        out
    }
}

struct Pending<'b> {
    title: &'b str,
    level: u8,
    lines: Vec<(usize, &'b str)>,
}

/// A section found: title, level, slice range, text when not the slice,
/// and the text as agentskills-core joins it.
type Found = (String, u8, (usize, usize), Option<String>, String);

/// agentskills-core's `split_sections` over a stripped body.
fn split(body: &str) -> Vec<BuiltSection> {
    let mut found: Vec<Found> = Vec::new();
    let mut pending = Pending {
        title: PREAMBLE_TITLE,
        level: 0,
        lines: Vec::new(),
    };
    let flush = |pending: &Pending<'_>, found: &mut Vec<Found>| {
        let joined: String = pending
            .lines
            .iter()
            .map(|(_, line)| *line)
            .collect::<Vec<_>>()
            .join("\n");
        if pytext::strip(&joined).is_empty() && pending.level == 0 {
            return;
        }
        let range = match (pending.lines.first(), pending.lines.last()) {
            (Some(&(start, _)), Some(&(last, line))) => (start, last + line.len()),
            _ => (0, 0),
        };
        let text = (body.get(range.0..range.1) != Some(joined.as_str())).then(|| joined.clone());
        found.push((
            pending.title.to_string(),
            pending.level,
            range,
            text,
            joined,
        ));
    };
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
        flush(&pending, &mut found);
        pending = Pending {
            title,
            level,
            lines: vec![(offset, line)],
        };
    }
    flush(&pending, &mut found);
    let mut seen: Vec<(String, usize)> = Vec::new();
    found
        .into_iter()
        .map(|(title, level, range, text, joined)| {
            let base = slug(if level == 0 { PREAMBLE_KEY } else { &title });
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
            BuiltSection {
                key: if count == 1 {
                    base
                } else {
                    format!("{base}-{count}")
                },
                title,
                level,
                tokens: estimate_tokens(&joined),
                range,
                text,
            }
        })
        .collect()
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
        let keys: Vec<String> = split("# A\n# A\n# a").into_iter().map(|s| s.key).collect();
        assert_eq!(keys, ["a", "a-2", "a-3"]);
    }

    #[test]
    fn fences_close_on_the_same_character() {
        let sections = split("````\n# x\n```bash\n# y\n~~~\n# z");
        let keys: Vec<&str> = sections.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["preamble", "y"]);
    }

    #[test]
    fn other_line_ends_are_rejoined() {
        let sections = split("# A\u{2028}x\n# B");
        assert_eq!(sections[0].text.as_deref(), Some("# A\nx"));
        assert_eq!(sections[1].text, None);
    }
}
