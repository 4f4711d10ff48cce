//! Replays testdata/mcp/requests.json against our server and compares each
//! reply with agentskills-mcp-server 0.7.0's, recorded in
//! testdata/mcp/recorded.json by scripts/record/mcp.sh over the same skills
//! (testdata/skills and testdata/mcp/skills). Replies are compared as
//! parsed JSON; the `skills` array of `skills/list` and the `skill` entry of
//! `skills/get` byte for byte. No Python is needed.
//!
//! The deliberate differences are listed in [`deliberate`], each with its
//! reason; everything else must be equal.

use std::path::Path;

use serde_json::Value;
use serde_json::value::RawValue;
use skills_core::Catalog;
use skills_mcp_server::{Options, Server};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bundle() -> Vec<u8> {
    skills_build::Builder::new()
        .source(root().join("testdata/skills"))
        .source(root().join("testdata/mcp/skills"))
        .compile()
        .unwrap_or_else(|e| panic!("the testdata skills compile: {e:?}"))
        .bytes
}

fn substitute(value: &Value, envelope: &Value, cursor: &Value) -> Value {
    match value {
        Value::String(s) if s == "$envelope" => envelope.clone(),
        Value::String(s) if s == "$nextCursor" => cursor.clone(),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), substitute(v, envelope, cursor)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| substitute(v, envelope, cursor))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Values that differ by design between any two runs of either server:
/// the catalog generation and the page cursors are opaque tokens (random
/// in the reference), and `serverInfo` names each server.
fn normalise(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                match key.as_str() {
                    "generation" | "nextCursor" if item.is_string() => {
                        *item = Value::from("<token>")
                    }
                    "io.modelcontextprotocol/serverInfo" | "serverInfo" => {
                        *item = Value::from("<server>")
                    }
                    _ => normalise(item),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalise),
        _ => {}
    }
}

/// The exchanges where we answer differently on purpose, and why; the test
/// checks that our reply still has the shape we promise there.
fn deliberate(name: &str, ours: &Value) -> Option<&'static str> {
    let result = &ours["result"];
    match name {
        "server/discover" => {
            // Our catalog never changes while served: no list-changed
            // notifications and no subscriptions are promised.
            assert_eq!(
                result["capabilities"]["resources"],
                serde_json::json!({"listChanged": false, "subscribe": false})
            );
            // And we read directories (SEP-2640's `resources/directory/read`).
            assert_eq!(
                result["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
                serde_json::json!({"directoryRead": true})
            );
            Some("capabilities: listChanged and subscribe are false; directoryRead is true")
        }
        "tools/list" => {
            assert_eq!(result["tools"][0]["name"], "skill");
            Some("we offer the skill tool")
        }
        "resources/directory/read skill://pdf-forms" => {
            let names: Vec<&str> = result["resources"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["name"].as_str().unwrap())
                .collect();
            assert_eq!(names, ["pdf-forms", "assets", "reference.md", "scripts"]);
            Some("we read directories (SEP-2640's directoryRead); the reference has no such method")
        }
        "tools/call skill" => {
            assert_eq!(result["isError"], false);
            assert_eq!(result["content"][0]["type"], "text");
            Some("we serve the skill tool")
        }
        "malformed JSON" => {
            assert_eq!(ours["error"]["code"], -32700);
            Some(
                "the reference stays silent on a line that is not JSON; JSON-RPC asks for a Parse error",
            )
        }
        "no method" => {
            assert_eq!(ours["error"]["code"], -32600);
            Some(
                "the reference stays silent on a request without a method; JSON-RPC asks for Invalid Request",
            )
        }
        _ => None,
    }
}

/// What we add to a reference error on purpose, checked and then taken
/// out so the rest is still compared with the reference's: `data.uri` on
/// an unknown resource (SEP-2164's SHOULD), and on an `initialize`-era
/// connection a `data` that says how to reach `skills/*` (the reference's
/// is the method's name). Returns whether anything was taken out.
fn strip_additions(sent: &Value, ours: &mut Value) -> bool {
    let Some(error) = ours.get_mut("error") else {
        return false;
    };
    match (error["code"].as_i64(), error["message"].as_str()) {
        (Some(-32602), Some("Unknown skill resource")) => {
            let uri = &sent["params"]["uri"];
            assert_eq!(&error["data"]["uri"], uri, "data.uri is the URI asked for");
            error.as_object_mut().unwrap().remove("data");
            true
        }
        (Some(-32601), Some("Method not found")) if error["data"].is_object() => {
            let method = sent["method"].clone();
            assert_eq!(error["data"]["method"], method);
            assert!(
                error["data"]["hint"]
                    .as_str()
                    .unwrap()
                    .contains("--protocol-era modern")
            );
            error["data"] = method;
            true
        }
        _ => false,
    }
}

/// The `skills` array or `skill` entry of a reply line, as raw text.
fn skills_bytes(line: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Reply<'a> {
        #[serde(borrow)]
        result: Option<Result<'a>>,
    }
    #[derive(serde::Deserialize)]
    struct Result<'a> {
        #[serde(borrow)]
        skills: Option<&'a RawValue>,
        #[serde(borrow)]
        skill: Option<&'a RawValue>,
    }
    let reply: Reply<'_> = serde_json::from_str(line).ok()?;
    let result = reply.result?;
    result
        .skills
        .or(result.skill)
        .map(|raw| raw.get().to_owned())
}

#[test]
fn replies_match_the_reference_server() {
    let requests = read_json("testdata/mcp/requests.json");
    let recorded = read_json("testdata/mcp/recorded.json");
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).expect("the bundle decodes");
    let envelope = &requests["envelope"];
    let mut compared = 0;
    let mut byte_compared = 0;
    let mut differences = Vec::new();
    let mut additions = 0;
    let mut failures = Vec::new();
    for (session, replies) in requests["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .zip(recorded["sessions"].as_array().unwrap())
    {
        let options = Options {
            page_size: session["page_size"].as_u64().unwrap() as usize,
            ..Options::default()
        };
        let mut server = Server::new(&catalog, options).expect("the catalog is servable");
        let mut cursor = Value::Null;
        let exchanges = session["exchanges"].as_array().unwrap();
        let replies = replies["replies"].as_array().unwrap();
        assert_eq!(
            exchanges.len(),
            replies.len(),
            "recording out of date: run scripts/record/mcp.sh"
        );
        for (exchange, recorded) in exchanges.iter().zip(replies) {
            let name = exchange["name"].as_str().unwrap();
            let label = format!("{} | {name}", session["name"].as_str().unwrap());
            let send = substitute(&exchange["send"], envelope, &cursor);
            let line = match &send {
                Value::String(raw) => raw.clone(),
                other => other.to_string(),
            };
            let ours_line = server.handle(line.as_bytes());
            let mut ours: Value = match &ours_line {
                Some(line) => serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{label}: our reply is not JSON: {e}")),
                None => Value::Null,
            };
            if let Some(next) = ours["result"].get("nextCursor") {
                cursor = next.clone();
            }
            compared += 1;
            if let Some(reason) = deliberate(name, &ours) {
                differences.push(format!("{label}: {reason}"));
                continue;
            }
            let mut theirs = recorded["reply"].clone();
            additions += usize::from(strip_additions(&send, &mut ours));
            normalise(&mut ours);
            normalise(&mut theirs);
            if ours != theirs {
                failures.push(format!(
                    "{label}\n  reference: {theirs}\n  ours:      {ours}"
                ));
                continue;
            }
            if let (Some(ours_line), Some(raw)) = (&ours_line, recorded["raw"].as_str()) {
                let (a, b) = (skills_bytes(ours_line), skills_bytes(raw));
                byte_compared += usize::from(b.is_some());
                if a != b {
                    failures.push(format!("{label}: the skills entries differ in bytes\n  reference: {b:?}\n  ours:      {a:?}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} replies differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 70, "only {compared} exchanges replayed");
    // skills/list (3 pages in all) and skills/get (5): compared byte for byte.
    assert_eq!(byte_compared, 8, "skills entries compared byte for byte");
    assert_eq!(
        differences.len(),
        8,
        "deliberate differences: {differences:#?}"
    );
    // data.uri on the 7 unknown resources, the hint on skills/list and
    // skills/get of the initialize era.
    assert_eq!(additions, 9, "deliberate additions");
}
