//! agentskills-core's extension fields, behind an explicit opt-in.
//!
//! The reference validator allows six top-level keys and rejects every
//! other one, so by default `version`, `when_to_use` and `when_not_to_use`
//! are unknown keys here too and a skill using them does not build: a skill
//! that passes this workspace passes the reference. A host that serves its
//! skills through agentskills-core's catalog shapes can opt in
//! (`Builder::extensions(true)`, `skills catalog --extensions`); then:
//!
//! - `version` must be semver (`MAJOR.MINOR.PATCH`, optional pre-release
//!   and build metadata, as semver.org's pattern says);
//! - `when_to_use` and `when_not_to_use` must be lists of at most 5
//!   non-blank strings of at most 200 characters;
//! - `metadata.tags` may be a list of strings (the catalog's tag filter
//!   reads it); every other metadata value must still be a string.
//!
//! Problems carry agentskills-core's wording, without its `Skill '<id>': `
//! prefix (a problem names its file already).

use skills_core::text::pytext;
use skills_core::wire::derived::normalize_tag;

use crate::frontmatter::{Frontmatter, KNOWN_FIELDS, SkillDocument};
use crate::problem::{Code, Problem};
use skills_pycompat::yaml::{Entry, Value};

/// The extension fields.
pub const EXTENSION_FIELDS: [&str; 3] = ["version", "when_to_use", "when_not_to_use"];

/// The most cases a selection field may list.
pub const MAX_SELECTION_CASES: usize = 5;

/// The longest case, in characters.
pub const MAX_SELECTION_CASE_CHARS: usize = 200;

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Str(_) => "str",
        Value::Seq(_) => "list",
        Value::Map(_) => "dict",
    }
}

/// The top-level keys known with the extensions on: the reference's and
/// [`EXTENSION_FIELDS`], sorted (the order the unknown-key problem lists
/// them in).
pub fn known_fields() -> Vec<&'static str> {
    let mut known: Vec<&str> = KNOWN_FIELDS
        .iter()
        .chain(&EXTENSION_FIELDS)
        .copied()
        .collect();
    known.sort_unstable();
    known
}

/// Whether a metadata entry is `tags` holding a list of strings.
pub(crate) fn is_tag_list(entry: &Entry) -> bool {
    entry.key == "tags"
        && matches!(&entry.value.value, Value::Seq(items) if items.iter().all(|item| matches!(item.value, Value::Str(_))))
}

/// agentskills-core's checks of the extension fields, in its order.
/// `text_when_to_use`: a host that reads `when_to_use` as text is
/// targeted and it is text, which that host's rules check instead.
pub(crate) fn check_fields(fm: &Frontmatter, text_when_to_use: bool, problems: &mut Vec<Problem>) {
    let skipped = |key: &str| text_when_to_use && key == "when_to_use";
    for key in ["when_to_use", "when_not_to_use"] {
        if skipped(key) {
            continue;
        }
        if let Some(entry) = fm.get(key)
            && !matches!(entry.value.value, Value::Seq(_))
        {
            problems.push(problem(
                entry,
                format!(
                    "field '{key}' must be list, got {}",
                    type_name(&entry.value.value)
                ),
            ));
        }
    }
    for key in ["when_to_use", "when_not_to_use"] {
        let Some(entry) = fm.get(key) else { continue };
        let Value::Seq(items) = &entry.value.value else {
            continue;
        };
        if items.len() > MAX_SELECTION_CASES {
            problems.push(problem(entry, format!(
                "field '{key}' has {} entries, over the limit of {MAX_SELECTION_CASES}; it is charged on every turn, and a skill needing more conditions is probably two skills",
                items.len()
            )));
        }
        for (at, item) in items.iter().enumerate() {
            let message = match &item.value {
                Value::Str(text) if pytext::strip(text).is_empty() => {
                    format!("field '{key}' entry {at} is empty")
                }
                Value::Str(text) if text.chars().count() > MAX_SELECTION_CASE_CHARS => format!(
                    "field '{key}' entry {at} is {} characters, over the limit of {MAX_SELECTION_CASE_CHARS}",
                    text.chars().count()
                ),
                Value::Str(_) => continue,
                other => format!(
                    "field '{key}' entry {at} must be str, got {}",
                    type_name(other)
                ),
            };
            problems.push(problem(entry, message));
        }
    }
    if let Some(entry) = fm.get("version") {
        let message = match &entry.value.value {
            Value::Str(text) if is_semver(text) => None,
            Value::Str(text) => Some(format!(
                "version '{text}' is not valid semver. Expected MAJOR.MINOR.PATCH with optional pre-release and build metadata, e.g. '1.0.0', '2.1.0-rc.1', '1.0.0+build.5'"
            )),
            other => Some(format!(
                "version must be a quoted string, got {} ({}). Unquoted YAML reads 1.0 as a number and 2024-01-15 as a date — write version: \"1.0.0\"",
                type_name(other),
                other.python_str()
            )),
        };
        if let Some(message) = message {
            problems.push(problem(entry, message));
        }
    }
}

fn problem(entry: &Entry, message: String) -> Problem {
    let code = if entry.key == "version" {
        Code::VersionNotSemver
    } else {
        Code::SelectionCasesInvalid
    };
    Problem::new(code, message)
        .with_field(entry.key.clone())
        .at(SkillDocument::position(entry.value.mark))
}

/// semver.org's pattern: `MAJOR.MINOR.PATCH`, numbers without leading
/// zeros, then an optional `-` pre-release of dot-separated identifiers
/// (numeric ones without leading zeros) and an optional `+` build of
/// dot-separated identifiers.
pub fn is_semver(text: &str) -> bool {
    let (rest, build) = match text.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (text, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let numeric = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'))
    };
    let ident = |part: &str| {
        !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| numeric(part))
        && pre.is_none_or(|pre| {
            pre.split('.').all(|part| {
                ident(part) && (numeric(part) || part.bytes().any(|b| !b.is_ascii_digit()))
            })
        })
        && build.is_none_or(|build| build.split('.').all(ident))
}

/// What a skill contributes to the catalog beyond name and description.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CatalogFields {
    /// `version`, when present as text.
    pub version: Option<String>,
    /// `when_to_use` cases (the strings of the list).
    pub when_to_use: Vec<String>,
    /// `when_not_to_use` cases.
    pub when_not_to_use: Vec<String>,
    /// `metadata.tags`, stripped and case-folded, blanks dropped; empty
    /// unless it is a list of strings.
    pub tags: Vec<String>,
    /// The frontmatter as compact JSON, keys in file order, scalars typed
    /// by YAML 1.2's core schema (`frontmatter::typed_entries_json`).
    pub frontmatter_json: String,
}

/// Reads the catalog fields of a frontmatter. Without `extensions` the
/// extension fields are left empty (they cannot be present in a skill
/// that validates).
///
/// ```
/// let doc = skills_build::unstable::frontmatter::parse_text("---\nname: pdf\ndescription: Forms.\nmetadata:\n  tags:\n    - ' PDF '\n---\n").unwrap();
/// let fields = skills_build::unstable::extension_fields::catalog_fields(&doc.frontmatter, true);
/// assert_eq!(fields.tags, ["pdf"]);
/// assert_eq!(fields.frontmatter_json, r#"{"name":"pdf","description":"Forms.","metadata":{"tags":[" PDF "]}}"#);
/// ```
pub fn catalog_fields(fm: &Frontmatter, extensions: bool) -> CatalogFields {
    let cases = |key: &str| -> Vec<String> {
        match fm.get(key).map(|entry| &entry.value.value) {
            Some(Value::Seq(items)) if extensions => items
                .iter()
                .filter_map(|item| match &item.value {
                    Value::Str(text) => Some(text.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    let tags = match fm.get("metadata").map(|entry| &entry.value.value) {
        Some(Value::Map(entries)) => entries
            .iter()
            .find(|entry| entry.key == "tags")
            .filter(|entry| is_tag_list(entry))
            .map(|entry| match &entry.value.value {
                Value::Seq(items) => items
                    .iter()
                    .filter_map(|item| match &item.value {
                        Value::Str(text) => normalize_tag(text).map(|tag| tag.into_owned()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    CatalogFields {
        version: fm
            .text("version")
            .filter(|_| extensions)
            .map(str::to_string),
        when_to_use: cases("when_to_use"),
        when_not_to_use: cases("when_not_to_use"),
        tags,
        frontmatter_json: crate::frontmatter::typed_entries_json(fm.entries()),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn checks_the_extension_fields() {
        use crate::{frontmatter::parse_text, rules::reference::validate_with};
        let doc =
            parse_text("---\nname: pdf\ndescription: Forms.\nwhen_to_use:\n  - ' '\n---\nGo.\n")
                .unwrap();
        let problems = validate_with(
            &doc,
            "pdf",
            &crate::rules::Policy {
                extensions: true,
                ..Default::default()
            },
        );
        assert_eq!(problems[0].message, "field 'when_to_use' entry 0 is empty");
    }

    #[test]
    fn knows_the_extension_fields() {
        let known = crate::extension_fields::known_fields();
        assert_eq!(known.len(), 9);
        assert!(known.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn tells_semver() {
        use crate::extension_fields::is_semver;
        assert!(is_semver("1.0.0") && is_semver("2.1.0-rc.1") && is_semver("1.0.0-rc.1+b.5"));
        assert!(
            !is_semver("1.0")
                && !is_semver("01.0.0")
                && !is_semver("v1.0.0")
                && !is_semver("1.0.0-01")
        );
    }
}
