//! End to end: skill directories compiled into a bundle, decoded by the
//! runtime, and every tool call checked against the files themselves,
//! hashed here independently of the compiler.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};
use skills_build::Builder;
use skills_core::{Catalog, Reply};

use crate::support;

fn sha(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Every file under `dir`, relative paths with `/`, sorted by bytes.
fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        if entry.file_type().unwrap().is_dir() {
            walk(&entry.path(), &rel, out);
        } else {
            out.insert(rel, std::fs::read(entry.path()).unwrap());
        }
    }
}

/// The frontmatter lines and the body, cut at the fence lines, after
/// newline normalisation: written here from the file format, not from the
/// compiler.
fn cut(skill_file: &[u8]) -> (String, String) {
    let text = String::from_utf8(skill_file.to_vec())
        .unwrap()
        .replace("\r\n", "\n");
    let mut lines = text.split_inclusive('\n');
    assert_eq!(lines.next(), Some("---\n"));
    let mut frontmatter = String::new();
    for line in lines.by_ref() {
        if line.trim_end_matches('\n') == "---" {
            break;
        }
        frontmatter.push_str(line);
    }
    (frontmatter, lines.collect())
}

fn media(path: &str) -> Option<&'static str> {
    Some(match path.rsplit('.').next()? {
        "png" => "image/png",
        "gif" => "image/gif",
        "jpg" => "image/jpeg",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "bin" => "application/octet-stream",
        _ => return None,
    })
}

/// Checks every skill of `root` as served by `catalog`.
fn check_tree(root: &Path, catalog: &Catalog<'_>) -> usize {
    let mut dirs: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let names: Vec<String> = dirs
        .iter()
        .map(|d| d.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(catalog.names().collect::<Vec<_>>(), names);
    for (dir, name) in dirs.iter().zip(&names) {
        let mut files = BTreeMap::new();
        walk(dir, "", &mut files);
        let skill_file_name = if files.contains_key("SKILL.md") {
            "SKILL.md"
        } else {
            "skill.md"
        };
        let skill_file = files.remove(skill_file_name).unwrap();
        let (frontmatter, body) = cut(&skill_file);
        let mut instructions = body.clone();
        if !instructions.ends_with('\n') {
            instructions.push('\n');
        }
        instructions.push_str("\nfiles:");
        if files.is_empty() {
            instructions.push_str(" none\n");
        } else {
            instructions.push('\n');
            for (path, bytes) in &files {
                instructions.push_str(&format!("- {path} ({} bytes)\n", bytes.len()));
            }
        }
        let skill = catalog.lookup(name).unwrap();
        assert_eq!(skill.location, format!("skill://{name}/SKILL.md"));
        assert_eq!(skill.skill_file.as_str(), skill_file_name);
        assert_eq!(skill.body(), body, "{name}");
        assert_eq!(
            skill.frontmatter_sha256,
            sha(frontmatter.as_bytes()),
            "{name}"
        );
        assert_eq!(
            skill.instructions_sha256,
            sha(instructions.as_bytes()),
            "{name}"
        );
        for path in [None, Some(""), Some("SKILL.md"), Some("skill.MD")] {
            let served = catalog.call(name, path).unwrap();
            assert_eq!(served.reply, Reply::Text(&instructions), "{name} {path:?}");
            assert_eq!(served.read.path, "");
            assert_eq!(served.read.bytes, instructions.len());
            assert_eq!(served.read.sha256.0, sha(instructions.as_bytes()));
            assert_eq!(
                served.read.frontmatter_sha256.0,
                sha(frontmatter.as_bytes())
            );
        }
        let listed: Vec<&str> = skill.files.iter().map(|f| f.path).collect();
        assert_eq!(listed, files.keys().map(String::as_str).collect::<Vec<_>>());
        for (path, bytes) in &files {
            let entry = skill.file(path).unwrap();
            assert_eq!(entry.sha256, sha(bytes), "{name}/{path}");
            assert_eq!(entry.bytes(), bytes.as_slice());
            match (catalog.call(name, Some(path)), media(path)) {
                (Ok(served), Some(image)) if image.starts_with("image/") => {
                    let Reply::Image(got) = served.reply else {
                        panic!("{path}: not an image")
                    };
                    assert_eq!((got.media_type, got.bytes), (image, bytes.as_slice()));
                    assert_eq!(served.read.sha256.0, sha(bytes));
                    assert_eq!(served.read.path, path);
                }
                (Ok(served), None) => {
                    assert_eq!(
                        served.reply,
                        Reply::Text(std::str::from_utf8(bytes).unwrap()),
                        "{path}"
                    );
                    assert_eq!(served.read.sha256.0, sha(bytes));
                    assert_eq!(served.read.bytes, bytes.len());
                }
                (Err(error), Some(binary)) => assert_eq!(
                    error.to_string(),
                    format!(
                        "file \"{path}\" is {} bytes of {binary}, which cannot be shown as text or an image",
                        bytes.len()
                    )
                ),
                (other, kind) => panic!("{name}/{path}: {other:?} for {kind:?}"),
            }
        }
        let listing = if files.is_empty() {
            "none".to_string()
        } else {
            files.keys().cloned().collect::<Vec<_>>().join(", ")
        };
        assert_eq!(
            catalog
                .call(name, Some("missing.md"))
                .unwrap_err()
                .to_string(),
            format!("skill \"{name}\" has no file \"missing.md\"; files: {listing}")
        );
    }
    let unknown = catalog.call("no-such-skill", None).unwrap_err().to_string();
    if names.len() <= skills_core::UNKNOWN_SKILL_NAMES {
        assert_eq!(
            unknown,
            format!(
                "unknown skill \"no-such-skill\"; available skills: {}",
                names.join(", ")
            )
        );
    } else {
        assert!(
            unknown.starts_with(&format!(
                "unknown skill \"no-such-skill\"; {} skills are available; ",
                names.len()
            )),
            "{unknown}"
        );
    }
    names.len()
}

fn build(root: &Path) -> Vec<u8> {
    // The fixtures hold data files no instructions name, and terse
    // descriptions: lint notes, allowed here by name.
    let compiled = Builder::new()
        .source(root)
        .allow("file-unmentioned")
        .allow("description-without-when")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(compiled.warnings.is_empty(), "{:?}", compiled.warnings);
    compiled.bytes
}

#[test]
fn example_skills_serve_every_file() {
    let root = support::workspace().join("examples/serve-skills/skills");
    let bytes = build(&root);
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    assert_eq!(check_tree(&root, &catalog), 3);
    let pdf = catalog.lookup("pdf-forms").unwrap();
    assert_eq!(pdf.license, Some("MIT"));
    assert_eq!(pdf.metadata, [("author", "example"), ("version", "1.2")]);
    let rules: Vec<String> = pdf.rules.iter().map(ToString::to_string).collect();
    assert_eq!(rules, ["Read", "Bash(python3 scripts/fill_form.py:*)"]);
}

#[test]
fn testdata_skills_serve_every_file() {
    let root = support::workspace().join("testdata/bundle");
    let bytes = build(&root);
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    assert_eq!(check_tree(&root, &catalog), 4);
    let sink = catalog.lookup("kitchen-sink").unwrap();
    let rules: Vec<String> = sink.rules.iter().map(ToString::to_string).collect();
    assert_eq!(
        rules,
        ["Read", "Edit(./Finance (2024)/**)", "Bash(git log:*)"]
    );
    assert_eq!(
        sink.description,
        "Every kind of file a skill can carry: text, images, binaries, dotfiles & nested skill files."
    );
    let empty = catalog.lookup("empty-body").unwrap();
    assert_eq!(empty.instructions, "\n\nfiles: none\n");
    assert_eq!(
        (empty.license, empty.compatibility),
        (Some("Apache-2.0"), Some("Any agent."))
    );
    assert!(catalog.prompt().contains(
        "<description>\nEvery kind of file a skill can carry: text, images, binaries, dotfiles &amp; nested skill files.\n</description>"
    ));
    assert_eq!(
        catalog
            .call("kitchen-sink", Some("scripts/SKILL.md"))
            .unwrap()
            .reply,
        Reply::Text("A nested SKILL.md is an ordinary file.\n")
    );
}

#[test]
fn the_prompt_is_the_reference_shape() {
    let bytes = build(&support::workspace().join("examples/serve-skills/skills"));
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let expected =
        skills_core::features::prompt::render_available_skills(catalog.skills().iter().map(
            |skill| skills_core::features::prompt::PromptEntry {
                name: skill.name,
                description: skill.description,
                location: skill.location,
            },
        ));
    assert_eq!(catalog.prompt(), expected);
    assert_eq!(catalog.usage(), skills_core::USAGE);
    assert_eq!(
        catalog.tool_definition().parameters,
        skills_core::TOOL_SCHEMA
    );
}

#[test]
fn path_traversal_is_refused_before_lookup() {
    let bytes = build(&support::workspace().join("testdata/bundle"));
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    for path in [
        "../kitchen-sink/notes",
        "/etc/passwd",
        "docs\\guide.md",
        "docs//guide.md",
        "./notes",
        "SKILL.md/../notes",
        "docs/",
        "..",
    ] {
        for name in ["kitchen-sink", "unknown"] {
            let error = catalog.call(name, Some(path)).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "invalid path {path:?}: must be a relative path inside the skill, as listed"
                ),
            );
        }
    }
}

#[test]
fn location_base_and_source_locations() {
    let root = support::workspace().join("testdata/bundle");
    let compiled = Builder::new()
        .source(&root)
        .location_base("/opt/app/skills/")
        .compile()
        .unwrap();
    let catalog = Catalog::from_bytes(&compiled.bytes).unwrap();
    assert_eq!(
        catalog.lookup("lower-case").unwrap().location,
        "/opt/app/skills/lower-case/skill.md"
    );
    let read = catalog.call("crlf", None).unwrap().read;
    assert_eq!(read.location, "/opt/app/skills/crlf/SKILL.md");
    assert!(
        catalog
            .prompt()
            .contains("<location>\n/opt/app/skills/crlf/SKILL.md\n</location>")
    );
    let default = build(&root);
    let default = String::from_utf8_lossy(&default);
    assert!(
        !default.contains(root.to_str().unwrap()),
        "no build-machine path by default"
    );
}
