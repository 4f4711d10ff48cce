//! The authoring commands end to end: `new` makes a skill every route
//! accepts, `fmt --check` exits as CI needs, `fmt` rewrites only what it
//! understood, `pack` writes the same archive twice and refuses a failing
//! folder, and archives are sources of `build` and `check`.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support;
use support::tree;

fn skills_in(dir: &Path, args: &[&str]) -> Output {
    support::run_skills(Some(dir), args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    tree::scratch("authoring", name)
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

#[test]
fn new_makes_a_skill_every_route_accepts() {
    let tmp = scratch("new");
    let out = skills_in(&tmp, &["new", "invoice-reader", "skills"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let folder = tmp.join("skills/invoice-reader");
    let file = std::fs::read_to_string(folder.join("SKILL.md")).unwrap();
    assert!(
        file.starts_with("---\nname: invoice-reader\ndescription: "),
        "{file}"
    );
    assert!(file.contains("when to use it"), "{file}");
    // The reference commands.
    let out = skills_in(&tmp, &["validate", "skills/invoice-reader"]);
    assert_eq!(
        (code(&out), text(&out.stdout)),
        (0, "Valid skill: skills/invoice-reader\n".into())
    );
    assert_eq!(
        code(&skills_in(
            &tmp,
            &["read-properties", "skills/invoice-reader"]
        )),
        0
    );
    assert_eq!(
        code(&skills_in(&tmp, &["to-prompt", "skills/invoice-reader"])),
        0
    );
    // Ours: the gate refuses the placeholder description until the
    // author replaces it (and the hint says with what).
    let out = skills_in(&tmp, &["check", "skills"]);
    let err = text(&out.stdout);
    assert_eq!(code(&out), 1, "{err}");
    assert!(err.contains("error[description-placeholder]"), "{err}");
    assert!(
        err.contains("--> skills/invoice-reader/SKILL.md:3:"),
        "{err}"
    );
    assert!(
        err.contains("help: replace it with what the skill does"),
        "{err}"
    );
    let placeholder = file.lines().nth(2).unwrap();
    let file = file.replace(
        placeholder,
        "description: Reads totals from invoice PDFs. Use when the user asks what an invoice charges.",
    );
    std::fs::write(folder.join("SKILL.md"), &file).unwrap();
    let out = skills_in(&tmp, &["check", "skills"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("no problems"),
        "{}",
        text(&out.stdout)
    );
    let out = skills_in(&tmp, &["fmt", "--check", "skills"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert_eq!(
        code(&skills_in(&tmp, &["build", "skills", "-o", "dir.bin"])),
        0
    );
    let out = skills_in(&tmp, &["pack", "skills/invoice-reader"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert!(tmp.join("invoice-reader.skill").is_file());
    assert_eq!(
        code(&skills_in(&tmp, &["check", "invoice-reader.skill"])),
        0
    );
    let out = skills_in(
        &tmp,
        &["build", "invoice-reader.skill", "-o", "archive.bin"],
    );
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(tmp.join("dir.bin")).unwrap(),
        std::fs::read(tmp.join("archive.bin")).unwrap()
    );
    // And a build script's Builder.
    let compiled = skills_build::Builder::new()
        .source(tmp.join("skills"))
        .compile()
        .unwrap();
    assert!(compiled.warnings.is_empty(), "{:?}", compiled.warnings);
    // An existing folder is never touched.
    let out = skills_in(&tmp, &["new", "invoice-reader", "skills"]);
    assert_eq!(code(&out), 1);
    assert_eq!(
        std::fs::read_to_string(folder.join("SKILL.md")).unwrap(),
        file
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn new_refuses_a_name_with_the_validators_message() {
    let tmp = scratch("new-refuse");
    for (name, message) in [
        ("PDF", "Skill name 'PDF' must be lowercase"),
        ("a--b", "Skill name cannot contain consecutive hyphens"),
        ("-pdf", "Skill name cannot start or end with a hyphen"),
        (
            "pdf_forms",
            "Skill name 'pdf_forms' contains invalid characters. Only letters, digits, and hyphens are allowed.",
        ),
        ("a/b", "contains invalid characters"),
        (&"x".repeat(65), "exceeds 64 character limit (65 chars)"),
    ] {
        let out = skills_in(&tmp, &["new", "--", name]);
        assert_eq!(code(&out), 1, "{name}");
        assert!(
            text(&out.stderr).contains(message),
            "{name}: {}",
            text(&out.stderr)
        );
        assert!(!tmp.join(name).exists(), "{name} was created");
    }
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
    assert_eq!(code(&skills_in(&tmp, &["new", "a", "b", "c"])), 2);
    std::fs::remove_dir_all(&tmp).unwrap();
}

const MESSY: &str = "---\ndescription: \"Fills PDF forms. Use for PDF forms.\"\nmetadata:\n    version: '1.0'\nname: pdf\n---\r\n# PDF\r\n\r\nBody  \n";
const CANONICAL: &str = "---\nname: pdf\ndescription: Fills PDF forms. Use for PDF forms.\nmetadata:\n  version: '1.0'\n---\r\n# PDF\r\n\r\nBody  \n";

#[test]
fn fmt_check_exits_1_listing_what_would_change_and_fmt_writes_it() {
    let tmp = scratch("fmt");
    for name in ["pdf", "ok"] {
        std::fs::create_dir_all(tmp.join(name)).unwrap();
    }
    std::fs::write(tmp.join("pdf/SKILL.md"), MESSY).unwrap();
    std::fs::write(tmp.join("ok/SKILL.md"), CANONICAL.replace("pdf", "ok")).unwrap();
    let out = skills_in(&tmp, &["fmt", "--check", "."]);
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "./pdf/SKILL.md\n");
    assert_eq!(
        std::fs::read_to_string(tmp.join("pdf/SKILL.md")).unwrap(),
        MESSY
    );
    assert_eq!(code(&skills_in(&tmp, &["fmt", "--check", "ok"])), 0);
    let out = skills_in(&tmp, &["fmt", "pdf/SKILL.md"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(tmp.join("pdf/SKILL.md")).unwrap(),
        CANONICAL
    );
    let out = skills_in(&tmp, &["fmt", "--check", "."]);
    assert_eq!((code(&out), text(&out.stdout)), (0, String::new()));
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(tmp.join("pdf"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["SKILL.md"]);
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// Issue 20, finding 2: `fmt` writes through a symbolic link (the link
/// stays, its target gets the canonical text) and refuses a file with
/// several hard links (both names keep their text).
#[cfg(unix)]
#[test]
fn fmt_keeps_symbolic_and_hard_links() {
    let tmp = scratch("fmt-links");
    std::fs::create_dir_all(tmp.join("shared")).unwrap();
    std::fs::create_dir_all(tmp.join("pdf")).unwrap();
    std::fs::write(tmp.join("shared/pdf.md"), MESSY).unwrap();
    std::os::unix::fs::symlink("../shared/pdf.md", tmp.join("pdf/SKILL.md")).unwrap();
    // Named as a file (a folder source refuses a link out of itself).
    let out = skills_in(&tmp, &["fmt", "pdf/SKILL.md"]);
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let link = std::fs::symlink_metadata(tmp.join("pdf/SKILL.md")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert_eq!(
        std::fs::read_to_string(tmp.join("shared/pdf.md")).unwrap(),
        CANONICAL
    );
    std::fs::create_dir_all(tmp.join("doc")).unwrap();
    std::fs::write(tmp.join("doc/SKILL.md"), MESSY.replace("pdf", "doc")).unwrap();
    std::fs::hard_link(tmp.join("doc/SKILL.md"), tmp.join("doc-copy.md")).unwrap();
    let out = skills_in(&tmp, &["fmt", "doc"]);
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("2 hard links"),
        "{}",
        text(&out.stderr)
    );
    for name in ["doc/SKILL.md", "doc-copy.md"] {
        assert_eq!(
            std::fs::read_to_string(tmp.join(name)).unwrap(),
            MESSY.replace("pdf", "doc")
        );
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn fmt_reports_and_never_rewrites_what_it_cannot_read() {
    let tmp = scratch("fmt-bad");
    let cases = [
        (
            "broken",
            "---\nname: [broken]\ndescription: x\n---\n",
            "JSONesque",
        ),
        ("unclosed", "---\nname: unclosed\n", "not properly closed"),
        (
            "commented",
            "---\nname: commented # why\ndescription: x\n---\n",
            "comment",
        ),
    ];
    for (name, body, _) in cases {
        std::fs::create_dir_all(tmp.join(name)).unwrap();
        std::fs::write(tmp.join(name).join("SKILL.md"), body).unwrap();
    }
    for check in [true, false] {
        for (name, body, message) in cases {
            let args: Vec<&str> = if check {
                vec!["fmt", "--check", name]
            } else {
                vec!["fmt", name]
            };
            let out = skills_in(&tmp, &args);
            assert_eq!(code(&out), 1, "{name}");
            assert!(
                text(&out.stderr).contains(message),
                "{name}: {}",
                text(&out.stderr)
            );
            assert!(
                text(&out.stderr).contains(&format!("{name}/SKILL.md")),
                "{}",
                text(&out.stderr)
            );
            assert_eq!(
                std::fs::read_to_string(tmp.join(name).join("SKILL.md")).unwrap(),
                body
            );
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn pack_writes_the_same_bytes_and_refuses_a_failing_folder() {
    let tmp = scratch("pack");
    let source = support::testdata("skills/pdf-forms");
    let source = source.to_str().unwrap();
    assert_eq!(
        code(&skills_in(&tmp, &["pack", source, "-o", "a.skill"])),
        0
    );
    assert_eq!(
        code(&skills_in(&tmp, &["pack", source, "--output", "b.skill"])),
        0
    );
    assert_eq!(
        std::fs::read(tmp.join("a.skill")).unwrap(),
        std::fs::read(tmp.join("b.skill")).unwrap()
    );
    std::fs::create_dir_all(tmp.join("Broken")).unwrap();
    std::fs::write(tmp.join("Broken/SKILL.md"), "---\nname: Broken\n---\n").unwrap();
    let out = skills_in(&tmp, &["pack", "Broken"]);
    assert_eq!(code(&out), 1);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("must be lowercase")
            && stderr.contains("Missing required field in frontmatter: description"),
        "{stderr}"
    );
    assert!(!tmp.join("Broken.skill").exists());
    std::fs::remove_dir_all(&tmp).unwrap();
}
