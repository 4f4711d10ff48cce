//! Listings made a page at a time (issue 33): `skills/list`,
//! `resources/list` and `resources/directory/read` page from the bundle's
//! listing order, read only the skills on the page, take cursors from any
//! replica of the bundle, and list what a single listing lists, in the
//! reference's order; directory reads answer SEP-2640's examples.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use skills_build::Builder;
use skills_core::Catalog;
use skills_core::serve::paged::{PagedBundle, ReadAt, ReadAtError};
use skills_mcp_server::{Options, Server};

const ENVELOPE: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nSteps.\n")
}

/// SEP-2640's example skill (`pdf-processing`, with `templates/` holding
/// two files and `regional/`), `pdf` and `pdf-forms` (listed in the byte
/// order of their URIs: `pdf-forms` first), and `count` generated skills,
/// written to a scratch folder and compiled.
fn bundle(count: usize) -> Vec<u8> {
    let mut files: Vec<(String, String)> = vec![
        (
            "pdf-processing/SKILL.md".into(),
            skill_md(
                "pdf-processing",
                "Extract, fill, and assemble PDF documents",
            ),
        ),
        (
            "pdf-processing/references/FORMS.md".into(),
            "# Forms\n".into(),
        ),
        (
            "pdf-processing/scripts/extract.py".into(),
            "print('x')\n".into(),
        ),
        (
            "pdf-processing/templates/invoice.md".into(),
            "# Invoice\n".into(),
        ),
        (
            "pdf-processing/templates/purchase-order.md".into(),
            "# PO\n".into(),
        ),
        (
            "pdf-processing/templates/regional/eu-invoice.md".into(),
            "# EU\n".into(),
        ),
        ("pdf/SKILL.md".into(), skill_md("pdf", "Read PDF files.")),
        (
            "pdf-forms/SKILL.md".into(),
            skill_md("pdf-forms", "Fill PDF forms."),
        ),
    ];
    for at in 0..count {
        let name = format!("gen-{at:04}");
        files.push((format!("{name}/SKILL.md"), skill_md(&name, "Generated.")));
        files.push((format!("{name}/notes/a.md"), format!("note {at}\n")));
    }
    static BUNDLES: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "skills-mcp-listings-{}-{}",
        std::process::id(),
        BUNDLES.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in &files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let bytes = Builder::new()
        .source(&dir)
        .compile()
        .expect("the skills compile")
        .bytes;
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// Sends a new-era request and gives its reply.
fn ask(server: &Server<'_, '_>, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = serde_json::from_str(ENVELOPE).unwrap();
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let reply = server
        .handle_stateless(request.to_string().as_bytes())
        .expect("a reply");
    serde_json::from_str(&reply).unwrap()
}

/// Every page of a listing, following the cursors: the items and the
/// number of pages.
fn walk(server: &Server<'_, '_>, method: &str, key: &str, params: Value) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut params = params.clone();
        if let Some(cursor) = &cursor {
            params["cursor"] = Value::from(cursor.as_str());
        }
        let reply = ask(server, method, params);
        let result = &reply["result"];
        items.extend(result[key].as_array().expect("a listing").iter().cloned());
        pages += 1;
        match result.get("nextCursor").and_then(Value::as_str) {
            Some(next) => cursor = Some(next.to_owned()),
            None => return (items, pages),
        }
    }
}

fn options(page_size: usize) -> Options {
    Options {
        page_size,
        ..Options::default()
    }
}

#[test]
fn every_page_size_walks_to_the_single_listing_in_uri_order() {
    let bytes = bundle(23);
    let catalog = Catalog::open(&bytes).unwrap();
    let whole = Server::new(&catalog, options(10_000)).unwrap();
    let (skills, pages) = walk(&whole, "skills/list", "skills", json!({}));
    assert_eq!((skills.len(), pages), (26, 1));
    let (resources, _) = walk(&whole, "resources/list", "resources", json!({}));
    // The skills in the byte order of their SKILL.md URIs, as the
    // reference sorts them: pdf-forms before pdf.
    let uris: Vec<&str> = skills.iter().map(|s| s["uri"].as_str().unwrap()).collect();
    let mut sorted = uris.clone();
    sorted.sort_unstable();
    assert_eq!(uris, sorted);
    let at = |uri: &str| uris.iter().position(|u| *u == uri).unwrap();
    assert!(at("skill://pdf-forms/SKILL.md") < at("skill://pdf/SKILL.md"));
    // resources/list lists every manifest's files, in the same order.
    let files: Vec<&str> = skills
        .iter()
        .flat_map(|s| s["resources"].as_array().unwrap())
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    let listed: Vec<&str> = resources
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(listed, files);
    for page_size in [1, 2, 3, 7, 25, 26, 27] {
        let server = Server::lazy(&catalog, options(page_size));
        let (paged, pages) = walk(&server, "skills/list", "skills", json!({}));
        assert_eq!(paged, skills, "page size {page_size}");
        assert_eq!(pages, skills.len().div_ceil(page_size));
        let (paged, pages) = walk(&server, "resources/list", "resources", json!({}));
        assert_eq!(paged, resources, "page size {page_size}");
        assert_eq!(pages, resources.len().div_ceil(page_size));
    }
}

#[test]
fn cursors_hold_across_replicas_and_bad_ones_are_refused() {
    let bytes = bundle(5);
    let (one, two) = (
        Catalog::open(&bytes).unwrap(),
        Catalog::from_bytes(&bytes).unwrap(),
    );
    let small = Server::lazy(&one, options(2));
    let large = Server::lazy(&two, options(3));
    let first = ask(&small, "resources/list", json!({}));
    let cursor = first["result"]["nextCursor"].as_str().unwrap().to_owned();
    // The other replica (another page size) goes on from the same place.
    let next = ask(&large, "resources/list", json!({ "cursor": cursor }));
    let again = ask(&small, "resources/list", json!({ "cursor": cursor }));
    assert_eq!(
        next["result"]["resources"][0],
        again["result"]["resources"][0]
    );
    let skills = ask(&small, "skills/list", json!({}));
    let cursor = skills["result"]["nextCursor"].as_str().unwrap();
    assert_eq!(cursor, "skills-page-2");
    let next = ask(&large, "skills/list", json!({ "cursor": cursor }));
    assert_eq!(next["result"]["skills"].as_array().unwrap().len(), 3);
    for (method, cursor, message) in [
        ("skills/list", "skills-page-8", "Invalid skills cursor"),
        ("skills/list", "skills-page-02", "Invalid skills cursor"),
        ("skills/list", "resources-page-1-0", "Invalid skills cursor"),
        (
            "resources/list",
            "resources-page-99-0",
            "Invalid resources cursor",
        ),
        (
            "resources/list",
            "resources-page-1-9",
            "Invalid resources cursor",
        ),
        (
            "resources/list",
            "skills-page-1",
            "Invalid resources cursor",
        ),
    ] {
        let reply = ask(&small, method, json!({ "cursor": cursor }));
        assert_eq!(reply["error"]["code"], -32602, "{method} {cursor}");
        assert_eq!(reply["error"]["message"], message, "{method} {cursor}");
    }
}

/// The example of SEP-2640's "Reading Directories": the direct children of
/// `skill://pdf-processing/templates`, files as ordinary resources (here
/// with their size, and their digest in `_meta`) and `regional` as a
/// directory resource.
#[test]
fn directory_reads_answer_the_specifications_example() {
    let bytes = bundle(0);
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let server = Server::new(&catalog, Options::default()).unwrap();
    let discover = ask(&server, "server/discover", json!({}));
    assert_eq!(
        discover["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true})
    );
    let reply = ask(
        &server,
        "resources/directory/read",
        json!({"uri": "skill://pdf-processing/templates"}),
    );
    let result = &reply["result"];
    assert_eq!(result["resultType"], "complete");
    assert!(result.get("nextCursor").is_none());
    let shapes: Vec<Value> = result["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!({"uri": r["uri"], "name": r["name"], "mimeType": r["mimeType"]}))
        .collect();
    assert_eq!(
        shapes,
        [
            json!({"uri": "skill://pdf-processing/templates/invoice.md", "name": "invoice.md", "mimeType": "text/markdown"}),
            json!({"uri": "skill://pdf-processing/templates/purchase-order.md", "name": "purchase-order.md", "mimeType": "text/markdown"}),
            json!({"uri": "skill://pdf-processing/templates/regional", "name": "regional", "mimeType": "inode/directory"}),
        ]
    );
    // A file's entry is its resources/list entry, with its size and digest.
    let invoice = &result["resources"][0];
    assert_eq!(invoice["size"], 10);
    let manifest = ask(
        &server,
        "skills/get",
        json!({"uri": "skill://pdf-processing/SKILL.md"}),
    );
    let listed = manifest["result"]["skill"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == invoice["uri"])
        .unwrap()
        .clone();
    assert_eq!(invoice["_meta"]["io.agentskills/digest"], listed["digest"]);
    assert_eq!(invoice["size"], listed["size"]);
    assert_eq!(
        invoice["_meta"]["io.agentskills/publication"]["sourceStatus"],
        "unsigned"
    );
    // The skill's root: SKILL.md among its direct children, sorted by name.
    let root = ask(
        &server,
        "resources/directory/read",
        json!({"uri": "skill://pdf-processing"}),
    );
    let names: Vec<&str> = root["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    // SKILL.md is named after the skill, as resources/list names it.
    assert_eq!(
        names,
        ["pdf-processing", "references", "scripts", "templates"]
    );
    assert_eq!(
        root["result"]["resources"][0]["uri"],
        "skill://pdf-processing/SKILL.md"
    );
    let regional = ask(
        &server,
        "resources/directory/read",
        json!({"uri": "skill://pdf-processing/templates/regional"}),
    );
    assert_eq!(
        regional["result"]["resources"][0]["uri"],
        "skill://pdf-processing/templates/regional/eu-invoice.md"
    );
    // A skill without subfolders is a directory of one file.
    let pdf = ask(
        &server,
        "resources/directory/read",
        json!({"uri": "skill://pdf"}),
    );
    assert_eq!(pdf["result"]["resources"].as_array().unwrap().len(), 1);
}

#[test]
fn directory_reads_page_and_refuse_what_is_not_a_directory() {
    let bytes = bundle(0);
    let catalog = Catalog::open(&bytes).unwrap();
    let server = Server::lazy(&catalog, options(1));
    let (children, pages) = walk(
        &server,
        "resources/directory/read",
        "resources",
        json!({"uri": "skill://pdf-processing/templates"}),
    );
    assert_eq!((children.len(), pages), (3, 3));
    for (uri, message) in [
        (
            "skill://pdf-processing/SKILL.md",
            "skill://pdf-processing/SKILL.md is not a directory resource",
        ),
        (
            "skill://pdf-processing/templates/invoice.md",
            "skill://pdf-processing/templates/invoice.md is not a directory resource",
        ),
        (
            "skill://pdf-processing/templates/",
            "Unknown skill directory",
        ),
        ("skill://pdf-processing/nope", "Unknown skill directory"),
        (
            "skill://pdf-processing/%74emplates",
            "Unknown skill directory",
        ),
        ("skill://pdf-processing/../pdf", "Unknown skill directory"),
        ("skill://nope", "Unknown skill directory"),
        ("file:///etc", "Unknown skill directory"),
    ] {
        let reply = ask(&server, "resources/directory/read", json!({"uri": uri}));
        assert_eq!(reply["error"]["code"], -32602, "{uri}");
        assert_eq!(reply["error"]["message"], message, "{uri}");
    }
    let reply = ask(
        &server,
        "resources/directory/read",
        json!({"uri": "skill://pdf-processing/templates", "cursor": "directory-page-3"}),
    );
    assert_eq!(reply["error"]["message"], "Invalid directory cursor");
    let reply = ask(&server, "resources/directory/read", json!({}));
    assert_eq!(reply["error"]["code"], -32602);
    // The initialize era has no Skills extension, so no directory reads.
    let legacy = server
        .handle_stateless(br#"{"jsonrpc":"2.0","id":1,"method":"resources/directory/read","params":{"uri":"skill://pdf"}}"#)
        .unwrap();
    assert!(legacy.contains("-32601"), "{legacy}");
}

/// A bundle read as a file is: counting the skills' reads.
struct Counted {
    bytes: Vec<u8>,
    reads: AtomicUsize,
}

impl ReadAt for Counted {
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadAtError> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        let start = offset as usize;
        buf.copy_from_slice(&self.bytes[start..start + buf.len()]);
        Ok(())
    }
}

/// A page reads the page's skills and no others, and keeps none: a walk
/// through every page of a paged bundle reads each skill once per listing.
#[test]
fn a_page_reads_only_its_skills() {
    let bytes = bundle(300);
    let len = bytes.len() as u64;
    let paged = PagedBundle::open(
        Counted {
            bytes,
            reads: AtomicUsize::new(0),
        },
        len,
    )
    .unwrap();
    let catalog = Catalog::paged(&paged).unwrap();
    let server = Server::lazy(&catalog, options(10));
    let reads = || paged.source().reads.load(Ordering::Relaxed);
    let opened = reads();
    let first = ask(&server, "skills/list", json!({}));
    assert_eq!(first["result"]["skills"].as_array().unwrap().len(), 10);
    assert_eq!(reads() - opened, 10, "one read a skill of the page");
    let before = reads();
    let (all, _) = walk(&server, "skills/list", "skills", json!({}));
    assert_eq!(all.len(), 303);
    assert_eq!(reads() - before, 303, "each skill once, none kept");
    let before = reads();
    ask(
        &server,
        "skills/get",
        json!({"uri": "skill://gen-0150/SKILL.md"}),
    );
    ask(
        &server,
        "resources/directory/read",
        json!({"uri": "skill://gen-0150/notes"}),
    );
    assert_eq!(reads() - before, 2);
    // A read keeps the skill: the second read of it reads nothing.
    let read = ask(
        &server,
        "resources/read",
        json!({"uri": "skill://gen-0150/notes/a.md"}),
    );
    assert_eq!(read["result"]["contents"][0]["text"], "note 150\n");
    let before = reads();
    ask(
        &server,
        "resources/read",
        json!({"uri": "skill://gen-0150/SKILL.md"}),
    );
    assert_eq!(reads(), before);
}

/// SEP-2640's "identical in content": a Claude Code skill's frontmatter
/// (testdata/mcp/claude-code, built for the host) is listed with each
/// plain scalar typed as YAML 1.2's core schema reads it, whether the
/// runtime derives the JSON from the frontmatter text or the bundle
/// stores it (the lists, a `yes` that 1.2 reads as text, a number).
#[test]
fn sep_2640_entries_carry_the_frontmatter_typed_as_yaml_1_2_reads_it() {
    let root = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/mcp/claude-code"
    ));
    let bytes = Builder::new()
        .source(root)
        .host(skills_build::Host::ClaudeCode)
        .compile()
        .expect("the Claude Code skills compile for claude-code")
        .bytes;
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let server = Server::new(&catalog, Options::default()).unwrap();
    let request = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{{"_meta":{ENVELOPE}}}}}"#
    );
    let reply: Value =
        serde_json::from_str(&server.handle_stateless(request.as_bytes()).unwrap()).unwrap();
    let frontmatter: Vec<&Value> = reply["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| &entry["frontmatter"])
        .collect();
    assert_eq!(
        frontmatter[0],
        &json!({
            "name": "code-review",
            "description": "Review a change for correctness, tests and naming before it is merged. Use when a pull request is ready for review.",
            "user-invocable": false,
            "model": "sonnet",
            "effort": "high",
            "paths": ["src/**", "tests/**"],
        })
    );
    assert_eq!(frontmatter[1]["disable-model-invocation"], true);
    assert_eq!(frontmatter[1]["argument-hint"], "[version]");
    assert_eq!(
        frontmatter[1]["allowed-tools"],
        json!(["Read", "Bash(git log:*)"])
    );
    assert_eq!(
        frontmatter[1]["metadata"],
        json!({"version": 2.0, "reviewed": "yes", "owner": "docs-team"})
    );
    // The manifest renders the same entries.
    let manifest: Value = serde_json::from_str(&catalog.manifest(None).unwrap()).unwrap();
    assert_eq!(manifest[1]["frontmatter"], *frontmatter[1]);
}
