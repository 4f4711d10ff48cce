//! The stdio loop as a client meets it: pipelined requests answered in
//! order, an over-size request answered with an error under its id (and the
//! server still serving), echoes capped, and the end of input ending the
//! serving cleanly.

use std::io::Cursor;

use serde_json::Value;
use skills_core::Catalog;
use skills_mcp_server::{Options, Server};

use crate::support;
use support::testdata_bundle as bundle;

fn run(catalog: &Catalog<'_>, options: Options, input: &[u8]) -> Vec<Value> {
    let mut server = Server::new(catalog, options).unwrap();
    let mut output = Vec::new();
    server
        .serve(Cursor::new(input), &mut output)
        .expect("serving ends cleanly at the end of input");
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("each reply is one JSON line"))
        .collect()
}

const HANDSHAKE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

#[test]
fn pipelined_requests_are_answered_in_order() {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let mut input = String::from(HANDSHAKE);
    input.push('\n');
    input.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    for id in 1..=200 {
        let method = ["ping", "resources/list", "tools/list", "nope"][id % 4];
        input.push_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"{method}\"}}\r\n"
        ));
    }
    let replies = run(&catalog, Options::default(), input.as_bytes());
    let ids: Vec<u64> = replies.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, (0..=200).collect::<Vec<u64>>());
    assert_eq!(replies[3]["error"]["code"], -32601); // id 3 asked for "nope"
}

#[test]
fn an_over_size_request_gets_an_error_and_serving_goes_on() {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let options = Options {
        max_request_bytes: 4096,
        ..Options::default()
    };
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{{\"uri\":\"{}\"}}}}",
        "x".repeat(100_000)
    );
    let input =
        format!("{HANDSHAKE}\n{huge}\n{{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}}\n");
    let replies = run(&catalog, options, input.as_bytes());
    assert_eq!(replies.len(), 3);
    assert_eq!(replies[1]["id"], 7);
    assert_eq!(replies[1]["error"]["code"], -32600);
    assert_eq!(
        replies[1]["error"]["message"],
        "Request too large: the limit is 4096 bytes a line"
    );
    assert_eq!(replies[2]["id"], 8);
    assert_eq!(replies[2]["result"], serde_json::json!({}));
}

#[test]
fn echoed_arguments_are_capped() {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let long = "y".repeat(200_000);
    let input = format!(
        "{HANDSHAKE}\n\
         {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"{long}\"}}\n\
         {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"skill\",\"arguments\":{{\"name\":\"{long}\"}}}}}}\n\
         {{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{{\"name\":\"{long}\"}}}}\n\
         {{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{{\"name\":\"skill\",\"arguments\":{{\"name\":\"git-rebase\",\"path\":\"{long}\"}}}}}}\n"
    );
    let replies = run(&catalog, Options::default(), input.as_bytes());
    assert_eq!(replies.len(), 5);
    for reply in &replies[1..] {
        let size = reply.to_string().len();
        assert!(
            size < 4096,
            "a reply of {size} bytes echoes too much: {reply}"
        );
    }
    assert_eq!(replies[1]["error"]["code"], -32601);
    let refused = &replies[2]["result"];
    assert_eq!(refused["isError"], true);
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("unknown skill \"yyy") && text.contains("more bytes)"),
        "{text}"
    );
    assert!(
        text.ends_with("available skills: csv-report, git-rebase, pdf-forms"),
        "{text}"
    );
    assert_eq!(replies[3]["result"]["isError"], true);
    assert_eq!(replies[4]["result"]["isError"], true);
}

#[test]
fn malformed_lines_get_json_rpc_errors_and_blank_lines_none() {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let input = format!(
        "{HANDSHAKE}\n\n   \n{{not json\n[1,2]\n{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}\n"
    );
    let replies = run(&catalog, Options::default(), input.as_bytes());
    assert_eq!(replies.len(), 3);
    assert_eq!(replies[1]["error"]["code"], -32700);
    assert_eq!(replies[2]["error"]["code"], -32600);
}

#[test]
fn ids_come_back_exactly_as_sent() {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let mut server = Server::new(&catalog, Options::default()).unwrap();
    server.handle(HANDSHAKE.as_bytes()).unwrap();
    for id in [
        "123456789012345678901234567890",
        "-98765432109876543210",
        "18446744073709551615",
        "-0",
        "0",
        "1.10",
        "2.5e3",
        "-7E-2",
        r#""abc""#,
        r#""""#,
    ] {
        let request = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        assert_eq!(
            server.handle(request.as_bytes()).unwrap(),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
        );
        // An error reply repeats it too, and so does the stateless entry.
        let request = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"nope"}}"#);
        assert!(
            server
                .handle_stateless(request.as_bytes())
                .unwrap()
                .starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"error":"#))
        );
    }
    // A request too large to read whole keeps its id as written.
    let options = Options {
        max_request_bytes: 64,
        ..Options::default()
    };
    let mut server = Server::new(&catalog, options).unwrap();
    let mut output = Vec::new();
    let long = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1.50,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}\n",
        "x".repeat(200)
    );
    server.serve(Cursor::new(long), &mut output).unwrap();
    assert!(
        String::from_utf8(output)
            .unwrap()
            .starts_with(r#"{"jsonrpc":"2.0","id":1.50,"error":"#)
    );
}

/// A mistyped skill name in a catalog of hundreds gets a short reply that
/// names a few close skills and how many there are, never every name.
#[test]
fn an_unknown_skill_reply_stays_small_in_a_large_catalog() {
    let root = std::env::temp_dir().join(format!("skills-mcp-many-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for at in 0..400 {
        let name = format!("team-skill-{at:03}");
        let dir = root.join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Skill number {at}.\n---\nDo it.\n"),
        )
        .unwrap();
    }
    let bytes = skills_build::Builder::new()
        .source(&root)
        .compile()
        .expect("the generated skills compile")
        .bytes;
    let _ = std::fs::remove_dir_all(&root);
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let server = Server::new(&catalog, Options::default()).unwrap();
    let call = |name: &str| -> Value {
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"skill","arguments":{{"name":"{name}"}}}}}}"#
        );
        let reply = server.handle_stateless(request.as_bytes()).unwrap();
        assert!(reply.len() < 600, "{} bytes: {reply}", reply.len());
        serde_json::from_str(&reply).unwrap()
    };
    let reply = call("team-skil-042");
    assert_eq!(reply["result"]["isError"], true);
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with(r#"unknown skill "team-skil-042"; 400 skills are available; closest names: team-skill-042"#),
        "{text}"
    );
    let text = call("zzz")["result"]["content"][0]["text"].clone();
    assert_eq!(
        text,
        r#"unknown skill "zzz"; 400 skills are available; none has a close name"#
    );
}

const ENVELOPE: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The replies of one stdio connection to `lines`.
fn session(lines: &[String]) -> Vec<Value> {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    run(&catalog, Options::default(), input.as_bytes())
}

#[test]
fn sep_2575_a_discover_without_the_envelope_opens_the_new_era_and_is_invalid_params() {
    let replies = session(&[
        r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}"#.to_owned(),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{{"_meta":{ENVELOPE}}}}}"#
        ),
    ]);
    assert_eq!(replies[0]["error"]["code"], -32602);
    assert_eq!(replies[1]["error"]["code"], -32602);
    assert_eq!(replies[2]["result"]["supportedVersions"][0], "2026-07-28");
    assert_eq!(
        replies.iter().map(|r| r["id"].clone()).collect::<Vec<_>>(),
        [1, 2, 3]
    );
}

#[test]
fn sep_2575_removed_methods_are_method_not_found_on_the_new_era() {
    let lines: Vec<String> = [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
    ]
    .iter()
    .enumerate()
    .map(|(id, method)| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{"_meta":{ENVELOPE}}}}}"#
        )
    })
    .collect();
    for reply in session(&lines) {
        assert_eq!(reply["error"]["code"], -32601, "{reply}");
    }
}

#[test]
fn sep_2164_an_unknown_resource_names_its_uri() {
    let replies = session(&[format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":"skill://nope/SKILL.md","_meta":{ENVELOPE}}}}}"#
    )]);
    assert_eq!(replies[0]["error"]["code"], -32602);
    assert_eq!(replies[0]["error"]["data"]["uri"], "skill://nope/SKILL.md");
}

#[test]
fn an_initialize_era_client_asking_for_skills_is_told_how_to_get_them() {
    let replies = session(&[
        HANDSHAKE.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"skills/list"}"#.to_owned(),
    ]);
    let error = &replies[1]["error"];
    assert_eq!(error["code"], -32601);
    assert_eq!(error["data"]["method"], "skills/list");
    let hint = error["data"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("server/discover") && hint.contains("--protocol-era modern"),
        "{hint}"
    );
}
