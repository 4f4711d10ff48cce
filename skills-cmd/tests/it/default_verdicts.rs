//! The default verdict (no host profile) on the recorded reference corpus
//! stays what it was, byte for byte.
//!
//! Host profiles (`--host`, `hosts = [...]`, `Builder::host`) widen what
//! the gate accepts only when a project asks for them; without one the
//! gate must judge every skill exactly as before they existed. This test
//! runs `skills check .` in the `tree/` of every case under
//! `testdata/reference/` (the skills the reference validator's recordings
//! were made on) and compares the exit status and everything printed with
//! `testdata/hosts/default-verdicts.txt`, which was recorded before the
//! profiles were added. `reference_cli.rs` keeps `validate`,
//! `read-properties` and `to-prompt` equal to the reference itself.
//!
//! `SKILLS_BLESS=1` rewrites the recording: only do so for a change of the
//! default verdict that is meant, and say so in the commit.

use std::fmt::Write as _;
use std::fs;

use crate::support;

#[test]
fn the_default_verdict_on_the_reference_corpus_is_unchanged() {
    let root = support::testdata("reference");
    let mut cases: Vec<_> = fs::read_dir(&root)
        .expect("testdata/reference")
        .map(|entry| entry.expect("a case").path())
        .filter(|case| case.join("tree").is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() > 300, "the corpus lost cases: {}", cases.len());
    let mut recorded = String::new();
    for case in &cases {
        let tree = case.join("tree");
        let out = support::run_skills(Some(&tree), &["check", "."]);
        let name = case.file_name().unwrap().to_string_lossy();
        let _ = writeln!(
            recorded,
            "== {name}: status {}",
            out.status.code().unwrap_or(-1)
        );
        recorded.push_str(&String::from_utf8_lossy(&out.stdout));
        recorded.push_str(&String::from_utf8_lossy(&out.stderr));
    }
    let path = support::testdata("hosts/default-verdicts.txt");
    if std::env::var_os("SKILLS_BLESS").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, &recorded).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path).expect("testdata/hosts/default-verdicts.txt");
    if expected != recorded {
        let first = expected
            .lines()
            .zip(recorded.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(recorded.lines().count()));
        let context = |text: &str| {
            text.lines()
                .skip(first.saturating_sub(3))
                .take(8)
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "the default verdict changed from line {}:\n--- recorded\n{}\n--- now\n{}",
            first + 1,
            context(&expected),
            context(&recorded)
        );
    }
}
