//! The whole loop, without the network: a rig agent with the `skill` tool
//! talks to a scripted OpenAI-compatible endpoint on 127.0.0.1 through
//! rig's own Chat Completions client. The endpoint calls `skill`, then
//! answers; the tests check what the agent sent: the system prompt and the
//! tool in the first request, and tool results that are exactly what
//! `Catalog::call` serves.

use std::sync::{Arc, Mutex};

use rig_agent::AgentBuilder;
use rig_agent::agent::{AgentHook, HookContext, OutcomeAction, OutcomeEvent};
use rig_core::providers::openai::OpenAIConfig;
use serde_json::json;
use skills_rig::{SkillRead, SkillTool, SkillsAgentExt};
use skills_runtime::providers::Provider;
use skills_runtime::{Catalog, Embedded, Reply};
use skills_test_support::endpoint::{Endpoint, answer, text_of, tool_calls, tool_messages};

static SKILLS: Embedded = skills_runtime::include_skills!("../testdata/skills");

const PREAMBLE: &str = "You are a test agent.";

fn catalog() -> &'static Catalog<'static> {
    SKILLS.catalog().expect("the test skills decode")
}

/// Prompts an agent with the skills, over rig's Chat Completions client
/// pointed at `endpoint`.
async fn prompt(
    endpoint: &Endpoint,
    prompt: &str,
) -> Result<String, rig_agent::completion::PromptError> {
    let model = OpenAIConfig::new("test-key")
        .with_base_url(endpoint.base_url())
        .client()
        .chat("scripted-model");
    let agent = AgentBuilder::new(model)
        .preamble(PREAMBLE)
        .skills(SkillTool::from_embedded(&SKILLS).expect("decodes"))
        .default_max_turns(8)
        .build();
    Ok(agent.prompt(prompt).await?.output())
}

#[tokio::test]
async fn the_agent_calls_skill_and_answers() {
    let endpoint = Endpoint::start(vec![
        tool_calls(&[(
            "call_1",
            json!({"name": "pdf-forms", "path": "reference.md"}),
        )]),
        answer("Field names are in reference.md."),
    ]);
    let output = prompt(&endpoint, "How are the form's fields named?")
        .await
        .expect("the run ends with an answer");
    assert_eq!(output, "Field names are in reference.md.");

    let requests = endpoint.requests();
    assert_eq!(requests.len(), 2);
    let first = &requests[0];
    assert_eq!(first.line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(first.authorization.as_deref(), Some("Bearer test-key"));
    // The system prompt: the preamble, then the skills' prompt.
    let system = &first.body["messages"][0];
    assert_eq!(system["role"], "system");
    assert_eq!(
        text_of(system),
        format!("{PREAMBLE}\n{}", catalog().system_prompt())
    );
    // The tool, exactly as the raw Chat Completions shape declares it.
    assert_eq!(
        first.body["tools"],
        json!([Provider::ChatCompletions.tool(&catalog().tool_definition())])
    );
    // The tool result is exactly what the catalog serves.
    let results = tool_messages(&requests[1]);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].0, "call_1");
    assert_eq!(
        text_of(&results[0].1),
        catalog()
            .call("pdf-forms", Some("reference.md"))
            .unwrap()
            .reply
            .as_text()
            .unwrap()
    );
}

#[tokio::test]
async fn a_refusal_is_the_models_text_and_the_loop_goes_on() {
    let endpoint = Endpoint::start(vec![
        tool_calls(&[
            ("call_1", json!({"name": "pdf-form"})),
            (
                "call_2",
                json!({"name": "pdf-forms", "path": "../etc/passwd"}),
            ),
        ]),
        tool_calls(&[("call_3", json!({"name": "pdf-forms"}))]),
        answer("Done."),
    ]);
    let output = prompt(&endpoint, "Fill in form.pdf")
        .await
        .expect("an answer");
    assert_eq!(output, "Done.");

    let requests = endpoint.requests();
    assert_eq!(requests.len(), 3);
    let refusals = tool_messages(&requests[1]);
    let expected = [
        ("call_1", catalog().call("pdf-form", None).unwrap_err()),
        (
            "call_2",
            catalog()
                .call("pdf-forms", Some("../etc/passwd"))
                .unwrap_err(),
        ),
    ];
    assert_eq!(refusals.len(), 2);
    for ((id, message), (expected_id, error)) in refusals.iter().zip(&expected) {
        assert_eq!(id, expected_id);
        assert_eq!(text_of(message), error.to_string());
    }
    let served = tool_messages(&requests[2]);
    assert_eq!(served.len(), 3, "the history keeps the earlier results");
    assert_eq!(served[2].0, "call_3");
    assert_eq!(
        text_of(&served[2].1),
        catalog().lookup("pdf-forms").unwrap().instructions
    );
}

#[tokio::test]
async fn an_image_reaches_the_model_as_an_image_rig_can_send() {
    let endpoint = Endpoint::start(vec![
        tool_calls(&[(
            "call_1",
            json!({"name": "pdf-forms", "path": "assets/logo.png"}),
        )]),
        answer("A logo."),
    ]);
    assert_eq!(
        prompt(&endpoint, "What is the logo?")
            .await
            .expect("an answer"),
        "A logo."
    );
    let requests = endpoint.requests();
    let results = tool_messages(&requests[1]);
    let Ok(served) = catalog().call("pdf-forms", Some("assets/logo.png")) else {
        panic!("the logo is served")
    };
    let Reply::Image(image) = served.reply else {
        panic!("the logo is an image")
    };
    // rig moves a tool result's image to a user message right after the
    // tool messages, since a Chat Completions tool message carries text.
    assert_eq!(text_of(&results[0].1), "(see attached image)");
    let messages = requests[1].body["messages"].as_array().unwrap();
    let attached = messages.last().unwrap();
    assert_eq!(attached["role"], "user");
    let parts = attached["content"].as_array().unwrap();
    assert!(
        parts
            .iter()
            .any(|part| part["image_url"]["url"] == image.data_url().as_str()),
        "{attached}"
    );
}

/// A host's hook that keeps the `SkillRead` of every call of the tool.
struct Reads(Arc<Mutex<Vec<SkillRead>>>);

impl AgentHook for Reads {
    async fn on_outcome(&self, _ctx: &HookContext, event: OutcomeEvent<'_>) -> OutcomeAction {
        if let Some(Ok(Some(read))) = event.context.map(|context| context.result::<SkillRead>()) {
            self.0.lock().unwrap().push(read);
        }
        OutcomeAction::proceed()
    }
}

#[tokio::test]
async fn the_hosts_hooks_see_what_each_call_read() {
    let endpoint = Endpoint::start(vec![
        tool_calls(&[
            ("call_1", json!({"name": "git-rebase"})),
            ("call_2", json!({"name": "nope"})),
            (
                "call_3",
                json!({"name": "pdf-forms", "path": "scripts/fill.py"}),
            ),
        ]),
        answer("Read."),
    ]);
    let reads = Arc::new(Mutex::new(Vec::new()));
    let model = OpenAIConfig::new("test-key")
        .with_base_url(endpoint.base_url())
        .client()
        .chat("scripted-model");
    let agent = AgentBuilder::new(model)
        .skills(SkillTool::from_embedded(&SKILLS).expect("decodes"))
        .add_hook(Reads(Arc::clone(&reads)))
        .default_max_turns(4)
        .build();
    assert_eq!(
        agent.prompt("Read them").await.expect("an answer").output(),
        "Read."
    );
    let mut reads = reads.lock().unwrap().clone();
    // Calls of one turn may finish in any order.
    reads.sort_by(|a, b| a.name.cmp(&b.name));
    let expected: Vec<SkillRead> = [("git-rebase", None), ("pdf-forms", Some("scripts/fill.py"))]
        .into_iter()
        .map(|(name, path)| SkillRead::from(catalog().call(name, path).unwrap().read))
        .collect();
    assert_eq!(
        reads, expected,
        "one read per served call; the refusal read nothing"
    );
}
