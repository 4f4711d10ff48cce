//! The `skills` commands of our own, end to end as a CI job runs them:
//! build a bundle, inspect it, sign and verify it (exit codes included),
//! and print revisions.

use std::path::{Path, PathBuf};
use std::process::Output;

use sha2::{Digest, Sha256};

use crate::support;
use support::tree;

fn skills(args: &[&str]) -> Output {
    support::run_skills(None, args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    tree::scratch("cli", name)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn build_then_inspect_shows_every_file_and_digest() {
    let dir = scratch("inspect");
    let bundle = dir.join("skills.bin");
    support::build_bundle(&support::testdata("skills"), &bundle);
    let out = skills(&["inspect", bundle.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains(&format!("format version {}", skills_core::FORMAT_VERSION)),
        "{report}"
    );
    for skill in ["csv-report", "git-rebase", "pdf-forms"] {
        assert!(report.contains(skill), "{skill} missing from {report}");
    }
    for file in [
        "pdf-forms/reference.md",
        "pdf-forms/scripts/fill.py",
        "pdf-forms/assets/logo.png",
        "csv-report/templates/report.md",
    ] {
        let bytes = std::fs::read(support::testdata("skills").join(file)).unwrap();
        let digest = hex(&Sha256::digest(&bytes));
        assert!(report.contains(&digest), "no digest of {file} in {report}");
    }
}

#[test]
fn build_fails_with_every_problem_and_writes_nothing() {
    let dir = scratch("bad");
    std::fs::create_dir_all(dir.join("skills/PDF")).unwrap();
    std::fs::write(
        dir.join("skills/PDF/SKILL.md"),
        "---\nname: PDF\ndescription: x\nauthor: me\n---\n",
    )
    .unwrap();
    let bundle = dir.join("out.bin");
    let out = skills(&[
        "build",
        dir.join("skills").to_str().unwrap(),
        "-o",
        bundle.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("Skill name 'PDF' must be lowercase"), "{err}");
    assert!(
        err.contains("Unexpected fields in frontmatter: author."),
        "{err}"
    );
    assert!(!bundle.exists());
}

/// `skills build --check SRC -o FILE` (the committed-bundle route's CI
/// gate): exit 0 when FILE is what SRC compiles to, else 1 saying what
/// differs (or that FILE is missing); FILE is never written.
#[test]
fn build_check_says_whether_the_committed_bundle_is_current() {
    let dir = scratch("check");
    let skills_dir = dir.join("skills");
    tree::copy_tree(&support::testdata("skills"), &skills_dir);
    let bundle = dir.join("skills.bin");
    let check = || {
        skills(&[
            "build",
            "--check",
            skills_dir.to_str().unwrap(),
            "-o",
            bundle.to_str().unwrap(),
        ])
    };
    // Missing: exit 1, and nothing is written.
    let out = check();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("skills.bin does not exist"), "{err}");
    assert!(err.contains("without --check"), "{err}");
    assert!(!bundle.exists(), "--check wrote {}", bundle.display());
    // Fresh: exit 0.
    support::build_bundle(&skills_dir, &bundle);
    let built = std::fs::read(&bundle).unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("is current: 3 skills"),
        "{}",
        text(&out.stderr)
    );
    // Stale: one skill edited, one added; exit 1 naming them, the file untouched.
    let edited = skills_dir.join("git-rebase/SKILL.md");
    let mut source = std::fs::read_to_string(&edited).unwrap();
    source.push_str("\nOne more line.\n");
    std::fs::write(&edited, source).unwrap();
    tree::write(
        &skills_dir,
        "zip-files/SKILL.md",
        "---\nname: zip-files\ndescription: Packs files into a zip archive. Use when the user asks for a zip.\n---\nRun zip.\n",
    );
    let out = check();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("skills.bin is stale: it is not what the sources compile to: 1 skill changed (git-rebase), 1 skill added (zip-files)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&bundle).unwrap(),
        built,
        "--check changed the file"
    );
    // The JSON report says which, for a CI step.
    let out = skills(&[
        "build",
        "--check",
        "--format",
        "json",
        skills_dir.to_str().unwrap(),
        "-o",
        bundle.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("\"check\": \"stale\""),
        "{}",
        text(&out.stdout)
    );
    // Not a bundle at all: stale, saying so.
    std::fs::write(&bundle, b"not a bundle").unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("it is not a bundle this version reads"),
        "{}",
        text(&out.stderr)
    );
    // Sources that do not compile: exit 1 with their errors, nothing compared.
    tree::write(
        &skills_dir,
        "Bad/SKILL.md",
        "---\nname: Bad\ndescription: x\n---\n",
    );
    let out = check();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("nothing compared with"), "{err}");
    assert!(err.contains("must be lowercase"), "{err}");
    // --keep-going is a usage error with --check.
    let out = skills(&["build", "--check", "--keep-going", "x", "-o", "y"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn signed_bundles_verify_and_tampering_exits_one() {
    let dir = scratch("sign");
    let key = dir.join("key.pem");
    let out = skills(&["keygen", key.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The secret key is never printed.
    let secret = std::fs::read_to_string(&key).unwrap();
    let secret_body: String = secret.lines().filter(|l| !l.starts_with("-----")).collect();
    assert!(!text(&out.stdout).contains(&secret_body));
    // keygen refuses to overwrite.
    assert_eq!(
        skills(&["keygen", key.to_str().unwrap()]).status.code(),
        Some(1)
    );
    let public = dir.join("key.pub.pem");
    assert!(public.exists(), "public key next to the secret one");

    let bundle = dir.join("skills.bin");
    support::build_bundle(&support::testdata("skills"), &bundle);
    let origin = "https://skills.example";
    let out = skills(&[
        "sign",
        bundle.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
        "--origin",
        origin,
        "--key-id",
        "release",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let trust = format!("release={}", public.display());
    let verify = |path: &Path, origin: &str| {
        skills(&[
            "verify",
            path.to_str().unwrap(),
            "--origin",
            origin,
            "--trust",
            &trust,
        ])
    };
    let out = verify(&bundle, origin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert_eq!(
        verify(&bundle, "https://elsewhere.example").status.code(),
        Some(1)
    );

    let mut bytes = std::fs::read(&bundle).unwrap();
    let at = bytes
        .windows(10)
        .position(|w| w == b"# Rebasing")
        .unwrap_or(bytes.len() / 2);
    bytes[at + 2] ^= 0x20;
    let tampered = dir.join("tampered.bin");
    std::fs::write(&tampered, &bytes).unwrap();
    let out = verify(&tampered, origin);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("skill \"git-rebase\"") && err.contains("changed after it was built"),
        "{err}"
    );

    let unsigned = dir.join("unsigned.bin");
    support::build_bundle(&support::testdata("skills"), &unsigned);
    let out = verify(&unsigned, origin);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("A trusted publisher signature is required"));
    let out = skills(&[
        "verify",
        unsigned.to_str().unwrap(),
        "--origin",
        origin,
        "--require-signature",
        "no",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "unsigned content is accepted when signatures are optional"
    );
    assert!(text(&out.stdout).contains("unsigned  git-rebase  sha256:"));
}

/// Issue 30: what `revision` and `sign` read of a folder leaves `evals/`
/// out as every door does (with a note), unless `--keep-evals`; both take
/// `--host` as `check` does.
#[test]
fn revision_and_sign_leave_evals_out_unless_kept() {
    let root = tree::scratch("commands", "evals");
    tree::write(
        &root,
        "deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploys.\nmodel: sonnet\n---\nGo.\n",
    );
    tree::write(&root, "deploy/evals/evals.json", "[]");
    let dir = root.join("deploy").display().to_string();
    let revision = |args: &[&str]| {
        let out = skills(
            &[
                &["revision", "--host", "claude-code"],
                args,
                &[dir.as_str()],
            ]
            .concat(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        (text(&out.stdout), text(&out.stderr))
    };
    let (left_out, noted) = revision(&[]);
    let (kept, quiet) = revision(&["--keep-evals"]);
    assert_ne!(left_out, kept);
    assert!(noted.contains("note[evals-skipped]"), "{noted}");
    assert!(!quiet.contains("evals"), "{quiet}");
    let key = root.join("key.hex");
    std::fs::write(&key, "11".repeat(32)).unwrap();
    let key = key.display().to_string();
    let sign = |host: &str| skills(&["sign", "--host", host, "--key", &key, "--origin", "o", &dir]);
    let out = sign("nope");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown host `nope`"));
    let out = sign("claude-code");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("deploy ed25519-"));
}

#[test]
fn revision_prints_one_line_per_directory() {
    let dirs: Vec<String> = ["csv-report", "git-rebase"]
        .iter()
        .map(|d| support::testdata("skills").join(d).display().to_string())
        .collect();
    let out = skills(&["revision", &dirs[0], &dirs[1]]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    for (line, dir) in lines.iter().zip(&dirs) {
        let (revision, shown) = line.split_once("  ").expect("two spaces between");
        assert!(
            revision.starts_with("sha256:") && revision.len() == 7 + 64,
            "{line}"
        );
        assert_eq!(shown, dir);
    }
}

/// The signing walk-through's traps (issue 34): keygen's help names the
/// public key's real path, keygen into a missing folder says so, and a
/// `--trust` file that is not there is "no such file", not a bad key.
#[test]
fn keygen_and_trust_say_what_is_wrong() {
    let dir = scratch("keygen-walk");
    let help = text(&skills(&["keygen", "--help"]).stdout);
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("keys/skills.pem gives keys/skills.pub.pem"),
        "{help}"
    );

    let missing = dir.join("keys/skills.pem");
    let out = skills(&["keygen", missing.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "the folder {} does not exist",
            dir.join("keys").display()
        )),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
    assert!(!dir.join("keys").exists());

    std::fs::create_dir_all(dir.join("keys")).unwrap();
    let out = skills(&["keygen", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir.join("keys/skills.pub.pem").is_file());

    let bundle = dir.join("skills.bin");
    support::build_bundle(&support::testdata("skills"), &bundle);
    let trusting = |key: &str| {
        let trust = format!("release={key}");
        let args = [
            "verify",
            bundle.to_str().unwrap(),
            "--origin",
            "https://skills.example",
        ];
        skills(&[&args[..], &["--trust", &trust]].concat())
    };
    let absent = dir.join("keys/other.pub.pem");
    let out = trusting(absent.to_str().unwrap());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("no such file: {}", absent.display())),
        "{err}"
    );
    // A value that is plainly meant as a key still gets the key's error.
    let out = trusting("abcd");
    let err = text(&out.stderr);
    assert!(!err.contains("no such file"), "{err}");
}

/// Issue 40, item 8: help that says what each command's options do there,
/// `inspect --format json`, keygen's ready `--trust` argument, a wrong
/// `--origin` said as such, and notes counted (not listed) by `pack`.
#[test]
fn help_and_messages_fit_the_command() {
    let help = |command: &str| {
        let out = skills(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0));
        // Joined, so that wrapped lines read as one text.
        text(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    for command in ["check", "build"] {
        assert!(help(command).contains(".skill/.zip archive"), "{command}");
    }
    assert!(help("check").contains("on stderr"));
    let audit = help("audit");
    assert!(
        audit.contains("Silence the audit rule RULE") && audit.contains("html-comment"),
        "{audit}"
    );
    assert!(!audit.contains("body-too-long"), "{audit}");
    for command in ["revision", "sign", "verify"] {
        let text = help(command);
        assert!(
            text.contains("it changes no file read here"),
            "{command}: {text}"
        );
        assert!(!text.contains("past 50"), "{command}: {text}");
        assert!(!text.contains("listing budgets"), "{command}: {text}");
    }
    let catalog = help("catalog");
    assert!(catalog.contains("it names skills, not files"), "{catalog}");
    assert!(catalog.contains("not a report's format"), "{catalog}");

    let dir = scratch("messages");
    let bundle = dir.join("b.bin");
    support::build_bundle(&support::testdata("skills"), &bundle);
    let bundle = bundle.to_str().unwrap();
    let out = skills(&["inspect", "--format", "json", bundle]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["format_version"], skills_core::FORMAT_VERSION);
    let names: Vec<&str> = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["csv-report", "git-rebase", "pdf-forms"]);
    assert!(
        json["skills"][2]["files"][0]["sha256"]
            .as_str()
            .unwrap()
            .len()
            == 64
    );

    // keygen's `--trust` argument verifies what the key signs.
    let key = dir.join("k.pem");
    let out = skills(&["keygen", key.to_str().unwrap()]);
    let printed = text(&out.stdout);
    let trust = printed
        .lines()
        .find_map(|line| line.strip_prefix("verify with: --trust "))
        .expect("keygen prints the --trust argument")
        .to_owned();
    let sign = skills(&[
        "sign",
        "--key",
        key.to_str().unwrap(),
        "--origin",
        "https://a.example",
        bundle,
    ]);
    assert_eq!(sign.status.code(), Some(0), "{}", text(&sign.stderr));
    let verify = |origin: &str| skills(&["verify", "--origin", origin, "--trust", &trust, bundle]);
    assert_eq!(verify("https://a.example").status.code(), Some(0));
    // Another origin: the reference's words, then what differs.
    let out = verify("https://b.example");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("Publisher signature verification failed"),
        "{err}"
    );
    assert!(
        err.contains(
            r#"is for the origin "https://a.example", not "https://b.example" (--origin)"#
        ),
        "{err}"
    );

    // pack: the notes counted on one line, the result after it.
    tree::write(
        &dir,
        "quiet/SKILL.md",
        "---\nname: quiet\ndescription: Fills forms.\n---\nBody.\n",
    );
    let archive = dir.join("quiet.skill");
    let out = skills(&[
        "pack",
        dir.join("quiet").to_str().unwrap(),
        "-o",
        archive.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("note: 1 note not shown; `skills check "),
        "{err}"
    );
    assert!(!err.contains("description-without-when"), "{err}");
}
