//! `--format sarif` validates against the official SARIF 2.1.0 JSON schema
//! (`testdata/sarif/`, where it came from is in its README), and the other
//! machine formats keep their promises: JSON has a `version` and a code on
//! every problem, `--deny-warnings` fails on warnings, GitHub workflow
//! commands escape what they must.
//!
//! The validator below implements the JSON Schema draft-04 keywords the
//! SARIF schema uses, and panics on any other keyword, so that nothing in
//! the schema is silently skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support;
use support::tree;
use tree::write;

/// A JSON Schema draft-04 validator for one schema document.
mod schema {
    use serde_json::{Map, Value};

    /// Keywords that only annotate.
    const ANNOTATIONS: &[&str] = &["$schema", "id", "title", "description", "default"];

    pub struct Validator<'s> {
        root: &'s Value,
    }

    impl<'s> Validator<'s> {
        pub fn new(root: &'s Value) -> Self {
            Validator { root }
        }

        /// Every violation, as `path: what`.
        pub fn validate(&self, value: &Value) -> Vec<String> {
            let mut errors = Vec::new();
            self.check(self.root, value, "$", &mut errors);
            errors
        }

        fn resolve(&self, reference: &str) -> &'s Value {
            let pointer = reference
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("only local references: {reference}"));
            self.root
                .pointer(pointer)
                .unwrap_or_else(|| panic!("dangling reference {reference}"))
        }

        fn check(&self, schema: &'s Value, value: &Value, at: &str, errors: &mut Vec<String>) {
            let Some(schema) = schema.as_object() else {
                panic!("a schema must be an object at {at}");
            };
            if let Some(reference) = schema.get("$ref") {
                let target = self.resolve(reference.as_str().expect("$ref is a string"));
                return self.check(target, value, at, errors);
            }
            for (keyword, argument) in schema {
                match keyword.as_str() {
                    k if ANNOTATIONS.contains(&k) => {}
                    "definitions" => {}
                    "type" => check_type(argument, value, at, errors),
                    "enum" => {
                        if !argument.as_array().expect("enum").contains(value) {
                            errors.push(format!("{at}: {value} is not one of {argument}"));
                        }
                    }
                    "properties" | "additionalProperties" | "required" => {
                        if let Some(object) = value.as_object() {
                            self.check_object(schema, keyword, object, at, errors);
                        }
                    }
                    "items" | "minItems" | "uniqueItems" => {
                        if let Some(items) = value.as_array() {
                            self.check_array(keyword, argument, items, at, errors);
                        }
                    }
                    "minimum" | "maximum" => {
                        if let Some(number) = value.as_f64() {
                            let bound = argument.as_f64().expect("a numeric bound");
                            let exclusive = schema
                                .get(if keyword == "minimum" {
                                    "exclusiveMinimum"
                                } else {
                                    "exclusiveMaximum"
                                })
                                .and_then(Value::as_bool)
                                .unwrap_or(false);
                            let ok = match (keyword == "minimum", exclusive) {
                                (true, false) => number >= bound,
                                (true, true) => number > bound,
                                (false, false) => number <= bound,
                                (false, true) => number < bound,
                            };
                            if !ok {
                                errors.push(format!(
                                    "{at}: {number} is out of bounds ({keyword} {bound})"
                                ));
                            }
                        }
                    }
                    "exclusiveMinimum" | "exclusiveMaximum" => {}
                    "pattern" => {
                        if let Some(text) = value.as_str() {
                            let pattern = argument.as_str().expect("pattern");
                            let regex = regex::Regex::new(pattern).expect("a valid pattern");
                            if !regex.is_match(text) {
                                errors.push(format!("{at}: {text:?} does not match {pattern}"));
                            }
                        }
                    }
                    "format" => {
                        if let Some(text) = value.as_str() {
                            check_format(argument.as_str().expect("format"), text, at, errors);
                        }
                    }
                    "anyOf" | "oneOf" => {
                        let passing = argument
                            .as_array()
                            .expect("a list of schemas")
                            .iter()
                            .filter(|option| {
                                let mut inner = Vec::new();
                                self.check(option, value, at, &mut inner);
                                inner.is_empty()
                            })
                            .count();
                        let ok = if keyword == "anyOf" {
                            passing >= 1
                        } else {
                            passing == 1
                        };
                        if !ok {
                            errors.push(format!("{at}: {passing} of the {keyword} schemas match"));
                        }
                    }
                    other => panic!("the validator does not implement `{other}` (at {at})"),
                }
            }
        }

        fn check_object(
            &self,
            schema: &'s Map<String, Value>,
            keyword: &str,
            object: &Map<String, Value>,
            at: &str,
            errors: &mut Vec<String>,
        ) {
            let properties = schema.get("properties").and_then(Value::as_object);
            match keyword {
                "properties" => {
                    for (name, sub) in properties.into_iter().flatten() {
                        if let Some(value) = object.get(name) {
                            self.check(sub, value, &format!("{at}.{name}"), errors);
                        }
                    }
                }
                "additionalProperties" => {
                    let extra = object
                        .iter()
                        .filter(|(name, _)| !properties.is_some_and(|p| p.contains_key(*name)));
                    match &schema["additionalProperties"] {
                        Value::Bool(true) => {}
                        Value::Bool(false) => {
                            for (name, _) in extra {
                                errors.push(format!("{at}: property {name:?} is not allowed"));
                            }
                        }
                        sub => {
                            for (name, value) in extra {
                                self.check(sub, value, &format!("{at}.{name}"), errors);
                            }
                        }
                    }
                }
                _ => {
                    for name in schema["required"].as_array().expect("required") {
                        let name = name.as_str().expect("a property name");
                        if !object.contains_key(name) {
                            errors.push(format!("{at}: {name:?} is required"));
                        }
                    }
                }
            }
        }

        fn check_array(
            &self,
            keyword: &str,
            argument: &'s Value,
            items: &[Value],
            at: &str,
            errors: &mut Vec<String>,
        ) {
            match keyword {
                "items" => {
                    assert!(argument.is_object(), "only one schema for all items");
                    for (index, item) in items.iter().enumerate() {
                        self.check(argument, item, &format!("{at}[{index}]"), errors);
                    }
                }
                "minItems" => {
                    let min = argument.as_u64().expect("minItems") as usize;
                    if items.len() < min {
                        errors.push(format!("{at}: {} items, fewer than {min}", items.len()));
                    }
                }
                _ => {
                    if argument.as_bool() == Some(true) {
                        for (i, a) in items.iter().enumerate() {
                            if items[..i].contains(a) {
                                errors.push(format!("{at}: item {i} is a duplicate"));
                            }
                        }
                    }
                }
            }
        }
    }

    fn check_type(argument: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
        let names: Vec<&str> = match argument {
            Value::String(name) => vec![name.as_str()],
            Value::Array(names) => names.iter().filter_map(Value::as_str).collect(),
            _ => panic!("type must be a name or a list of names"),
        };
        let fits = |name: &str| match name {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64(),
            other => panic!("unknown type {other}"),
        };
        if !names.iter().any(|name| fits(name)) {
            errors.push(format!("{at}: {value} is not of type {argument}"));
        }
    }

    /// RFC 3986's characters (and `%XX` escapes) only.
    fn is_uri_reference(text: &str) -> bool {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'%' {
                let hex = |b: Option<&u8>| b.is_some_and(u8::is_ascii_hexdigit);
                if !(hex(bytes.get(i + 1)) && hex(bytes.get(i + 2))) {
                    return false;
                }
                i += 3;
                continue;
            }
            if !(b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&b)) {
                return false;
            }
            i += 1;
        }
        true
    }

    fn check_format(format: &str, text: &str, at: &str, errors: &mut Vec<String>) {
        let ok = match format {
            "uri-reference" => is_uri_reference(text),
            "uri" => {
                is_uri_reference(text)
                    && text.split_once(':').is_some_and(|(scheme, _)| {
                        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                            && scheme
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                    })
            }
            "date-time" => regex::Regex::new(
                r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$",
            )
            .unwrap()
            .is_match(text),
            other => panic!("the validator does not implement format {other}"),
        };
        if !ok {
            errors.push(format!("{at}: {text:?} is not a valid {format}"));
        }
    }
}

fn schema() -> Value {
    let path = support::testdata("sarif/sarif-schema-2.1.0.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    tree::scratch("sarif", name)
}

fn skills(root: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .current_dir(root)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A tree with an error, a warning and a note in every kind of place: a
/// name with a space and a non-ASCII letter, a problem without a position.
fn tree(name: &str) -> PathBuf {
    let root = scratch(name);
    write(
        &root,
        "skills/My Skill/SKILL.md",
        "---\nname: My Skill\ndescription: Use when x.\n---\n",
    );
    write(
        &root,
        "skills/long/SKILL.md",
        format!(
            "---\nname: long\ndescription: Use when d.\n---\n{}",
            "é\n".repeat(501)
        ),
    );
    write(&root, "skills/long/.DS_Store", "x");
    write(&root, "skills/bad/SKILL.md", "---\nname: [bad\n---\n");
    write(&root, "empty/README.md", "nothing");
    root
}

#[test]
fn sarif_output_validates_against_the_official_schema() {
    let schema = schema();
    let validator = schema::Validator::new(&schema);
    let root = tree("sarif");
    let runs = [
        (vec!["check", "--format", "sarif", "skills", "empty"], 1),
        (vec!["check", "--format=sarif", "skills/long"], 0),
        (
            vec!["build", "--format", "sarif", "-o", "x.bin", "skills"],
            1,
        ),
        (
            vec!["build", "--format", "sarif", "-o", "y.bin", "skills/long"],
            0,
        ),
        (vec!["audit", "--format", "sarif", "skills", "empty"], 1),
        (
            vec!["audit", "--format", "sarif", "skills/long", "y.bin"],
            0,
        ),
    ];
    let abs = root.join("skills/long").display().to_string();
    let mut all = runs.to_vec();
    all.push((vec!["check", "--format", "sarif", abs.as_str()], 0));
    for (args, status) in &all {
        let (code, out, err) = skills(&root, args);
        assert_eq!(code, *status, "{args:?}: {err}");
        let log: Value = serde_json::from_str(&out).unwrap();
        let errors = validator.validate(&log);
        assert!(errors.is_empty(), "{args:?}:\n{}", errors.join("\n"));
        // Each result names its rule by id and by index into the rules.
        let run = &log["runs"][0];
        for result in run["results"].as_array().unwrap() {
            let index = result["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(
                run["tool"]["driver"]["rules"][index]["id"],
                result["ruleId"]
            );
        }
    }
    // Every rule carries its help: a URI and a text naming the documentation.
    let (_, out, _) = skills(&root, &["audit", "--format", "sarif", "skills/long"]);
    let log: Value = serde_json::from_str(&out).unwrap();
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let bidi = rules
        .iter()
        .find(|rule| rule["id"] == "bidi-control")
        .unwrap();
    assert!(
        bidi["helpUri"]
            .as_str()
            .unwrap()
            .ends_with("#variant.BidiControl")
    );
    assert!(
        bidi["help"]["text"]
            .as_str()
            .unwrap()
            .contains("docs/audit.md")
    );
    let (_, out, _) = skills(&root, &["check", "--format", "sarif", "skills", "empty"]);
    let log: Value = serde_json::from_str(&out).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let levels: Vec<_> = results
        .iter()
        .map(|r| (r["ruleId"].as_str().unwrap(), r["level"].as_str().unwrap()))
        .collect();
    assert!(levels.contains(&("no-skills", "error")), "{levels:?}");
    assert!(levels.contains(&("body-too-long", "warning")), "{levels:?}");
    assert!(levels.contains(&("junk-skipped", "note")), "{levels:?}");
    assert!(levels.contains(&("yaml-syntax", "error")), "{levels:?}");
    let lowercase = results
        .iter()
        .find(|r| r["ruleId"] == "name-lowercase")
        .unwrap();
    let location = &lowercase["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "skills/My%20Skill/SKILL.md"
    );
    assert_eq!(location["region"]["startLine"], 2);
    assert_eq!(location["region"]["startColumn"], 7);
}

#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    let schema = schema();
    let validator = schema::Validator::new(&schema);
    let root = tree("validator");
    let (_, out, _) = skills(&root, &["check", "--format", "sarif", "skills"]);
    let good: Value = serde_json::from_str(&out).unwrap();
    assert!(validator.validate(&good).is_empty());
    let broken = |edit: &dyn Fn(&mut Value)| {
        let mut log = good.clone();
        edit(&mut log);
        validator.validate(&log)
    };
    assert!(!broken(&|log| log["version"] = "2.0.0".into()).is_empty());
    assert!(!broken(&|log| log["runs"][0]["results"][0]["level"] = "fatal".into()).is_empty());
    assert!(!broken(&|log| log["runs"][0]["results"][0]["ruleIndex"] = (-2).into()).is_empty());
    assert!(
        !broken(
            &|log| log["runs"][0]["tool"]["driver"]["rules"][0]["shortDescription"] = Value::Null
        )
        .is_empty()
    );
    assert!(!broken(&|log| {
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
            "has a space".into()
    })
    .is_empty());
    assert!(!broken(&|log| log["runs"][0]["tool"]["driver"]["colour"] = "blue".into()).is_empty());
    assert!(
        !broken(&|log| {
            log["runs"][0]["tool"]["driver"]["rules"][0]["guid"] = "not-a-guid".into()
        })
        .is_empty()
    );
    assert!(
        !broken(&|log| {
            log.as_object_mut().unwrap().remove("runs");
        })
        .is_empty()
    );
}

#[test]
fn json_reports_carry_a_version_and_a_code_on_every_problem() {
    let root = tree("json");
    let (code, out, _) = skills(&root, &["check", "--format", "json", "skills", "empty"]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["version"], 1);
    assert_eq!(report["command"], "check");
    assert_eq!(report["ok"], false);
    assert_eq!(report["skills"], 3);
    assert_eq!(report["notes"], 1);
    let sources: Vec<_> = report["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap(),
                s["layout"].as_str(),
                s["skills"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [("skills", Some("collection"), 3), ("empty", None, 0)]
    );
    for problem in report["problems"].as_array().unwrap() {
        let code = problem["code"].as_str().unwrap();
        assert!(
            skills_build::problem::Code::from_str(code).is_some(),
            "{code}"
        );
        for key in [
            "severity", "rule", "file", "line", "column", "message", "hint", "field",
        ] {
            assert!(problem.get(key).is_some(), "{key} missing in {problem}");
        }
    }
    let yaml = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["code"] == "yaml-syntax")
        .unwrap();
    assert_eq!(yaml["rule"], "reference");
    assert_eq!(yaml["file"], "skills/bad/SKILL.md");
    assert!(yaml["line"].as_u64().is_some());
}

#[test]
fn deny_warnings_fails_on_a_warning_but_not_on_a_note() {
    let root = tree("deny");
    let (code, err, _) = skills(&root, &["check", "skills/long"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.ends_with("ok: checked 1 skill: 1 warning, 1 note\n"),
        "{err}"
    );
    let (code, err, _) = skills(&root, &["check", "--deny-warnings", "skills/long"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.ends_with("error: checked 1 skill: 1 warning, 1 note (warnings denied)\n"),
        "{err}"
    );
    let (code, _, err) = skills(
        &root,
        &["build", "--deny-warnings", "-o", "w.bin", "skills/long"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        !root.join("w.bin").exists(),
        "a denied build writes nothing"
    );
    let (code, out, _) = skills(
        &root,
        &["check", "--deny-warnings", "--format=json", "skills/long"],
    );
    assert_eq!(code, 1);
    assert!(out.contains("\"ok\": false"), "{out}");
    write(
        &root,
        "tidy/one/SKILL.md",
        "---\nname: one\ndescription: Use when d.\n---\n",
    );
    write(&root, "tidy/one/.DS_Store", "x");
    let (code, _, err) = skills(&root, &["check", "--deny-warnings", "tidy"]);
    assert_eq!(code, 0, "notes never fail: {err}");
}

#[test]
fn github_format_prints_workflow_commands() {
    let root = tree("github");
    let (code, out, _) = skills(&root, &["check", "--format", "github", "skills", "empty"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"::error file=skills/My Skill/SKILL.md,line=2,col=7,title=name-lowercase::Skill name 'My Skill' must be lowercase%0Ahelp: write it as 'my-skill' and rename the folder to match"), "{out}");
    assert!(
        lines.iter().any(|l| l
            .starts_with("::warning file=skills/long/SKILL.md,line=5,col=1,title=body-too-long::")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("::notice file=skills/long/.DS_Store,title=junk-skipped::")),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("::error file=empty,title=no-skills::no skill found in empty")),
        "{out}"
    );
    assert_eq!(
        lines.last(),
        Some(&"error: checked 3 skills: 4 errors, 1 warning, 1 note")
    );
    for line in &lines[..lines.len() - 1] {
        assert!(line.starts_with("::"), "{line}");
    }
}

/// Issue 40, item 3: `--format github` annotates at most 10 problems of
/// each kind (what GitHub shows a step), the first of each rule first;
/// the rest follow in the log as diagnostics, shielded from being read as
/// workflow commands, and the job summary (`GITHUB_STEP_SUMMARY`) counts
/// every problem by rule and lists those not annotated, escaped.
#[test]
fn github_format_caps_annotations_and_summarises_the_rest() {
    let root = scratch("github-capped");
    for i in 0..30 {
        // A name the messages quote, with markup in it.
        write(
            &root,
            &format!("skills/s{i:02}/SKILL.md"),
            format!("---\nname: S{i:02}<b>\ndescription: d\n---\n"),
        );
    }
    let summary = root.join("summary.md");
    std::fs::write(&summary, "before\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .current_dir(&root)
        .args(["check", "--format", "github", "skills"])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let log = String::from_utf8(out.stdout).unwrap();
    let commands: Vec<&str> = log.lines().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(commands.len(), 10, "{log}");
    // Both error rules are among the ten.
    for rule in ["name-lowercase", "name-invalid-characters"] {
        assert!(
            commands
                .iter()
                .any(|l| l.contains(&format!("title={rule}::"))),
            "{rule}: {log}"
        );
    }
    let notices = log.lines().filter(|l| l.starts_with("::notice ")).count();
    assert_eq!(notices, 10, "{log}");
    // The other 80 errors (three a skill) and 20 notes: listed after
    // stop-commands, and the token that resumes them ends the listing.
    assert!(log.contains("100 more problems are not annotated"), "{log}");
    let token = log
        .lines()
        .find_map(|l| l.strip_prefix("::stop-commands::"))
        .expect("stop-commands");
    let listed = log
        .split(&format!("::stop-commands::{token}\n"))
        .nth(1)
        .unwrap();
    let (listed, after) = listed.split_once(&format!("::{token}::\n")).unwrap();
    // Annotated: the three rules of s00, then s01 to s03 in order.
    assert_eq!(
        listed.matches("error[name-lowercase]").count(),
        30 - 4,
        "{listed}"
    );
    assert!(
        after.starts_with("error: checked 30 skills: 90 errors"),
        "{after}"
    );
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(
        summary.starts_with("before\n### skills check\n"),
        "{summary}"
    );
    assert!(
        summary.contains("error[name-lowercase]: 30, e.g. skills/s00/SKILL.md:2:7"),
        "{summary}"
    );
    assert!(
        summary.contains("<details><summary>100 problems not annotated"),
        "{summary}"
    );
    assert!(summary.contains("&lt;b&gt;"), "{summary}");
    assert!(!summary.contains("<b>"), "markup from a skill: {summary}");
}
