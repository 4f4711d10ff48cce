//! What `check` and `build` share: the sources and the options that
//! change a verdict, run through the one pipeline ([`Builder::run`]), and
//! the report in the format asked for.
//!
//! The options are the `Builder`'s and `include_skills!`'s: `--extensions`,
//! `--exclude`, `--max-file-size`, `--keep-junk`, `--host`, `--keep-evals`;
//! and for the report
//! `--format human|json|github|sarif`, `--deny-warnings`, `--verbose`.

use std::path::Path;

use skills_build::Outcome;
use skills_build::problem::{Code, Problem, Rule, Severity};
use skills_build::unstable::discover::DiscoveredSkill;
use skills_build::unstable::filter::Glob;
use skills_build::{Builder, Host, diagnostic};
use skills_build::{Layout, SourceReport};

use crate::output::{Stream, write, write_stdout};
use crate::python::click::{Arg, Invocation, Opt};
use crate::report;
use skills_core::encoding::json::Style;

/// The output formats, in `--format`'s order.
pub const FORMATS: &[&str] = &["human", "json", "github", "sarif"];

/// `SRC...`: skill sources, read by the `Builder`'s pipeline.
pub const SOURCES: Arg = Arg {
    metavar: "SRC...",
    many: true,
    must_exist: false,
};

/// `--format`: how problems are reported.
pub const FORMAT: Opt = Opt::choice(
    "--format",
    FORMATS,
    "Diagnostics for people (default): on stdout for check and audit, whose report is their result (`> report.txt` keeps it), on stderr for the commands that make something, as a compiler's; or on stdout JSON, GitHub Actions workflow commands (10 annotations of each kind, the rest listed, and a job summary), or SARIF 2.1.0.",
);

/// What decides and shapes the verdict's report: `--format`,
/// `--deny-warnings`, `--allow`.
pub const REPORT: &[Opt] = &[FORMAT, DENY_WARNINGS, ALLOW];

/// `--deny-warnings`.
const DENY_WARNINGS: Opt = Opt::flag("--deny-warnings", "Fail (exit 1) on warnings too.");

/// `--allow RULE`.
pub const ALLOW: Opt = Opt::value(
    "--allow",
    "RULE",
    "Silence the rule RULE everywhere (repeatable; a rule code such as body-too-long). Warnings, notes and the audit's and lints' errors can be allowed; the reference's, the specification's and the build's errors cannot.",
);

/// `--extensions`: the frontmatter's extension fields.
pub const EXTENSIONS: Opt = Opt::flag(
    "--extensions",
    "Accept the extension fields version, when_to_use, when_not_to_use.",
);

/// `--exclude PATTERN`: files left out of every skill read.
pub const EXCLUDE: Opt = Opt::value(
    "--exclude",
    "PATTERN",
    "Skip matching files and directories (repeatable; `*`, `?`, `**`; without `/` it matches a name at any depth).",
);

/// [`EXCLUDE`] alone, for commands that list it before [`READ`].
pub const EXCLUDE_GROUP: &[Opt] = &[EXCLUDE];

/// `-v, --verbose`.
pub const VERBOSE: Opt = Opt::flag(
    "--verbose",
    "Say how each source was read: one skill, a folder of skills, or an archive; list every problem even past 50 (otherwise grouped by rule).",
)
.short("-v");

/// `audit --allow RULE`: [`ALLOW`], with an audit rule for the example.
pub const AUDIT_ALLOW: Opt = ALLOW.help(
    "Silence the audit rule RULE everywhere (repeatable; a rule code such as html-comment or base64-blob). docs/audit.md lists them.",
);

/// `audit`'s report options: [`REPORT`] with [`AUDIT_ALLOW`].
pub const AUDIT_REPORT: &[Opt] = &[FORMAT, DENY_WARNINGS, AUDIT_ALLOW];

/// `--host ID`, as the commands that judge skills take it.
const HOST: Opt = Opt::value(
    "--host",
    "ID",
    "Target a host (repeatable): claude-code, codex, vscode, gemini, opencode, cursor. Its own fields are accepted and type-checked, its files and listing budgets checked (docs/hosts.md).",
);

/// `--max-file-size BYTES`.
const MAX_FILE_SIZE: Opt = Opt::value(
    "--max-file-size",
    "BYTES",
    "The largest file a skill may hold: a larger one is an error (default 16777216).",
);

/// `--keep-junk`.
const KEEP_JUNK: Opt = Opt::flag(
    "--keep-junk",
    "Read .DS_Store, editor swap files, .git/, __pycache__/, node_modules/ and the like as part of the skill instead of leaving them out with a note.",
);

/// `--keep-evals`.
const KEEP_EVALS: Opt = Opt::flag(
    "--keep-evals",
    "Read each skill's evals/ folder (authoring material) as part of it instead of leaving it out with a note.",
);

/// What changes the files read, for the commands that read skills
/// without judging them (`revision`, `sign`, `verify`): [`READ`]'s
/// options, with `--host` and `-v` worded for what they do there.
pub const READ_ONLY: &[Opt] = &[
    MAX_FILE_SIZE,
    KEEP_JUNK,
    HOST.help(
        "Accepted as `check` takes it (repeatable), so one command line serves both; it changes no file read here (the host's checks are `check`'s).",
    ),
    KEEP_EVALS,
    VERBOSE.help("Say how each source was read: one skill, a folder of skills, or an archive."),
];

/// What changes the files read from a source, for every command that
/// reads skills (the `Builder`'s and `include_skills!`'s options), and
/// `--verbose`. Worded for what is read, not what is embedded: `check`,
/// `revision`, `sign` and `verify` read the same files a build embeds.
pub const READ: &[Opt] = &[MAX_FILE_SIZE, KEEP_JUNK, HOST, KEEP_EVALS, VERBOSE];

/// The output format chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// rustc-style diagnostics on stderr.
    Human,
    /// One JSON document on stdout.
    Json,
    /// GitHub Actions workflow commands on stdout.
    Github,
    /// A SARIF 2.1.0 log on stdout.
    Sarif,
}

/// A usage error: the text after `Error: `.
pub type UsageError = String;

/// `QUALIFIER=DIR` or `DIR`: an argument naming an existing path is
/// always a plain directory.
pub fn split_source(arg: &str) -> (Option<&str>, &str) {
    if Path::new(arg).exists() {
        return (None, arg);
    }
    match arg.split_once('=') {
        Some((qualifier, dir)) if !qualifier.contains('/') => (Some(qualifier), dir),
        _ => (None, arg),
    }
}

/// The builder the arguments describe, or a usage error.
pub fn builder(call: &Invocation) -> Result<Builder, UsageError> {
    builder_with(call, true)
}

/// [`builder`], reading `--exclude` as file patterns only when
/// `file_excludes` (`catalog`'s `--exclude` names skills to leave out).
pub fn builder_with(call: &Invocation, file_excludes: bool) -> Result<Builder, UsageError> {
    let mut builder = Builder::new()
        .extensions(call.flag("--extensions"))
        .keep_junk(call.flag("--keep-junk"))
        .keep_evals(call.flag("--keep-evals"));
    for id in call.values("--host") {
        match id.parse::<Host>() {
            Ok(host) => builder = builder.host(host),
            Err(error) => return Err(format!("Invalid value for '--host': {error}.")),
        }
    }
    if let Some(max) = call.option("--max-file-size") {
        match max.parse::<u64>() {
            Ok(max) => builder = builder.max_file_size(max),
            Err(_) => {
                return Err(format!(
                    "Invalid value for '--max-file-size': {max:?} is not a number of bytes."
                ));
            }
        }
    }
    let patterns = match file_excludes {
        true => call.values("--exclude"),
        false => Vec::new(),
    };
    for pattern in patterns {
        if let Err(error) = Glob::new(pattern) {
            return Err(error.to_string());
        }
        builder = builder.exclude(pattern);
    }
    for rule in call.values("--allow") {
        match Code::from_str(rule) {
            None => {
                return Err(format!(
                    "Invalid value for '--allow': {rule:?} is no rule's code (docs/rule-codes.md lists them)."
                ));
            }
            Some(code) if !code.allowable() => {
                return Err(format!(
                    "Invalid value for '--allow': {rule} is an error of the {} rules, which cannot be allowed; only warnings, notes and the audit's and lints' errors can.",
                    code.rule().as_str()
                ));
            }
            Some(_) => builder = builder.allow(rule),
        }
    }
    if let Some(base) = call.option("--location-base") {
        builder = builder.location_base(base);
    }
    for arg in &call.args {
        builder = match split_source(arg) {
            (Some(qualifier), dir) => builder.qualified_source(dir, qualifier),
            (None, dir) => builder.source(dir),
        };
    }
    Ok(builder)
}

/// The format asked for.
pub fn format(call: &Invocation) -> Format {
    match call.option("--format") {
        Some("json") => Format::Json,
        Some("github") => Format::Github,
        Some("sarif") => Format::Sarif,
        _ => Format::Human,
    }
}

/// Whether `-v`/`--verbose` was given.
pub fn verbose(call: &Invocation) -> bool {
    call.flag("--verbose")
}

/// The sources read the way every command reads them
/// ([`skills_build::unstable::read`]),
/// for a command that acts on skills one by one without judging them:
/// with `-v`, how each source was read; every problem of the reading
/// itself (a missing source, no skill, an unreadable archive or file, junk
/// left out) printed; `Err(1)` when one of them is an error. The skills'
/// own verdicts (`check`'s) are not this command's business.
pub fn read(call: &Invocation) -> Result<Result<Vec<DiscoveredSkill>, i32>, UsageError> {
    let reading = skills_build::unstable::read(&builder(call)?);
    let mut text = String::new();
    if verbose(call) {
        text.push_str(&layout_lines(&reading.discovery.sources));
    }
    let mut failed = false;
    let of_reading = |p: &&Problem| p.code.rule() == Rule::Build || unreadable(p.code);
    for problem in reading.discovery.problems.iter().filter(of_reading) {
        failed |= problem.is_error();
        text.push_str(&diagnostic::render(problem));
    }
    write(Stream::Err, &text);
    Ok(match failed {
        true => Err(1),
        false => Ok(reading.discovery.skills),
    })
}

/// The problems of a command whose job is not to report them (`mcp`
/// serving sources, `pack`): errors and warnings in full, notes counted on
/// one line naming `lister`, the command that lists them (all of them with
/// `list_notes`, as `-v` asks), so a server's start or a packed archive's
/// result is not buried under advice.
pub fn render_quietly(problems: &[Problem], list_notes: bool, lister: &str) -> String {
    let (notes, others): (Vec<&Problem>, Vec<&Problem>) =
        problems.iter().partition(|p| p.severity == Severity::Note);
    let mut text = diagnostic::render_all(others);
    match (notes.len(), list_notes) {
        (0, _) => {}
        (_, true) => text.push_str(&diagnostic::render_all(notes)),
        (1, false) => text.push_str(&format!("note: 1 note not shown; `{lister}` shows it\n")),
        (n, false) => text.push_str(&format!(
            "note: {n} notes not shown; `{lister}` shows them\n"
        )),
    }
    text
}

/// Whether `code` says a source or a skill file could not be found or
/// read.
pub fn unreadable(code: Code) -> bool {
    matches!(
        code,
        Code::SourceNotFound
            | Code::SourceNotDirectory
            | Code::SkillFileMissing
            | Code::SkillFileUnreadable
    )
}

/// Where a skill was read from: its folder, as the source names it
/// (`skills/pdf`, `pdf.skill/pdf`).
pub fn skill_path(skill: &DiscoveredSkill) -> String {
    let location = skill.source_location.as_str();
    match (
        location.strip_suffix('/').unwrap_or(location),
        skill.path.as_str(),
    ) {
        (location, "") => location.to_string(),
        ("", path) => path.to_string(),
        (location, path) => format!("{location}/{path}"),
    }
}

/// Says, on stderr, how each source was read when `-v` was given.
pub fn say_layouts(call: &Invocation, sources: &[SourceReport]) {
    if verbose(call) {
        write(Stream::Err, &layout_lines(sources));
    }
}

/// One line per source: what it was taken for.
pub fn layout_lines(sources: &[SourceReport]) -> String {
    let mut text = String::new();
    for source in sources {
        let what = match (source.layout, source.skills) {
            (Some(Layout::Skill), _) => "one skill (it holds a skill file)".to_string(),
            (Some(Layout::Collection), n) => {
                let path = Path::new(&source.location);
                let kind = match skills_build::unstable::archive::is_archive(path) && path.is_file()
                {
                    true => "an archive of skill folders",
                    false => "a folder of skills",
                };
                let noun = if n == 1 { "skill" } else { "skills" };
                format!("{kind}: {n} {noun}")
            }
            (None, _) => "no skill".to_string(),
        };
        text.push_str(&format!("source {}: {what}\n", source.location));
    }
    text
}

/// The summary line: `ok: checked 2 skills: 1 warning` and the like.
pub fn summary<B>(verb: &str, outcome: &Outcome<B>, failed: bool, deny_warnings: bool) -> String {
    summary_of(
        verb,
        outcome.problems(),
        outcome.skills,
        failed,
        deny_warnings,
    )
}

/// [`summary`] of a report that is not a pipeline's outcome (`audit`'s).
pub fn summary_of(
    verb: &str,
    problems: &[Problem],
    skills: usize,
    failed: bool,
    deny_warnings: bool,
) -> String {
    let verdict = if failed { "error" } else { "ok" };
    let noun = if skills == 1 { "skill" } else { "skills" };
    let denied =
        if failed && deny_warnings && !problems.iter().any(|p| p.severity == Severity::Error) {
            " (warnings denied)"
        } else {
            ""
        };
    format!(
        "{verdict}: {verb} {skills} {noun}: {}{denied}\n",
        diagnostic::count(problems)
    )
}

/// Where `command`'s report goes in the human format: the commands whose
/// report is their result (`check`, `audit`) print it on stdout, so that
/// `skills check skills > report.txt` keeps it; the others (`build`,
/// `install`, ...) make something else and say how it went on stderr, as
/// a compiler does.
fn human_stream(command: &str) -> Stream {
    match command {
        "check" | "audit" => Stream::Out,
        _ => Stream::Err,
    }
}

/// Prints the report of `outcome` for `command` in `format`; `extra` are
/// the command's own JSON fields (a bundle's output path).
pub fn print<B>(
    command: &str,
    call: &Invocation,
    outcome: &Outcome<B>,
    failed: bool,
    last_line: &str,
    extra: Vec<(String, skills_core::encoding::json::Json)>,
) {
    let counted = report::Counted {
        problems: outcome.problems(),
        sources: &outcome.sources,
        skills: outcome.skills,
    };
    print_counted(command, call, &counted, failed, last_line, extra);
}

/// [`print`] of a report that is not a pipeline's outcome (`audit`'s).
pub fn print_counted(
    command: &str,
    call: &Invocation,
    counted: &report::Counted<'_>,
    failed: bool,
    last_line: &str,
    extra: Vec<(String, skills_core::encoding::json::Json)>,
) {
    let problems = counted.problems;
    match format(call) {
        Format::Human => {
            let mut text = String::new();
            if verbose(call) {
                text.push_str(&layout_lines(counted.sources));
            }
            if verbose(call) || problems.len() <= diagnostic::LISTED_AT_MOST {
                text.push_str(&diagnostic::render_all(problems));
            } else {
                text.push_str(&format!(
                    "{} problems, by rule (-v lists every one, and so does --format json; --allow RULE silences a warning rule):\n",
                    crate::progress::thousands(problems.len())
                ));
                text.push_str(&diagnostic::render_by_rule(problems));
                text.push('\n');
            }
            text.push_str(last_line);
            write(human_stream(command), &text);
        }
        Format::Json => {
            let json = report::json_of(
                command,
                counted.problems,
                counted.sources,
                counted.skills,
                failed,
                extra,
            );
            write_stdout(&(json.to_text(Style::indented(2)) + "\n"));
        }
        Format::Github => {
            let mut text = String::new();
            if verbose(call) {
                text.push_str(&layout_lines(counted.sources));
            }
            text.push_str(&report::github(problems));
            text.push_str(last_line);
            write_stdout(&text);
            report::write_step_summary(command, problems, last_line);
        }
        Format::Sarif => {
            write_stdout(&(report::sarif(problems).to_text(Style::indented(2)) + "\n"))
        }
    }
}
