//! `catalog SRC...`: the runtime's catalog renderer over skills, as
//! agentskills-core's registry renders them, and `outline SRC`.
//!
//! Each SRC is read and judged by the one pipeline (`Builder::run`, the rule
//! every command follows: a skill folder, a folder of skill folders or an
//! archive); each skill is registered under its directory name as
//! agentskills-core's file-system provider registers it.
//! The catalog text goes to stdout exactly, with no newline added.

use crate::properties::Properties;
use skills_build::diagnostic;
use skills_build::problem::{Code, Problem, Rule, Severity};
use skills_build::unstable::discover::DiscoveredSkill;
use skills_build::unstable::extension_fields::{CatalogFields, catalog_fields};
use skills_core::features::outline::Outline;
use skills_core::features::render::{Entry, Format, RenderError, RenderOptions, render_catalog};

use crate::gate;
use crate::output::{Stream, echo, write_stdout};
use crate::python::click::{Arg, CommandSpec, Invocation, Opt};

/// The `catalog` command's declaration. Here `--exclude` keeps
/// agentskills-core's meaning: a skill to leave out, not files.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "catalog",
    summary: "Render the catalog of skills for a system prompt.",
    about: "Each SRC is a skill folder (it holds SKILL.md), a folder of skill folders or a .skill/.zip archive, read and judged as `check` judges it; each skill is registered under its directory name. The catalog is printed exactly, without a trailing newline: the reference to-prompt shape (default), or agentskills-core's XML or Markdown shape, listed by name. Here --exclude names skills to leave out, not files.",
    exit_codes: &[
        (0, "Success"),
        (
            1,
            "No skill, an invalid skill, or a catalog that cannot be rendered",
        ),
        (2, "Usage error, or an --include that names no skill read"),
    ],
    args: &[gate::SOURCES],
    options: &[
        &[
            Opt::choice(
                "--format",
                &["skills-ref", "xml", "markdown"],
                "The catalog's shape (default skills-ref); not a report's format, as in `check`.",
            ),
            Opt::value("--include", "ID", "Keep only these skills (repeatable)."),
            Opt::value(
                "--exclude",
                "ID",
                "Drop the skill with this id (repeatable; wins over --include). Unlike other commands' --exclude, it names skills, not files.",
            ),
            Opt::value(
                "--tag",
                "TAG",
                "Keep skills with one of these metadata.tags (repeatable).",
            ),
            Opt::value(
                "--max-chars",
                "N",
                "Drop entries from the end to fit N characters, and say so.",
            ),
            Opt::value(
                "--total",
                "N",
                "The size of the set these were chosen from.",
            ),
            Opt::flag("--no-hints", "Leave out when_to_use and when_not_to_use."),
            gate::EXTENSIONS,
        ],
        gate::READ,
    ],
    run,
};

/// The `outline` command's declaration.
pub const OUTLINE: CommandSpec = CommandSpec {
    name: "outline",
    summary: "Print a skill's outline: its sections and their cost.",
    about: "SRC is a skill folder (it holds SKILL.md), named by its directory name, a folder of skill folders or a .skill/.zip archive (each outline in turn, a blank line between), read and judged as `check` judges it. Prints the sections of the body with their keys and estimated tokens, as agentskills-core renders an outline.",
    exit_codes: &[(0, "Success"), (1, "No skill, or an invalid skill")],
    args: &[Arg {
        metavar: "SRC",
        many: false,
        must_exist: false,
    }],
    options: &[&[gate::EXTENSIONS, gate::EXCLUDE], gate::READ],
    run: run_outline,
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

/// The skills of the sources, read and judged by the one pipeline (the
/// verdict `check` gives for the same options), each registered under its
/// directory name; or the status, with every problem printed. With `-v`,
/// says how each source was read. Warnings and notes go to stderr too.
fn judged(call: &Invocation, file_excludes: bool) -> Result<Vec<Loaded>, i32> {
    let extensions = call.flag("--extensions");
    let builder = gate::builder_with(call, file_excludes).map_err(|message| {
        echo(Stream::Err, &format!("Error: {message}"));
        2
    })?;
    let (outcome, discovered) = skills_build::unstable::run_keeping_skills(&builder);
    gate::say_layouts(call, &outcome.sources);
    // The audit's and lints' notes are `check`'s and `audit`'s to show:
    // they do not bear on a catalog.
    let shown = outcome.problems().iter().filter(|p| {
        !(p.severity == Severity::Note && matches!(p.rule(), Rule::Audit | Rule::Lint))
    });
    crate::output::write(Stream::Err, &diagnostic::render_all(shown));
    if outcome.result.is_err() {
        return Err(1);
    }
    let mut loaded = Vec::with_capacity(discovered.len());
    for skill in discovered.iter().filter(|s| s.listing.name().is_some()) {
        match load(skill, extensions) {
            Ok(skill) => loaded.push(skill),
            Err(problem) => {
                crate::output::write(Stream::Err, &diagnostic::render(&problem));
                return Err(1);
            }
        }
    }
    Ok(loaded)
}

/// The skill file's path, as agentskills-core's provider names it: the
/// real path of its folder (inside an archive, the archive's real path
/// and the folder in it).
fn location(skill: &DiscoveredSkill) -> String {
    match skills_build::unstable::real_path::canonicalize(&skill.source_location) {
        Ok(root) => root
            .join(&skill.path)
            .join(skill.skill_file.as_str())
            .display()
            .to_string(),
        Err(_) => skill.file_location.clone(),
    }
}

fn load(skill: &DiscoveredSkill, extensions: bool) -> Result<Loaded, Problem> {
    let located = |problem: Problem| problem.with_file(skill.file_location.clone());
    let Some(document) = skill.document.as_ref() else {
        return Err(located(Problem::new(
            Code::SkillFileUnreadable,
            "the skill file could not be read",
        )));
    };
    let fm = &document.frontmatter;
    let props = Properties::read(fm).map_err(located)?;
    Ok(Loaded {
        name: props.name.to_string(),
        description: props.description.to_string(),
        location: location(skill),
        body: document.body().to_string(),
        fields: catalog_fields(fm, extensions),
        // The directory's name; `QUALIFIER:NAME` when a qualified source's
        // skill is listed so, as in the bundle.
        id: skill.listing.name().unwrap_or(&skill.dir).to_string(),
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
    let loaded = match judged(call, false) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
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
        // A skill named on the command line that is not there is a usage
        // error, as an unknown option is
        // (agentskills-core's words, kept; the status is ours).
        Err(error @ RenderError::NotRegistered(_)) => {
            echo(Stream::Err, &format!("Error: {error}"));
            2
        }
        Err(error) => {
            echo(Stream::Err, &format!("Error: {error}"));
            1
        }
    }
}

/// Runs `outline`.
pub fn run_outline(call: &Invocation) -> i32 {
    let outlines: Vec<String> = match judged(call, true) {
        Ok(loaded) => loaded
            .iter()
            .map(|skill| Outline::of(&skill.body).render(&skill.id))
            .collect(),
        Err(code) => return code,
    };
    echo(Stream::Out, &outlines.join("\n"));
    0
}
