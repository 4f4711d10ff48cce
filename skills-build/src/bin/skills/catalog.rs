//! `catalog SRC...`: the runtime's catalog renderer over skills, as
//! agentskills-core's registry renders them, and `outline SRC`.
//!
//! Each SRC is a skill folder or a folder of skill folders (the rule every
//! command follows, [`skill_folders`]); each skill is registered under its
//! directory name as agentskills-core's file-system provider registers it.
//! The catalog text goes to stdout exactly, with no newline added.

use std::path::{Path, PathBuf};

use skills_build::diagnostic;
use skills_build::discover::skill_folders;
use skills_build::extensions::{CatalogFields, catalog_fields};
use skills_build::problem::Problem;
use skills_build::properties::Properties;
use skills_build::sections;
use skills_build::skill_dir;
use skills_build::validate::{ValidateOptions, validate_with};
use skills_core::render::{Entry, Format, RenderOptions, render_catalog};

use crate::args::{CommandSpec, Invocation, Param};
use crate::output::{Stream, echo, write_stdout};

/// The `catalog` command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "catalog",
    short_help: "Render the catalog of skills for a system prompt.",
    help: "  Render the catalog of skills for a system prompt.\n\n  Each SRC is a skill folder (it holds SKILL.md) or a folder of skill\n  folders; each skill is registered under its directory name. The catalog is\n  printed exactly, without a trailing newline: the reference to-prompt shape\n  (default), or agentskills-core's XML or Markdown shape, listed by name.\n\n  Exit codes:\n    0  Success\n    1  No skill, an invalid skill, or a catalog that cannot be rendered\n    2  Usage error",
    options_help: &[
        "  --format [skills-ref|xml|markdown]  The shape (default skills-ref).",
        "  --include ID                        Keep only these skills (repeatable).",
        "  --exclude ID                        Drop these skills (repeatable; wins).",
        "  --tag TAG                           Keep skills with one of these",
        "                                      metadata.tags (repeatable).",
        "  --max-chars N                       Drop entries from the end to fit N",
        "                                      characters, and say so.",
        "  --total N                           The size of the set these were chosen",
        "                                      from.",
        "  --no-hints                          Leave out when_to_use and",
        "                                      when_not_to_use.",
        "  --extensions                        Accept the extension fields version,",
        "                                      when_to_use, when_not_to_use.",
    ],
    params: &[
        Param::Arg {
            metavar: "SRC...",
            many: true,
            must_exist: false,
        },
        Param::Opt {
            long: "--format",
            choices: &["skills-ref", "xml", "markdown"],
        },
        Param::Opt {
            long: "--include",
            choices: &[],
        },
        Param::Opt {
            long: "--exclude",
            choices: &[],
        },
        Param::Opt {
            long: "--tag",
            choices: &[],
        },
        Param::Opt {
            long: "--max-chars",
            choices: &[],
        },
        Param::Opt {
            long: "--total",
            choices: &[],
        },
        Param::Flag { long: "--no-hints" },
        Param::Flag {
            long: "--extensions",
        },
    ],
};

/// The `outline` command's declaration.
pub const OUTLINE: CommandSpec = CommandSpec {
    name: "outline",
    short_help: "Print a skill's outline: its sections and their cost.",
    help: "  Print a skill's outline: its sections and their cost.\n\n  SRC is a skill folder (it holds SKILL.md), named by its directory name,\n  or a folder of skill folders (each outline in turn, a blank line between).\n  Prints the sections of the body with their keys and estimated tokens, as\n  agentskills-core renders an outline.\n\n  Exit codes:\n    0  Success\n    1  No skill, or an invalid skill\n    2  Usage error",
    options_help: &[
        "  --extensions  Accept the extension fields version, when_to_use,\n                when_not_to_use.",
    ],
    params: &[
        Param::Arg {
            metavar: "SRC",
            many: false,
            must_exist: false,
        },
        Param::Flag {
            long: "--extensions",
        },
    ],
};

/// One skill directory, read and validated.
struct Loaded {
    id: String,
    name: String,
    description: String,
    location: String,
    body: String,
    fields: CatalogFields,
}

fn fail(problems: &[Problem]) -> i32 {
    for problem in problems {
        echo(Stream::Err, &problem.to_string());
    }
    1
}

/// A source that holds no skill, or does not exist: the pipeline's error.
fn no_skill(problem: &Problem) -> i32 {
    crate::output::write(Stream::Err, &diagnostic::render(problem));
    1
}

fn load(arg: &Path, extensions: bool) -> Result<Loaded, Vec<Problem>> {
    let path = PathBuf::from(arg);
    let dir = std::fs::canonicalize(&path).unwrap_or(path);
    let skill = skill_dir::load(&dir).map_err(|error| vec![error.to_problem()])?;
    let id = skill_dir::dir_name(&dir);
    let file = skill.file.display().to_string();
    let problems: Vec<Problem> =
        validate_with(&skill.document, &id, &ValidateOptions { extensions })
            .into_iter()
            .map(|problem| problem.with_file(file.clone()))
            .collect();
    if problems.iter().any(Problem::is_error) {
        return Err(problems);
    }
    let fm = &skill.document.frontmatter;
    let props = Properties::read(fm).map_err(|problem| vec![problem.with_file(file.clone())])?;
    Ok(Loaded {
        name: props.name.to_string(),
        description: props.description.to_string(),
        location: Path::new(&file).display().to_string(),
        body: skill.document.body().to_string(),
        fields: catalog_fields(fm, extensions),
        id,
    })
}

fn number(call: &Invocation, long: &str) -> Result<Option<usize>, i32> {
    match call.option(long) {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| {
            echo(
                Stream::Err,
                &format!("Error: Invalid value for '{long}': '{text}' is not a valid integer."),
            );
            2
        }),
    }
}

/// Runs `catalog`.
pub fn run(call: &Invocation) -> i32 {
    let extensions = call.flag("--extensions");
    let mut loaded = Vec::with_capacity(call.args.len());
    for arg in &call.args {
        let folders = match skill_folders(Path::new(arg)) {
            Ok((_, folders)) => folders,
            Err(problem) => return no_skill(&problem),
        };
        for folder in folders {
            match load(&folder, extensions) {
                Ok(skill) => loaded.push(skill),
                Err(problems) => return fail(&problems),
            }
        }
    }
    let (max_chars, total) = match (number(call, "--max-chars"), number(call, "--total")) {
        (Ok(max_chars), Ok(total)) => (max_chars, total),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let cases: Vec<[Vec<&str>; 3]> = loaded
        .iter()
        .map(|skill| {
            fn strs(list: &[String]) -> Vec<&str> {
                list.iter().map(String::as_str).collect()
            }
            [
                strs(&skill.fields.when_to_use),
                strs(&skill.fields.when_not_to_use),
                strs(&skill.fields.tags),
            ]
        })
        .collect();
    let entries: Vec<Entry<'_>> = loaded
        .iter()
        .zip(&cases)
        .map(|(skill, [when, when_not, tags])| Entry {
            id: &skill.id,
            name: &skill.name,
            description: &skill.description,
            location: &skill.location,
            version: skill.fields.version.as_deref(),
            when_to_use: when,
            when_not_to_use: when_not,
            tags,
        })
        .collect();
    let include = call.values("--include");
    let exclude = call.values("--exclude");
    let tags = call.values("--tag");
    let (include, exclude, tags) = (
        call.flag("--include").then_some(include),
        call.flag("--exclude").then_some(exclude),
        call.flag("--tag").then_some(tags),
    );
    let options = RenderOptions {
        format: match call.option("--format") {
            Some("xml") => Format::Xml,
            Some("markdown") => Format::Markdown,
            _ => Format::SkillsRef,
        },
        include: include.as_deref(),
        exclude: exclude.as_deref(),
        tags: tags.as_deref(),
        max_chars,
        selection_hints: !call.flag("--no-hints"),
        total,
    };
    match render_catalog(&entries, &options) {
        Ok(text) => {
            write_stdout(&text);
            0
        }
        Err(error) => {
            echo(Stream::Err, &format!("Error: {error}"));
            1
        }
    }
}

/// Runs `outline`.
pub fn run_outline(call: &Invocation) -> i32 {
    let Some(arg) = call.args.first() else {
        return 2;
    };
    let folders = match skill_folders(Path::new(arg)) {
        Ok((_, folders)) => folders,
        Err(problem) => return no_skill(&problem),
    };
    let mut outlines = Vec::with_capacity(folders.len());
    for folder in &folders {
        match load(folder, call.flag("--extensions")) {
            Ok(skill) => outlines.push(sections::outline(&skill.id, &skill.body).rendered),
            Err(problems) => return fail(&problems),
        }
    }
    echo(Stream::Out, &outlines.join("\n"));
    0
}
