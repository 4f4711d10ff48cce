//! One vocabulary for the model: every tool that a text the model reads
//! names is a tool the server offers in `tools/list`. The texts: the tools'
//! descriptions, the usage paragraph, every skill's instructions (the
//! `skill` tool's reply), and, where agentskills-core's tools are offered,
//! every outline (`get_skill_outline`'s reply), every section and the
//! single-skill fast-path prompt.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};
use skills_core::features::core_tools::CORE_TOOLS;
use skills_core::features::fastpath::FAST_PATH_RESOURCE_INSTRUCTIONS;
use skills_core::{Catalog, USAGE};
use skills_mcp_server::{Options, Server};

fn bundle() -> Vec<u8> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata"));
    skills_build::Builder::new()
        .source(root.join("skills"))
        .source(root.join("core/skills"))
        .exclude("forms") // metadata that is not strings: no Skills-extension manifest
        .extensions(true)
        .compile()
        .expect("the testdata skills compile")
        .bytes
}

/// The tool names a text names: words of the shape `get_skill_*`,
/// `list_skill_*` or a backquoted `skill`.
fn named_tools(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '`')) {
        let bare = word.trim_matches('`');
        let is_tool = ["get_skill_", "list_skill_"]
            .iter()
            .any(|p| bare.starts_with(p))
            || word == "`skill`";
        if is_tool {
            names.insert(bare.to_owned());
        }
    }
    names
}

#[test]
fn the_word_finder_finds_tool_names() {
    let found = named_tools(
        "Call get_skill_body instead, or `list_skill_resources(skill_id)`; the `skill` tool.",
    );
    assert_eq!(
        found,
        ["get_skill_body", "list_skill_resources", "skill"]
            .map(String::from)
            .into()
    );
    assert!(named_tools(FAST_PATH_RESOURCE_INSTRUCTIONS).contains("get_skill_asset"));
}

struct Session<'s, 'a> {
    server: Server<'s, 'a>,
    next: u64,
}

impl Session<'_, '_> {
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let line = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
            .to_string();
        let reply = self.server.handle(line.as_bytes()).expect("a reply");
        serde_json::from_str::<Value>(&reply).unwrap()["result"].clone()
    }

    fn call(&mut self, name: &str, arguments: Value) -> String {
        let result = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        assert_eq!(result["isError"], false, "{name} {arguments}: {result}");
        result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

fn texts_and_tools(
    catalog: &Catalog<'_>,
    core_tools: bool,
) -> (Vec<(String, String)>, BTreeSet<String>) {
    let options = Options {
        core_tools,
        ..Options::default()
    };
    let mut session = Session {
        server: Server::new(catalog, options).unwrap(),
        next: 0,
    };
    session.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    let tools = session.request("tools/list", json!({}));
    let offered: BTreeSet<String> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect();
    let mut texts = vec![("usage".to_owned(), USAGE.to_owned())];
    for tool in tools["tools"].as_array().unwrap() {
        texts.push((
            format!("{} description", tool["name"]),
            tool["description"].as_str().unwrap().to_owned(),
        ));
    }
    for skill in catalog.skills() {
        texts.push((
            format!("skill({})", skill.name),
            session.call("skill", json!({"name": skill.name})),
        ));
        if !core_tools {
            continue;
        }
        let outline = session.call("get_skill_outline", json!({"skill_id": skill.name}));
        texts.push((format!("outline of {}", skill.name), outline));
        for section in &skill.outline().sections {
            let text = session.call(
                "get_skill_section",
                json!({"skill_id": skill.name, "key": section.key}),
            );
            texts.push((format!("section {} of {}", section.key, skill.name), text));
        }
        texts.push((
            format!("body of {}", skill.name),
            session.call("get_skill_body", json!({"skill_id": skill.name})),
        ));
        if let Some(fast) = catalog.fast_path(Some(&[skill.name]), u64::MAX) {
            texts.push((format!("fast path of {}", skill.name), fast.prompt()));
        }
    }
    (texts, offered)
}

fn assert_one_vocabulary(core_tools: bool) -> usize {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let (texts, offered) = texts_and_tools(&catalog, core_tools);
    let mut named_any = 0;
    for (what, text) in &texts {
        let named = named_tools(text);
        named_any += named.len();
        let missing: Vec<&String> = named.difference(&offered).collect();
        assert!(
            missing.is_empty(),
            "{what} names {missing:?}, which tools/list {offered:?} does not offer"
        );
    }
    named_any
}

#[test]
fn with_the_skill_tool_every_text_names_only_skill() {
    let named = assert_one_vocabulary(false);
    assert!(named > 0, "the usage text names `skill`");
}

#[test]
fn with_agentskills_core_tools_every_tool_the_texts_name_is_offered() {
    let named = assert_one_vocabulary(true);
    assert!(
        named > 10,
        "the outlines and fast paths name tools: {named}"
    );
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let offered = texts_and_tools(&catalog, true).1;
    for tool in CORE_TOOLS {
        assert!(
            offered.contains(tool.name()),
            "{} is not offered",
            tool.name()
        );
    }
}
