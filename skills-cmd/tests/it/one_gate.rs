//! One gate, one verdict: a matrix of fixture trees and options run through
//! the four doors, `skills check`, `skills build`, the `Builder` (a build
//! script's route) and the `Builder` as `include_skills!` sets it up (its
//! sources joined to the crate root, shadowing denied),
//! comparing the verdicts and the problem lists.
//!
//! The CLI runs in the fixture's directory with relative paths, the
//! library routes with absolute ones; problems are compared with the
//! fixture's directory taken off their paths and messages.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use skills_build::problem::Problem;
use skills_build::{Builder, Host};

use crate::support;
use support::tree;
use tree::write;

/// One problem as the routes are compared: code, severity, file, line,
/// column, message, hint.
type Row = (String, String, String, u64, u64, String, String);

fn scratch(name: &str) -> PathBuf {
    tree::scratch("gate", name)
}

fn skill(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody of {name}; see reference.md and scripts/.\n"
    )
}

/// The options of one case, as CLI arguments and as builder settings.
#[derive(Clone, Default)]
struct Opts {
    extensions: bool,
    keep_junk: bool,
    excludes: Vec<&'static str>,
    max_file_size: Option<u64>,
    hosts: Vec<Host>,
    keep_evals: bool,
}

impl Opts {
    fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if self.extensions {
            args.push("--extensions".to_string());
        }
        if self.keep_junk {
            args.push("--keep-junk".to_string());
        }
        for pattern in &self.excludes {
            args.push(format!("--exclude={pattern}"));
        }
        if let Some(max) = self.max_file_size {
            args.push(format!("--max-file-size={max}"));
        }
        for host in &self.hosts {
            args.push(format!("--host={host}"));
        }
        if self.keep_evals {
            args.push("--keep-evals".to_string());
        }
        args
    }

    fn builder(&self, root: &Path, sources: &[&str]) -> Builder {
        let mut builder = Builder::new()
            .extensions(self.extensions)
            .keep_junk(self.keep_junk)
            .keep_evals(self.keep_evals);
        for host in &self.hosts {
            builder = builder.host(*host);
        }
        for pattern in &self.excludes {
            builder = builder.exclude(*pattern);
        }
        if let Some(max) = self.max_file_size {
            builder = builder.max_file_size(max);
        }
        for source in sources {
            builder = builder.source(root.join(source));
        }
        builder
    }
}

fn relative(text: &str, root: &Path) -> String {
    text.replace(&format!("{}/", root.display()), "")
}

fn rows_of_problems(problems: &[Problem], root: &Path) -> Vec<Row> {
    problems
        .iter()
        .map(|p| {
            (
                p.code.as_str().to_string(),
                p.severity.as_str().to_string(),
                relative(p.file.as_deref().unwrap_or(""), root),
                p.position.map_or(0, |pos| u64::from(pos.line)),
                p.position.map_or(0, |pos| u64::from(pos.column)),
                relative(&p.message, root),
                relative(p.hint.as_deref().unwrap_or(""), root),
            )
        })
        .collect()
}

fn rows_of_json(report: &Value) -> Vec<Row> {
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    report["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                text(&p["code"]),
                text(&p["severity"]),
                text(&p["file"]),
                p["line"].as_u64().unwrap_or(0),
                p["column"].as_u64().unwrap_or(0),
                text(&p["message"]),
                text(&p["hint"]),
            )
        })
        .collect()
}

/// Runs the CLI in `root`; returns (exit status, JSON report).
fn cli(root: &Path, command: &str, opts: &Opts, sources: &[&str]) -> (i32, Value) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skills"));
    cmd.current_dir(root).arg(command).arg("--format=json");
    if command == "build" {
        cmd.args(["-o", "bundle.bin"]);
    }
    cmd.args(opts.args()).args(sources);
    let out = cmd.output().expect("run skills");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 report");
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{command}: not JSON ({e}): {stdout}"));
    (out.status.code().unwrap_or(-1), report)
}

/// What every door said about one case.
struct Verdicts {
    check: (bool, Vec<Row>),
    build: (bool, Vec<Row>),
    builder: (bool, Vec<Row>),
    macro_route: (bool, Vec<Row>),
}

fn run_case(root: &Path, opts: &Opts, sources: &[&str]) -> Verdicts {
    let _ = std::fs::remove_file(root.join("bundle.bin"));
    let (check_status, check) = cli(root, "check", opts, sources);
    let (build_status, build) = cli(root, "build", opts, sources);
    assert_eq!(check["version"], 1);
    assert_eq!(check["ok"].as_bool(), Some(check_status == 0));
    assert_eq!(build["ok"].as_bool(), Some(build_status == 0));
    assert_eq!(
        root.join("bundle.bin").exists(),
        build_status == 0,
        "a bundle is written exactly when build succeeds"
    );
    let outcome = opts.builder(root, sources).run();
    // include_skills! denies shadowing (a skill must not vanish silently
    // from a binary) and shows every warning and note as a compiler warning.
    let (macro_result, _) = opts
        .builder(root, sources)
        .deny_shadowing()
        .compile_with_inputs();
    let macro_problems: Vec<Problem> = match &macro_result {
        Ok(compiled) => compiled.warnings.clone(),
        Err(error) => error.problems.clone(),
    };
    Verdicts {
        check: (check_status == 0, rows_of_json(&check)),
        build: (build_status == 0, rows_of_json(&build)),
        builder: (
            outcome.result.is_ok(),
            rows_of_problems(outcome.problems(), root),
        ),
        macro_route: (
            macro_result.is_ok(),
            rows_of_problems(&macro_problems, root),
        ),
    }
}

/// Asserts the four doors agree, and returns the common verdict and codes.
fn agree(name: &str, root: &Path, opts: &Opts, sources: &[&str]) -> (bool, Vec<String>) {
    let v = run_case(root, opts, sources);
    assert_eq!(v.check, v.builder, "{name}: check and Builder differ");
    assert_eq!(v.build, v.builder, "{name}: build and Builder differ");
    let shown: Vec<Row> = v
        .builder
        .1
        .iter()
        .cloned()
        .map(|mut row| {
            if row.0 == "skill-shadowed" {
                row.1 = "error".to_string();
            }
            row
        })
        .collect();
    let shadowed = shown.iter().any(|row| row.0 == "skill-shadowed");
    assert_eq!(v.macro_route.1, shown, "{name}: include_skills! differs");
    if !shadowed {
        assert_eq!(
            v.macro_route.0, v.builder.0,
            "{name}: include_skills! verdict differs"
        );
    }
    let codes = v.builder.1.iter().map(|row| row.0.clone()).collect();
    (v.builder.0, codes)
}

#[test]
fn every_door_gives_the_same_verdict_and_problems() {
    let root = scratch("matrix");
    // A collection with junk, a skill folder, an invalid skill, a long body.
    write(&root, "skills/pdf-forms/SKILL.md", skill("pdf-forms"));
    write(&root, "skills/pdf-forms/scripts/fill.py", "print(1)\n");
    write(&root, "skills/pdf-forms/.DS_Store", [0u8, 0, 0, 1]);
    write(
        &root,
        "skills/pdf-forms/scripts/__pycache__/fill.cpython-311.pyc",
        "x",
    );
    write(
        &root,
        "skills/pdf-forms/.git/HEAD",
        "ref: refs/heads/main\n",
    );
    write(
        &root,
        "skills/pdf-forms/node_modules/left-pad/index.js",
        "x",
    );
    write(&root, "skills/csv/SKILL.md", skill("csv"));
    write(&root, "skills/csv/.csv.md.swp", "b0VIM");
    write(
        &root,
        "bad/PDF/SKILL.md",
        "---\nname: PDF\ndescription: Use when x.\nauthor: me\n---\n",
    );
    write(&root, "bad/yaml/SKILL.md", "---\nname: [yaml\n---\n");
    write(
        &root,
        "bad/meta/SKILL.md",
        "---\nname: meta\ndescription: Use when d.\nmetadata:\n  tags:\n    - a\nallowed-tools: Bash()\n---\n",
    );
    write(
        &root,
        "long/essay/SKILL.md",
        format!(
            "---\nname: essay\ndescription: Use when d.\n---\n{}",
            "line\n".repeat(501)
        ),
    );
    write(
        &root,
        "ext/notes/SKILL.md",
        "---\nname: notes\ndescription: Use when d.\nversion: \"1.0\"\n---\n",
    );
    write(&root, "big/blob/SKILL.md", skill("blob"));
    write(&root, "big/blob/scripts/data.bin", vec![7u8; 4096]);
    write(&root, "empty/README.md", "no skills here\n");
    write(&root, "deeper/skills/one/SKILL.md", skill("one"));
    write(&root, "shadow/csv/SKILL.md", skill("csv"));
    // Issue 30's skill, written for Claude Code, with its evaluations.
    write(
        &root,
        "claude/deploy-helper/SKILL.md",
        "---\nname: deploy-helper\ndescription: Deploys the app to staging. Use when asked to ship.\ndisable-model-invocation: true\nargument-hint: \"[environment]\"\nallowed-tools: Bash(git:*) Read\nmodel: sonnet\n---\nDeploy.\n",
    );
    write(&root, "claude/deploy-helper/evals/evals.json", "[]");
    write(
        &root,
        "mistyped/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Use when d.\neffort: extreme\ncontext: spoon\n---\n",
    );
    write(&root, "codex/ship/SKILL.md", skill("ship"));
    write(
        &root,
        "codex/ship/agents/openai.yaml",
        "interface:\n  brand_color: blue\n  icon_small: icon.png\n",
    );
    let claude = || Opts {
        hosts: vec![Host::ClaudeCode],
        ..Opts::default()
    };

    let default = Opts::default();
    // (name, options, sources, verdict, the codes of the problems found)
    type Case<'a> = (&'a str, Opts, Vec<&'a str>, bool, Vec<&'a str>);
    let cases: Vec<Case<'_>> = vec![
        (
            "collection with junk",
            default.clone(),
            vec!["skills"],
            true,
            vec!["junk-skipped"; 5],
        ),
        (
            "skill folder with junk",
            default.clone(),
            vec!["skills/pdf-forms"],
            true,
            vec!["junk-skipped"; 4],
        ),
        (
            "junk kept",
            Opts {
                keep_junk: true,
                ..Opts::default()
            },
            vec!["skills/csv"],
            true,
            vec![],
        ),
        (
            "junk excluded silently",
            Opts {
                excludes: vec!["*.swp"],
                ..Opts::default()
            },
            vec!["skills/csv"],
            true,
            vec![],
        ),
        (
            "invalid skills",
            default.clone(),
            vec!["bad"],
            false,
            vec![
                "metadata-not-string",
                "allowed-tools-syntax",
                "name-lowercase",
                "unknown-field",
                "yaml-syntax",
            ],
        ),
        (
            "long body",
            default.clone(),
            vec!["long/essay"],
            true,
            vec!["body-too-long"],
        ),
        (
            "extension fields refused",
            default.clone(),
            vec!["ext"],
            false,
            vec!["unknown-field"],
        ),
        (
            "extension fields checked",
            Opts {
                extensions: true,
                ..Opts::default()
            },
            vec!["ext"],
            false,
            vec!["version-not-semver"],
        ),
        (
            "size limit",
            Opts {
                max_file_size: Some(1024),
                ..Opts::default()
            },
            vec!["big"],
            false,
            vec!["file-too-large"],
        ),
        (
            "size within the default",
            default.clone(),
            vec!["big"],
            true,
            vec![],
        ),
        (
            "no skill",
            default.clone(),
            vec!["empty"],
            false,
            vec!["no-skills"],
        ),
        (
            "mistyped",
            default.clone(),
            vec!["skils"],
            false,
            vec!["source-not-found"],
        ),
        (
            "grandparent",
            default.clone(),
            vec!["deeper"],
            false,
            vec!["no-skills"],
        ),
        (
            "a skill's child",
            default.clone(),
            vec!["skills/pdf-forms/scripts"],
            false,
            vec!["no-skills"],
        ),
        (
            "a skill file instead of its folder",
            default.clone(),
            vec!["skills/csv/SKILL.md"],
            false,
            vec!["source-not-directory"],
        ),
        (
            "shadowed",
            default.clone(),
            vec!["skills/csv", "shadow"],
            true,
            vec!["junk-skipped", "skill-shadowed"],
        ),
        (
            "host fields without a profile",
            default.clone(),
            vec!["claude"],
            false,
            vec!["unknown-field", "evals-skipped"],
        ),
        (
            "host fields under their host",
            claude(),
            vec!["claude"],
            true,
            vec!["evals-skipped"],
        ),
        (
            "host fields under several hosts, evals kept",
            Opts {
                hosts: vec![Host::ClaudeCode, Host::Codex],
                keep_evals: true,
                ..Opts::default()
            },
            vec!["claude"],
            true,
            vec!["host-field-ignored"; 3],
        ),
        (
            "mistyped host fields",
            claude(),
            vec!["mistyped"],
            false,
            vec!["host-field-invalid"; 2],
        ),
        (
            "codex's sidecar ignored without codex",
            claude(),
            vec!["codex"],
            true,
            vec![],
        ),
        (
            "codex's sidecar checked",
            Opts {
                hosts: vec![Host::Codex],
                ..Opts::default()
            },
            vec!["codex"],
            false,
            vec!["codex-sidecar-invalid", "codex-icon-missing"],
        ),
    ];
    for (name, opts, sources, ok, codes) in &cases {
        let (verdict, found) = agree(name, &root, opts, sources);
        assert_eq!(verdict, *ok, "{name}: verdict");
        let mut found = found;
        let mut codes: Vec<String> = codes.iter().map(|c| c.to_string()).collect();
        found.sort();
        codes.sort();
        assert_eq!(found, codes, "{name}: codes");
    }
}

#[test]
fn no_skill_errors_name_the_path_and_hint_where_the_skills_are() {
    let root = scratch("hints");
    write(&root, "repo/skills/one/SKILL.md", skill("one"));
    write(&root, "repo/skills/one/scripts/run.py", "x");
    let problem = |source: &str| {
        let (status, report) = cli(&root, "check", &Opts::default(), &[source]);
        assert_eq!(status, 1);
        let p = &report["problems"][0];
        (
            p["code"].as_str().unwrap().to_string(),
            p["message"].as_str().unwrap().to_string(),
            p["hint"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(
        problem("repo"),
        (
            "no-skills".to_string(),
            "no skill found in repo: neither repo/SKILL.md nor repo/*/SKILL.md exists".to_string(),
            "skills sit one level deeper, in repo/skills: give that folder instead".to_string()
        )
    );
    assert_eq!(
        problem("repo/skills/one/scripts").2,
        "repo/skills/one/scripts is inside the skill repo/skills/one; give the skill folder repo/skills/one instead"
    );
}

#[test]
fn a_skill_folder_gives_one_skill_in_every_command() {
    let root = scratch("one-skill");
    write(&root, "skills/pdf-forms/SKILL.md", skill("pdf-forms"));
    write(&root, "skills/pdf-forms/reference.md", "Use pdfplumber.\n");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_skills"))
            .current_dir(&root)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // `check`'s report is its result, on stdout.
    let (code, err, _) = run(&["check", "-v", "skills/pdf-forms"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.starts_with("source skills/pdf-forms: one skill (it holds a skill file)\n"),
        "{err}"
    );
    assert!(err.ends_with("ok: checked 1 skill: no problems\n"), "{err}");
    let (_, err, _) = run(&["check", "--verbose", "skills"]);
    assert!(
        err.starts_with("source skills: a folder of skills: 1 skill\n"),
        "{err}"
    );
    let (code, _, err) = run(&["build", "skills/pdf-forms", "-o", "one.bin"]);
    assert_eq!(code, Some(0), "{err}");
    let bytes = std::fs::read(root.join("one.bin")).unwrap();
    let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    assert_eq!(catalog.names().collect::<Vec<_>>(), ["pdf-forms"]);
    let (code, out, err) = run(&["revision", "skills/pdf-forms"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.ends_with("  skills/pdf-forms\n"), "{out}");
    let (code, out, err) = run(&["revision", "skills"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.ends_with("  skills/pdf-forms\n"), "{out}");
    let (code, out, err) = run(&["catalog", "skills"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("<name>\npdf-forms\n</name>"), "{out}");
    let (code, out, err) = run(&["outline", "skills"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("pdf-forms"), "{out}");
    let (code, _, err) = run(&["keygen", "key.pem"]);
    assert_eq!(code, Some(0), "{err}");
    for source in ["skills", "skills/pdf-forms"] {
        let (code, out, err) = run(&[
            "sign",
            "--key",
            "key.pem",
            "--origin",
            "https://example.com",
            source,
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(out.starts_with("pdf-forms "), "{out}");
    }
    for command in ["check", "revision", "catalog", "outline"] {
        let (code, out, err) = run(&[command, "nowhere"]);
        // `check`'s report, errors and all, is on stdout.
        let err = if command == "check" { out } else { err };
        assert_eq!(code, Some(1), "{command}: {err}");
        assert!(err.contains("nowhere"), "{command}: {err}");
    }
    let (code, _, err) = run(&["build", "nowhere", "-o", "x.bin"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(!root.join("x.bin").exists());
}

/// Runs `skills ARGS` in `root` with stdin closed; (status, stdout, stderr).
fn skills_in(root: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .current_dir(root)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every command that reads skill sources reads a skill folder, a folder
/// of skills and a `.skill` archive alike: the same resolution (said with
/// `-v`), the same junk left out with a note, the same revision, catalog,
/// outline, signature and bundle bytes from the archive as from the folder
/// it was packed from; and a mistyped path is the same error (exit 1,
/// naming the path) in every command.
#[test]
fn every_command_reads_a_folder_a_collection_and_an_archive_alike() {
    let root = scratch("every-command");
    write(&root, "skills/pdf-forms/SKILL.md", skill("pdf-forms"));
    write(&root, "skills/pdf-forms/reference.md", "Use pdfplumber.\n");
    write(&root, "skills/csv-report/SKILL.md", skill("csv-report"));
    let (code, _, err) = skills_in(
        &root,
        &["pack", "skills/pdf-forms", "-o", "pdf-forms.skill"],
    );
    assert_eq!(code, 0, "{err}");
    // Junk added after packing: left out by every command, with a note, so
    // the folder still reads as the archive does.
    write(&root, "skills/pdf-forms/.DS_Store", "Finder's junk");
    let (code, _, err) = skills_in(&root, &["keygen", "key.pem"]);
    assert_eq!(code, 0, "{err}");
    let origin = "https://example.com/skills";
    let trust = format!("k={}", root.join("key.pub.pem").display());

    // How each source was read, said by every command with -v.
    let said = [
        ("skills/pdf-forms", "one skill (it holds a skill file)"),
        ("skills", "a folder of skills: 2 skills"),
        ("pdf-forms.skill", "an archive of skill folders: 1 skill"),
    ];
    for (source, what) in said {
        let line = format!("source {source}: {what}\n");
        let sign = ["sign", "-v", "--key", "key.pem", "--origin", origin, source];
        let verify = [
            "verify",
            "-v",
            "--origin",
            origin,
            "--trust",
            &trust,
            "--require-signature",
            "no",
            source,
        ];
        let commands: [&[&str]; 8] = [
            &["check", "-v", source],
            &["build", "-v", source, "-o", "x.bin"],
            &["revision", "-v", source],
            &["catalog", "-v", source],
            &["outline", "-v", source],
            &sign,
            &verify,
            &["mcp", "-v", source],
        ];
        for args in commands {
            let (code, out, err) = skills_in(&root, args);
            // `check`'s report is its result, on stdout; the others report
            // on stderr.
            let err = if args[0] == "check" { out } else { err };
            assert_eq!(code, 0, "{args:?}: {err}");
            assert!(err.contains(&line), "{args:?} does not say {line:?}: {err}");
            let junk = "note[junk-skipped]";
            if source.ends_with(".skill") {
                assert!(!err.contains(junk), "{args:?}: {err}");
            } else {
                assert!(err.contains(junk), "{args:?} gives no junk note: {err}");
            }
        }
    }

    // fmt rewrites folders, and says how it read them too.
    for (source, what) in &said[..2] {
        let (code, _, err) = skills_in(&root, &["fmt", "--check", "-v", source]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains(&format!("source {source}: {what}\n")), "{err}");
    }

    // The same bytes from the archive as from the folder.
    let out = |args: &[&str]| {
        let (code, out, err) = skills_in(&root, args);
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    };
    let folder_rev = out(&["revision", "skills/pdf-forms"]);
    let archive_rev = out(&["revision", "pdf-forms.skill"]);
    let revision = folder_rev.split("  ").next().unwrap().to_string();
    assert_eq!(folder_rev, format!("{revision}  skills/pdf-forms\n"));
    assert_eq!(
        archive_rev,
        format!("{revision}  pdf-forms.skill/pdf-forms\n")
    );
    assert!(out(&["revision", "skills"]).contains(&format!("{revision}  skills/pdf-forms\n")));
    out(&["build", "skills/pdf-forms", "-o", "folder.bin"]);
    out(&["build", "pdf-forms.skill", "-o", "archive.bin"]);
    let folder_bundle = std::fs::read(root.join("folder.bin")).unwrap();
    assert_eq!(
        folder_bundle,
        std::fs::read(root.join("archive.bin")).unwrap()
    );
    let catalog = skills_core::Catalog::from_bytes(&folder_bundle).unwrap();
    let recorded = catalog.lookup("pdf-forms").unwrap().revision;
    assert_eq!(
        revision,
        skills_core::trust::revision::Revision(recorded).to_string(),
        "revision prints what the bundle records"
    );
    for format in ["markdown", "xml", "skills-ref"] {
        let catalog = |source: &str| {
            out(&["catalog", "--format", format, source])
                .replace(
                    &root.join("pdf-forms.skill/pdf-forms").display().to_string(),
                    "DIR",
                )
                .replace(&root.join("skills/pdf-forms").display().to_string(), "DIR")
        };
        assert_eq!(
            catalog("skills/pdf-forms"),
            catalog("pdf-forms.skill"),
            "{format}"
        );
    }
    assert_eq!(
        out(&["outline", "skills/pdf-forms"]),
        out(&["outline", "pdf-forms.skill"])
    );
    let signed = |source: &str| {
        out(&[
            "sign", "--key", "key.pem", "--key-id", "k", "--origin", origin, source,
        ])
    };
    let signatures = signed("skills/pdf-forms");
    assert!(signatures.starts_with("pdf-forms "), "{signatures}");
    assert_eq!(signatures, signed("pdf-forms.skill"));
    std::fs::write(root.join("pdf-forms.sigs"), &signatures).unwrap();
    for source in ["skills/pdf-forms", "pdf-forms.skill"] {
        let verified = out(&[
            "verify",
            "--origin",
            origin,
            "--trust",
            &trust,
            "--signatures",
            "pdf-forms.sigs",
            source,
        ]);
        assert_eq!(verified, format!("verified  pdf-forms  {revision}  by k\n"));
    }

    // The options that change what is read reach every command.
    for args in [
        &["revision", "--max-file-size=4", "skills/pdf-forms"][..],
        &["catalog", "--max-file-size=4", "skills/pdf-forms"],
        &["outline", "--max-file-size=4", "skills/pdf-forms"],
        &[
            "sign",
            "--key",
            "key.pem",
            "--origin",
            origin,
            "--max-file-size=4",
            "skills",
        ],
        &["mcp", "--max-file-size=4", "skills"],
    ] {
        let (code, _, err) = skills_in(&root, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("error[file-too-large]"), "{args:?}: {err}");
    }
    let kept = out(&["revision", "--keep-junk", "skills/pdf-forms"]);
    assert_ne!(kept, folder_rev, "--keep-junk reads .DS_Store too");
    let excluded = out(&["revision", "--exclude", "reference.md", "skills/pdf-forms"]);
    assert_ne!(excluded, folder_rev, "--exclude leaves the file out");
    let (code, _, err) = skills_in(&root, &["mcp", "-v", "team=skills", "--exclude=*.md"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("source skills: a folder of skills: 2 skills\n"),
        "{err}"
    );

    // A mistyped path: the same error in every command.
    for args in [
        &["check", "nowhere"][..],
        &["build", "nowhere", "-o", "x.bin"],
        &["revision", "nowhere"],
        &["catalog", "nowhere"],
        &["outline", "nowhere"],
        &["sign", "--key", "key.pem", "--origin", origin, "nowhere"],
        &["verify", "--origin", origin, "--trust", &trust, "nowhere"],
        &["mcp", "nowhere"],
    ] {
        let (code, out, err) = skills_in(&root, args);
        // `check`'s report, errors and all, is on stdout, and nothing else.
        let (out, err) = if args[0] == "check" {
            (err, out)
        } else {
            (out, err)
        };
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.contains("error[source-not-found]: the source nowhere does not exist"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn name_hints_offer_a_valid_name_on_every_door() {
    let root = scratch("name-hints");
    let named = |name: &str| {
        format!("---\nname: {name}\ndescription: Checks invoices. Use when asked.\n---\nBody.\n")
    };
    write(
        &root,
        "names/Invoice Check/SKILL.md",
        named("Invoice Check"),
    );
    write(
        &root,
        "names/Invoice_Check/SKILL.md",
        named("Invoice_Check"),
    );
    write(&root, "names/-Bad--Name_/SKILL.md", named("-Bad--Name_"));
    write(&root, "names/!!!/SKILL.md", named("'!!!'"));
    // Issue 40, item 4: a folder whose name is valid is offered, and an
    // offer that needs the folder renamed says so.
    write(&root, "names/pdf/SKILL.md", named("PDF Tools"));
    write(&root, "names/pdf-tools/SKILL.md", named("PDF Tools"));
    write(&root, "names/forms/SKILL.md", named("pdf-forms"));
    let (ok, _) = agree("name hints", &root, &Opts::default(), &["names"]);
    assert!(!ok);
    // Every door gives the same rows (agree checked it): read them once.
    let rows = run_case(&root, &Opts::default(), &["names"]).builder.1;
    let hints: Vec<(&str, &str, &str)> = rows
        .iter()
        .filter(|row| row.0.starts_with("name-") && !row.6.is_empty())
        .map(|row| (row.2.as_str(), row.0.as_str(), row.6.as_str()))
        .collect();
    assert_eq!(
        hints,
        [
            (
                "names/-Bad--Name_/SKILL.md",
                "name-lowercase",
                "write it as 'bad-name' and rename the folder to match"
            ),
            (
                "names/Invoice Check/SKILL.md",
                "name-lowercase",
                "write it as 'invoice-check' and rename the folder to match"
            ),
            (
                "names/Invoice_Check/SKILL.md",
                "name-lowercase",
                "write it as 'invoice-check' and rename the folder to match"
            ),
            (
                "names/forms/SKILL.md",
                "name-directory-mismatch",
                "rename the folder to 'pdf-forms', or write the name as 'forms'"
            ),
            (
                "names/pdf-tools/SKILL.md",
                "name-lowercase",
                "write it as 'pdf-tools' (the folder's name)"
            ),
            (
                "names/pdf-tools/SKILL.md",
                "name-directory-mismatch",
                "write the name as 'pdf-tools', the folder's name"
            ),
            (
                "names/pdf/SKILL.md",
                "name-lowercase",
                "write it as 'pdf' (the folder's name), or as 'pdf-tools' and rename the folder to match"
            ),
            (
                "names/pdf/SKILL.md",
                "name-directory-mismatch",
                "write the name as 'pdf', the folder's name"
            ),
        ],
        "{rows:#?}"
    );
    // A name with nothing valid in it gets the reference's message and no
    // made-up hint; the reference's own words stay as they are.
    let bangs: Vec<&Row> = rows
        .iter()
        .filter(|row| row.2 == "names/!!!/SKILL.md")
        .collect();
    assert!(bangs.iter().any(|row| row.0 == "name-invalid-characters"
        && row.5 == "Skill name '!!!' contains invalid characters. Only letters, digits, and hyphens are allowed."
        && row.6.is_empty()), "{bangs:#?}");
    // `skills validate` keeps the reference's text byte for byte: no help line.
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .current_dir(&root)
        .args(["validate", "names/Invoice Check"])
        .output()
        .expect("run skills validate");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "Validation failed for names/Invoice Check:\n  - Skill name 'Invoice Check' must be lowercase\n  - Skill name 'Invoice Check' contains invalid characters. Only letters, digits, and hyphens are allowed.\n"
    );
}

#[test]
fn yaml_errors_name_the_file_in_the_gate_and_keep_the_reference_text_in_validate() {
    let root = scratch("yaml-file-name");
    write(
        &root,
        "skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Use when: asked\n---\nBody.\n",
    );
    for command in ["check", "build"] {
        let (status, report) = cli(&root, command, &Opts::default(), &["skills"]);
        assert_eq!(status, 1, "{command}");
        let message = report["problems"][0]["message"].as_str().unwrap();
        assert_eq!(
            message,
            "Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"skills/notes/SKILL.md\", line 3, column 22:\n    description: Use when: asked\n                         ^ (line: 3)",
            "{command}"
        );
    }
    // The library doors say the same, with the path they were given.
    let outcome = Opts::default().builder(&root, &["skills"]).run();
    let problem = &outcome.problems()[0];
    assert!(
        problem.message.contains(&format!(
            "\n  in \"{}\", line 3, column 22:\n",
            root.join("skills/notes/SKILL.md").display()
        )),
        "{}",
        problem.message
    );
    // `skills fmt` refuses the file with the same words.
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .current_dir(&root)
        .args(["fmt", "--check", "skills/notes"])
        .output()
        .expect("run skills fmt");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("in \"skills/notes/SKILL.md\", line 3, column 22:")
            && !stderr.contains("<unicode string>"),
        "{stderr}"
    );
    // `skills validate` is the reference's text, byte for byte.
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .current_dir(&root)
        .args(["validate", "skills/notes"])
        .output()
        .expect("run skills validate");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "Validation failed for skills/notes:\n  - Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"<unicode string>\", line 3, column 22:\n    description: Use when: asked\n                         ^ (line: 3)\n"
    );
}
