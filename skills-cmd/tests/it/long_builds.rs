//! Long builds a person can watch: past 50 problems the report groups them
//! by rule (every one with `-v` and in the JSON report), `--allow RULE`
//! silences a warning or note rule everywhere and never an error, and a
//! build that keeps going names each left-out skill with its own errors.

use std::path::PathBuf;

use serde_json::Value;

use crate::support;
use support::run_skills;
use support::tree;

fn skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody of {name}.\n")
}

/// `count` skills, each with an editor's backup file (a `junk-skipped`
/// note), and one whose body is over 500 lines (a `body-too-long` warning).
fn noisy_tree(name: &str, count: usize) -> PathBuf {
    let root = tree::scratch("long", name);
    for at in 0..count {
        let name = format!("skill-{at:03}");
        tree::write(&root, &format!("{name}/SKILL.md"), skill(&name));
        tree::write(&root, &format!("{name}/notes.md~"), "backup");
    }
    let long = format!(
        "---\nname: long\ndescription: Long. Use when asked.\n---\n{}",
        "line\n".repeat(600)
    );
    tree::write(&root, "long/SKILL.md", long);
    root
}

/// The report: on stdout for `check` and `audit`, on stderr for `build`.
fn stderr(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    match text.is_empty() {
        true => String::from_utf8_lossy(&out.stderr).into_owned(),
        false => text,
    }
}

#[test]
fn past_fifty_problems_are_grouped_by_rule() {
    let root = noisy_tree("grouped", 60);
    let dir = root.to_str().unwrap();
    let out = run_skills(None, &["check", dir]);
    assert_eq!(out.status.code(), Some(0));
    let text = stderr(&out);
    assert!(
        text.contains("61 problems, by rule (-v lists every one"),
        "{text}"
    );
    assert!(text.contains("warning[body-too-long]: 1, e.g. "), "{text}");
    assert!(text.contains("note[junk-skipped]: 60, e.g. "), "{text}");
    assert_eq!(text.matches("junk-skipped").count(), 1, "{text}");
    // -v lists every one.
    let verbose = stderr(&run_skills(None, &["check", "-v", dir]));
    assert_eq!(
        verbose.matches("note[junk-skipped]").count(),
        60,
        "{verbose}"
    );
    // So does the JSON report.
    let out = run_skills(None, &["check", "--format", "json", dir]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["problems"].as_array().unwrap().len(), 61);
    // At 50 or fewer, every problem is listed as before.
    let small = noisy_tree("listed", 10);
    let text = stderr(&run_skills(None, &["check", small.to_str().unwrap()]));
    assert_eq!(text.matches("note[junk-skipped]").count(), 10, "{text}");
    assert!(!text.contains("by rule"), "{text}");
}

#[test]
fn allow_silences_a_warning_rule_and_never_an_error() {
    let root = noisy_tree("allow", 3);
    let dir = root.to_str().unwrap();
    let out = run_skills(
        None,
        &[
            "check",
            "--allow",
            "body-too-long",
            "--allow=junk-skipped",
            "--deny-warnings",
            dir,
        ],
    );
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        !text.contains("body-too-long") && !text.contains("junk-skipped"),
        "{text}"
    );
    // Without it, the warning fails a build that denies warnings.
    let out = run_skills(None, &["check", "--deny-warnings", dir]);
    assert_eq!(out.status.code(), Some(1));
    // An error cannot be allowed, and a code must be a rule's.
    let out = run_skills(None, &["check", "--allow", "name-lowercase", dir]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("name-lowercase is an error of the reference rules, which cannot be allowed")
    );
    let out = run_skills(
        None,
        &["build", "--allow", "no-such-rule", "-o", "x.bin", dir],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("\"no-such-rule\" is no rule's code"));
}

#[test]
fn a_build_that_keeps_going_names_each_skill_with_its_own_errors() {
    let root = tree::scratch("long", "keep-going-owners");
    tree::write(&root, "good/SKILL.md", skill("good"));
    // Two bad skills whose directories share a prefix: each error belongs
    // to the skill it was found in, not to the one whose path it starts with.
    tree::write(
        &root,
        "bad/SKILL.md",
        "---\nname: Bad\ndescription: x\n---\n",
    );
    tree::write(&root, "bad-too/SKILL.md", "---\nname: bad-too\n---\n");
    let out_file = root.join("out.bin");
    let out = run_skills(
        None,
        &[
            "build",
            "--keep-going",
            "--format",
            "json",
            "-o",
            out_file.to_str().unwrap(),
            root.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dropped = json["dropped"].as_array().unwrap();
    let by_dir = |dir: &str| {
        dropped
            .iter()
            .find(|d| d["dir"] == dir)
            .unwrap_or_else(|| panic!("{dir} dropped: {dropped:?}"))["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["code"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(by_dir("bad"), ["name-lowercase", "name-directory-mismatch"]);
    assert_eq!(by_dir("bad-too"), ["description-missing"]);
}
