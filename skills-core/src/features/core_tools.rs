//! agentskills-core's tool vocabulary, served from the bundle: the tools
//! its outline and fast-path texts tell the model to call
//! (`get_skill_body`, `get_skill_section`, `get_skill_reference`,
//! `list_skill_resources`, ...). A host that puts those texts in front of a
//! model offers these tools beside (or instead of) `skill`, so every tool a
//! text names is one the host serves.
//!
//! Each tool takes `skill_id` (the listed name) and, for some, one more
//! string: the section `key` or the resource `name`. The replies are the
//! catalog's agentskills-core renderings: the outline text, the section
//! slice, `list_resources` as JSON, a resource as text or its JSON
//! envelope.
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
//! use skills_core::features::core_tools::CoreTool;
//! let tool = CoreTool::from_name("get_skill_reference").unwrap();
//! assert_eq!(tool.argument(), Some("name"));
//! let reply = catalog.core_tool(tool, "pdf", Some("missing.md")).unwrap_err();
//! assert_eq!(reply.to_string(), "Resource 'missing.md' not found in references/ for skill 'pdf'");
//! let listed = catalog.core_tool(CoreTool::ListSkillResources, "pdf", None).unwrap();
//! assert_eq!(listed, r#"{"references": [], "scripts": [], "assets": ["form.pdf", "logo.png"]}"#);
//! ```

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use core::fmt;

use crate::features::resources::{
    DEFAULT_MAX_INLINE_BINARY_BYTES, encode_resource_content, list_resources,
};
use crate::serve::catalog::Catalog;

/// One of agentskills-core's tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoreTool {
    /// The frontmatter as JSON.
    GetSkillMetadata,
    /// The whole body.
    GetSkillBody,
    /// The outline: sections, keys and token estimates.
    GetSkillOutline,
    /// One section, by key.
    GetSkillSection,
    /// A file in `references/`, by name.
    GetSkillReference,
    /// A file in `scripts/`, by name.
    GetSkillScript,
    /// A file in `assets/`, by name.
    GetSkillAsset,
    /// The resources by kind.
    ListSkillResources,
}

/// Every tool, in the order a host lists them.
///
/// ```
/// // A host declaring every tool: name, description and schema of each.
/// use skills_core::features::core_tools::CORE_TOOLS;
/// for tool in CORE_TOOLS {
///     let schema = tool.schema();
///     assert!(!tool.name().is_empty() && !tool.description().is_empty());
///     assert!(schema.starts_with('{'));
/// }
/// ```
pub const CORE_TOOLS: [CoreTool; 8] = [
    CoreTool::GetSkillMetadata,
    CoreTool::GetSkillBody,
    CoreTool::GetSkillOutline,
    CoreTool::GetSkillSection,
    CoreTool::GetSkillReference,
    CoreTool::GetSkillScript,
    CoreTool::GetSkillAsset,
    CoreTool::ListSkillResources,
];

impl CoreTool {
    /// The tool's name, as the texts name it.
    pub const fn name(self) -> &'static str {
        match self {
            CoreTool::GetSkillMetadata => "get_skill_metadata",
            CoreTool::GetSkillBody => "get_skill_body",
            CoreTool::GetSkillOutline => "get_skill_outline",
            CoreTool::GetSkillSection => "get_skill_section",
            CoreTool::GetSkillReference => "get_skill_reference",
            CoreTool::GetSkillScript => "get_skill_script",
            CoreTool::GetSkillAsset => "get_skill_asset",
            CoreTool::ListSkillResources => "list_skill_resources",
        }
    }

    /// The tool named `name`, if it is one of these.
    ///
    /// ```
    /// use skills_core::features::core_tools::CoreTool;
    /// assert_eq!(CoreTool::from_name("get_skill_body"), Some(CoreTool::GetSkillBody));
    /// assert_eq!(CoreTool::from_name("skill"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        CORE_TOOLS.into_iter().find(|tool| tool.name() == name)
    }

    /// The second argument after `skill_id`: `key` for a section, `name`
    /// for a resource, none for the rest.
    pub const fn argument(self) -> Option<&'static str> {
        match self {
            CoreTool::GetSkillSection => Some("key"),
            CoreTool::GetSkillReference | CoreTool::GetSkillScript | CoreTool::GetSkillAsset => {
                Some("name")
            }
            _ => None,
        }
    }

    /// What the tool does, for the model.
    pub const fn description(self) -> &'static str {
        match self {
            CoreTool::GetSkillMetadata => {
                "Get a skill's frontmatter (name, description and the other fields) as JSON."
            }
            CoreTool::GetSkillBody => "Get a skill's full instructions (the body of its SKILL.md).",
            CoreTool::GetSkillOutline => {
                "Get a skill's outline: its sections with their keys and estimated token costs."
            }
            CoreTool::GetSkillSection => {
                "Get one section of a skill's instructions by its key from the outline."
            }
            CoreTool::GetSkillReference => {
                "Get a reference document of a skill (a file in references/) by name."
            }
            CoreTool::GetSkillScript => "Get a script of a skill (a file in scripts/) by name.",
            CoreTool::GetSkillAsset => "Get an asset of a skill (a file in assets/) by name.",
            CoreTool::ListSkillResources => {
                "List a skill's reference documents, scripts and assets by name."
            }
        }
    }

    /// The tool's input schema as compact JSON.
    ///
    /// ```
    /// use skills_core::features::core_tools::CoreTool;
    /// assert_eq!(
    ///     CoreTool::GetSkillBody.schema(),
    ///     r#"{"type":"object","properties":{"skill_id":{"type":"string","description":"The skill's id"}},"required":["skill_id"]}"#,
    /// );
    /// ```
    pub fn schema(self) -> String {
        const ID: &str = r#""skill_id":{"type":"string","description":"The skill's id"}"#;
        match self.argument() {
            None => alloc::format!(
                r#"{{"type":"object","properties":{{{ID}}},"required":["skill_id"]}}"#
            ),
            Some(argument) => {
                let what = if argument == "key" {
                    "The section's key, from the outline"
                } else {
                    "The file's name, as listed"
                };
                alloc::format!(
                    r#"{{"type":"object","properties":{{{ID},"{argument}":{{"type":"string","description":"{what}"}}}},"required":["skill_id","{argument}"]}}"#
                )
            }
        }
    }

    /// The resource kind a resource tool reads.
    const fn kind(self) -> Option<&'static str> {
        match self {
            CoreTool::GetSkillReference => Some("references"),
            CoreTool::GetSkillScript => Some("scripts"),
            CoreTool::GetSkillAsset => Some("assets"),
            _ => None,
        }
    }
}

/// Why a tool call was refused, worded for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CoreToolError {
    /// No listed skill has this id.
    UnknownSkill {
        /// The id as given.
        skill_id: String,
    },
    /// The tool needs its second argument.
    MissingArgument {
        /// The tool.
        tool: &'static str,
        /// The argument's name.
        argument: &'static str,
    },
    /// The section or the resource is not there (agentskills-core's words).
    NotFound {
        /// The message.
        message: String,
    },
}

impl fmt::Display for CoreToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreToolError::UnknownSkill { skill_id } => write!(f, "Skill '{skill_id}' not found"),
            CoreToolError::MissingArgument { tool, argument } => {
                write!(f, "{tool} needs the argument '{argument}'")
            }
            CoreToolError::NotFound { message } => f.write_str(message),
        }
    }
}

impl core::error::Error for CoreToolError {}

impl<'a> Catalog<'a> {
    /// Calls `tool` for the skill listed as `skill_id`, with its second
    /// argument (`key` or `name`) when it takes one.
    pub fn core_tool(
        &self,
        tool: CoreTool,
        skill_id: &str,
        argument: Option<&str>,
    ) -> Result<Cow<'a, str>, CoreToolError> {
        let skill = self
            .lookup(skill_id)
            .ok_or_else(|| CoreToolError::UnknownSkill {
                skill_id: skill_id.to_string(),
            })?;
        let argument = match tool.argument() {
            None => "",
            Some(name) => argument.ok_or(CoreToolError::MissingArgument {
                tool: tool.name(),
                argument: name,
            })?,
        };
        Ok(match tool {
            CoreTool::GetSkillMetadata => {
                let json = skill.frontmatter_json();
                if json.is_empty() {
                    Cow::Borrowed("{}")
                } else {
                    json
                }
            }
            CoreTool::GetSkillBody => Cow::Borrowed(skill.body()),
            CoreTool::GetSkillOutline => Cow::Owned(skill.outline().render(skill.name)),
            CoreTool::GetSkillSection => skill
                .outline()
                .section(skill.name, skill.body(), argument)
                .map_err(|missing| CoreToolError::NotFound {
                    message: missing.to_string(),
                })?,
            CoreTool::ListSkillResources => Cow::Owned(list_resources(skill).to_json()),
            CoreTool::GetSkillReference | CoreTool::GetSkillScript | CoreTool::GetSkillAsset => {
                let kind = tool.kind().unwrap_or_default();
                let file = self
                    .resource(skill.name, kind, argument)
                    .map_err(|missing| CoreToolError::NotFound {
                        message: missing.to_string(),
                    })?;
                encode_resource_content(argument, file.bytes(), DEFAULT_MAX_INLINE_BINARY_BYTES)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_round_trips_by_name_and_has_a_schema_naming_its_argument() {
        for tool in CORE_TOOLS {
            assert_eq!(CoreTool::from_name(tool.name()), Some(tool));
            let schema = tool.schema();
            if let Some(argument) = tool.argument() {
                assert!(
                    schema.contains(&alloc::format!("\"{argument}\"")),
                    "{schema}"
                );
            }
        }
    }
}
