//! What `check` and `build` share: the sources and the options that
//! change a verdict, run through the one pipeline ([`Builder::run`]), and
//! the report in the format asked for.
//!
//! The options are the `Builder`'s and `include_skills!`'s: `--extensions`,
//! `--exclude`, `--max-file-size`, `--keep-junk`; and for the report
//! `--format human|json|github|sarif`, `--deny-warnings`, `--verbose`.

use std::path::Path;

use skills_build::builder::Outcome;
use skills_build::discover::Layout;
use skills_build::filter::Glob;
use skills_build::problem::Severity;
use skills_build::{Builder, diagnostic};

use crate::args::{Invocation, Param};
use crate::output::{Stream, write, write_stdout};
use crate::report;

/// The output formats, in `--format`'s order.
pub const FORMATS: &[&str] = &["human", "json", "github", "sarif"];

/// The parameters both commands take after their own.
pub const PARAMS: [Param; 8] = [
    Param::Opt {
        long: "--format",
        choices: FORMATS,
    },
    Param::Flag {
        long: "--deny-warnings",
    },
    Param::Flag {
        long: "--extensions",
    },
    Param::Opt {
        long: "--exclude",
        choices: &[],
    },
    Param::Opt {
        long: "--max-file-size",
        choices: &[],
    },
    Param::Flag {
        long: "--keep-junk",
    },
    Param::Flag { long: "-v" },
    Param::Flag { long: "--verbose" },
];

/// Help lines for [`PARAMS`].
pub const OPTIONS_HELP: [&str; 7] = [
    "  --format [human|json|github|sarif]\n                          Diagnostics for people (default), JSON, GitHub\n                          Actions workflow commands, or SARIF 2.1.0.",
    "  --deny-warnings         Fail (exit 1) on warnings too.",
    "  --extensions            Accept the extension fields version, when_to_use,\n                          when_not_to_use.",
    "  --exclude PATTERN       Skip matching files and directories (repeatable;\n                          `*`, `?`, `**`; without `/` it matches a name at any\n                          depth).",
    "  --max-file-size BYTES   The largest file embedded (default 16777216).",
    "  --keep-junk             Embed .DS_Store, editor swap files, .git/,\n                          __pycache__/, node_modules/ and the like instead of\n                          leaving them out with a note.",
    "  -v, --verbose           Say how each source was read: one skill or a\n                          folder of skills.",
];

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
    let mut builder = Builder::new()
        .extensions(call.flag("--extensions"))
        .keep_junk(call.flag("--keep-junk"));
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
    for pattern in call.values("--exclude") {
        if let Err(error) = Glob::new(pattern) {
            return Err(error.to_string());
        }
        builder = builder.exclude(pattern);
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
    call.flag("-v") || call.flag("--verbose")
}

/// One line per source: what it was taken for.
pub fn layout_lines(outcome: &Outcome) -> String {
    let mut text = String::new();
    for source in &outcome.sources {
        let what = match (source.layout, source.skills) {
            (Some(Layout::Skill), _) => "one skill (it holds a skill file)".to_string(),
            (Some(Layout::Collection), 1) => "a folder of skills: 1 skill".to_string(),
            (Some(Layout::Collection), n) => format!("a folder of skills: {n} skills"),
            (None, _) => "no skill".to_string(),
        };
        text.push_str(&format!("source {}: {what}\n", source.location));
    }
    text
}

/// The summary line: `ok: checked 2 skills: 1 warning` and the like.
pub fn summary(verb: &str, outcome: &Outcome, failed: bool, deny_warnings: bool) -> String {
    let problems = outcome.problems();
    let verdict = if failed { "error" } else { "ok" };
    let skills = outcome.skills;
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

/// Prints the report of `outcome` for `command` in `format`; `extra` are
/// the command's own JSON fields (a bundle's output path).
pub fn print(
    command: &str,
    call: &Invocation,
    outcome: &Outcome,
    failed: bool,
    last_line: &str,
    extra: Vec<(String, crate::pyjson::Json)>,
) {
    let problems = outcome.problems();
    match format(call) {
        Format::Human => {
            let mut text = String::new();
            if verbose(call) {
                text.push_str(&layout_lines(outcome));
            }
            for problem in problems {
                text.push_str(&diagnostic::render(problem));
            }
            text.push_str(last_line);
            write(Stream::Err, &text);
        }
        Format::Json => {
            let json = report::json(command, outcome, failed, extra);
            write_stdout(&(json.pretty() + "\n"));
        }
        Format::Github => {
            let mut text = String::new();
            if verbose(call) {
                text.push_str(&layout_lines(outcome));
            }
            text.push_str(&report::github(problems));
            text.push_str(last_line);
            write_stdout(&text);
        }
        Format::Sarif => write_stdout(&(report::sarif(problems).pretty() + "\n")),
    }
}
