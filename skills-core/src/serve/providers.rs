//! The `skill` tool in the JSON of model providers' HTTP APIs (feature
//! `json`): the tool as an entry of a request's `tools` array, a call of it
//! read from the model's reply, and the result to send back, for OpenAI
//! Chat Completions (and the many servers that speak it), OpenAI Responses
//! and Anthropic Messages. A program that talks to a provider with an HTTP
//! client and serde_json needs no agent framework.
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
//! use skills_core::serve::providers::Provider;
//! use serde_json::json;
//!
//! let provider = Provider::ChatCompletions;
//! let request = json!({
//!     "model": "any",
//!     "messages": [
//!         {"role": "system", "content": catalog.system_prompt()},
//!         {"role": "user", "content": "Fill in form.pdf"},
//!     ],
//!     "tools": [provider.tool(&catalog.tool_definition())],
//! });
//! # let _ = request;
//! // ... POST it; the model answers with a call of `skill`:
//! let reply = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
//!     {"id": "call_1", "type": "function",
//!      "function": {"name": "skill", "arguments": "{\"name\":\"pdf\"}"}}
//! ]}}]});
//! for call in provider.skill_calls(&reply)? {
//!     let message = call.serve(&catalog); // append to "messages", then POST again
//!     assert_eq!(message["tool_call_id"], "call_1");
//!     assert_eq!(message["content"], catalog.lookup("pdf").unwrap().instructions);
//! }
//! # Ok::<(), skills_core::serve::providers::CallShapeError>(())
//! ```
//!
//! The shapes, from the providers' documentation:
//!
//! - OpenAI Chat Completions
//!   (<https://developers.openai.com/docs/guides/function-calling?api-mode=chat>,
//!   <https://platform.openai.com/docs/api-reference/chat/create>): a tool
//!   is `{"type": "function", "function": {name, description,
//!   parameters}}`; the assistant message's `tool_calls` entries are
//!   `{"id", "type": "function", "function": {"name", "arguments"}}` with
//!   the arguments as a JSON *string*; the answer is a message
//!   `{"role": "tool", "tool_call_id", "content"}` whose content is text
//!   (a string, or an array of text parts: no image).
//! - OpenAI Responses
//!   (<https://developers.openai.com/docs/guides/function-calling>): a tool
//!   is `{"type": "function", name, description, parameters, strict}`,
//!   where an omitted `strict` means `true` (the API reference's
//!   `FunctionTool.strict`: "Default `true`"), which our schema (an
//!   optional `path`) does not meet, so `false` is sent; a call is an
//!   output item `{"type": "function_call", "call_id", "name",
//!   "arguments"}` (arguments a JSON string); the answer is an input item
//!   `{"type": "function_call_output", "call_id", "output"}` whose output
//!   is a string or an array of `input_text` / `input_image` parts.
//! - Anthropic Messages
//!   (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls>):
//!   a tool is `{name, description, input_schema}`; a call is a content
//!   block `{"type": "tool_use", "id", "name", "input"}` with the input an
//!   *object*; the answer is a block `{"type": "tool_result",
//!   "tool_use_id", "content"}` (a string, or text and image blocks) with
//!   `"is_error": true` when the call failed, placed in the next user
//!   message's content.
//!
//! A refused call (unknown skill, bad path, a file that cannot be shown)
//! is answered like any other, with the refusal's text
//! ([`ToolError`]'s wording) for the model to act on.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Value, json};

use super::catalog::Catalog;
use super::quote::push_go_quoted;
use super::tool::{Reply, Served, TOOL_NAME, ToolDefinition, ToolError};

/// A model provider's tool-calling API, named by the JSON it speaks.
///
/// ```
/// use skills_core::serve::providers::Provider;
/// let tool = Provider::AnthropicMessages.tool(&skills_core::ToolDefinition::default());
/// assert_eq!(tool["name"], "skill");
/// assert_eq!(tool["input_schema"]["required"][0], "name");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions (`POST /v1/chat/completions`), also spoken
    /// by most OpenAI-compatible servers (local model servers included).
    ChatCompletions,
    /// OpenAI Responses (`POST /v1/responses`).
    Responses,
    /// Anthropic Messages (`POST /v1/messages`).
    AnthropicMessages,
}

impl fmt::Display for Provider {
    /// The API's name, such as `OpenAI Chat Completions`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provider::ChatCompletions => "OpenAI Chat Completions",
            Provider::Responses => "OpenAI Responses",
            Provider::AnthropicMessages => "Anthropic Messages",
        })
    }
}

/// A tool call in a provider's reply that is not of the provider's shape:
/// a field does not hold what the provider puts there.
///
/// ```
/// use skills_core::serve::providers::Provider;
/// let call = serde_json::json!({"type": "function", "function": {"name": "skill"}});
/// let error = Provider::ChatCompletions.skill_call(&call).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "an OpenAI Chat Completions tool call has no string at `id`",
/// );
/// let block = serde_json::json!({"type": "tool_use", "id": "t", "name": "skill", "input": "{}"});
/// let error = Provider::AnthropicMessages.skill_call(&block).unwrap_err();
/// assert_eq!(error.to_string(), "an Anthropic Messages tool call has no object at `input`");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallShapeError {
    /// Whose shape the call was read as.
    pub provider: Provider,
    /// The field, as a dotted path inside the call (`function.name`,
    /// `call_id`, ...).
    pub field: &'static str,
    /// What the provider puts there: `string`, `object`, or `string or object`.
    pub expected: &'static str,
}

impl fmt::Display for CallShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "an {} tool call has no {} at `{}`",
            self.provider, self.expected, self.field
        )
    }
}

impl core::error::Error for CallShapeError {}

/// Where one provider's tool call keeps its parts: each a JSON pointer into
/// the call and the dotted name an error shows.
struct CallShape {
    /// The call's `type`.
    kind: &'static str,
    name: (&'static str, &'static str),
    id: (&'static str, &'static str),
    arguments: (&'static str, &'static str),
    /// Whether the arguments may be JSON text (a string).
    arguments_text: bool,
    /// Whether they may be an object.
    arguments_object: bool,
}

/// A call of the `skill` tool read from a provider's reply: the id the
/// answer must name, and the arguments as JSON text.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// use skills_core::serve::providers::Provider;
/// let block = serde_json::json!({"type": "tool_use", "id": "toolu_1", "name": "skill",
///                                "input": {"name": "pdf", "path": "reference.md"}});
/// let call = Provider::AnthropicMessages.skill_call(&block)?.expect("a call of `skill`");
/// assert_eq!(call.id, "toolu_1");
/// let outcome = call.call(&catalog); // the host may record `outcome`'s read here
/// assert_eq!(outcome.as_ref().unwrap().read.path, "reference.md");
/// let answer = call.result(&outcome);
/// assert_eq!(answer["content"], "Use pdfplumber");
/// # Ok::<(), skills_core::serve::providers::CallShapeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillCall {
    /// The provider whose reply held the call, and whose answer
    /// [`result`](Self::result) builds.
    pub provider: Provider,
    /// The call's id: `id` (Chat Completions, Anthropic) or `call_id`
    /// (Responses).
    pub id: String,
    /// The arguments as JSON text: as sent (Chat Completions, Responses),
    /// or Anthropic's `input` object written out.
    pub arguments: String,
}

impl SkillCall {
    /// Calls the tool with the arguments: [`Catalog::call_json`].
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// use skills_core::serve::providers::{Provider, SkillCall};
    /// let call = SkillCall { provider: Provider::Responses, id: "c".into(), arguments: r#"{"name":"pdf"}"#.into() };
    /// assert_eq!(call.call(&catalog)?.read.name, "pdf");
    /// # Ok::<(), skills_core::ToolError>(())
    /// ```
    pub fn call<'c>(&self, catalog: &'c Catalog<'_>) -> Result<Served<'c>, ToolError> {
        catalog.call_json(&self.arguments)
    }

    /// The provider's answer to this call for `outcome`: see
    /// [`Provider::result`].
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// use skills_core::serve::providers::{Provider, SkillCall};
    /// let call = SkillCall { provider: Provider::Responses, id: "c".into(), arguments: r#"{"name":"nope"}"#.into() };
    /// let answer = call.result(&call.call(&catalog));
    /// assert_eq!(answer["output"], r#"unknown skill "nope"; available skills: pdf, git-rebase"#);
    /// ```
    pub fn result(&self, outcome: &Result<Served<'_>, ToolError>) -> Value {
        self.provider.result(&self.id, outcome)
    }

    /// Calls the tool and answers: [`call`](Self::call), then
    /// [`result`](Self::result).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// use skills_core::serve::providers::{Provider, SkillCall};
    /// let call = SkillCall { provider: Provider::ChatCompletions, id: "c".into(), arguments: "[]".into() };
    /// let answer = call.serve(&catalog);
    /// assert_eq!(answer["content"], "invalid arguments: expected object, got array");
    /// ```
    pub fn serve(&self, catalog: &Catalog<'_>) -> Value {
        self.result(&self.call(catalog))
    }
}

impl Provider {
    /// Every provider, in declaration order.
    ///
    /// ```
    /// use skills_core::serve::providers::Provider;
    /// let tool = skills_core::ToolDefinition::default();
    /// for provider in Provider::ALL {
    ///     assert!(provider.tool(&tool).to_string().contains(r#""skill""#));
    /// }
    /// ```
    pub const ALL: [Provider; 3] = [
        Provider::ChatCompletions,
        Provider::Responses,
        Provider::AnthropicMessages,
    ];

    /// The tool as an entry of the request's `tools` array, with the schema
    /// from [`ToolDefinition::schema`].
    ///
    /// ```
    /// use skills_core::serve::providers::Provider;
    /// let tool = skills_core::ToolDefinition::default();
    /// let entry = Provider::Responses.tool(&tool);
    /// assert_eq!((&entry["type"], &entry["name"], &entry["strict"]), (&"function".into(), &"skill".into(), &false.into()));
    /// assert_eq!(Provider::ChatCompletions.tool(&tool)["function"]["parameters"], tool.schema());
    /// ```
    pub fn tool(self, definition: &ToolDefinition<'_>) -> Value {
        let (name, description, schema) =
            (definition.name, definition.description, definition.schema());
        match self {
            Provider::ChatCompletions => json!({
                "type": "function",
                "function": {"name": name, "description": description, "parameters": schema},
            }),
            Provider::Responses => json!({
                "type": "function",
                "name": name,
                "description": description,
                "parameters": schema,
                "strict": false,
            }),
            Provider::AnthropicMessages => json!({
                "name": name,
                "description": description,
                "input_schema": schema,
            }),
        }
    }

    /// Reads one tool call as this provider writes it: an entry of a Chat
    /// Completions assistant message's `tool_calls`, a Responses output
    /// item, or an Anthropic content block. `Ok(None)` for a call of
    /// another tool, or an item that is not a tool call (a Responses
    /// `message` item, an Anthropic `text` block), which the host routes
    /// elsewhere; an error for a call of `skill` without its id, or with
    /// arguments of the wrong type.
    ///
    /// Arguments that are not valid for the tool are not an error here:
    /// [`SkillCall::call`] answers them with the tool's refusal, for the
    /// model. A Chat Completions call whose `arguments` is an object rather
    /// than a string (as some compatible servers send) is read as that
    /// object written out; missing arguments read as empty text.
    ///
    /// ```
    /// use skills_core::serve::providers::Provider;
    /// let item = serde_json::json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
    ///                               "name": "skill", "arguments": "{\"name\":\"pdf\"}"});
    /// let call = Provider::Responses.skill_call(&item)?.unwrap();
    /// assert_eq!((call.id.as_str(), call.arguments.as_str()), ("call_1", r#"{"name":"pdf"}"#));
    /// let other = serde_json::json!({"type": "function_call", "call_id": "c", "name": "search", "arguments": "{}"});
    /// assert!(Provider::Responses.skill_call(&other)?.is_none());
    /// # Ok::<(), skills_core::serve::providers::CallShapeError>(())
    /// ```
    pub fn skill_call(self, call: &Value) -> Result<Option<SkillCall>, CallShapeError> {
        let shape = self.shape();
        let kind = match call.get("type") {
            // Chat Completions' `type` may be left out: `function` is the one kind.
            None if self == Provider::ChatCompletions => Some(shape.kind),
            kind => kind.and_then(Value::as_str),
        };
        if kind != Some(shape.kind) {
            return Ok(None);
        }
        let string = |(pointer, field): (&str, &'static str)| {
            call.pointer(pointer)
                .and_then(Value::as_str)
                .ok_or(CallShapeError {
                    provider: self,
                    field,
                    expected: "string",
                })
        };
        if string(shape.name)? != TOOL_NAME {
            return Ok(None);
        }
        let id = string(shape.id)?;
        let (pointer, field) = shape.arguments;
        let arguments = match call.pointer(pointer) {
            None => String::new(),
            Some(Value::String(text)) if shape.arguments_text => text.clone(),
            Some(object @ Value::Object(_)) if shape.arguments_object => object.to_string(),
            Some(_) => {
                let expected = match (shape.arguments_text, shape.arguments_object) {
                    (true, true) => "string or object",
                    (true, false) => "string",
                    _ => "object",
                };
                return Err(CallShapeError {
                    provider: self,
                    field,
                    expected,
                });
            }
        };
        Ok(Some(SkillCall {
            provider: self,
            id: id.into(),
            arguments,
        }))
    }

    /// Where this provider's tool calls keep what [`skill_call`](Self::skill_call) reads.
    fn shape(self) -> CallShape {
        match self {
            Provider::ChatCompletions => CallShape {
                kind: "function",
                name: ("/function/name", "function.name"),
                id: ("/id", "id"),
                arguments: ("/function/arguments", "function.arguments"),
                arguments_text: true,
                arguments_object: true,
            },
            Provider::Responses => CallShape {
                kind: "function_call",
                name: ("/name", "name"),
                id: ("/call_id", "call_id"),
                arguments: ("/arguments", "arguments"),
                arguments_text: true,
                arguments_object: false,
            },
            Provider::AnthropicMessages => CallShape {
                kind: "tool_use",
                name: ("/name", "name"),
                id: ("/id", "id"),
                arguments: ("/input", "input"),
                arguments_text: false,
                arguments_object: true,
            },
        }
    }

    /// Every call of `skill` in a reply, in order: the response body of a
    /// Chat Completions request (its first choice's message; the assistant
    /// message alone is read too), a Responses request (its `output`
    /// items) or a Messages request (its `content` blocks). Empty when the
    /// model called no tool, or only others.
    ///
    /// ```
    /// use skills_core::serve::providers::Provider;
    /// let reply = serde_json::json!({"stop_reason": "tool_use", "content": [
    ///     {"type": "text", "text": "Reading the skill."},
    ///     {"type": "tool_use", "id": "toolu_1", "name": "skill", "input": {"name": "pdf"}},
    /// ]});
    /// let calls = Provider::AnthropicMessages.skill_calls(&reply)?;
    /// assert_eq!(calls.len(), 1);
    /// assert_eq!(calls[0].arguments, r#"{"name":"pdf"}"#);
    /// # Ok::<(), skills_core::serve::providers::CallShapeError>(())
    /// ```
    pub fn skill_calls(self, reply: &Value) -> Result<Vec<SkillCall>, CallShapeError> {
        let items = match self {
            Provider::ChatCompletions => {
                let message = reply.pointer("/choices/0/message").unwrap_or(reply);
                message.get("tool_calls")
            }
            Provider::Responses => reply.get("output"),
            Provider::AnthropicMessages => reply.get("content"),
        };
        let mut calls = Vec::new();
        for item in items.and_then(Value::as_array).into_iter().flatten() {
            if let Some(call) = self.skill_call(item)? {
                calls.push(call);
            }
        }
        Ok(calls)
    }

    /// The answer to the call `id` for `outcome`, as this provider takes it:
    ///
    /// - Chat Completions: the message `{"role": "tool", "tool_call_id",
    ///   "content"}` with the text; an image (which a tool message cannot
    ///   carry) is a text naming the file, its media type and size.
    /// - Responses: the input item `{"type": "function_call_output",
    ///   "call_id", "output"}` with the text, or an image as one
    ///   `input_image` part whose `image_url` is a `data:` URL.
    /// - Anthropic Messages: the block `{"type": "tool_result",
    ///   "tool_use_id", "content"}` with the text, or an image as one
    ///   `image` block of base64 data, and `"is_error": true` for a
    ///   refusal. It goes into the next user message's `content`.
    ///
    /// A refusal's content is [`ToolError`]'s text, with what it repeats of
    /// the call capped ([`ToolError::with_echo_capped`]).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// use skills_core::serve::providers::Provider;
    /// let outcome = catalog.call("pdf", Some("assets/logo.png"));
    /// let answer = Provider::AnthropicMessages.result("toolu_1", &outcome);
    /// assert_eq!(answer["content"][0]["source"]["media_type"], "image/png");
    /// let answer = Provider::ChatCompletions.result("call_1", &outcome);
    /// assert_eq!(
    ///     answer["content"],
    ///     r#"file "assets/logo.png" is an image (image/png, 8 bytes), which an OpenAI Chat Completions tool message cannot carry"#,
    /// );
    /// ```
    pub fn result(self, id: &str, outcome: &Result<Served<'_>, ToolError>) -> Value {
        let (content, is_error) = match outcome {
            Ok(served) => (self.content(served), false),
            // What the error repeats of the model's call is capped, as
            // the MCP server caps it: a 10 MB name gives a short reply.
            Err(error) => (
                Value::String(error.clone().with_echo_capped().to_string()),
                true,
            ),
        };
        match self {
            Provider::ChatCompletions => json!({
                "role": "tool",
                "tool_call_id": id,
                "content": content,
            }),
            Provider::Responses => json!({
                "type": "function_call_output",
                "call_id": id,
                "output": content,
            }),
            Provider::AnthropicMessages => {
                let mut block = json!({
                    "type": "tool_result",
                    "tool_use_id": id,
                    "content": content,
                });
                if is_error && let Value::Object(fields) = &mut block {
                    fields.insert("is_error".into(), Value::Bool(true));
                }
                block
            }
        }
    }

    /// What a successful call gives the model, in this provider's terms.
    fn content(self, served: &Served<'_>) -> Value {
        match served.reply {
            Reply::Text(text) => Value::String(text.into()),
            Reply::Image(image) => match self {
                Provider::ChatCompletions => {
                    let mut note = String::from("file ");
                    push_go_quoted(&mut note, served.read.path);
                    note.push_str(&alloc::format!(
                        " is an image ({}, {} bytes), which an {self} tool message cannot carry",
                        image.media_type,
                        image.bytes.len()
                    ));
                    Value::String(note)
                }
                Provider::Responses => json!([{
                    "type": "input_image",
                    "image_url": image.data_url(),
                }]),
                Provider::AnthropicMessages => json!([{
                    "type": "image",
                    "source": {
                        "type": "base64",
                        "media_type": image.media_type,
                        "data": image.base64(),
                    },
                }]),
            },
        }
    }
}
