//! A parsed skill file: its frontmatter as strictyaml reads it, and its body.

use std::fmt;

use skills_core::encoding::json::{JsonWriter, Style};
use skills_core::encoding::yaml_core::write_scalar;
use skills_core::text::pytext;
use skills_pycompat::yaml::{self, Entry, Mark, Node, Value, YamlError};

use crate::problem::Position;
use crate::skill_file::{self, NotUtf8, SplitError};

/// The fields the reference validator allows at the top of a frontmatter.
pub const KNOWN_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// The top-level mapping of a frontmatter: keys in file order, every scalar
/// kept as the text it was written as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontmatter {
    entries: Vec<Entry>,
}

impl Frontmatter {
    /// Every top-level entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry for `key`, if present.
    ///
    /// ```
    /// let doc = skills_build::unstable::frontmatter::parse_text("---\nname: pdf\n---\n").unwrap();
    /// assert_eq!(doc.frontmatter.get("name").unwrap().value.value, skills_pycompat::yaml::Value::Str("pdf".into()));
    /// ```
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.key == key)
    }

    /// The text of `key` when it is present and a scalar.
    pub fn text(&self, key: &str) -> Option<&str> {
        match &self.get(key)?.value.value {
            Value::Str(text) => Some(text),
            _ => None,
        }
    }

    /// `metadata` as the reference hands it on: a mapping becomes pairs of
    /// `str(key)`, `str(value)` (nested values as Python reprs); anything
    /// else is returned as [`Metadata::Other`].
    pub fn metadata(&self) -> Option<Metadata<'_>> {
        let entry = self.get("metadata")?;
        Some(match &entry.value.value {
            Value::Map(entries) => Metadata::Map(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), e.value.value.python_str()))
                    .collect(),
            ),
            other => Metadata::Other(other),
        })
    }
}

/// The `metadata` field after the reference's coercion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Metadata<'a> {
    /// A mapping, every value turned into text, in file order.
    Map(Vec<(String, String)>),
    /// Text or a list, passed through unchanged.
    Other(&'a Value),
}

/// A skill file read the way the reference reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillDocument {
    /// The frontmatter mapping.
    pub frontmatter: Frontmatter,
    /// The exact text between the two `---` markers (after newline
    /// normalisation): what the frontmatter digest covers.
    pub frontmatter_text: String,
    /// Everything after the closing `---`, unchanged.
    pub rest: String,
}

impl SkillDocument {
    /// The body as the reference returns it: the text after the closing
    /// `---`, stripped of surrounding whitespace.
    pub fn body(&self) -> &str {
        pytext::strip(&self.rest)
    }

    /// The file position of a mark inside the frontmatter text.
    pub fn position(mark: Mark) -> Position {
        file_position(mark)
    }
}

/// Frontmatter marks count from the text after the opening `---`, which
/// sits at the start of line 1; only line 1 needs shifting.
fn file_position(mark: Mark) -> Position {
    Position {
        line: mark.line,
        column: if mark.line == 1 {
            mark.column.saturating_add(3)
        } else {
            mark.column
        },
    }
}

/// Why a skill file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The bytes are not UTF-8.
    NotUtf8(NotUtf8),
    /// The frontmatter markers are missing.
    Split(SplitError),
    /// The frontmatter is not strict YAML.
    Yaml(YamlError),
    /// The frontmatter is YAML, but not a mapping.
    NotMapping,
}

impl ParseError {
    /// Where in the file the problem is, when that is known.
    pub fn position(&self) -> Option<Position> {
        match self {
            ParseError::NotUtf8(e) => Some(Position {
                line: e.line,
                column: e.column,
            }),
            ParseError::Yaml(e) => Some(file_position(e.mark())),
            ParseError::Split(_) | ParseError::NotMapping => Some(Position { line: 1, column: 1 }),
        }
    }

    /// The rule the file breaks.
    ///
    /// ```
    /// use skills_build::{problem::Code, unstable::frontmatter::parse_text};
    /// assert_eq!(parse_text("no fence").unwrap_err().code(), Code::FrontmatterMissing);
    /// ```
    pub fn code(&self) -> crate::problem::Code {
        use crate::problem::Code;
        match self {
            ParseError::NotUtf8(_) => Code::SkillFileNotUtf8,
            ParseError::Split(crate::skill_file::SplitError::NoFrontmatter) => {
                Code::FrontmatterMissing
            }
            ParseError::Split(crate::skill_file::SplitError::NotClosed) => {
                Code::FrontmatterUnclosed
            }
            ParseError::Yaml(_) => Code::YamlSyntax,
            ParseError::NotMapping => Code::FrontmatterNotMapping,
        }
    }

    /// This error as a problem with its code and position (the file is the
    /// caller's to add).
    pub fn to_problem(&self) -> crate::problem::Problem {
        let problem =
            crate::problem::Problem::new(self.code(), self.to_string()).at_opt(self.position());
        match self {
            // The most common mistake: `description: Use when: ...`, a
            // plain value holding `: `.
            ParseError::Yaml(error)
                if error
                    .to_string()
                    .contains("mapping values are not allowed here") =>
            {
                problem.with_hint(
                    "quote the value: a plain value cannot hold `: `, so write it as key: \"...\"",
                )
            }
            _ => problem,
        }
    }
}

impl ParseError {
    /// This error as the gate reports it for `file`: [`ParseError::to_problem`]
    /// with the file attached, and a YAML error's mark lines naming the file
    /// where the reference's reader names its input `"<unicode string>"`
    /// (`skills validate` keeps that text: it is the reference's).
    ///
    /// ```
    /// use skills_build::unstable::frontmatter::parse_text;
    /// let error = parse_text("---\nname: pdf\ndescription: Use when: asked\n---\n").unwrap_err();
    /// assert!(error.to_problem().message.contains("in \"<unicode string>\", line 3, column 22:"));
    /// let problem = error.to_problem_in("skills/pdf/SKILL.md");
    /// assert!(problem.message.contains("\n  in \"skills/pdf/SKILL.md\", line 3, column 22:\n"));
    /// assert_eq!(problem.file.as_deref(), Some("skills/pdf/SKILL.md"));
    /// ```
    pub fn to_problem_in(&self, file: &str) -> crate::problem::Problem {
        let mut problem = self.to_problem();
        if let ParseError::Yaml(_) = self {
            problem.message = name_the_input(&problem.message, file);
        }
        problem.with_file(file)
    }
}

/// How the reference's YAML reader opens the line that says where an error
/// is: two spaces, then the name it gives a string input.
const INPUT_MARK: &str = "  in \"<unicode string>\", ";

/// `message` with each mark line's input name (`<unicode string>`) replaced
/// by `file`. Only lines that begin as a mark line does change: a snippet
/// line quoting the file's own text is indented four spaces.
fn name_the_input(message: &str, file: &str) -> String {
    message
        .split('\n')
        .map(|line| match line.strip_prefix(INPUT_MARK) {
            Some(rest) => format!("  in \"{file}\", {rest}"),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::NotUtf8(e) => e.fmt(f),
            ParseError::Split(e) => e.fmt(f),
            ParseError::Yaml(e) => write!(f, "Invalid YAML in frontmatter: {e}"),
            ParseError::NotMapping => f.write_str("SKILL.md frontmatter must be a YAML mapping"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Reads a skill file from its bytes.
///
/// ```
/// let doc = skills_build::unstable::frontmatter::parse(b"---\r\nname: pdf\r\n---\r\n# PDF\r\n").unwrap();
/// assert_eq!(doc.frontmatter.text("name"), Some("pdf"));
/// assert_eq!(doc.body(), "# PDF");
/// ```
pub fn parse(bytes: &[u8]) -> Result<SkillDocument, ParseError> {
    let text = skill_file::decode(bytes).map_err(ParseError::NotUtf8)?;
    parse_text(&text)
}

/// Reads a skill file from text that is already decoded and normalised.
///
/// ```
/// use skills_build::unstable::frontmatter::{parse_text, ParseError};
/// assert_eq!(parse_text("---\n- a\n---\n"), Err(ParseError::NotMapping));
/// ```
pub fn parse_text(text: &str) -> Result<SkillDocument, ParseError> {
    let split = skill_file::split(text).map_err(ParseError::Split)?;
    let node: Node = yaml::parse(split.frontmatter).map_err(ParseError::Yaml)?;
    match node.value {
        Value::Map(entries) => Ok(SkillDocument {
            frontmatter: Frontmatter { entries },
            frontmatter_text: split.frontmatter.to_string(),
            rest: split.rest.to_string(),
        }),
        _ => Err(ParseError::NotMapping),
    }
}

/// How a value is shaped, for messages (the validator's and the host checks').
pub(crate) fn shape(value: &Value) -> &'static str {
    match value {
        Value::Str(_) => "text",
        Value::Seq(_) => "a list",
        Value::Map(_) => "a mapping",
    }
}

/// A mapping's entries as compact JSON, keys in file order, each scalar
/// typed as YAML 1.2's core schema types it
/// ([`skills_core::encoding::yaml_core`]): a plain `true` is a boolean, a
/// plain `1.0` a number, a quoted one text. What the Skills extension's
/// entries, `Catalog::manifest` and `get_skill_metadata` carry (the
/// bundle's frontmatter JSON); `read-properties` prints
/// the reference's strings (skills-cmd's `read-properties`).
///
/// ```
/// let doc = skills_pycompat::yaml::parse("a: true\nb: 'true'\nc:\n- 0x1F\n- ~\n").unwrap();
/// let skills_pycompat::yaml::Value::Map(entries) = &doc.value else { unreachable!() };
/// assert_eq!(skills_build::unstable::frontmatter::typed_entries_json(entries), r#"{"a":true,"b":"true","c":[31,null]}"#);
/// ```
pub fn typed_entries_json(entries: &[Entry]) -> String {
    let mut json = JsonWriter::new(String::new(), Style::COMPACT);
    // Writing to a String cannot fail.
    let _ = write_typed_entries(&mut json, entries);
    json.into_inner()
}

fn write_typed_entries(json: &mut JsonWriter<String>, entries: &[Entry]) -> fmt::Result {
    json.begin_object()?;
    for entry in entries {
        json.key(&entry.key)?;
        write_typed(json, &entry.value)?;
    }
    json.end()
}

fn write_typed(json: &mut JsonWriter<String>, node: &Node) -> fmt::Result {
    match &node.value {
        Value::Str(text) => write_scalar(json, text, node.plain),
        Value::Seq(items) => {
            json.begin_array()?;
            for item in items {
                write_typed(json, item)?;
            }
            json.end()
        }
        Value::Map(entries) => write_typed_entries(json, entries),
    }
}
