//! The fixed texts of the `skill` tool, the Go module's: its name,
//! description and JSON schema, and the usage paragraph. A bundle carries
//! the description, the schema and the paragraph it was built with (by
//! default these); the tool's module re-exports them.

/// The tool's name.
///
/// ```
/// assert_eq!(skills_core::TOOL_NAME, "skill");
/// ```
pub const TOOL_NAME: &str = "skill";

/// The tool's description, the Go module's text.
///
/// ```
/// assert!(skills_core::TOOL_DESCRIPTION.starts_with("Read a skill's instructions"));
/// ```
pub const TOOL_DESCRIPTION: &str = "Read a skill's instructions, or one of its files. Call with the skill's name for its instructions and the list of its files; call with a name and a path for a file.";

/// The tool's JSON schema (compact, non-strict): `name` required, `path`
/// optional, other properties ignored.
///
/// ```
/// assert!(skills_core::TOOL_SCHEMA.ends_with(r#""required":["name"]}"#));
/// ```
pub const TOOL_SCHEMA: &str = r#"{"type":"object","properties":{"name":{"type":"string","description":"The skill to read"},"path":{"type":"string","description":"A file inside the skill, as listed; omit for the instructions"}},"required":["name"]}"#;

/// The paragraph telling the model how to use the skills, the Go module's
/// text; a host puts it after the prompt.
///
/// ```
/// assert!(skills_core::USAGE.contains("call the `skill` tool"));
/// ```
pub const USAGE: &str = "When a task matches a skill's description, call the `skill` tool with the skill's name to read its instructions and the list of its files, then call it again with a path to read a file. Follow the instructions before doing the task.";
