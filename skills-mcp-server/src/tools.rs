//! The tools the server offers: our `skill` tool (which the reference
//! server does not have), answered from the catalog as the runtime answers
//! it: text as text content, an image as image content, a refused call as
//! `isError` with the tool's message.

use serde_json::{Value, json};
use skills_core::{Catalog, Reply, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA, ToolError};

use crate::wire::capped;

/// The `tools/list` array: the `skill` tool with its description and input
/// schema.
pub(crate) fn list() -> Value {
    let schema: Value = serde_json::from_str(TOOL_SCHEMA).unwrap_or_else(|_| json!({"type": "object"}));
    json!([{ "name": TOOL_NAME, "description": TOOL_DESCRIPTION, "inputSchema": schema }])
}

/// The names of the tools [`list`] offers.
pub(crate) const NAMES: [&str; 1] = [TOOL_NAME];

/// A `tools/call` result's `content` and `isError`.
pub(crate) fn call(catalog: &Catalog<'_>, name: &str, arguments: Option<&Value>) -> (Value, bool) {
    if name != TOOL_NAME {
        return (text_content(&format!("Unknown tool: {}", capped(name))), true);
    }
    let arguments = arguments.map_or_else(|| "{}".to_owned(), Value::to_string);
    match catalog.call_json(&arguments) {
        Ok(served) => match served.reply {
            Reply::Text(text) => (text_content(text), false),
            Reply::Image(image) => (
                json!([{ "type": "image", "data": image.base64(), "mimeType": image.media_type }]),
                false,
            ),
        },
        Err(mut error) => {
            // The message repeats the model's name or path: cap those, not
            // the lists of names and files that help the model.
            match &mut error {
                ToolError::UnknownSkill { name, .. } => *name = capped(name),
                ToolError::NoSuchFile { path, .. } | ToolError::InvalidPath { path } => {
                    *path = capped(path)
                }
                ToolError::InvalidArguments { message } => *message = capped(message),
                _ => {}
            }
            (text_content(&error.to_string()), true)
        }
    }
}

fn text_content(text: &str) -> Value {
    json!([{ "type": "text", "text": text }])
}
