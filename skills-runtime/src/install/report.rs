//! How plans, statuses and skill lists are shown: text for people, one
//! JSON document for programs. The `skill` subcommand, its clap form and
//! the `skills` CLI all print through here.

use std::fmt::Write as _;
use std::path::Path;
use std::prelude::rust_2024::*;

use skills_core::encoding::json::{JsonWriter, Style};

use super::agents::Agent;
use super::error::{InstallError, Problem};
use super::plan::{Change, FileAction, Operation, Plan, SkillPlan, State};
use super::status::Status;

/// The names of agents, for people.
fn agent_names(agents: &[&'static Agent]) -> String {
    match agents {
        [] => "the shared copy that links point to".to_string(),
        agents => {
            let mut names: Vec<&str> = agents.iter().map(|agent| agent.name).collect();
            names.sort_unstable();
            names.join(", ")
        }
    }
}

fn where_(scope_base: &Path, user: bool) -> String {
    match user {
        true => format!("for the user (home {})", scope_base.display()),
        false => format!("in the project {}", scope_base.display()),
    }
}

fn count(n: usize, one: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    }
}

/// A skill's line: its change and what it touches.
fn skill_line(skill: &SkillPlan) -> String {
    let files = |action| skill.files.iter().filter(|f| f.action == action).count();
    let (add, replace, remove) = (
        files(FileAction::Add),
        files(FileAction::Replace),
        files(FileAction::Remove),
    );
    let mut parts = Vec::new();
    if add > 0 {
        parts.push(format!("{add} added"));
    }
    if replace > 0 {
        parts.push(format!("{replace} replaced"));
    }
    if remove > 0 {
        parts.push(format!("{remove} removed"));
    }
    let detail = match skill.change {
        Change::Keep => skill.state.to_string(),
        Change::Leave => format!("{}: left as it is", skill.state),
        Change::Link => format!("{} -> link to the shared copy", skill.state),
        _ => format!("{}: {}", skill.state, parts.join(", ")),
    };
    format!("  {:<8} {}  {detail}\n", skill.change.key(), skill.name)
}

/// A plan for people: every folder and skill, the conflicts, the problems.
pub(crate) fn plan_text(tool: &str, version: &str, plan: &Plan) -> String {
    let mut out = String::new();
    let verb = match plan.operation {
        Operation::Install => "install",
        Operation::Uninstall => "uninstall",
    };
    let _ = writeln!(
        out,
        "{tool}{}{}: {verb} {}",
        if version.is_empty() { "" } else { " " },
        version,
        where_(&plan.base, plan.scope == super::Scope::User)
    );
    for dir in &plan.dirs {
        let _ = writeln!(
            out,
            "{}{}  ({})",
            dir.shown,
            if dir.link { " [links]" } else { "" },
            agent_names(&dir.agents)
        );
        if dir.skills.is_empty() {
            out.push_str("  (no skill)\n");
        }
        for skill in &dir.skills {
            out.push_str(&skill_line(skill));
            for note in &skill.notes {
                let _ = writeln!(out, "           note: {note}");
            }
        }
    }
    let conflicts: Vec<_> = plan.conflicts().collect();
    if !conflicts.is_empty() {
        let _ = writeln!(
            out,
            "{} ({}):",
            count(conflicts.len(), "conflict"),
            match plan.force {
                true => "overwritten: --force",
                false => "give --force to overwrite",
            }
        );
        for (dir, skill, conflict) in conflicts {
            let _ = writeln!(out, "  {}/{}: {conflict}", dir.shown, skill.name);
        }
    }
    problems_text(&mut out, &plan.problems);
    out
}

fn problems_text(out: &mut String, problems: &[Problem]) {
    if !problems.is_empty() {
        let _ = writeln!(out, "{}:", count(problems.len(), "problem"));
        for problem in problems {
            let _ = writeln!(out, "  {problem}");
        }
    }
}

/// The last line after a plan: what was done.
pub(crate) fn outcome_line(plan: &Plan, dry_run: bool, applied: bool) -> String {
    let changing: Vec<&SkillPlan> = plan
        .dirs
        .iter()
        .flat_map(|dir| &dir.skills)
        .filter(|skill| skill.change.writes())
        .collect();
    let written = |change| changing.iter().filter(|s| s.change == change).count();
    if changing.is_empty() {
        return match plan.operation {
            Operation::Install => "ok: nothing to do, every skill is up to date\n".to_string(),
            Operation::Uninstall => "ok: nothing to remove\n".to_string(),
        };
    }
    let summary = [
        (Change::Write, "written"),
        (Change::Update, "updated"),
        (Change::Link, "linked"),
        (Change::Remove, "removed"),
    ]
    .iter()
    .filter(|(change, _)| written(*change) > 0)
    .map(|(change, word)| format!("{} {word}", written(*change)))
    .collect::<Vec<_>>()
    .join(", ");
    match (dry_run, applied) {
        (true, _) => format!("dry run: nothing was written ({summary} without --dry-run)\n"),
        (false, true) => format!("ok: {summary}\n"),
        (false, false) => "nothing was written\n".to_string(),
    }
}

/// A status for people.
pub(crate) fn status_text(tool: &str, version: &str, status: &Status) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{tool}{}{}: skills {}",
        if version.is_empty() { "" } else { " " },
        version,
        where_(&status.base, status.scope == super::Scope::User)
    );
    let mut behind = 0;
    let mut total = 0;
    for dir in &status.dirs {
        let _ = writeln!(
            out,
            "{}{}  ({})",
            dir.shown,
            if dir.link { " [links]" } else { "" },
            agent_names(&dir.agents)
        );
        for (name, state) in &dir.skills {
            total += 1;
            behind += usize::from(*state != State::UpToDate);
            let _ = writeln!(out, "  {name}  {state}");
        }
    }
    problems_text(&mut out, &status.problems);
    match (behind, status.problems.is_empty()) {
        (0, true) => {
            let _ = writeln!(out, "ok: {} up to date", count(total, "skill"));
        }
        _ => {
            let _ = writeln!(
                out,
                "{behind} of {total} not up to date: run `{tool} skill install` (see the states above)"
            );
        }
    }
    out
}

/// A plan (after its apply, or not) as one JSON document.
pub(crate) fn plan_json(
    plan: &Plan,
    dry_run: bool,
    applied: bool,
    error: Option<&InstallError>,
) -> String {
    let mut json = JsonWriter::new(String::new(), Style::indented(2));
    let _ = (|| -> std::fmt::Result {
        json.begin_object()?;
        json.key("action")?;
        json.string(match plan.operation {
            Operation::Install => "install",
            Operation::Uninstall => "uninstall",
        })?;
        json.key("scope")?;
        json.string(plan.scope.as_str())?;
        json.key("base")?;
        json.display(plan.base.display())?;
        json.key("dry_run")?;
        json.value(dry_run)?;
        json.key("applied")?;
        json.value(applied)?;
        json.key("error")?;
        match error {
            Some(error) => json.display(error)?,
            None => json.null()?,
        }
        json.key("directories")?;
        json.begin_array()?;
        for dir in &plan.dirs {
            dir_json(&mut json, &dir.shown, &dir.agents, dir.link)?;
            for skill in &dir.skills {
                json.begin_object()?;
                json.key("name")?;
                json.string(&skill.name)?;
                json.key("state")?;
                json.string(skill.state.key())?;
                json.key("change")?;
                json.string(skill.change.key())?;
                json.key("files")?;
                json.begin_array()?;
                for file in &skill.files {
                    json.begin_object()?;
                    json.key("path")?;
                    json.string(&file.path)?;
                    json.key("action")?;
                    json.string(file.action.key())?;
                    json.end()?;
                }
                json.end()?;
                json.key("conflicts")?;
                json.begin_array()?;
                for conflict in &skill.conflicts {
                    json.begin_object()?;
                    json.key("path")?;
                    json.string(&conflict.path)?;
                    json.key("kind")?;
                    json.string(conflict.kind.key())?;
                    json.key("message")?;
                    json.display(conflict)?;
                    json.end()?;
                }
                json.end()?;
                json.key("notes")?;
                json.begin_array()?;
                for note in &skill.notes {
                    json.string(note)?;
                }
                json.end()?;
                json.end()?;
            }
            json.end()?;
            json.end()?;
        }
        json.end()?;
        problems_json(&mut json, &plan.problems)?;
        json.end()
    })();
    json.into_inner() + "\n"
}

/// Opens a folder's object: its path, agents and link flag, then the
/// `skills` array the caller fills and closes.
fn dir_json(
    json: &mut JsonWriter<String>,
    shown: &str,
    agents: &[&'static Agent],
    link: bool,
) -> std::fmt::Result {
    json.begin_object()?;
    json.key("path")?;
    json.string(shown)?;
    agents_json(json, agents)?;
    json.key("link")?;
    json.value(link)?;
    json.key("skills")?;
    json.begin_array()
}

fn agents_json(json: &mut JsonWriter<String>, agents: &[&'static Agent]) -> std::fmt::Result {
    json.key("agents")?;
    json.begin_array()?;
    for agent in agents {
        json.string(agent.id)?;
    }
    json.end()
}

fn problems_json(json: &mut JsonWriter<String>, problems: &[Problem]) -> std::fmt::Result {
    json.key("problems")?;
    json.begin_array()?;
    for problem in problems {
        json.display(problem)?;
    }
    json.end()
}

/// A status as one JSON document.
pub(crate) fn status_json(status: &Status) -> String {
    let mut json = JsonWriter::new(String::new(), Style::indented(2));
    let _ = (|| -> std::fmt::Result {
        json.begin_object()?;
        json.key("action")?;
        json.string("status")?;
        json.key("scope")?;
        json.string(status.scope.as_str())?;
        json.key("base")?;
        json.display(status.base.display())?;
        json.key("up_to_date")?;
        json.value(status.all_up_to_date())?;
        json.key("directories")?;
        json.begin_array()?;
        for dir in &status.dirs {
            dir_json(&mut json, &dir.shown, &dir.agents, dir.link)?;
            for (name, state) in &dir.skills {
                json.begin_object()?;
                json.key("name")?;
                json.string(name)?;
                json.key("state")?;
                json.string(state.key())?;
                json.end()?;
            }
            json.end()?;
            json.end()?;
        }
        json.end()?;
        problems_json(&mut json, &status.problems)?;
        json.end()
    })();
    json.into_inner() + "\n"
}

/// An error alone as one JSON document.
pub(crate) fn error_json(action: &str, error: &InstallError) -> String {
    let mut json = JsonWriter::new(String::new(), Style::indented(2));
    let _ = (|| -> std::fmt::Result {
        json.begin_object()?;
        json.key("action")?;
        json.string(action)?;
        json.key("error")?;
        json.display(error)?;
        json.end()
    })();
    json.into_inner() + "\n"
}
