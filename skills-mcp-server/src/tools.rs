//! The tools the server offers: our `skill` tool (which the reference
//! server does not have), answered from the catalog as the runtime answers
//! it: text as text content, an image as image content, a refused call as
//! `isError` with the tool's message; and, when asked for, agentskills-core's
//! tools (`get_skill_body`, `get_skill_section`, `get_skill_reference`,
//! `list_skill_resources`, ...), the ones the outline and fast-path texts
//! name, so that every tool a text names is one the server offers.

use serde_json::{Value, json};
use skills_core::features::core_tools::{CORE_TOOLS, CoreTool, CoreToolError};
use skills_core::{Catalog, Reply, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA};

use crate::wire::capped;

fn schema(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| json!({"type": "object"}))
}

/// The `tools/list` array: the `skill` tool with its description and input
/// schema, then agentskills-core's tools when `core_tools`.
pub(crate) fn list(core_tools: bool) -> Value {
    let mut tools = vec![
        json!({ "name": TOOL_NAME, "description": TOOL_DESCRIPTION, "inputSchema": schema(TOOL_SCHEMA) }),
    ];
    if core_tools {
        tools.extend(CORE_TOOLS.iter().map(|tool| {
            json!({ "name": tool.name(), "description": tool.description(), "inputSchema": schema(&tool.schema()) })
        }));
    }
    Value::Array(tools)
}

/// The names of the tools [`list`] offers.
pub(crate) fn names(core_tools: bool) -> Vec<&'static str> {
    let mut names = vec![TOOL_NAME];
    if core_tools {
        names.extend(CORE_TOOLS.iter().map(|tool| tool.name()));
    }
    names
}

/// A `tools/call` result's `content` and `isError`.
pub(crate) fn call(
    catalog: &Catalog<'_>,
    core_tools: bool,
    name: &str,
    arguments: Option<&Value>,
) -> (Value, bool) {
    if name != TOOL_NAME {
        return match CoreTool::from_name(name).filter(|_| core_tools) {
            Some(tool) => call_core(catalog, tool, arguments),
            None => (
                text_content(&format!("Unknown tool: {}", capped(name))),
                true,
            ),
        };
    }
    let arguments = arguments.map_or_else(|| "{}".to_owned(), Value::to_string);
    match catalog.call_json(&arguments) {
        Ok(served) => match served.reply {
            Reply::Text(text) => (text_content(text), false),
            Reply::Image(image) => (
                json!([{ "type": "image", "data": image.base64(), "mimeType": image.media_type }]),
                false,
            ),
            // `Reply` is non-exhaustive: a kind a later runtime adds is
            // refused, not sent in a shape MCP clients do not expect.
            _ => (
                text_content("This reply is of a kind the server cannot send over MCP"),
                true,
            ),
        },
        // The message repeats the model's name or path: capped, not the
        // lists of names and files that help the model.
        Err(error) => (text_content(&error.with_echo_capped().to_string()), true),
    }
}

/// One of agentskills-core's tools; its arguments are `skill_id` and
/// maybe `key` or `name`, strings.
fn call_core(catalog: &Catalog<'_>, tool: CoreTool, arguments: Option<&Value>) -> (Value, bool) {
    let get = |key: &str| arguments.and_then(|a| a.get(key)).and_then(Value::as_str);
    let Some(skill_id) = get("skill_id") else {
        return (
            text_content(&format!("{} needs the argument 'skill_id'", tool.name())),
            true,
        );
    };
    match catalog.core_tool(tool, skill_id, tool.argument().and_then(get)) {
        Ok(text) => (text_content(&text), false),
        Err(mut error) => {
            if let CoreToolError::UnknownSkill { skill_id } = &mut error {
                *skill_id = capped(skill_id);
            }
            (text_content(&capped(&error.to_string())), true)
        }
    }
}

fn text_content(text: &str) -> Value {
    json!([{ "type": "text", "text": text }])
}
