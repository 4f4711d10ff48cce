//! `rig-agent` end to end, without the network: the binary talks to a
//! scripted OpenAI-compatible endpoint on 127.0.0.1 that calls `skill`
//! twice, then answers; the answer is printed, and the endpoint saw the
//! system prompt, the tool, and tool results that are what the catalog serves.

use std::process::Command;

use serde_json::json;
use skills_runtime::providers::Provider;
use skills_runtime::{Catalog, Embedded};
use skills_test_support::endpoint::{Endpoint, answer, text_of, tool_calls, tool_messages};

static SKILLS: Embedded = skills_runtime::include_skills!("../../../testdata/skills");

fn catalog() -> &'static Catalog<'static> {
    SKILLS.catalog().expect("the test skills decode")
}

fn rig_agent(arguments: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rig-agent"))
        .args(arguments)
        .env("OPENAI_API_KEY", "test-key")
        .output()
        .expect("rig-agent runs")
}

#[test]
fn prints_the_answer_after_the_models_calls_of_skill() {
    let endpoint = Endpoint::start(vec![
        tool_calls(&[("call_1", json!({"name": "csv-report"}))]),
        tool_calls(&[(
            "call_2",
            json!({"name": "csv-report", "path": "templates/report.md"}),
        )]),
        answer("Here is your report."),
    ]);
    let output = rig_agent(&[
        "--base-url",
        &endpoint.base_url(),
        "--model",
        "scripted-model",
        "Make a report of sales.csv",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "Here is your report.\n"
    );

    let requests = endpoint.requests();
    assert_eq!(requests.len(), 3);
    let first = &requests[0].body;
    assert_eq!(first["model"], "scripted-model");
    assert!(
        text_of(&first["messages"][0]).ends_with(&format!("\n{}", catalog().system_prompt())),
        "{first}"
    );
    assert_eq!(
        first["tools"],
        json!([Provider::ChatCompletions.tool(&catalog().tool_definition())])
    );
    let results = tool_messages(&requests[2]);
    let served: Vec<String> = results
        .iter()
        .map(|(_, message)| text_of(message))
        .collect();
    let expected = [
        catalog().call("csv-report", None),
        catalog().call("csv-report", Some("templates/report.md")),
    ]
    .map(|outcome| outcome.unwrap().reply.as_text().unwrap().to_string());
    assert_eq!(served, expected);
}

#[test]
fn says_when_the_turn_budget_runs_out() {
    let endpoint = Endpoint::start(vec![
        tool_calls(&[("call_1", json!({"name": "git-rebase"}))]),
        tool_calls(&[("call_2", json!({"name": "git-rebase"}))]),
    ]);
    let output = rig_agent(&[
        "--base-url",
        &endpoint.base_url(),
        "--max-turns",
        "2",
        "Rebase",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("raise --max-turns"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn a_bad_command_line_gets_the_usage() {
    let output = rig_agent(&["no base url"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("rig-agent: --base-url is required\nusage: rig-agent --base-url URL"),
        "{stderr}"
    );
}
