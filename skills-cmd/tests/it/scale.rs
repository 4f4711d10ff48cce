//! Registry scale: `keep_going` (every valid skill compiled, the rest
//! reported and left out) and the thread count (the same bytes from one
//! thread as from many).

use std::path::{Path, PathBuf};
use std::process::Command;

use skills_build::Builder;
use skills_build::problem::Problem;
use skills_core::Catalog;

use crate::support;
use support::tree;
use tree::write;

fn scratch(name: &str) -> PathBuf {
    tree::scratch("scale", name)
}

/// A folder of skills with each way real ones are invalid, beside valid
/// ones: Title Case name with spaces, a name that is not the folder's, an
/// unknown field, YAML that does not parse, an empty description, and an
/// `allowed-tools` the compiler (not the validator) refuses.
fn mixed(root: &Path) {
    for name in ["alpha", "beta", "gamma"] {
        write(
            root,
            &format!("{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"),
        );
    }
    write(root, "beta/references/notes.md", "Notes.");
    write(
        root,
        "title-case/SKILL.md",
        "---\nname: Title Case\ndescription: x\n---\n",
    );
    write(
        root,
        "mismatch/SKILL.md",
        "---\nname: other\ndescription: x\n---\n",
    );
    write(
        root,
        "unknown/SKILL.md",
        "---\nname: unknown\ndescription: x\nauthor: me\n---\n",
    );
    write(
        root,
        "bad-yaml/SKILL.md",
        "---\nname: bad-yaml\ntags: [a, b\ndescription: x\n---\n",
    );
    write(
        root,
        "empty/SKILL.md",
        "---\nname: empty\ndescription: \"\"\n---\n",
    );
    write(
        root,
        "tools/SKILL.md",
        "---\nname: tools\ndescription: x\nallowed-tools: Bash(git\n---\n",
    );
}

fn keys(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}

#[test]
fn keep_going_compiles_the_valid_skills_and_reports_the_rest() {
    let root = scratch("mixed");
    mixed(&root);
    let strict = Builder::new().source(&root).run();
    assert!(strict.result.is_err() && strict.failed(false));
    let kept = Builder::new().source(&root).keep_going(true).run();
    assert!(kept.failed(false), "errors were found: the run says so");
    let compiled = kept.result.as_ref().expect("a bundle of the valid skills");
    let catalog = Catalog::open(&compiled.bytes).unwrap();
    assert_eq!(
        catalog.names().collect::<Vec<_>>(),
        ["alpha", "beta", "gamma"]
    );
    // The valid skills compile to what they compile to alone.
    let valid = scratch("valid");
    for name in ["alpha", "beta", "gamma"] {
        copy(&root.join(name), &valid.join(name));
    }
    let alone = Builder::new().source(&valid).compile().unwrap();
    assert_eq!(
        Catalog::open(&alone.bytes)
            .unwrap()
            .call("beta", None)
            .unwrap()
            .reply
            .as_text(),
        catalog.call("beta", None).unwrap().reply.as_text()
    );
    // Every problem is reported, as without keep_going; the validator's
    // and the compiler's alike.
    let mut all = keys(strict.problems());
    all.sort();
    let mut reported = keys(kept.problems());
    reported.sort();
    assert_eq!(reported, all);
    let dropped: Vec<&str> = kept.dropped().iter().map(|d| d.dir.as_str()).collect();
    assert_eq!(
        dropped,
        [
            "bad-yaml",
            "empty",
            "mismatch",
            "title-case",
            "tools",
            "unknown"
        ]
    );
    for skill in kept.dropped() {
        assert!(!skill.problems.is_empty(), "{} says why", skill.dir);
        assert!(skill.problems.iter().all(Problem::is_error));
        assert!(
            skill
                .problems
                .iter()
                .all(|p| p.file.as_deref() == Some(skill.location.as_str())),
            "{:?}",
            skill.problems
        );
    }
    let tools = kept.dropped().iter().find(|d| d.dir == "tools").unwrap();
    assert_eq!(tools.problems[0].code.as_str(), "allowed-tools-syntax");
    std::fs::remove_dir_all(&root).unwrap();
    std::fs::remove_dir_all(&valid).unwrap();
}

fn copy(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::create_dir_all(to).unwrap();
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn keep_going_still_fails_on_errors_of_no_skill() {
    let root = scratch("sourceless");
    mixed(&root);
    let outcome = Builder::new()
        .source(&root)
        .source(root.join("no-such-folder"))
        .keep_going(true)
        .run();
    let error = outcome.result.unwrap_err();
    assert!(
        error
            .problems
            .iter()
            .any(|p| p.code.as_str() == "source-not-found"),
        "{error}"
    );
    let outcome = Builder::new()
        .source(&root)
        .exclude("a//b")
        .keep_going(true)
        .run();
    assert!(outcome.result.is_err());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn cli_keep_going_writes_the_bundle_and_the_report_and_exits_3() {
    let root = scratch("cli");
    mixed(&root.join("skills"));
    let run = |args: &[&str]| support::run_skills(Some(&root), args);
    let strict = run(&["build", "skills", "-o", "strict.bin"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(!root.join("strict.bin").exists());
    let kept = run(&["build", "skills", "-o", "kept.bin", "--keep-going"]);
    assert_eq!(
        kept.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&kept.stderr)
    );
    let stderr = String::from_utf8_lossy(&kept.stderr);
    assert!(
        stderr.contains("--> skills/title-case/SKILL.md:2:7"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("6 skills left out, listed in kept.bin.report.json\n"),
        "{stderr}"
    );
    let bundle = std::fs::read(root.join("kept.bin")).unwrap();
    assert_eq!(Catalog::open(&bundle).unwrap().len(), 3);
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("kept.bin.report.json")).unwrap()).unwrap();
    assert_eq!(report["found"], 9);
    assert_eq!(report["listed"], 3);
    let dropped = report["dropped"].as_array().unwrap();
    assert_eq!(dropped.len(), 6);
    assert_eq!(dropped[0]["dir"], "bad-yaml");
    assert_eq!(dropped[0]["file"], "skills/bad-yaml/SKILL.md");
    assert_eq!(dropped[0]["problems"][0]["code"], "yaml-syntax");
    // The JSON report on stdout names them too.
    let json = run(&[
        "build",
        "skills",
        "-o",
        "kept.bin",
        "--keep-going",
        "--format",
        "json",
    ]);
    assert_eq!(json.status.code(), Some(3));
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["ok"], false);
    assert_eq!(json["output"], "kept.bin");
    assert_eq!(json["dropped"].as_array().unwrap().len(), 6);
    // Nothing invalid: exit 0, and a report that drops nothing.
    let clean = run(&["build", "skills/alpha", "-o", "clean.bin", "--keep-going"]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("clean.bin.report.json")).unwrap())
            .unwrap();
    assert_eq!(report["dropped"], serde_json::json!([]));
    let bad = run(&["build", "skills", "-o", "x.bin", "--threads", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&root).unwrap();
}

/// A deterministic corpus: sizes spread from tiny to tens of KB, some
/// skills with files (text, nested, binary), some invalid.
fn corpus(root: &Path, n: usize) {
    let mut rng = support::rng::Rng(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next_u64();
    for index in 0..n {
        let name = format!("skill-{index:04}");
        let paragraphs = 1 + (next() % 40) as usize * (1 + (next() % 8 == 0) as usize * 20);
        let body: String = (0..paragraphs)
            .map(|p| format!("## Step {p}\n\nDo part {p} of {name} carefully.\n\n"))
            .collect();
        let front = match next() % 10 {
            0 => format!("name: {name}\ndescription: \"\""),
            1 => format!("name: {name}\ndescription: x\nauthor: someone"),
            _ => {
                format!("name: {name}\ndescription: Does {name} for {index} reasons.\nlicense: MIT")
            }
        };
        write(
            root,
            &format!("{name}/SKILL.md"),
            format!("---\n{front}\n---\n{body}"),
        );
        if next() % 10 == 0 {
            write(
                root,
                &format!("{name}/references/REFERENCE.md"),
                body.repeat(2),
            );
            write(
                root,
                &format!("{name}/assets/blob.bin"),
                next().to_le_bytes().repeat(50),
            );
        }
    }
}

#[test]
fn one_thread_and_many_give_the_same_bytes() {
    let root = scratch("threads");
    corpus(&root, 300);
    let testdata = support::testdata("skills");
    for sources in [
        vec![root.clone()],
        vec![testdata.clone()],
        vec![testdata, root.clone()],
    ] {
        let build = |threads: usize| {
            let mut builder = Builder::new().keep_going(true).threads(threads);
            for source in &sources {
                builder = builder.source(source);
            }
            let outcome = builder.run();
            let dropped: Vec<String> = outcome.dropped().iter().map(|d| d.dir.clone()).collect();
            let problems = keys(outcome.problems());
            (outcome.result.map(|c| c.bytes), problems, dropped)
        };
        let one = build(1);
        assert!(one.0.is_ok(), "{:?}", one.1);
        for threads in [2, 3, 8] {
            assert!(
                build(threads) == one,
                "{threads} threads differ from one over {sources:?}"
            );
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// `Builder::run` (every door but `skills catalog`), which drops each
/// skill as read once it is compiled, gives what `run_keeping_skills`
/// (which keeps them) gives: the same bytes, problems in the same order,
/// the same skills left out, one thread or many, strict or keeping going,
/// with shadowed and qualified skills, over more skills than one window of
/// discovery (256).
#[test]
fn dropping_skills_once_compiled_changes_nothing() {
    let root = scratch("release");
    corpus(&root, 1100);
    mixed(&root);
    let testdata = support::testdata("skills");
    let qualified = testdata.join("git-rebase");
    for keep_going in [false, true] {
        for threads in [1, 3] {
            let builder = Builder::new()
                .source(&testdata)
                .source(&root)
                .qualified_source(&qualified, "vendor")
                .keep_going(keep_going)
                .threads(threads);
            let (kept, skills) = skills_build::unstable::run_keeping_skills(&builder);
            let lean = builder.run();
            assert_eq!(skills.len(), kept.skills);
            assert!(skills.iter().filter(|s| s.name().is_some()).count() > 1100);
            assert_eq!((lean.skills, &lean.sources), (kept.skills, &kept.sources));
            assert_eq!(keys(lean.problems()), keys(kept.problems()));
            assert_eq!(lean.dropped(), kept.dropped());
            assert_eq!(lean.inputs, kept.inputs);
            match (&lean.result, &kept.result) {
                (Ok(lean), Ok(kept)) => assert!(lean.bytes == kept.bytes),
                (Err(lean), Err(kept)) => assert_eq!(lean, kept),
                _ => panic!("one route failed and the other did not (keep_going {keep_going})"),
            }
            assert_eq!(kept.result.is_ok(), keep_going);
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

/// Issue 20, finding 3: `--keep-going` with no valid skill is an error
/// (exit 1, no bundle, no report), not a bundle of nothing (exit 3).
#[test]
fn keep_going_with_no_valid_skill_is_an_error() {
    let root = scratch("nothing-valid");
    let skills = root.join("skills");
    write(
        &skills,
        "title-case/SKILL.md",
        "---\nname: Title Case\ndescription: x\n---\n",
    );
    write(
        &skills,
        "mismatch/SKILL.md",
        "---\nname: other\ndescription: x\n---\n",
    );
    let outcome = Builder::new().source(&skills).keep_going(true).run();
    let error = outcome.result.unwrap_err();
    assert!(
        error
            .problems
            .iter()
            .any(|p| p.code.as_str() == "no-valid-skill"),
        "{error}"
    );
    let run = Command::new(env!("CARGO_BIN_EXE_skills"))
        .current_dir(&root)
        .args(["build", "skills", "-o", "none.bin", "--keep-going"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error[no-valid-skill]: no valid skill: all 2 skills found have errors"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--> skills/title-case/SKILL.md:2:7"),
        "{stderr}"
    );
    assert!(!root.join("none.bin").exists());
    assert!(!root.join("none.bin.report.json").exists());
    std::fs::remove_dir_all(&root).unwrap();
}

/// The files in `dir`, sorted by name.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `skills build` streams the bundle into a file as it is compiled: the
/// same bytes as a bundle held in memory (one thread or two, over more
/// than one window of skills), and nothing left beside the output, or
/// put in its place, when the build is refused.
#[test]
fn a_streamed_bundle_is_the_held_one_and_a_refused_build_leaves_nothing() {
    let root = scratch("streamed");
    corpus(&root.join("skills"), 1100);
    mixed(&root.join("skills"));
    let out = root.join("out");
    std::fs::create_dir_all(&out).unwrap();
    for threads in [1, 2] {
        let builder = Builder::new()
            .source(root.join("skills"))
            .keep_going(true)
            .threads(threads);
        let held = builder.run().result.unwrap().bytes;
        let streamed = builder
            .run_to_file(out.join("a.bin"), &mut |_| {})
            .result
            .unwrap();
        assert_eq!(streamed.bytes.skills(), Catalog::open(&held).unwrap().len());
        assert_eq!(streamed.bytes.len(), held.len() as u64);
        streamed.bytes.persist().unwrap();
        assert_eq!(std::fs::read(out.join("a.bin")).unwrap(), held);
        assert_eq!(listing(&out), ["a.bin"]);
    }
    let run = |args: &[&str]| support::run_skills(Some(&root), args);
    // Refused for errors, and for a warning under --deny-warnings (a
    // skill shadowed by the same skill in an earlier source): the file
    // there stays as it was, and nothing is left beside it.
    std::fs::write(out.join("a.bin"), "an earlier bundle").unwrap();
    let testdata = support::testdata("skills");
    let testdata = testdata.to_str().unwrap();
    for args in [
        &["build", "skills", "-o", "out/a.bin"][..],
        &[
            "build",
            testdata,
            testdata,
            "-o",
            "out/a.bin",
            "--deny-warnings",
        ][..],
    ] {
        let refused = run(args);
        assert_eq!(refused.status.code(), Some(1), "{args:?}");
        assert_eq!(
            std::fs::read(out.join("a.bin")).unwrap(),
            b"an earlier bundle"
        );
        assert_eq!(listing(&out), ["a.bin"], "{args:?}");
    }
    // An output that cannot be written is said plainly, before any work.
    let unwritable = run(&["build", "skills", "-o", "no/such/dir/a.bin", "--keep-going"]);
    assert_eq!(unwritable.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&unwritable.stderr);
    assert!(
        stderr.contains("cannot write no/such/dir/a.bin"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}
