//! `check DIR...`: every problem of every skill, reference rules and
//! specification rules alike, as compiler-style diagnostics or JSON.

use std::path::{Path, PathBuf};

use skills_build::diagnostic;
use skills_build::problem::{Problem, Rule};
use skills_build::skill_dir;

use crate::args::{CommandSpec, Invocation, Param};
use crate::output::{Stream, write, write_stdout};
use crate::pyjson::Json;

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "check",
    short_help: "Report every problem of skills, as diagnostics.",
    help: "  Report every problem of skills, as diagnostics.\n\n  Each DIR is a skill directory, or a directory whose subdirectories are\n  skills. Prints the reference validator's problems and the specification\n  rules it does not check, with file, line and column, then a summary.\n\n  Exit codes:     0: No errors (warnings allowed)     1: Errors found",
    options_help: &["  --format [human|json]  Diagnostics for people (default) or JSON."],
    params: &[
        Param::Arg {
            metavar: "DIR...",
            many: true,
            must_exist: true,
        },
        Param::Opt {
            long: "--format",
            choices: &["human", "json"],
        },
    ],
};

/// The skill directories named by one argument: the directory itself when
/// it holds a skill file, else its direct subdirectories that do.
fn skill_dirs(dir: &Path) -> Result<Vec<PathBuf>, Problem> {
    if skill_dir::find_skill_file(dir).is_some() || !dir.is_dir() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Problem::error(format!("cannot list {}: {e}", dir.display()))
            .with_file(dir.display().to_string())
    })?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_dir() && skill_dir::find_skill_file(path).is_some())
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(Problem::error(format!(
            "no skills found in {}: neither it nor any of its subdirectories holds a SKILL.md",
            dir.display()
        ))
        .with_file(dir.display().to_string()));
    }
    Ok(found)
}

/// An archive's skills and problems, as a build reads them; `None` when
/// `path` is not an archive.
fn archive_problems(path: &Path) -> Option<(usize, Vec<Problem>)> {
    let source = match skills_build::archive::open_if_archive(path)? {
        Ok(source) => source,
        Err(error) => {
            let problem = Problem::error(format!("cannot open the archive: {error}"))
                .with_file(path.display().to_string());
            return Some((0, vec![problem]));
        }
    };
    let roots = [skills_build::discover::Root::new(source.as_ref())];
    let found = skills_build::discover::discover(&roots, &Default::default());
    Some((found.skills.len(), found.problems))
}

/// Runs the command; the exit status is 1 when any error was found.
pub fn run(call: &Invocation) -> i32 {
    let mut problems = Vec::new();
    let mut skills = 0usize;
    for arg in &call.args {
        if let Some(found) = archive_problems(Path::new(arg)) {
            skills += found.0;
            problems.extend(found.1);
            continue;
        }
        match skill_dirs(Path::new(arg)) {
            Ok(dirs) => {
                for dir in dirs {
                    skills += 1;
                    problems.extend(skill_dir::validate_dir(&dir));
                }
            }
            Err(problem) => problems.push(problem),
        }
    }
    Problem::sort(&mut problems);
    let errors = problems.iter().filter(|p| p.is_error()).count();
    let warnings = problems.len() - errors;
    if call.option("--format") == Some("json") {
        write_stdout(&(report_json(skills, errors, warnings, &problems).pretty() + "\n"));
    } else {
        let mut text = String::new();
        for problem in &problems {
            text.push_str(&diagnostic::render(problem));
        }
        text.push_str(&summary(skills, &problems));
        write(Stream::Err, &text);
    }
    i32::from(errors > 0)
}

fn summary(skills: usize, problems: &[Problem]) -> String {
    let verdict = if problems.iter().any(Problem::is_error) {
        "error"
    } else {
        "ok"
    };
    let noun = if skills == 1 { "skill" } else { "skills" };
    format!(
        "{verdict}: checked {skills} {noun}: {}\n",
        diagnostic::count(problems)
    )
}

fn report_json(skills: usize, errors: usize, warnings: usize, problems: &[Problem]) -> Json {
    let count = |n: usize| Json::Int(i64::try_from(n).unwrap_or(i64::MAX));
    let optional = |value: Option<String>| value.map_or(Json::Null, Json::Str);
    let items = problems
        .iter()
        .map(|p| {
            Json::Object(vec![
                ("severity".into(), Json::Str(p.severity.as_str().into())),
                (
                    "rule".into(),
                    Json::Str(
                        match p.rule {
                            Rule::Reference => "reference",
                            Rule::Specification => "specification",
                        }
                        .into(),
                    ),
                ),
                ("field".into(), optional(p.field.clone())),
                ("message".into(), Json::Str(p.message.clone())),
                ("hint".into(), optional(p.hint.clone())),
                ("file".into(), optional(p.file.clone())),
                (
                    "line".into(),
                    p.position
                        .map_or(Json::Null, |pos| count(pos.line as usize)),
                ),
                (
                    "column".into(),
                    p.position
                        .map_or(Json::Null, |pos| count(pos.column as usize)),
                ),
            ])
        })
        .collect();
    Json::Object(vec![
        ("skills".into(), count(skills)),
        ("errors".into(), count(errors)),
        ("warnings".into(), count(warnings)),
        ("problems".into(), Json::Array(items)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summarises_counts() {
        assert_eq!(summary(1, &[]), "ok: checked 1 skill: no problems\n");
        let problems = [
            Problem::error("a"),
            Problem::error("b"),
            Problem::warning("c"),
        ];
        assert_eq!(
            summary(3, &problems),
            "error: checked 3 skills: 2 errors, 1 warning\n"
        );
        assert_eq!(
            summary(2, &problems[2..]),
            "ok: checked 2 skills: 1 warning\n"
        );
    }
}
