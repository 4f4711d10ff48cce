//! `skills fmt`'s two promises, over every recorded skill file and YAML
//! case and over generated frontmatter: for every file the reader
//! accepts, the canonical form reads back to the same fields (and the
//! same verdicts), and formatting it again changes nothing.

use std::path::Path;

use super::{FormatError, format};
use skills_build::unstable::frontmatter::{self, SkillDocument};
use skills_build::unstable::validate::validate;
use skills_pycompat::yaml::Value;

use skills_test_support::rng::Rng;
use skills_test_support::testdata;

/// A value with its marks dropped, for comparing what was read.
#[derive(Debug, PartialEq, Eq)]
enum Plain {
    Str(String),
    Seq(Vec<Plain>),
    Map(Vec<(String, Plain)>),
}

fn plain(value: &Value) -> Plain {
    match value {
        Value::Str(text) => Plain::Str(text.clone()),
        Value::Seq(items) => Plain::Seq(items.iter().map(|n| plain(&n.value)).collect()),
        Value::Map(entries) => Plain::Map(
            entries
                .iter()
                .map(|e| (e.key.clone(), plain(&e.value.value)))
                .collect(),
        ),
    }
}

/// The top-level fields, sorted by key (formatting reorders them), nested
/// values in their order.
fn fields(doc: &SkillDocument) -> Vec<(String, Plain)> {
    let mut out: Vec<(String, Plain)> = doc
        .frontmatter
        .entries()
        .iter()
        .map(|e| (e.key.clone(), plain(&e.value.value)))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn verdicts(doc: &SkillDocument) -> Vec<String> {
    let mut out: Vec<String> = validate(doc, "skill")
        .into_iter()
        .map(|p| p.message)
        .collect();
    out.sort();
    out
}

#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    formatted: usize,
    changed: usize,
    comments: usize,
}

/// Checks both properties on one input; returns a failure description.
fn check(label: &str, input: &[u8], tally: &mut Tally) -> Result<(), String> {
    let Ok(before) = frontmatter::parse(input) else {
        // Not accepted by the reader: fmt must refuse it too.
        return match format(input) {
            Err(FormatError::Parse(_)) => Ok(()),
            other => Err(format!("{label}: unreadable input not refused: {other:?}")),
        };
    };
    tally.accepted += 1;
    let output = match format(input) {
        Ok(output) => output,
        Err(FormatError::Comment(_)) => {
            tally.comments += 1;
            return Ok(());
        }
        Err(error) => {
            return Err(format!(
                "{label}: {error}\n{}",
                String::from_utf8_lossy(input)
            ));
        }
    };
    tally.formatted += 1;
    if output != input {
        tally.changed += 1;
    }
    let show = || {
        format!(
            "--- input\n{}\n--- output\n{}",
            String::from_utf8_lossy(input),
            String::from_utf8_lossy(&output)
        )
    };
    let after = frontmatter::parse(&output)
        .map_err(|e| format!("{label}: output does not parse: {e}\n{}", show()))?;
    if fields(&after) != fields(&before) {
        return Err(format!("{label}: fields differ\n{}", show()));
    }
    if after.rest != before.rest {
        return Err(format!("{label}: body differs\n{}", show()));
    }
    if verdicts(&after) != verdicts(&before) {
        return Err(format!(
            "{label}: verdicts differ: {:?} vs {:?}\n{}",
            verdicts(&before),
            verdicts(&after),
            show()
        ));
    }
    match format(&output) {
        Ok(again) if again == output => Ok(()),
        Ok(again) => Err(format!(
            "{label}: not idempotent\n{}\n--- again\n{}",
            show(),
            String::from_utf8_lossy(&again)
        )),
        Err(error) => Err(format!("{label}: output refused: {error}\n{}", show())),
    }
}

fn collect(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            collect(&path, keep, out);
        } else if meta.is_file() && keep(&path) {
            out.push(path);
        }
    }
}

#[test]
fn recorded_cases_keep_their_fields_and_format_once() {
    let root = testdata("");
    let mut files = Vec::new();
    let is_skill_file = |p: &Path| {
        matches!(
            p.file_name().and_then(|n| n.to_str()),
            Some("SKILL.md" | "skill.md")
        )
    };
    collect(
        &root.join("reference"),
        &|p| is_skill_file(p) && p.to_string_lossy().contains("/tree/"),
        &mut files,
    );
    collect(&root.join("skills"), &is_skill_file, &mut files);
    collect(&root.join("archive"), &is_skill_file, &mut files);
    let skill_files = files.len();
    let mut yaml = Vec::new();
    collect(
        &root.join("yaml"),
        &|p| p.extension().is_some_and(|e| e == "yaml"),
        &mut yaml,
    );
    yaml.sort();
    files.sort();
    assert!(
        skill_files > 300 && yaml.len() > 100,
        "{skill_files} {}",
        yaml.len()
    );
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if let Err(failure) = check(&path.display().to_string(), &bytes, &mut tally) {
            failures.push(failure);
        }
    }
    for path in &yaml {
        let mut bytes = b"---\n".to_vec();
        bytes.extend(std::fs::read(path).unwrap());
        bytes.extend_from_slice(b"---\n# Body\n");
        if let Err(failure) = check(&path.display().to_string(), &bytes, &mut tally) {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{tally:?}");
    assert!(tally.formatted > 250 && tally.changed > 50, "{tally:?}");
}

const KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "version",
    "x-team",
    "Zeta",
    "a b",
    "'quoted: key'",
    "\"double\\tkey\"",
    "日本",
    "'true'",
    "? odd",
];

const WORDS: &[&str] = &[
    "pdf",
    "Fill",
    "forms.",
    "true",
    "1.0",
    "~",
    "null",
    "a-b",
    "x:y",
    "50%",
    "@at",
    "`tick`",
    "a#b",
    "-dash",
    "日本語",
    "http://x.y/z?q=1",
    "--",
    "a",
    "b",
    "'",
    "\"",
    ":",
    "#",
    "- ",
    "*star",
    "&amp",
    "!bang",
    "|",
    ">",
    "{",
    "}",
    "[",
    "]",
    ",",
    "%",
    "\\",
    "\t",
    "é",
];

fn words(rng: &mut Rng, max: usize) -> String {
    let n = 1 + rng.below(max);
    (0..n)
        .map(|_| WORDS[rng.below(WORDS.len())])
        .collect::<Vec<_>>()
        .join(if rng.below(4) == 0 { "  " } else { " " })
}

const ESCAPES: &[&str] = &[
    "\\n",
    "\\t",
    "\\x41",
    "\\u00e9",
    "\\\"",
    "\\\\",
    "\\x2d",
    "\\ ",
    "\\/",
    "\\0",
    "\\e",
    "\\x85",
    "\\u2028",
    "\\U0001F600",
];

/// A scalar in a random style, indented for `level`.
fn scalar(rng: &mut Rng, level: usize) -> String {
    let pad = " ".repeat(level * 2 + 2);
    match rng.below(9) {
        0 => String::new(),
        1 | 2 => words(rng, 4),
        3 => format!("'{}'", words(rng, 4).replace('\'', "''")),
        4 => {
            let mut text = String::from("\"");
            for _ in 0..1 + rng.below(4) {
                if rng.below(2) == 0 {
                    text.push_str(ESCAPES[rng.below(ESCAPES.len())]);
                } else {
                    text.push_str(&words(rng, 2).replace(['"', '\\'], ""));
                }
            }
            text.push('"');
            text
        }
        5 => {
            let header = ["|", "|-", "|+", ">", ">-", ">+", "|2"][rng.below(7)];
            let mut text = header.to_string();
            for _ in 0..1 + rng.below(3) {
                text.push('\n');
                text.push_str(&pad);
                if rng.below(4) == 0 {
                    text.push_str("  ");
                }
                text.push_str(&words(rng, 3));
            }
            if rng.below(3) == 0 {
                text.push('\n');
            }
            text
        }
        6 => format!("{}\n{pad}{}", words(rng, 2), words(rng, 2)),
        7 => format!(
            "'{}\n{pad}{}'",
            words(rng, 2).replace('\'', ""),
            words(rng, 2).replace('\'', "")
        ),
        _ => format!(
            "\"{}\\\n{pad}{}\"",
            words(rng, 2).replace(['"', '\\'], ""),
            words(rng, 2).replace(['"', '\\'], "")
        ),
    }
}

fn value(rng: &mut Rng, level: usize, out: &mut String) {
    let pad = " ".repeat((level + 1) * 2);
    match rng.below(if level < 2 { 6 } else { 4 }) {
        4 => {
            out.push('\n');
            for _ in 0..1 + rng.below(3) {
                out.push_str(&pad);
                out.push_str(KEYS[rng.below(KEYS.len())]);
                out.push(':');
                value(rng, level + 1, out);
            }
        }
        5 => {
            out.push('\n');
            for _ in 0..1 + rng.below(3) {
                out.push_str(&pad);
                out.push('-');
                value(rng, level + 1, out);
            }
        }
        _ => {
            let text = scalar(rng, level);
            if !text.is_empty() {
                out.push(' ');
            }
            out.push_str(&text);
            out.push('\n');
        }
    }
}

fn generated(rng: &mut Rng) -> Vec<u8> {
    let mut text = String::from("---\n");
    for _ in 0..1 + rng.below(6) {
        text.push_str(KEYS[rng.below(KEYS.len())]);
        text.push(':');
        value(rng, 0, &mut text);
    }
    text.push_str("---\n");
    text.push_str(["", "# Body\n", "\n\nText --- more\r\n", "x"][rng.below(4)]);
    if rng.below(5) == 0 {
        text = text.replace('\n', "\r\n");
    }
    text.into_bytes()
}

#[test]
fn generated_frontmatter_keeps_its_fields_and_formats_once() {
    let mut rng = Rng(0x0f0f_5eed_c0de_2026);
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for i in 0..4000 {
        let input = generated(&mut rng);
        if let Err(failure) = check(&format!("case {i}"), &input, &mut tally) {
            failures.push(failure);
            if failures.len() > 10 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("{tally:?}");
    assert!(tally.formatted > 800 && tally.comments > 10, "{tally:?}");
}
