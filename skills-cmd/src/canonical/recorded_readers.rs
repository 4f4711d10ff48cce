//! The quoting rule against the real readers' verdicts, recorded by
//! `scripts/record/yaml-readers.sh` in `testdata/yaml-readers/`: every
//! scalar PyYAML (YAML 1.1) or ruamel.yaml (YAML 1.2) reads as something
//! other than the same text keeps quotes, as a value and as a key (issue
//! 20, finding 1); the scalars both read as text are quoted only where our
//! reader needs it, or for the few forms other 1.1 readers resolve.

use super::{Role, other_readers::resolves_elsewhere, scalar};

/// Each row's scalar and the readers' verdicts.
fn rows(file: &str) -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/yaml-readers/").to_owned() + file;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let (scalar, verdicts) = line.split_once('\t').expect("a tab");
            (
                serde_json::from_str(scalar).expect("a JSON string"),
                verdicts.to_string(),
            )
        })
        .collect()
}

#[test]
fn every_scalar_another_reader_reads_as_not_text_keeps_its_quotes() {
    let rows = rows("not-text.tsv");
    assert!(rows.len() > 1000, "{} rows", rows.len());
    for (text, verdicts) in &rows {
        // `value/key` for each reader.
        let not_text = |at: usize| {
            verdicts
                .split('\t')
                .any(|verdict| verdict.split('/').nth(at) != Some("str"))
        };
        for (role, at) in [(Role::Value, 0), (Role::Key, 1)] {
            if !not_text(at) {
                continue;
            }
            let spelled = scalar(text, role).unwrap();
            assert_ne!(
                &spelled,
                text,
                "{text:?} ({verdicts}) is written plain as a {}",
                if role == Role::Key { "key" } else { "value" }
            );
        }
    }
    // The finding's own examples are among them.
    for example in ["true", "1.10", "NO", "007", "yes", "null"] {
        assert!(rows.iter().any(|(text, _)| text == example), "{example}");
    }
}

/// Scalars both recorded readers read as text that the rule still quotes:
/// the YAML 1.1 type repository's one-letter booleans (go-yaml and others
/// resolve them) and signed NaNs. Nothing else.
fn deliberately_quoted(text: &str) -> bool {
    matches!(text, "y" | "Y" | "n" | "N")
        || matches!(
            text.strip_prefix(['+', '-']),
            Some(".nan" | ".NaN" | ".NAN")
        )
}

#[test]
fn scalars_every_reader_reads_as_text_are_not_quoted_for_them() {
    let rows = rows("text.tsv");
    assert!(rows.len() > 1000, "{} rows", rows.len());
    let over: Vec<&str> = rows
        .iter()
        .map(|(text, _)| text.as_str())
        .filter(|text| resolves_elsewhere(text).is_some() && !deliberately_quoted(text))
        .collect();
    assert!(over.is_empty(), "quoted for no reader: {over:?}");
}
