//! The catalog renderer: the skills list for a system prompt, in the
//! reference `to-prompt` shape (the default, and what a bundle's
//! precomputed prompt is) or in agentskills-core's XML and Markdown
//! shapes, narrowed by filters and fitted to a character budget.
//!
//! The order of operations is agentskills-core's
//! (`SkillRegistry.get_skills_catalog`):
//!
//! 1. `include` keeps only the named skills; a name that is not in the
//!    catalog is an error ([`RenderError::NotRegistered`]);
//! 2. `exclude` drops the named skills (unknown names are ignored; it wins
//!    over `include`);
//! 3. `tags` keeps the skills carrying at least one of the tags, compared
//!    after stripping and case folding; an empty list keeps none;
//! 4. `max_chars` drops whole entries from the end until the text fits,
//!    counting code points, and says so (`truncated`, `shown`, `total` on
//!    the root element, or a closing Markdown note); when even an empty
//!    catalog does not fit, [`RenderError::TooSmall`].
//!
//! `total` reports the size of a set the caller narrowed itself (it is
//! never less than the number of entries); when it is larger than what is
//! shown the catalog says it is truncated.
//!
//! The XML and Markdown shapes list skills sorted by id, as
//! agentskills-core's registry does; the reference shape keeps the order
//! it is given (a bundle's catalog order), so that with default options it
//! is byte for byte the bundle's precomputed prompt and the reference
//! `to-prompt` output.
//!
//! ```
//! use skills_core::features::render::{render_catalog, Entry, Format, RenderOptions};
//! let entries = [
//!     Entry { id: "pdf", name: "pdf", description: "Fill in PDF forms and extract their fields.", ..Entry::default() },
//!     Entry { id: "git", name: "git", description: "Rebase.", location: "skill://git/SKILL.md", ..Entry::default() },
//! ];
//! let options = RenderOptions { format: Format::Markdown, max_chars: Some(100), ..RenderOptions::default() };
//! assert_eq!(
//!     render_catalog(&entries, &options).unwrap(),
//!     "# Available Skills\n\n## git\n- **Description**: Rebase.\n\n_Catalog truncated: showing 1 of 2 skills._"
//! );
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::text::pytext::{char_len, strip};
use crate::wire::bundle::Skill;
use crate::wire::derived::normalize_tag;

/// A catalog shape.
///
/// ```
/// use skills_core::features::render::Format;
/// assert_eq!("markdown".parse::<Format>(), Ok(Format::Markdown));
/// assert_eq!(Format::default(), Format::SkillsRef);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// The reference `to-prompt` shape: `<available_skills>` with each
    /// value on a line of its own, HTML-escaped, and each skill's location.
    #[default]
    SkillsRef,
    /// agentskills-core's XML shape: indented elements, XML text escaping,
    /// no locations.
    Xml,
    /// agentskills-core's Markdown shape.
    Markdown,
}

impl Format {
    /// The name the CLI and [`core::str::FromStr`] use.
    ///
    /// ```
    /// assert_eq!(skills_core::features::render::Format::Xml.as_str(), "xml");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::SkillsRef => "skills-ref",
            Format::Xml => "xml",
            Format::Markdown => "markdown",
        }
    }
}

impl core::str::FromStr for Format {
    type Err = RenderError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "skills-ref" => Ok(Format::SkillsRef),
            "xml" => Ok(Format::Xml),
            "markdown" => Ok(Format::Markdown),
            other => Err(RenderError::UnsupportedFormat(other.into())),
        }
    }
}

/// Appends `text` to `out` with `& < > " '` escaped the way Python's
/// `html.escape(text, quote=True)` does.
///
/// ```
/// let mut out = String::new();
/// skills_core::features::render::escape_html_into("a<b & 'c'", &mut out);
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

/// One skill as the catalog sees it.
///
/// ```
/// use skills_core::features::render::Entry;
/// let entry = Entry { id: "pdf", name: "pdf", description: "Forms.", tags: &["pdf"], ..Entry::default() };
/// assert!(entry.version.is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Entry<'a> {
    /// What `include` and `exclude` match, and what the XML and Markdown
    /// shapes sort by: the registered id (in a bundle, the listed name).
    pub id: &'a str,
    /// The name shown.
    pub name: &'a str,
    /// The description shown.
    pub description: &'a str,
    /// Where the skill lives; only the reference shape prints it.
    pub location: &'a str,
    /// The `version` extension field, shown when non-empty.
    pub version: Option<&'a str>,
    /// The `when_to_use` extension field; blank cases are not shown.
    pub when_to_use: &'a [&'a str],
    /// The `when_not_to_use` extension field; blank cases are not shown.
    pub when_not_to_use: &'a [&'a str],
    /// The skill's tags, already stripped and case-folded (see
    /// [`normalize_tag`]).
    pub tags: &'a [&'a str],
}

impl<'a> Entry<'a> {
    /// The entry of a bundle's skill: its listed name as id and name.
    ///
    /// ```
    /// use skills_core::{features::render::Entry, wire::bundle::Skill};
    /// let skill = Skill { name: "pdf", description: "Forms.", ..Skill::default() };
    /// assert_eq!(Entry::of(&skill).id, "pdf");
    /// ```
    pub fn of(skill: &'a Skill<'a>) -> Self {
        Entry {
            id: skill.name,
            name: skill.name,
            description: skill.description,
            location: skill.location,
            version: skill.version,
            when_to_use: &skill.when_to_use,
            when_not_to_use: &skill.when_not_to_use,
            tags: &skill.tags,
        }
    }
}

/// What to render and how.
///
/// ```
/// use skills_core::features::render::{Format, RenderOptions};
/// let options = RenderOptions { format: Format::Xml, tags: Some(&["pdf"]), ..RenderOptions::default() };
/// assert!(options.selection_hints);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions<'o> {
    /// The shape.
    pub format: Format,
    /// Keep only these ids; an id not in the catalog is an error.
    pub include: Option<&'o [&'o str]>,
    /// Drop these ids; wins over `include`.
    pub exclude: Option<&'o [&'o str]>,
    /// Keep only skills with at least one of these tags.
    pub tags: Option<&'o [&'o str]>,
    /// The most code points the text may have.
    pub max_chars: Option<usize>,
    /// Show `when_to_use` and `when_not_to_use` (default `true`).
    pub selection_hints: bool,
    /// The size of the set the entries were chosen from, when the caller
    /// narrowed it; at least the number of entries after filtering.
    pub total: Option<usize>,
}

impl Default for RenderOptions<'_> {
    fn default() -> Self {
        RenderOptions {
            format: Format::SkillsRef,
            include: None,
            exclude: None,
            tags: None,
            max_chars: None,
            selection_hints: true,
            total: None,
        }
    }
}

/// Why a catalog could not be rendered, in agentskills-core's words.
///
/// ```
/// use skills_core::features::render::RenderError;
/// let error = RenderError::TooSmall { max_chars: 10, needed: 57 };
/// assert_eq!(error.to_string(), "max_chars=10 cannot hold the smallest possible catalog, which needs 57 characters.");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RenderError {
    /// `include` named ids the catalog does not have (sorted).
    NotRegistered(Vec<String>),
    /// Not even the empty catalog, with its note, fits `max_chars`.
    TooSmall {
        /// The budget.
        max_chars: usize,
        /// The length of the smallest catalog.
        needed: usize,
    },
    /// A format name that is not one of `skills-ref`, `xml`, `markdown`.
    UnsupportedFormat(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::NotRegistered(names) => {
                f.write_str("include names skills that are not registered: ")?;
                for (at, name) in names.iter().enumerate() {
                    if at > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(name)?;
                }
                Ok(())
            }
            RenderError::TooSmall { max_chars, needed } => write!(
                f,
                "max_chars={max_chars} cannot hold the smallest possible catalog, which needs {needed} characters."
            ),
            RenderError::UnsupportedFormat(name) => write!(
                f,
                "Unsupported format '{name}'; expected 'skills-ref', 'xml' or 'markdown'."
            ),
        }
    }
}

impl core::error::Error for RenderError {}

/// The entries left after `include`, `exclude` and `tags`, in render
/// order (sorted by id for the XML and Markdown shapes).
///
/// ```
/// use skills_core::features::render::{select, Entry, Format, RenderOptions};
/// let entries = [Entry { id: "b", ..Entry::default() }, Entry { id: "a", ..Entry::default() }];
/// let xml = RenderOptions { format: Format::Xml, exclude: Some(&["b"]), ..RenderOptions::default() };
/// assert_eq!(select(&entries, &xml).unwrap().len(), 1);
/// ```
pub fn select<'e, 'a>(
    entries: &'e [Entry<'a>],
    options: &RenderOptions<'_>,
) -> Result<Vec<&'e Entry<'a>>, RenderError> {
    if let Some(include) = options.include {
        let mut missing: Vec<String> = include
            .iter()
            .filter(|id| !entries.iter().any(|entry| entry.id == **id))
            .map(|id| String::from(*id))
            .collect();
        if !missing.is_empty() {
            missing.sort_unstable();
            missing.dedup();
            return Err(RenderError::NotRegistered(missing));
        }
    }
    let wanted: Option<Vec<alloc::borrow::Cow<'_, str>>> = options
        .tags
        .map(|tags| tags.iter().filter_map(|tag| normalize_tag(tag)).collect());
    let mut kept: Vec<&Entry<'a>> = entries
        .iter()
        .filter(|entry| options.include.is_none_or(|ids| ids.contains(&entry.id)))
        .filter(|entry| options.exclude.is_none_or(|ids| !ids.contains(&entry.id)))
        .filter(|entry| {
            wanted.as_ref().is_none_or(|wanted| {
                entry
                    .tags
                    .iter()
                    .any(|tag| wanted.iter().any(|want| want == tag))
            })
        })
        .collect();
    if options.format != Format::SkillsRef {
        kept.sort_by(|a, b| a.id.cmp(b.id));
    }
    Ok(kept)
}

/// Renders the catalog of `entries` (see the [module documentation](self)).
///
/// ```
/// use skills_core::features::render::{render_catalog, Entry, Format, RenderOptions};
/// let xml = RenderOptions { format: Format::Xml, ..RenderOptions::default() };
/// assert_eq!(render_catalog(&[], &xml).unwrap(), "<available_skills />");
/// ```
pub fn render_catalog(
    entries: &[Entry<'_>],
    options: &RenderOptions<'_>,
) -> Result<String, RenderError> {
    let kept = select(entries, options)?;
    fit(&kept, options)
}

/// The entries' texts rendered once, with where each one ends.
struct Rendered {
    text: String,
    /// `(byte end, code points so far)` after each entry.
    ends: Vec<(usize, usize)>,
}

fn fit(entries: &[&Entry<'_>], options: &RenderOptions<'_>) -> Result<String, RenderError> {
    let total = options.total.unwrap_or(0).max(entries.len());
    let mut body = Rendered {
        text: String::new(),
        ends: Vec::with_capacity(entries.len() + 1),
    };
    body.ends.push((0, 0));
    let mut chars = 0;
    for entry in entries {
        // Past the budget, no further entry can be shown: the frame only
        // grows the text.
        if options.max_chars.is_some_and(|max| chars > max) {
            break;
        }
        let start = body.text.len();
        write_entry(&mut body.text, entry, options);
        chars += char_len(body.text.get(start..).unwrap_or_default());
        body.ends.push((body.text.len(), chars));
    }
    let mut shown = body.ends.len() - 1;
    loop {
        let (end, body_chars) = body.ends.get(shown).copied().unwrap_or_default();
        let frame = Frame::new(options.format, shown, total);
        let len = frame.chars() + body_chars;
        if options.max_chars.is_none_or(|max| len <= max) {
            return Ok(frame.wrap(body.text.get(..end).unwrap_or_default()));
        }
        if shown == 0 {
            return Err(RenderError::TooSmall {
                max_chars: options.max_chars.unwrap_or(0),
                needed: len,
            });
        }
        shown -= 1;
    }
}

/// What surrounds the entries: the root element or heading, and the note.
struct Frame {
    head: String,
    tail: String,
}

impl Frame {
    fn new(format: Format, shown: usize, total: usize) -> Self {
        let truncated = shown < total;
        let mut head = String::new();
        let mut tail = String::new();
        match format {
            Format::SkillsRef => {
                head.push_str("<available_skills");
                if truncated {
                    let _ = write!(
                        head,
                        " truncated=\"true\" shown=\"{shown}\" total=\"{total}\""
                    );
                }
                head.push_str(">\n");
                tail.push_str("</available_skills>");
            }
            Format::Xml => {
                head.push_str("<available_skills");
                if truncated {
                    let _ = write!(
                        head,
                        " truncated=\"true\" shown=\"{shown}\" total=\"{total}\""
                    );
                }
                if shown == 0 {
                    head.push_str(" />");
                } else {
                    head.push('>');
                    tail.push_str("\n</available_skills>");
                }
            }
            Format::Markdown => {
                if shown == 0 {
                    head.push_str("No skills are currently available.");
                    if truncated {
                        let _ = write!(
                            head,
                            "\n\n_Catalog truncated: showing 0 of {total} skills._"
                        );
                    }
                } else {
                    head.push_str("# Available Skills\n");
                    if truncated {
                        let _ = write!(
                            tail,
                            "\n_Catalog truncated: showing {shown} of {total} skills._"
                        );
                    }
                }
            }
        }
        Frame { head, tail }
    }

    fn chars(&self) -> usize {
        char_len(&self.head) + char_len(&self.tail)
    }

    fn wrap(self, body: &str) -> String {
        let mut out = String::with_capacity(self.head.len() + body.len() + self.tail.len());
        out.push_str(&self.head);
        out.push_str(body);
        out.push_str(&self.tail);
        out
    }
}

/// The selection cases shown: non-blank ones, and none without hints.
fn cases<'c>(
    cases: &'c [&'c str],
    options: &RenderOptions<'_>,
) -> impl Iterator<Item = &'c str> + Clone {
    let hints = options.selection_hints;
    cases
        .iter()
        .copied()
        .filter(move |case| hints && !strip(case).is_empty())
}

const SELECTION: [(&str, &str); 2] = [
    ("when_to_use", "When to use"),
    ("when_not_to_use", "When not to use"),
];

fn write_entry(out: &mut String, entry: &Entry<'_>, options: &RenderOptions<'_>) {
    let version = entry.version.filter(|version| !version.is_empty());
    let selection = [
        cases(entry.when_to_use, options),
        cases(entry.when_not_to_use, options),
    ];
    match options.format {
        Format::SkillsRef => {
            out.push_str("<skill>\n<name>\n");
            escape_html_into(entry.name, out);
            out.push_str("\n</name>\n<description>\n");
            escape_html_into(entry.description, out);
            out.push_str("\n</description>\n<location>\n");
            out.push_str(entry.location);
            out.push_str("\n</location>\n");
            if let Some(version) = version {
                out.push_str("<version>\n");
                escape_html_into(version, out);
                out.push_str("\n</version>\n");
            }
            for ((tag, _), cases) in SELECTION.iter().zip(selection) {
                let mut cases = cases.peekable();
                if cases.peek().is_none() {
                    continue;
                }
                let _ = writeln!(out, "<{tag}>");
                for case in cases {
                    out.push_str("<case>\n");
                    escape_html_into(case, out);
                    out.push_str("\n</case>\n");
                }
                let _ = writeln!(out, "</{tag}>");
            }
            out.push_str("</skill>\n");
        }
        Format::Xml => {
            out.push_str("\n  <skill>");
            xml_element(out, "    ", "name", entry.name);
            xml_element(out, "    ", "description", entry.description);
            if let Some(version) = version {
                xml_element(out, "    ", "version", version);
            }
            for ((tag, _), cases) in SELECTION.iter().zip(selection) {
                let mut cases = cases.peekable();
                if cases.peek().is_none() {
                    continue;
                }
                let _ = write!(out, "\n    <{tag}>");
                for case in cases {
                    xml_element(out, "      ", "case", case);
                }
                let _ = write!(out, "\n    </{tag}>");
            }
            out.push_str("\n  </skill>");
        }
        Format::Markdown => {
            let _ = write!(
                out,
                "\n## {}\n- **Description**: {}",
                entry.name, entry.description
            );
            if let Some(version) = version {
                let _ = write!(out, "\n- **Version**: {version}");
            }
            for ((_, label), cases) in SELECTION.iter().zip(selection) {
                let mut cases = cases.peekable();
                if cases.peek().is_none() {
                    continue;
                }
                let _ = write!(out, "\n- **{label}**:");
                for case in cases {
                    let _ = write!(out, "\n  - {case}");
                }
            }
            out.push('\n');
        }
    }
}

/// `<tag>text</tag>` on a new line at `indent`, or `<tag />` for empty text,
/// as ElementTree writes it.
fn xml_element(out: &mut String, indent: &str, tag: &str, text: &str) {
    out.push('\n');
    out.push_str(indent);
    if text.is_empty() {
        let _ = write!(out, "<{tag} />");
        return;
    }
    let _ = write!(out, "<{tag}>");
    escape_xml_text_into(text, out);
    let _ = write!(out, "</{tag}>");
}

/// Appends `text` escaped as ElementTree escapes element text: `&`, `<`
/// and `>` only.
///
/// ```
/// let mut out = String::new();
/// skills_core::features::render::escape_xml_text_into("a<b & \"c\"", &mut out);
/// assert_eq!(out, "a&lt;b &amp; \"c\"");
/// ```
pub fn escape_xml_text_into(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(at) = rest.find(['&', '<', '>']) {
        out.push_str(rest.get(..at).unwrap_or_default());
        out.push_str(match rest.as_bytes().get(at) {
            Some(b'&') => "&amp;",
            Some(b'<') => "&lt;",
            _ => "&gt;",
        });
        rest = rest.get(at + 1..).unwrap_or_default();
    }
    out.push_str(rest);
}

#[cfg(feature = "catalog")]
impl crate::serve::catalog::Catalog<'_> {
    /// The text listing the skills for the system prompt, by default the
    /// `<available_skills>` block (no trailing newline): the text the
    /// bundle stores, or, when it stores none (the compiler's default),
    /// the skills rendered with [`RenderOptions::default`](RenderOptions)
    /// on the first call and kept.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(catalog.prompt().ends_with("</available_skills>"));
    /// ```
    pub fn prompt(&self) -> &str {
        match self.stored_prompt() {
            Some(text) => text,
            None => self.rendered_prompt().get_or_init(|| {
                alloc::boxed::Box::new(self.render(&RenderOptions::default()).unwrap_or_default())
            }),
        }
    }

    /// Renders this catalog's skills (see the [module documentation](self)).
    /// With default options this is [`prompt`](crate::Catalog::prompt)
    /// for a compiled bundle.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// use skills_core::features::render::{Format, RenderOptions};
    /// assert_eq!(catalog.render(&RenderOptions::default()).unwrap(), catalog.prompt());
    /// let markdown = RenderOptions { format: Format::Markdown, exclude: Some(&["pdf"]), ..RenderOptions::default() };
    /// assert_eq!(
    ///     catalog.render(&markdown).unwrap(),
    ///     "# Available Skills\n\n## git-rebase\n- **Description**: Rebase safely.\n"
    /// );
    /// ```
    pub fn render(&self, options: &RenderOptions<'_>) -> Result<String, RenderError> {
        // From each skill's summary (the front of its encoding): a listing
        // decodes no instructions or files. A skill that does not decode
        // is left out, as `skills()` leaves it out.
        let summaries: Vec<(&str, crate::wire::codec::Summary<'_>)> = (0..self.len())
            .filter_map(|at| Some((self.name_at(at), self.summary_at(at)?)))
            .collect();
        let entries: Vec<Entry<'_>> = summaries
            .iter()
            .map(|(name, summary)| Entry {
                id: name,
                name,
                description: summary.description,
                location: summary.location,
                version: summary.version,
                when_to_use: &summary.when_to_use,
                when_not_to_use: &summary.when_not_to_use,
                tags: &summary.tags,
            })
            .collect();
        render_catalog(&entries, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skills_ref_default_is_the_reference_prompt() {
        let entry = Entry {
            id: "a",
            name: "a&b",
            description: "line one\nline two",
            location: "/x/<raw>/SKILL.md",
            ..Entry::default()
        };
        assert_eq!(
            render_catalog(&[entry], &RenderOptions::default()).unwrap(),
            "<available_skills>\n<skill>\n<name>\na&amp;b\n</name>\n<description>\nline one\nline two\n</description>\n<location>\n/x/<raw>/SKILL.md\n</location>\n</skill>\n</available_skills>"
        );
        assert_eq!(
            render_catalog(&[], &RenderOptions::default()).unwrap(),
            "<available_skills>\n</available_skills>"
        );
    }

    #[test]
    fn too_small_reports_the_empty_catalog_length() {
        let entry = Entry {
            id: "a",
            name: "a",
            description: "d",
            ..Entry::default()
        };
        let options = RenderOptions {
            format: Format::Xml,
            max_chars: Some(10),
            total: Some(2),
            ..RenderOptions::default()
        };
        assert_eq!(
            render_catalog(&[entry], &options),
            Err(RenderError::TooSmall {
                max_chars: 10,
                needed: 57
            })
        );
    }
}
