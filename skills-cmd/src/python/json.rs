//! What Python's `json` module writes of data PyYAML or strictyaml
//! loaded: `read-properties` prints a skill's fields this way, and the
//! recorded YAML verdicts (`testdata/yaml`, `scripts/record/yaml.py`) are
//! written in it, so the tests below compare the strict YAML reader with
//! strictyaml 1.7.3 through it.

use skills_core::encoding::json::Json;
use skills_pycompat::yaml::{Entry, Value};

/// A loaded value as Python's `json` module sees it (a `str`, a `list` or a
/// `dict` in file order), to write with [`skills_core::encoding::json`].
pub(crate) fn value_json(value: &Value) -> Json {
    match value {
        Value::Str(text) => Json::Str(text.clone()),
        Value::Seq(items) => Json::Array(items.iter().map(|n| value_json(&n.value)).collect()),
        Value::Map(entries) => entries_json(entries),
    }
}

/// A mapping's entries as a JSON object, keys in file order.
fn entries_json(entries: &[Entry]) -> Json {
    Json::Object(
        entries
            .iter()
            .map(|e| (e.key.clone(), value_json(&e.value.value)))
            .collect(),
    )
}

/// The strict YAML reader against strictyaml 1.7.3's recorded verdicts.
///
/// Each `testdata/yaml/<case>.yaml` has a `<case>.out` written by
/// `scripts/record/yaml.py`: `ok` and the JSON of the loaded data, `error` and
/// the exact error text, or `crash` where the reference itself fails (there we
/// only require an error, naming the code point for non-printable input).
#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use skills_core::encoding::json::Style;
    use skills_pycompat::yaml::{self, Value};
    use skills_test_support::rng::Rng;

    use super::{entries_json, value_json};

    #[test]
    fn entries_as_a_json_object() {
        let doc = yaml::parse("a: x\nb:\n  c: y\n").unwrap();
        let Value::Map(entries) = &doc.value else {
            unreachable!()
        };
        assert_eq!(
            entries_json(&entries[1..]).to_text(Style::PYTHON),
            r#"{"b": {"c": "y"}}"#
        );
        let doc = yaml::parse("tags:\n- é\n").unwrap();
        assert_eq!(
            value_json(&doc.value).to_text(Style::COMPACT),
            r#"{"tags":["é"]}"#
        );
    }

    /// `(name, input, recorded output)` for every case, sorted by name.
    fn cases() -> Vec<(String, String, String)> {
        cases_in(&skills_test_support::testdata("yaml"))
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
    /// runs: `YAML_CASES=/some/dir cargo test -p skills-cmd --bin skills python::json -- --ignored`
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
                                failures
                                    .push(format!("{name}: error does not name {code}: {error}"));
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
        '{', '}', '[', ']', '&', '*', '!', ':', '-', '|', '>', '\'', '"', '#', '\t', '\n', ' ',
        '?', ',', '%', '@', '`', '\\', '.', '\r', '\u{85}', '\u{2028}', '\u{feff}', '\u{7}', '0',
        '+', '<', '日',
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
}
