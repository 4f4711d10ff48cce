//! The strict YAML reader against strictyaml 1.7.3's recorded verdicts.
//!
//! Each `testdata/yaml/<case>.yaml` has a `<case>.out` written by
//! `scripts/record/yaml.py`: `ok` and the JSON of the loaded data, `error` and
//! the exact error text, or `crash` where the reference itself fails (there we
//! only require an error, naming the code point for non-printable input).

use std::fs;
use std::path::Path;

use skills_build::unstable::frontmatter::value_json;
use skills_core::encoding::json::Style;
use skills_pycompat::yaml;

use crate::support;
use support::rng::Rng;

/// `(name, input, recorded output)` for every case, sorted by name.
fn cases() -> Vec<(String, String, String)> {
    cases_in(&support::testdata("yaml"))
}

/// The cases recorded in `dir`.
fn cases_in(dir: &Path) -> Vec<(String, String, String)> {
    let mut cases = Vec::new();
    for entry in fs::read_dir(dir).expect("the case directory exists") {
        let path = entry.expect("readable dir entry").path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let input = fs::read_to_string(&path).expect("UTF-8 input");
        let out = fs::read_to_string(path.with_extension("out"))
            .unwrap_or_else(|_| format!("missing .out for {name}"));
        cases.push((name, input, out));
    }
    cases.sort();
    cases
}

fn ours(input: &str) -> String {
    match yaml::parse(input) {
        Ok(node) => {
            // Python's `json.dumps(value, ensure_ascii=False, indent=1)`.
            let json = value_json(&node.value).to_text(Style::indented(1).with_ascii(false));
            format!("ok\n{json}\n")
        }
        Err(error) => format!("error\n{error}"),
    }
}

#[test]
fn recorded_cases_match_byte_for_byte() {
    let cases = cases();
    assert!(cases.len() >= 80, "only {} recorded cases", cases.len());
    assert_all_match(&cases);
}

/// The same comparison over a directory recorded elsewhere, for differential
/// runs: `YAML_CASES=/some/dir cargo test -p skills-build --test yaml_recorded -- --ignored`
/// after `.venv-ref/bin/python scripts/record/yaml.py /some/dir`.
#[test]
#[ignore = "needs YAML_CASES pointing at a recorded directory"]
fn external_cases_match_byte_for_byte() {
    let Some(dir) = std::env::var_os("YAML_CASES") else {
        return;
    };
    assert_all_match(&cases_in(Path::new(&dir)));
}

fn assert_all_match(cases: &[(String, String, String)]) {
    let failures = mismatches(cases);
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// One report per case whose result differs from the recording.
fn mismatches(cases: &[(String, String, String)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (name, input, want) in cases {
        if want.starts_with("crash\n") {
            match yaml::parse(input) {
                Ok(node) => failures.push(format!(
                    "{name}: the reference crashes, we accepted {node:?}"
                )),
                Err(error) => {
                    let bad = input.chars().find(|&c| {
                        c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{85}')
                            || matches!(c, '\u{fffe}' | '\u{ffff}')
                    });
                    if let Some(c) = bad {
                        let code = format!("U+{:04X}", u32::from(c));
                        if !error.to_string().contains(&code) {
                            failures.push(format!("{name}: error does not name {code}: {error}"));
                        }
                    }
                }
            }
            continue;
        }
        let got = ours(input);
        if &got != want {
            failures.push(format!(
                "{name}: {input:?}\n--- want\n{want}\n--- got\n{got}\n"
            ));
        }
    }
    failures
}

/// Characters that steer a YAML scanner somewhere interesting.
const SIGNIFICANT: &[char] = &[
    '{', '}', '[', ']', '&', '*', '!', ':', '-', '|', '>', '\'', '"', '#', '\t', '\n', ' ', '?',
    ',', '%', '@', '`', '\\', '.', '\r', '\u{85}', '\u{2028}', '\u{feff}', '\u{7}', '0', '+', '<',
    '日',
];

fn mutate(rng: &mut Rng, input: &str) -> String {
    let mut chars: Vec<char> = input.chars().collect();
    for _ in 0..=rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(5) {
            0 => chars.insert(at, SIGNIFICANT[rng.below(SIGNIFICANT.len())]),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => chars[at] = SIGNIFICANT[rng.below(SIGNIFICANT.len())],
            3 => chars.truncate(at),
            _ => {
                let flipped = (rng.next_u64() & 0x7f) as u8;
                chars.insert(at, char::from(flipped));
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_inputs_never_panic() {
    let inputs: Vec<String> = cases().into_iter().map(|(_, input, _)| input).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..4000 {
        let base = &inputs[rng.below(inputs.len())];
        let mutated = mutate(&mut rng, base);
        let outcome = std::panic::catch_unwind(|| yaml::parse(&mutated).map(|_| ()));
        assert!(outcome.is_ok(), "parse panicked on {mutated:?}");
    }
}
