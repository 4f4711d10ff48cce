//! The `skill` tool over a bundle built in the test: every call shape and
//! every error text.

use crate::support;

use skills_core::wire::bundle::SkillFileName;
use skills_core::{Catalog, Reply, Target, ToolError};
use support::{TestSkill, encode, hex, sample, sha256};

fn catalog(bytes: &[u8]) -> Catalog<'_> {
    Catalog::from_bytes(bytes).expect("sample bundle decodes")
}

fn error(catalog: &Catalog<'_>, name: &str, path: Option<&str>) -> String {
    catalog
        .call(name, path)
        .expect_err("the call fails")
        .to_string()
}

#[test]
fn catalog_texts_and_lookup() {
    let skills = sample();
    let bytes = encode(&skills);
    let catalog = catalog(&bytes);
    assert_eq!(
        catalog.names().collect::<Vec<_>>(),
        ["pdf", "git-rebase", "team:pdf", "lower"]
    );
    assert_eq!(catalog.len(), 4);
    assert!(catalog.prompt().starts_with(
        "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nFill &amp; extract &lt;PDF&gt; forms.\n</description>\n<location>\nskill://pdf/SKILL.md\n</location>\n</skill>\n"
    ));
    assert!(catalog.prompt().ends_with("</skill>\n</available_skills>"));
    assert_eq!(catalog.usage(), skills_core::USAGE);
    assert_eq!(
        catalog.usage(),
        "When a task matches a skill's description, call the `skill` tool with the skill's name to read its instructions and the list of its files, then call it again with a path to read a file. Follow the instructions before doing the task."
    );
    assert_eq!(
        catalog.system_prompt(),
        format!("{}\n\n{}", catalog.prompt(), catalog.usage())
    );

    let tool = catalog.tool_definition();
    assert_eq!(tool.name, "skill");
    assert_eq!(
        tool.description,
        "Read a skill's instructions, or one of its files. Call with the skill's name for its instructions and the list of its files; call with a name and a path for a file."
    );
    assert_eq!(
        tool.parameters,
        r#"{"type":"object","properties":{"name":{"type":"string","description":"The skill to read"},"path":{"type":"string","description":"A file inside the skill, as listed; omit for the instructions"}},"required":["name"]}"#
    );
    let schema: serde_json::Value = serde_json::from_str(tool.parameters).unwrap();
    assert_eq!(schema["required"], serde_json::json!(["name"]));

    let pdf = catalog.lookup("pdf").unwrap();
    assert_eq!(pdf.description, "Fill & extract <PDF> forms.");
    assert_eq!(pdf.license, Some("MIT"));
    assert_eq!(pdf.metadata_value("author"), Some("ada"));
    assert_eq!(pdf.metadata, [("author", "ada"), ("version", "1.0")]);
    assert_eq!(pdf.allowed_tools, Some("Bash(python:*) Read"));
    assert_eq!(
        pdf.rules
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["Bash(python:*)", "Read"]
    );
    assert_eq!(pdf.body(), skills[0].body);
    assert_eq!(
        catalog.lookup("team:pdf").unwrap().description,
        "The team's PDF skill."
    );
    assert!(catalog.lookup("PDF").is_none());
    assert!(catalog.lookup("pdf ").is_none());
    assert!(catalog.lookup("").is_none());
    assert_eq!(
        catalog.skills().iter().map(|s| s.name).collect::<Vec<_>>(),
        ["pdf", "git-rebase", "team:pdf", "lower"]
    );
}

#[test]
fn instructions_for_every_spelling_of_the_skill_file() {
    let skills = sample();
    let bytes = encode(&skills);
    let catalog = catalog(&bytes);
    let expected = "\n# PDF processing\n\n1. Extract.\n2. Report the tables.\n\nfiles:\n- .gitignore (6 bytes)\n- assets/blob.bin (1024 bytes)\n- assets/form.pdf (15 bytes)\n- assets/logo.png (33 bytes)\n- docs/SKILL.md (41 bytes)\n- reference.md (29 bytes)\n- scripts/extract.py (17 bytes)\n";
    for path in [
        None,
        Some(""),
        Some("SKILL.md"),
        Some("skill.md"),
        Some("Skill.Md"),
        Some("S\u{212A}ILL.md"),
    ] {
        let served = catalog.call("pdf", path).unwrap();
        assert_eq!(served.reply, Reply::Text(expected), "{path:?}");
        let read = served.read;
        assert_eq!(
            (read.name, read.location, read.path),
            ("pdf", "skill://pdf/SKILL.md", ""),
            "{path:?}"
        );
        assert_eq!(read.bytes, expected.len());
        assert_eq!(read.sha256.0, sha256(expected.as_bytes()));
        assert_eq!(read.sha256.to_string(), hex(&sha256(expected.as_bytes())));
        assert_eq!(
            read.frontmatter_sha256.0,
            sha256(skills[0].frontmatter.as_bytes())
        );
    }
    assert_eq!(
        catalog.call("git-rebase", None).unwrap().reply,
        Reply::Text("Do the minimal thing.\n\nfiles: none\n")
    );
    assert_eq!(
        catalog
            .call("team:pdf", Some("SKILL.md"))
            .unwrap()
            .reply
            .as_text(),
        Some("Team body.\n\nfiles:\n- notes.txt (11 bytes)\n")
    );
}

#[test]
fn the_claim_names_the_skill_file_as_loaded() {
    let bytes = encode(&sample());
    let catalog = catalog(&bytes);
    let upper = catalog.resolve("pdf", Some("skill.md")).unwrap();
    assert_eq!(
        (upper.file_name(), upper.path(), upper.target()),
        ("SKILL.md", "", Target::Instructions)
    );
    let lower = catalog.resolve("lower", Some("SKILL.MD")).unwrap();
    assert_eq!(lower.skill().skill_file, SkillFileName::Lower);
    assert_eq!((lower.file_name(), lower.path()), ("skill.md", ""));
    let nested = catalog.resolve("pdf", Some("docs/SKILL.md")).unwrap();
    assert!(matches!(nested.target(), Target::File(file) if file.path == "docs/SKILL.md"));
    assert_eq!(
        (nested.file_name(), nested.path()),
        ("docs/SKILL.md", "docs/SKILL.md")
    );
    assert_eq!(
        catalog.call("pdf", Some("docs/SKILL.md")).unwrap().reply,
        Reply::Text("A nested skill file is an ordinary file.\n")
    );
}

#[test]
fn resolve_then_serve_is_call() {
    let bytes = encode(&sample());
    let catalog = catalog(&bytes);
    for path in [
        None,
        Some("reference.md"),
        Some("assets/logo.png"),
        Some(".gitignore"),
    ] {
        let resolution = catalog.resolve("pdf", path).unwrap();
        assert!(resolution.is_servable());
        let expected_read = resolution.read();
        let served = catalog.serve(resolution).unwrap();
        assert_eq!(served.read, expected_read);
        assert_eq!(served, catalog.call("pdf", path).unwrap());
        assert_eq!(resolution.bytes().len(), served.read.bytes);
        assert_eq!(sha256(resolution.bytes()), served.read.sha256.0);
    }
    let binary = catalog.resolve("pdf", Some("assets/form.pdf")).unwrap();
    assert!(!binary.is_servable());
    assert_eq!(binary.read().bytes, 15);
    assert_eq!(
        catalog.serve(binary).unwrap_err(),
        catalog.call("pdf", Some("assets/form.pdf")).unwrap_err()
    );
}

#[test]
fn files_are_served_from_the_bundle_bytes() {
    let skills = sample();
    let bytes = encode(&skills);
    let catalog = catalog(&bytes);
    let inside = |ptr: *const u8| bytes.as_ptr_range().contains(&ptr);

    let served = catalog.call("pdf", Some("reference.md")).unwrap();
    let text = served.reply.as_text().unwrap();
    assert_eq!(text, "# Reference\n\nUse pdfplumber.\n");
    assert!(inside(text.as_ptr()), "text is borrowed, not copied");
    assert_eq!(served.read.path, "reference.md");
    assert_eq!(served.read.bytes, text.len());
    assert_eq!(served.read.sha256.0, sha256(text.as_bytes()));

    let served = catalog.call("pdf", Some("assets/logo.png")).unwrap();
    let image = served.reply.as_image().unwrap();
    assert_eq!(image.media_type, "image/png");
    assert_eq!(image.bytes, support::PNG);
    assert!(inside(image.bytes.as_ptr()));
    assert_eq!(served.read.bytes, support::PNG.len());
    assert_eq!(
        served.read.sha256.0,
        sha256(support::PNG),
        "the image is hashed before base64"
    );
    let expected_base64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ";
    assert_eq!(image.base64(), expected_base64);
    assert_eq!(
        image.data_url(),
        format!("data:image/png;base64,{expected_base64}")
    );

    assert_eq!(
        catalog.call("pdf", Some(".gitignore")).unwrap().reply,
        Reply::Text("*.tmp\n")
    );
    assert_eq!(
        catalog
            .call("pdf", Some("scripts/extract.py"))
            .unwrap()
            .reply,
        Reply::Text("print('extract')\n")
    );
    let instructions = catalog.call("pdf", None).unwrap().reply.as_text().unwrap();
    assert!(inside(instructions.as_ptr()));
}

#[test]
fn binary_files_are_refused_with_size_and_type() {
    let bytes = encode(&sample());
    let catalog = catalog(&bytes);
    assert_eq!(
        error(&catalog, "pdf", Some("assets/blob.bin")),
        r#"file "assets/blob.bin" is 1024 bytes of application/octet-stream, which cannot be shown as text or an image"#
    );
    assert_eq!(
        catalog.call("pdf", Some("assets/form.pdf")).unwrap_err(),
        ToolError::NotShowable {
            path: "assets/form.pdf".into(),
            size: 15,
            media_type: "application/pdf".into()
        }
    );
}

#[test]
fn unknown_skill_lists_the_names_in_catalog_order() {
    let bytes = encode(&sample());
    let catalog = catalog(&bytes);
    assert_eq!(
        error(&catalog, "pfd", None),
        r#"unknown skill "pfd"; available skills: pdf, git-rebase, team:pdf, lower"#
    );
    assert_eq!(
        error(&catalog, "PDF", Some("reference.md")),
        r#"unknown skill "PDF"; available skills: pdf, git-rebase, team:pdf, lower"#
    );
    assert_eq!(
        error(&catalog, "", None),
        r#"unknown skill ""; available skills: pdf, git-rebase, team:pdf, lower"#
    );
    assert_eq!(
        error(&catalog, "say \"hi\"\n\u{7f}", None),
        r#"unknown skill "say \"hi\"\n\x7f"; available skills: pdf, git-rebase, team:pdf, lower"#
    );
    assert_eq!(
        catalog.call("x", None).unwrap_err(),
        ToolError::UnknownSkill {
            name: "x".into(),
            listed: vec![
                "pdf".into(),
                "git-rebase".into(),
                "team:pdf".into(),
                "lower".into()
            ],
            total: 4,
        }
    );

    let empty = encode(&[]);
    let empty = Catalog::from_bytes(&empty).unwrap();
    assert_eq!(empty.prompt(), "<available_skills>\n</available_skills>");
    assert_eq!(
        error(&empty, "pdf", None),
        r#"unknown skill "pdf"; available skills: none"#
    );
}

/// Past a handful of skills the error names a few close ones and how
/// many there are, never the whole catalog: its size does not grow with
/// the catalog's.
#[test]
fn unknown_skill_in_a_large_catalog_names_a_few_close_ones() {
    let skills: Vec<TestSkill> = (0..5000)
        .map(|at| TestSkill::new(&format!("skill-{at:04}"), "A skill.", "Body.\n"))
        .chain([
            TestSkill::new("pdf-forms", "Forms.", "Body.\n"),
            TestSkill::new("pdf-tables", "Tables.", "Body.\n"),
        ])
        .collect();
    let bytes = encode(&skills);
    let catalog = catalog(&bytes);
    assert_eq!(
        error(&catalog, "pdf-form", None),
        r#"unknown skill "pdf-form"; 5002 skills are available; closest names: pdf-forms"#
    );
    assert_eq!(
        error(&catalog, "zzz", None),
        r#"unknown skill "zzz"; 5002 skills are available; none has a close name"#
    );
    let close = error(&catalog, "skill-12345", None);
    assert!(
        close.starts_with(
            r#"unknown skill "skill-12345"; 5002 skills are available; closest names: skill-"#
        ),
        "{close}"
    );
    assert_eq!(
        close.matches(", ").count(),
        4,
        "five names at most: {close}"
    );
    assert!(close.len() < 200, "{close}");
    match catalog.call("skill-12345", None).unwrap_err() {
        ToolError::UnknownSkill { listed, total, .. } => {
            assert_eq!((listed.len(), total), (5, 5002));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_path_lists_the_files() {
    let bytes = encode(&sample());
    let catalog = catalog(&bytes);
    assert_eq!(
        error(&catalog, "pdf", Some("missing.md")),
        r#"skill "pdf" has no file "missing.md"; files: .gitignore, assets/blob.bin, assets/form.pdf, assets/logo.png, docs/SKILL.md, reference.md, scripts/extract.py"#
    );
    // A directory is not a file; nor is a differently cased path.
    assert!(
        error(&catalog, "pdf", Some("assets"))
            .starts_with(r#"skill "pdf" has no file "assets"; files: .gitignore, "#)
    );
    assert!(
        error(&catalog, "pdf", Some("Reference.md"))
            .starts_with(r#"skill "pdf" has no file "Reference.md"; "#)
    );
    assert_eq!(
        error(&catalog, "git-rebase", Some("a.md")),
        r#"skill "git-rebase" has no file "a.md"; files: none"#
    );
    assert_eq!(
        error(&catalog, "team:pdf", Some("notes.md")),
        r#"skill "team:pdf" has no file "notes.md"; files: notes.txt"#
    );
    assert_eq!(
        catalog.call("git-rebase", Some("x")).unwrap_err(),
        ToolError::NoSuchFile {
            skill: "git-rebase".into(),
            path: "x".into(),
            files: vec![]
        }
    );
}

#[test]
fn invalid_paths_are_refused_before_the_lookup() {
    let bytes = encode(&sample());
    let catalog = catalog(&bytes);
    for path in [
        "./reference.md",
        "..",
        "../x",
        "scripts/../reference.md",
        "/etc/passwd",
        "/reference.md",
        "scripts\\extract.py",
        "\\\\server\\share",
        "C:\\x",
        "scripts//extract.py",
        "scripts/",
        "SKILL.md/../x",
        "SKILL.md/",
        "./SKILL.md",
        ".",
        "/",
    ] {
        let expected = {
            let mut quoted = String::new();
            for c in path.chars() {
                if c == '\\' {
                    quoted.push_str("\\\\");
                } else {
                    quoted.push(c);
                }
            }
            format!(
                r#"invalid path "{quoted}": must be a relative path inside the skill, as listed"#
            )
        };
        assert_eq!(error(&catalog, "pdf", Some(path)), expected, "{path}");
        // Refused before the name is looked up: an unknown name gives the same error.
        assert_eq!(
            error(&catalog, "no-such-skill", Some(path)),
            expected,
            "{path}"
        );
        assert_eq!(
            catalog.resolve("pdf", Some(path)).unwrap_err(),
            ToolError::InvalidPath { path: path.into() }
        );
    }
}

#[test]
fn an_empty_skill_is_served() {
    let bytes = encode(&[TestSkill::new("e", "d", "")]);
    let catalog = catalog(&bytes);
    let served = catalog.call("e", None).unwrap();
    assert_eq!(served.reply, Reply::Text("\n\nfiles: none\n"));
    assert_eq!(catalog.lookup("e").unwrap().body(), "");
}

#[cfg(feature = "serde")]
#[test]
fn read_serializes_to_the_go_json_shape() {
    let skills = sample();
    let bytes = encode(&skills);
    let catalog = catalog(&bytes);
    let file = catalog.call("pdf", Some("reference.md")).unwrap().read;
    assert_eq!(
        serde_json::to_string(&file).unwrap(),
        format!(
            r#"{{"name":"pdf","location":"skill://pdf/SKILL.md","path":"reference.md","bytes":29,"sha256":"{}","frontmatter_sha256":"{}"}}"#,
            hex(&sha256(b"# Reference\n\nUse pdfplumber.\n")),
            hex(&sha256(skills[0].frontmatter.as_bytes()))
        )
    );
    let instructions = catalog.call("git-rebase", Some("SKILL.md")).unwrap().read;
    let json: serde_json::Value = serde_json::to_value(instructions).unwrap();
    // Sorted here: a workspace build that unifies serde_json's
    // `preserve_order` (rig-core, through skills-rig, turns it on) keeps the
    // fields in declaration order instead.
    let mut keys: Vec<_> = json.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        ["bytes", "frontmatter_sha256", "location", "name", "sha256"],
        "path is left out for the instructions"
    );
    assert_eq!(json["bytes"], 35);
}

#[cfg(feature = "json")]
mod json {
    use super::*;

    #[test]
    fn call_json_every_shape() {
        let bytes = encode(&sample());
        let catalog = catalog(&bytes);
        let ok = |json: &str| catalog.call_json(json).unwrap();
        assert_eq!(ok(r#"{"name":"pdf"}"#), catalog.call("pdf", None).unwrap());
        assert_eq!(
            ok(r#"{"name":"pdf","path":""}"#),
            catalog.call("pdf", None).unwrap()
        );
        assert_eq!(ok(r#"{"name":"pdf","path":"SKILL.md"}"#).read.path, "");
        assert_eq!(
            ok(r#"{"path":"reference.md","name":"pdf","extra":{"x":[1,2]}}"#)
                .read
                .path,
            "reference.md"
        );
        assert_eq!(
            ok("{\"name\":\"p\\u0064f\",\"path\":\"assets\\/logo.png\"}")
                .read
                .path,
            "assets/logo.png"
        );

        let err = |json: &str| catalog.call_json(json).unwrap_err().to_string();
        assert_eq!(
            err(""),
            r#"invalid arguments: missing required property "name""#
        );
        assert_eq!(
            err("{}"),
            r#"invalid arguments: missing required property "name""#
        );
        assert_eq!(
            err(r#"{"name":1}"#),
            "invalid arguments: name: expected string, got 1"
        );
        assert_eq!(
            err(r#"{"name":"pdf","path":7}"#),
            "invalid arguments: path: expected string, got 7"
        );
        assert!(err(r#"{"name":"pdf""#).starts_with("invalid arguments: not valid JSON: "));
        assert_eq!(
            err(r#"{"name":"pdf","path":"../x"}"#),
            r#"invalid path "../x": must be a relative path inside the skill, as listed"#
        );
        assert_eq!(
            err(r#"{"name":"nope"}"#),
            r#"unknown skill "nope"; available skills: pdf, git-rebase, team:pdf, lower"#
        );
        assert_eq!(
            catalog.call_json("[1]").unwrap_err(),
            ToolError::InvalidArguments {
                message: "expected object, got array".into()
            }
        );
    }
}

/// A read of the instructions (`call` with no path, `""` or `SKILL.md`)
/// is served from the skill's compact record, cached per slot of the name
/// index: it must give exactly what `resolve` then `serve` give, on the
/// first call and the later ones, lazily opened or not, for a name held
/// in the record and for one too long to be; names near a listed one
/// (a byte short, a byte changed) must still miss.
#[test]
fn instructions_fast_path_serves_what_resolve_and_serve_do() {
    let long = format!("{}-pdf", "q".repeat(70));
    let mut skills = sample();
    skills.push(TestSkill::new(&long, "Long name.", "Body.\n"));
    let bytes = encode(&skills);
    for catalog in [
        Catalog::open(&bytes).unwrap(),
        Catalog::from_bytes(&bytes).unwrap(),
    ] {
        for _pass in 0..2 {
            for skill in &skills {
                for path in [None, Some(""), Some("SKILL.md"), Some("skill.MD")] {
                    let fast = catalog.call(&skill.name, path).unwrap();
                    let resolution = catalog.resolve(&skill.name, path).unwrap();
                    assert_eq!(fast, catalog.serve(resolution).unwrap(), "{}", skill.name);
                    assert_eq!(fast.read.name, skill.name);
                }
            }
            for near in ["pdg", "pd", "pdf ", "team:pdF", &long[..long.len() - 1]] {
                assert!(
                    matches!(
                        catalog.call(near, None),
                        Err(ToolError::UnknownSkill { .. })
                    ),
                    "{near}"
                );
            }
        }
        let clone = catalog.clone();
        assert_eq!(
            clone.call(&long, None).unwrap(),
            catalog.call(&long, None).unwrap()
        );
    }
}

/// A tool error's text, and a provider's tool result, repeat at most about
/// 1 KiB of the model's own name or path, as the MCP server's reply does (issue 28, finding 6: a 10
/// MB unknown name came back whole); the lists that help the model stay.
#[test]
fn provider_results_cap_an_echoed_name_or_path() {
    use skills_core::serve::providers::Provider;
    use skills_core::serve::tool::MAX_ECHO_BYTES;
    let bytes = encode(&sample());
    let catalog = catalog(&bytes);
    let huge = "x".repeat(10_000_000);
    let huge_path = format!("{huge}.md");
    let bad_path = format!("../{huge}");
    let calls = [
        (
            catalog.call(&huge, None),
            "available skills: pdf, git-rebase",
        ),
        (catalog.call("pdf", Some(&huge_path)), "scripts/extract.py"),
        (
            catalog.call("pdf", Some(&bad_path)),
            "must be a relative path inside the skill, as listed",
        ),
        (
            catalog.call_json(&format!(r#"{{"name": 1{}}}"#, "0".repeat(10_000_000))),
            "",
        ),
    ];
    for (outcome, tail) in &calls {
        // Issue 40, item 7: the error's own text is capped too, as a host
        // that returns `error.to_string()` to the model shows it.
        let full = outcome.as_ref().unwrap_err().to_string();
        assert!(
            full.len() < MAX_ECHO_BYTES + 400,
            "the error's text repeats it all: {} bytes",
            full.len()
        );
        assert!(
            full.contains("more bytes)") && full.contains(tail),
            "{full}"
        );
        for provider in [
            Provider::ChatCompletions,
            Provider::Responses,
            Provider::AnthropicMessages,
        ] {
            let answer = provider.result("call_1", outcome);
            let text = answer
                .get("content")
                .or_else(|| answer.get("output"))
                .and_then(serde_json::Value::as_str)
                .expect("a refusal is text");
            assert!(
                text.len() < MAX_ECHO_BYTES + 400,
                "{provider}: {} bytes",
                text.len()
            );
            assert!(text.contains("more bytes)"), "{provider}: {text}");
            assert!(text.contains(tail), "{provider}: {text}");
        }
    }
}
