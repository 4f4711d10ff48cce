//! The `skill` tool in providers' JSON: each provider's `tools` entry, a
//! call read from a reply as the provider writes it, and the answer, whose
//! content must be exactly what `Catalog::call` serves; then a whole tool
//! loop per provider, with every request and reply written out as text and
//! read back (as an HTTP client and server would), and a scripted model in
//! between.

use serde_json::{Value, json};
use skills_runtime::providers::{CallShapeError, Provider, SkillCall};
use skills_runtime::{Catalog, Embedded, Reply};

static SKILLS: Embedded = skills_runtime::include_skills!("../testdata/skills");

fn catalog() -> &'static Catalog<'static> {
    SKILLS.catalog().expect("the test skills decode")
}

/// The schema the bundle carries, parsed on its own (not through the code
/// under test).
fn schema() -> Value {
    serde_json::from_str(catalog().tool_definition().parameters).expect("the schema is JSON")
}

/// The text `Catalog::call` serves for `name` and `path`.
fn served_text(name: &str, path: Option<&str>) -> &'static str {
    catalog()
        .call(name, path)
        .expect("served")
        .reply
        .as_text()
        .expect("text")
}

/// `value` written out and read back, as it crosses HTTP.
fn over_the_wire(value: &Value) -> Value {
    serde_json::from_str(&value.to_string()).expect("JSON reads back")
}

#[test]
fn tools_entries_are_each_providers_shape() {
    let definition = catalog().tool_definition();
    let description = definition.description;
    assert_eq!(
        over_the_wire(&Provider::ChatCompletions.tool(&definition)),
        json!({"type": "function", "function": {
            "name": "skill", "description": description, "parameters": schema(),
        }}),
    );
    assert_eq!(
        over_the_wire(&Provider::Responses.tool(&definition)),
        json!({"type": "function", "name": "skill", "description": description,
               "parameters": schema(), "strict": false}),
    );
    assert_eq!(
        over_the_wire(&Provider::AnthropicMessages.tool(&definition)),
        json!({"name": "skill", "description": description, "input_schema": schema()}),
    );
    assert_eq!(definition.schema(), schema());
}

#[test]
fn chat_completions_calls_are_read_from_the_reply_and_answered() {
    // A reply as Chat Completions writes it: the arguments are a JSON string.
    let reply = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null, "tool_calls": [
                {"id": "call_a", "type": "function", "function": {
                    "name": "search", "arguments": "{\"q\":\"pdf\"}"}},
                {"id": "call_b", "type": "function", "function": {
                    "name": "skill", "arguments": "{\"name\":\"pdf-forms\",\"path\":\"reference.md\"}"}},
                {"id": "call_c", "type": "function", "function": {
                    "name": "skill", "arguments": "{\"name\":\"nope\"}"}},
            ]}}],
    });
    let calls = Provider::ChatCompletions
        .skill_calls(&over_the_wire(&reply))
        .unwrap();
    assert_eq!(
        calls,
        [
            SkillCall {
                provider: Provider::ChatCompletions,
                id: "call_b".into(),
                arguments: r#"{"name":"pdf-forms","path":"reference.md"}"#.into(),
            },
            SkillCall {
                provider: Provider::ChatCompletions,
                id: "call_c".into(),
                arguments: r#"{"name":"nope"}"#.into(),
            },
        ]
    );
    assert_eq!(
        over_the_wire(&calls[0].serve(catalog())),
        json!({"role": "tool", "tool_call_id": "call_b",
               "content": served_text("pdf-forms", Some("reference.md"))}),
    );
    let refusal = catalog().call("nope", None).unwrap_err().to_string();
    assert!(refusal.starts_with(r#"unknown skill "nope"; available skills: "#));
    assert_eq!(
        calls[1].serve(catalog()),
        json!({"role": "tool", "tool_call_id": "call_c", "content": refusal}),
    );
}

#[test]
fn responses_calls_are_read_from_the_output_items_and_answered() {
    let reply = json!({
        "id": "resp_1", "object": "response", "status": "completed",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "message", "id": "msg_1", "role": "assistant",
             "content": [{"type": "output_text", "text": "Reading the skill."}]},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "skill",
             "arguments": "{\"name\":\"git-rebase\"}", "status": "completed"},
        ],
    });
    let calls = Provider::Responses
        .skill_calls(&over_the_wire(&reply))
        .unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(
        calls[0].id, "call_1",
        "the answer names call_id, not the item's id"
    );
    assert_eq!(
        over_the_wire(&calls[0].serve(catalog())),
        json!({"type": "function_call_output", "call_id": "call_1",
               "output": served_text("git-rebase", None)}),
    );
}

#[test]
fn anthropic_calls_are_read_from_the_content_blocks_and_answered() {
    // A reply as Messages writes it: the input is an object.
    let reply = json!({
        "id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "I'll read the skill."},
            {"type": "tool_use", "id": "toolu_1", "name": "skill",
             "input": {"name": "pdf-forms", "path": "scripts/fill.py"}},
            {"type": "tool_use", "id": "toolu_2", "name": "skill",
             "input": {"name": "pdf-forms", "path": "../secret"}},
        ],
    });
    let calls = Provider::AnthropicMessages
        .skill_calls(&over_the_wire(&reply))
        .unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        over_the_wire(&calls[0].serve(catalog())),
        json!({"type": "tool_result", "tool_use_id": "toolu_1",
               "content": served_text("pdf-forms", Some("scripts/fill.py"))}),
    );
    let refusal = catalog()
        .call("pdf-forms", Some("../secret"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        over_the_wire(&calls[1].serve(catalog())),
        json!({"type": "tool_result", "tool_use_id": "toolu_2",
               "content": refusal, "is_error": true}),
    );
}

#[test]
fn an_image_is_what_each_provider_takes() {
    let outcome = catalog().call("pdf-forms", Some("assets/logo.png"));
    let Ok(served) = &outcome else {
        panic!("the logo is served")
    };
    let Reply::Image(image) = served.reply else {
        panic!("the logo is an image")
    };
    assert_eq!(
        Provider::Responses.result("call_1", &outcome),
        json!({"type": "function_call_output", "call_id": "call_1",
               "output": [{"type": "input_image", "image_url": image.data_url()}]}),
    );
    assert_eq!(
        Provider::AnthropicMessages.result("toolu_1", &outcome),
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                         "data": image.base64()}}]}),
    );
    // A Chat Completions tool message carries text only: it says what was served.
    assert_eq!(
        Provider::ChatCompletions.result("call_1", &outcome),
        json!({"role": "tool", "tool_call_id": "call_1", "content": format!(
            r#"file "assets/logo.png" is an image (image/png, {} bytes), which an OpenAI Chat Completions tool message cannot carry"#,
            image.bytes.len())}),
    );
}

#[test]
fn arguments_the_tool_refuses_are_answered_not_errors() {
    for (provider, call) in [
        (
            Provider::ChatCompletions,
            json!({"id": "c", "function": {"name": "skill", "arguments": "{\"path\":\"x\"}"}}),
        ),
        (
            Provider::ChatCompletions,
            json!({"id": "c", "function": {"name": "skill"}}),
        ),
        (
            Provider::Responses,
            json!({"type": "function_call", "call_id": "c", "name": "skill", "arguments": ""}),
        ),
        (
            Provider::AnthropicMessages,
            json!({"type": "tool_use", "id": "c", "name": "skill", "input": {}}),
        ),
    ] {
        let call = provider
            .skill_call(&call)
            .unwrap()
            .expect("a call of skill");
        let text = catalog()
            .call_json(&call.arguments)
            .unwrap_err()
            .to_string();
        assert_eq!(
            text,
            r#"invalid arguments: missing required property "name""#
        );
        let answer = call.serve(catalog());
        let content = answer
            .get("content")
            .or_else(|| answer.get("output"))
            .unwrap();
        assert_eq!(content, text.as_str(), "{provider}");
    }
    // Some compatible servers send Chat Completions arguments as an object.
    let call =
        json!({"id": "c", "function": {"name": "skill", "arguments": {"name": "git-rebase"}}});
    let call = Provider::ChatCompletions
        .skill_call(&call)
        .unwrap()
        .unwrap();
    assert_eq!(
        call.serve(catalog())["content"],
        served_text("git-rebase", None)
    );
}

#[test]
fn calls_not_of_the_providers_shape_are_errors_naming_the_field() {
    let cases = [
        (
            Provider::ChatCompletions,
            json!({"type": "function", "function": {"arguments": "{}"}}),
            "function.name",
            "string",
        ),
        (
            Provider::ChatCompletions,
            json!({"function": {"name": "skill", "arguments": "{}"}}),
            "id",
            "string",
        ),
        (
            Provider::ChatCompletions,
            json!({"id": "c", "function": {"name": "skill", "arguments": 1}}),
            "function.arguments",
            "string or object",
        ),
        (
            Provider::Responses,
            json!({"type": "function_call", "id": "fc", "name": "skill", "arguments": "{}"}),
            "call_id",
            "string",
        ),
        (
            Provider::Responses,
            json!({"type": "function_call", "call_id": "c", "name": "skill", "arguments": {}}),
            "arguments",
            "string",
        ),
        (
            Provider::AnthropicMessages,
            json!({"type": "tool_use", "id": "t", "name": "skill", "input": "{}"}),
            "input",
            "object",
        ),
        (
            Provider::AnthropicMessages,
            json!({"type": "tool_use", "name": "skill", "input": {}}),
            "id",
            "string",
        ),
    ];
    for (provider, call, field, expected) in cases {
        assert_eq!(
            provider.skill_call(&call),
            Err(CallShapeError {
                provider,
                field,
                expected
            }),
            "{call}"
        );
    }
    let error = CallShapeError {
        provider: Provider::Responses,
        field: "call_id",
        expected: "string",
    };
    assert_eq!(
        error.to_string(),
        "an OpenAI Responses tool call has no string at `call_id`"
    );
    // Items that are not tool calls, and replies without any, give none.
    assert_eq!(
        Provider::Responses.skill_call(&json!({"type": "message"})),
        Ok(None)
    );
    assert_eq!(
        Provider::AnthropicMessages.skill_call(&json!({"type": "text", "text": "hi"})),
        Ok(None)
    );
    assert_eq!(
        Provider::ChatCompletions.skill_call(&json!({"type": "custom", "custom": {}})),
        Ok(None)
    );
    for provider in Provider::ALL {
        assert_eq!(provider.skill_calls(&json!({})), Ok(vec![]));
        assert_eq!(provider.skill_calls(&json!("text")), Ok(vec![]));
    }
}

/// What a scripted model saw and how the loop ended.
struct LoopRun {
    requests: Vec<Value>,
    answer: String,
}

/// Runs a tool loop against `model` the way a program speaking `provider`'s
/// JSON would: declare the tool, send, serve every call of `skill` in the
/// reply, send again, until the reply calls no tool. Requests and replies
/// cross as text.
fn tool_loop(provider: Provider, model: impl Fn(usize, &Value) -> Value) -> LoopRun {
    let catalog = catalog();
    let tools = json!([provider.tool(&catalog.tool_definition())]);
    let system = catalog.system_prompt();
    let mut history = match provider {
        Provider::ChatCompletions => vec![
            json!({"role": "system", "content": system}),
            json!({"role": "user", "content": "Fill in form.pdf"}),
        ],
        Provider::Responses => vec![json!({"role": "user", "content": "Fill in form.pdf"})],
        _ => vec![json!({"role": "user", "content": "Fill in form.pdf"})],
    };
    let mut requests = Vec::new();
    for turn in 0..8 {
        let request = match provider {
            Provider::ChatCompletions => json!({"model": "m", "messages": history, "tools": tools}),
            Provider::Responses => {
                json!({"model": "m", "instructions": system, "input": history, "tools": tools})
            }
            _ => json!({"model": "m", "max_tokens": 1024, "system": system,
                          "messages": history, "tools": tools}),
        };
        let request = over_the_wire(&request);
        let reply = over_the_wire(&model(turn, &request));
        requests.push(request);
        let calls = provider.skill_calls(&reply).expect("calls of our shape");
        if calls.is_empty() {
            let answer = match provider {
                Provider::ChatCompletions => reply.pointer("/choices/0/message/content"),
                Provider::Responses => reply.pointer("/output/0/content/0/text"),
                _ => reply.pointer("/content/0/text"),
            };
            return LoopRun {
                requests,
                answer: answer.and_then(Value::as_str).unwrap_or_default().into(),
            };
        }
        match provider {
            Provider::ChatCompletions => {
                history.push(reply["choices"][0]["message"].clone());
                history.extend(calls.iter().map(|call| call.serve(catalog)));
            }
            Provider::Responses => {
                history.extend(reply["output"].as_array().into_iter().flatten().cloned());
                history.extend(calls.iter().map(|call| call.serve(catalog)));
            }
            _ => {
                history.push(json!({"role": "assistant", "content": reply["content"]}));
                let results: Vec<Value> = calls.iter().map(|call| call.serve(catalog)).collect();
                history.push(json!({"role": "user", "content": results}));
            }
        }
    }
    panic!("the scripted model never stopped calling tools")
}

/// The first reply calls `skill` for pdf-forms' instructions, the second its
/// reference file, the third answers.
fn scripted_reply(provider: Provider, turn: usize) -> Value {
    let arguments = [
        json!({"name": "pdf-forms"}),
        json!({"name": "pdf-forms", "path": "reference.md"}),
    ];
    let id = format!("call_{turn}");
    match (provider, arguments.get(turn)) {
        (Provider::ChatCompletions, Some(arguments)) => json!({"choices": [{"message": {
            "role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function",
            "function": {"name": "skill", "arguments": arguments.to_string()}}]}}]}),
        (Provider::ChatCompletions, None) => json!({"choices": [{"message": {
            "role": "assistant", "content": "The form is filled."}}]}),
        (Provider::Responses, Some(arguments)) => json!({"output": [{"type": "function_call",
            "id": format!("fc_{turn}"), "call_id": id, "name": "skill",
            "arguments": arguments.to_string()}]}),
        (Provider::Responses, None) => json!({"output": [{"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "The form is filled."}]}]}),
        (_, Some(arguments)) => json!({"stop_reason": "tool_use", "content": [
            {"type": "tool_use", "id": id, "name": "skill", "input": arguments}]}),
        (_, None) => json!({"stop_reason": "end_turn", "content": [
            {"type": "text", "text": "The form is filled."}]}),
    }
}

#[test]
fn a_tool_loop_over_each_providers_json_serves_what_the_catalog_serves() {
    let instructions = served_text("pdf-forms", None);
    let reference = served_text("pdf-forms", Some("reference.md"));
    for provider in Provider::ALL {
        let run = tool_loop(provider, |turn, _| scripted_reply(provider, turn));
        assert_eq!(run.answer, "The form is filled.", "{provider}");
        assert_eq!(run.requests.len(), 3, "{provider}");
        let first = &run.requests[0];
        let last = &run.requests[2];
        let (system, tools, answers): (&Value, &Value, Vec<&Value>) = match provider {
            Provider::ChatCompletions => (
                &first["messages"][0]["content"],
                &first["tools"],
                last["messages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|message| message["role"] == "tool")
                    .map(|message| &message["content"])
                    .collect(),
            ),
            Provider::Responses => (
                &first["instructions"],
                &first["tools"],
                last["input"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|item| item["type"] == "function_call_output")
                    .map(|item| &item["output"])
                    .collect(),
            ),
            _ => (
                &first["system"],
                &first["tools"],
                last["messages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|message| message["content"].as_array().into_iter().flatten())
                    .filter(|block| block["type"] == "tool_result")
                    .map(|block| &block["content"])
                    .collect(),
            ),
        };
        assert_eq!(system, catalog().system_prompt().as_str(), "{provider}");
        assert!(system.as_str().unwrap().starts_with("<available_skills>"));
        assert_eq!(
            tools,
            &json!([provider.tool(&catalog().tool_definition())]),
            "{provider}"
        );
        assert_eq!(answers, [instructions, reference], "{provider}");
    }
}
