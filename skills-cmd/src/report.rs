//! The machine-readable reports of `check` and `build`: JSON, GitHub
//! Actions workflow commands, SARIF 2.1.0. Every problem carries its rule
//! code ([`Code`]), the same in each.

use skills_build::problem::{Code, Problem, Severity};
use skills_build::{Outcome, SourceReport};

use skills_core::encoding::json::Json;

/// The version of the JSON report's shape; it changes only when a field
/// changes meaning or goes away.
pub const JSON_VERSION: i64 = 1;

fn int(n: usize) -> Json {
    Json::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn optional(value: Option<&str>) -> Json {
    value.map_or(Json::Null, |text| Json::Str(text.to_string()))
}

fn count(problems: &[Problem], severity: Severity) -> Json {
    int(problems.iter().filter(|p| p.severity == severity).count())
}

/// One problem as a JSON object.
fn problem_json(p: &Problem) -> Json {
    Json::Object(vec![
        ("code".into(), Json::Str(p.code.as_str().into())),
        ("severity".into(), Json::Str(p.severity.as_str().into())),
        ("rule".into(), Json::Str(p.rule().as_str().into())),
        ("field".into(), optional(p.field.as_deref())),
        ("file".into(), optional(p.file.as_deref())),
        (
            "line".into(),
            p.position.map_or(Json::Null, |pos| int(pos.line as usize)),
        ),
        (
            "column".into(),
            p.position
                .map_or(Json::Null, |pos| int(pos.column as usize)),
        ),
        ("message".into(), Json::Str(p.message.clone())),
        ("hint".into(), optional(p.hint.as_deref())),
    ])
}

/// The skills `build --keep-going` left out, and why: one object per
/// skill (its folder, skill file, frontmatter name, and its errors as the
/// JSON report gives problems).
pub fn dropped<B>(outcome: &Outcome<B>) -> Json {
    Json::Array(
        outcome
            .dropped()
            .iter()
            .map(|skill| {
                Json::Object(vec![
                    ("dir".into(), Json::Str(skill.dir.clone())),
                    ("file".into(), Json::Str(skill.location.clone())),
                    ("name".into(), optional(skill.name.as_deref())),
                    (
                        "problems".into(),
                        Json::Array(skill.problems.iter().map(problem_json).collect()),
                    ),
                ])
            })
            .collect(),
    )
}

/// The report `build --keep-going` writes beside the bundle: the bundle,
/// how many skills it lists, how many were found, and the skills left out.
pub fn keep_going<B>(outcome: &Outcome<B>, bundle: &str, listed: usize) -> Json {
    Json::Object(vec![
        ("version".into(), Json::Int(JSON_VERSION)),
        ("bundle".into(), Json::Str(bundle.into())),
        ("found".into(), int(outcome.skills)),
        ("listed".into(), int(listed)),
        ("dropped".into(), dropped(outcome)),
    ])
}

/// What a report is made of: the problems, how each source was read, how
/// many skills were found.
pub struct Counted<'o> {
    /// Every problem, sorted.
    pub problems: &'o [Problem],
    /// How each source was read.
    pub sources: &'o [skills_build::SourceReport],
    /// How many skills were found.
    pub skills: usize,
}

/// The JSON report: `version`, the verdict, counts, how each source was
/// read, every problem; then the command's own fields. The problems may be
/// gathered beyond one build's (`status --check` adds the installed
/// copies' differences; `audit` reads bundle files too).
pub fn json_of(
    command: &str,
    problems: &[Problem],
    sources: &[SourceReport],
    skills: usize,
    failed: bool,
    extra: Vec<(String, Json)>,
) -> Json {
    let sources = sources
        .iter()
        .map(|source| {
            Json::Object(vec![
                ("path".into(), Json::Str(source.location.clone())),
                (
                    "layout".into(),
                    optional(source.layout.map(|layout| layout.as_str())),
                ),
                ("skills".into(), int(source.skills)),
            ])
        })
        .collect();
    let mut fields = vec![
        ("version".into(), Json::Int(JSON_VERSION)),
        ("command".into(), Json::Str(command.into())),
        ("ok".into(), Json::Bool(!failed)),
        ("skills".into(), int(skills)),
        ("errors".into(), count(problems, Severity::Error)),
        ("warnings".into(), count(problems, Severity::Warning)),
        ("notes".into(), count(problems, Severity::Note)),
        ("sources".into(), Json::Array(sources)),
        (
            "problems".into(),
            Json::Array(problems.iter().map(problem_json).collect()),
        ),
    ];
    fields.extend(extra);
    Json::Object(fields)
}

/// A workflow command's message: `%`, `\r` and `\n` escaped.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: the message's escapes, and `:`
/// and `,`, which would end the value.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// How many annotations of each kind (error, warning, notice) `--format
/// github` prints: GitHub shows 10 of each kind a step, and drops the rest.
pub const ANNOTATED_PER_KIND: usize = 10;

/// Which problems get an annotation: of each severity, at most
/// [`ANNOTATED_PER_KIND`], the first of each rule before a second of any,
/// so that the annotations GitHub shows name as many rules as they can.
pub fn annotated(problems: &[Problem]) -> Vec<bool> {
    let mut chosen = vec![false; problems.len()];
    for severity in [Severity::Error, Severity::Warning, Severity::Note] {
        let of_kind: Vec<usize> = (0..problems.len())
            .filter(|&at| problems[at].severity == severity)
            .collect();
        let mut taken = 0;
        let mut rules: Vec<Code> = Vec::new();
        for &at in &of_kind {
            if taken == ANNOTATED_PER_KIND {
                break;
            }
            if !rules.contains(&problems[at].code) {
                rules.push(problems[at].code);
                chosen[at] = true;
                taken += 1;
            }
        }
        for &at in &of_kind {
            if taken == ANNOTATED_PER_KIND {
                break;
            }
            if !chosen[at] {
                chosen[at] = true;
                taken += 1;
            }
        }
    }
    chosen
}

/// One workflow command per problem, up to [`ANNOTATED_PER_KIND`] of each
/// kind ([`annotated`]): `::error file=…,line=…,col=…,title=…::…`
/// (`::warning` for warnings, `::notice` for notes), the hint on a line of
/// its own inside the message. The problems past the cap follow as
/// diagnostics, between `::stop-commands::` and its token (so no text of
/// a skill's is read as a workflow command), after a line saying how many
/// there are: nothing is lost from the log.
pub fn github(problems: &[Problem]) -> String {
    let (annotated, rest) = split_annotated(problems);
    let mut text = String::new();
    for p in annotated {
        text.push_str(&annotation(p));
    }
    if !rest.is_empty() {
        let listed = skills_build::diagnostic::render_all(rest.iter().copied());
        // A token the listing cannot hold: its own digest.
        let token: String = skills_core::sha256::digest(listed.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        text.push_str(&format!(
            "{} more problem{} not annotated (GitHub shows {ANNOTATED_PER_KIND} annotations of each kind a step); listed here, and by rule in the job summary:\n::stop-commands::{token}\n{listed}::{token}::\n",
            crate::progress::thousands(rest.len()),
            if rest.len() == 1 { " is" } else { "s are" },
        ));
    }
    text
}

/// The problems that get an annotation ([`annotated`]) and the rest, each
/// in order.
fn split_annotated(problems: &[Problem]) -> (Vec<&Problem>, Vec<&Problem>) {
    let chosen = annotated(problems);
    let (annotated, rest): (Vec<_>, Vec<_>) =
        problems.iter().zip(chosen).partition(|(_, chosen)| *chosen);
    (
        annotated.into_iter().map(|(p, _)| p).collect(),
        rest.into_iter().map(|(p, _)| p).collect(),
    )
}

/// The workflow command of one problem.
fn annotation(p: &Problem) -> String {
    let command = match p.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    };
    let mut properties = Vec::new();
    if let Some(file) = &p.file {
        properties.push(format!("file={}", escape_property(file)));
        if let Some(position) = p.position {
            properties.push(format!("line={}", position.line));
            properties.push(format!("col={}", position.column));
        }
    }
    properties.push(format!("title={}", escape_property(p.code.as_str())));
    let mut message = p.message.clone();
    if let Some(hint) = &p.hint {
        message.push_str("\nhelp: ");
        message.push_str(hint);
    }
    format!(
        "::{command} {}::{}\n",
        properties.join(","),
        escape_data(&message)
    )
}

/// The most problems the job summary lists one by one (past the
/// annotated ones); GitHub takes at most 1 MiB of summary a step.
pub const SUMMARY_LISTS_AT_MOST: usize = 500;

/// Text for HTML: `&`, `<`, `>` escaped (a skill's text cannot add markup
/// to the job summary).
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The job summary of a `--format github` run of `command`: its last
/// line, the problems counted by rule with the first of each (as `check`
/// prints past 50), and the problems that got no annotation, listed (up
/// to [`SUMMARY_LISTS_AT_MOST`]). Markdown with HTML blocks, every text
/// escaped.
pub fn step_summary(command: &str, problems: &[Problem], last_line: &str) -> String {
    let mut text = format!("### skills {command}\n\n{}\n", html(last_line.trim_end()));
    if problems.is_empty() {
        return text;
    }
    text.push_str(&format!(
        "\n<pre>\n{}</pre>\n",
        html(&skills_build::diagnostic::render_by_rule(problems))
    ));
    let (_, rest) = split_annotated(problems);
    if !rest.is_empty() {
        let shown = rest.len().min(SUMMARY_LISTS_AT_MOST);
        let more = match rest.len() - shown {
            0 => String::new(),
            n => format!(
                "\n{} more: the step's log lists every one, and so does `--format json`\n",
                crate::progress::thousands(n)
            ),
        };
        text.push_str(&format!(
            "\n<details><summary>{} problem{} not annotated (GitHub shows {ANNOTATED_PER_KIND} annotations of each kind a step)</summary>\n\n<pre>\n{}</pre>\n{more}</details>\n",
            crate::progress::thousands(rest.len()),
            if rest.len() == 1 { "" } else { "s" },
            html(&skills_build::diagnostic::render_all(rest[..shown].iter().copied())),
        ));
    }
    text
}

/// Appends [`step_summary`] to the file `GITHUB_STEP_SUMMARY` names, when
/// it names one (a step of GitHub Actions); a summary that cannot be
/// written is said on stderr, and the report stands.
pub fn write_step_summary(command: &str, problems: &[Problem], last_line: &str) {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return;
    };
    use std::io::Write as _;
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut file| file.write_all(step_summary(command, problems, last_line).as_bytes()));
    if let Err(error) = written {
        crate::output::write(
            crate::output::Stream::Err,
            &format!(
                "warning: cannot write the job summary {}: {error}\n",
                std::path::Path::new(&path).display()
            ),
        );
    }
}

/// A file path as a SARIF `uri`: a relative reference for a relative path,
/// a `file://` URI for an absolute one; bytes outside RFC 3986's
/// unreserved set and `/` percent-encoded.
pub fn path_uri(path: &str) -> String {
    let mut encoded = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                encoded.push(char::from(byte))
            }
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    if path.starts_with('/') {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn text(value: &str) -> Json {
    Json::Object(vec![("text".into(), Json::Str(value.into()))])
}

/// A rule's help in a SARIF log: its meaning, whether `--allow` may name
/// it, and where the project's documentation says more.
fn help_text(code: Code) -> String {
    let allow = match code.allowable() {
        true => format!("Allow it by name with --allow {code}."),
        false => "It cannot be allowed.".to_string(),
    };
    let more = match code.rule() {
        skills_build::problem::Rule::Audit => "docs/audit.md and docs/rule-codes.md",
        skills_build::problem::Rule::Lint => "docs/lints.md and docs/rule-codes.md",
        _ => "docs/rule-codes.md",
    };
    format!("{} {allow} See {more} (rule {code}).", code.meaning())
}

/// The SARIF 2.1.0 log: one run, every rule's metadata (id, meaning,
/// default level, rule book), one result per problem with its physical
/// location.
pub fn sarif(problems: &[Problem]) -> Json {
    let rules = Code::ALL
        .iter()
        .map(|code| {
            Json::Object(vec![
                ("id".into(), Json::Str(code.as_str().into())),
                ("shortDescription".into(), text(code.meaning())),
                ("helpUri".into(), Json::Str(code.help_uri())),
                ("help".into(), text(&help_text(*code))),
                (
                    "defaultConfiguration".into(),
                    Json::Object(vec![(
                        "level".into(),
                        Json::Str(level(code.severity()).into()),
                    )]),
                ),
                (
                    "properties".into(),
                    Json::Object(vec![(
                        "tags".into(),
                        Json::Array(vec![Json::Str(code.rule().as_str().into())]),
                    )]),
                ),
            ])
        })
        .collect();
    let results = problems
        .iter()
        .map(|p| {
            let mut message = p.message.clone();
            if let Some(hint) = &p.hint {
                message.push_str("\nhelp: ");
                message.push_str(hint);
            }
            let mut result = vec![
                ("ruleId".into(), Json::Str(p.code.as_str().into())),
                ("ruleIndex".into(), int(p.code.index())),
                ("level".into(), Json::Str(level(p.severity).into())),
                ("message".into(), text(&message)),
            ];
            if let Some(file) = &p.file {
                let mut physical = vec![(
                    "artifactLocation".into(),
                    Json::Object(vec![("uri".into(), Json::Str(path_uri(file)))]),
                )];
                if let Some(position) = p.position {
                    physical.push((
                        "region".into(),
                        Json::Object(vec![
                            ("startLine".into(), int(position.line as usize)),
                            ("startColumn".into(), int(position.column as usize)),
                        ]),
                    ));
                }
                result.push((
                    "locations".into(),
                    Json::Array(vec![Json::Object(vec![(
                        "physicalLocation".into(),
                        Json::Object(physical),
                    )])]),
                ));
            }
            Json::Object(result)
        })
        .collect();
    Json::Object(vec![
        (
            "$schema".into(),
            Json::Str(
                "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
                    .into(),
            ),
        ),
        ("version".into(), Json::Str("2.1.0".into())),
        (
            "runs".into(),
            Json::Array(vec![Json::Object(vec![
                (
                    "tool".into(),
                    Json::Object(vec![(
                        "driver".into(),
                        Json::Object(vec![
                            ("name".into(), Json::Str("skills".into())),
                            ("version".into(), Json::Str(env!("CARGO_PKG_VERSION").into())),
                            ("rules".into(), Json::Array(rules)),
                        ]),
                    )]),
                ),
                ("columnKind".into(), Json::Str("unicodeCodePoints".into())),
                ("results".into(), Json::Array(results)),
            ])]),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_build::problem::Position;

    #[test]
    fn github_escapes_data_and_properties() {
        let problem = Problem::new(Code::YamlSyntax, "100% bad\r\nline: two, three")
            .with_file("skills/a,b:c%/SKILL.md")
            .at(Position { line: 3, column: 9 })
            .with_hint("fix: it");
        assert_eq!(
            github(&[problem]),
            "::error file=skills/a%2Cb%3Ac%25/SKILL.md,line=3,col=9,title=yaml-syntax::100%25 bad%0D%0Aline: two, three%0Ahelp: fix: it\n"
        );
        let note = Problem::new(Code::JunkSkipped, "left out .DS_Store");
        assert_eq!(
            github(&[note]),
            "::notice title=junk-skipped::left out .DS_Store\n"
        );
        let warning = Problem::new(Code::BodyTooLong, "long").with_file("a/SKILL.md");
        assert_eq!(
            github(&[warning]),
            "::warning file=a/SKILL.md,title=body-too-long::long\n"
        );
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(
            path_uri("skills/my skill/SKILL.md"),
            "skills/my%20skill/SKILL.md"
        );
        assert_eq!(path_uri("/tmp/é#?.md"), "file:///tmp/%C3%A9%23%3F.md");
    }
}
