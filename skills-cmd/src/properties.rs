//! A skill's properties as the reference's `read-properties` reports them.
//!
//! Only presence and non-emptiness of `name` and `description` are checked
//! here; the rest is handed on as written (with `metadata` coerced to text
//! the way the reference coerces it).

use skills_build::problem::{Code, Problem};
use skills_build::unstable::frontmatter::{Frontmatter, Metadata};
use skills_core::text::pytext;
use skills_pycompat::yaml::Value;

/// The properties of one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Properties<'a> {
    /// The name, stripped (not normalised).
    pub name: &'a str,
    /// The description, stripped.
    pub description: &'a str,
    /// `license`, whatever its shape.
    pub license: Option<&'a Value>,
    /// `compatibility`, whatever its shape.
    pub compatibility: Option<&'a Value>,
    /// `allowed-tools`, whatever its shape.
    pub allowed_tools: Option<&'a Value>,
    /// `metadata` after coercion, when present and not empty.
    pub metadata: Option<Metadata<'a>>,
}

impl<'a> Properties<'a> {
    /// Reads the properties, failing as the reference does on a missing or
    /// empty `name` or `description` (both presences are checked first).
    pub fn read(fm: &'a Frontmatter) -> Result<Self, Problem> {
        for field in ["name", "description"] {
            if fm.get(field).is_none() {
                let code = if field == "name" {
                    Code::NameMissing
                } else {
                    Code::DescriptionMissing
                };
                return Err(Problem::new(
                    code,
                    format!("Missing required field in frontmatter: {field}"),
                )
                .with_field(field));
            }
        }
        let text = |field: &str| match fm.text(field) {
            Some(text) if !pytext::strip(text).is_empty() => Ok(pytext::strip(text)),
            _ => Err(Problem::new(
                if field == "name" {
                    Code::NameNotString
                } else {
                    Code::DescriptionNotString
                },
                format!("Field '{field}' must be a non-empty string"),
            )
            .with_field(field)),
        };
        let name = text("name")?;
        let description = text("description")?;
        let value = |field: &str| fm.get(field).map(|e| &e.value.value);
        Ok(Properties {
            name,
            description,
            license: value("license"),
            compatibility: value("compatibility"),
            allowed_tools: value("allowed-tools"),
            metadata: fm.metadata().filter(|m| !is_falsy(m)),
        })
    }
}

/// Python truthiness: the reference drops an empty `metadata`.
fn is_falsy(metadata: &Metadata<'_>) -> bool {
    match metadata {
        Metadata::Map(pairs) => pairs.is_empty(),
        Metadata::Other(Value::Str(text)) => text.is_empty(),
        Metadata::Other(Value::Seq(items)) => items.is_empty(),
        Metadata::Other(Value::Map(entries)) => entries.is_empty(),
    }
}

#[cfg(test)]
mod mutations;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_and_description_are_stripped() {
        let doc = skills_build::unstable::frontmatter::parse_text(
            "---\nname: ' pdf '\ndescription: Fill forms.\nlicense: MIT\n---\n",
        )
        .unwrap();
        let props = Properties::read(&doc.frontmatter).unwrap();
        assert_eq!((props.name, props.description), ("pdf", "Fill forms."));
    }
}
