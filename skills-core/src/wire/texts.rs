//! The fixed texts of the `skill` tool, the Go module's: its name,
//! description and JSON schema, and the usage paragraph. A bundle carries
//! the description, the schema and the paragraph it was built with (by
//! default these); the tool's module re-exports them.

/// The tool's name.
///
/// ```
/// // A host routes the model's tool calls by name.
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let (tool, skill) = ("skill", "pdf");
/// if tool == skills_core::TOOL_NAME {
///     assert!(catalog.call(skill, None).is_ok());
/// }
/// ```
pub const TOOL_NAME: &str = "skill";

/// The tool's description, the Go module's text.
///
/// ```
/// // A bundle compiled with the defaults describes the tool in these words.
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// assert_eq!(catalog.tool_definition().description, skills_core::TOOL_DESCRIPTION);
/// ```
pub const TOOL_DESCRIPTION: &str = "Read a skill's instructions, or one of its files. Call with the skill's name for its instructions and the list of its files; call with a name and a path for a file.";

/// The tool's JSON schema (compact, non-strict): `name` required, `path`
/// optional, other properties ignored.
///
/// ```
/// // The schema a host declares for the tool, as the catalog hands it out.
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// assert_eq!(catalog.tool_definition().parameters, skills_core::TOOL_SCHEMA);
/// ```
pub const TOOL_SCHEMA: &str = r#"{"type":"object","properties":{"name":{"type":"string","description":"The skill to read"},"path":{"type":"string","description":"A file inside the skill, as listed; omit for the instructions"}},"required":["name"]}"#;

/// The paragraph telling the model how to use the skills, the Go module's
/// text; a host puts it after the prompt.
///
/// ```
/// // The system prompt is the skills' list, then this paragraph.
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// assert!(catalog.system_prompt().ends_with(skills_core::USAGE));
/// ```
pub const USAGE: &str = "When a task matches a skill's description, call the `skill` tool with the skill's name to read its instructions and the list of its files, then call it again with a path to read a file. Follow the instructions before doing the task.";
