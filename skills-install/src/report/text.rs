//! Plans, statuses and skill lists as text for people.

use std::fmt::Write as _;
use std::path::Path;

use crate::agents::Agent;
use crate::error::Problem;
use crate::plan::{Change, FileAction, Operation, Plan, SkillPlan, State};
use crate::status::Status;
use crate::target::Scope;

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

/// The first line: the tool, its version, what it does, and where.
fn heading(out: &mut String, tool: &str, version: &str, what: &str, base: &Path, scope: Scope) {
    let _ = writeln!(
        out,
        "{tool}{}{version}: {what} {}",
        if version.is_empty() { "" } else { " " },
        where_(base, scope == Scope::User)
    );
}

/// A folder's line: where it is, whether it holds links, who reads it.
fn folder_line(out: &mut String, shown: &str, link: bool, agents: &[&'static Agent]) {
    let _ = writeln!(
        out,
        "{shown}{}  ({})",
        if link { " [links]" } else { "" },
        agent_names(agents)
    );
}

/// A plan for people: every folder and skill, the conflicts, the problems.
pub(crate) fn plan_text(tool: &str, version: &str, plan: &Plan) -> String {
    let mut out = String::new();
    let verb = match plan.operation {
        Operation::Install => "install",
        Operation::Uninstall => "uninstall",
    };
    heading(&mut out, tool, version, verb, &plan.base, plan.scope);
    if plan.unfinished {
        out.push_str(
            "a stopped run left changes half done here: they are finished or undone first\n",
        );
    }
    for dir in &plan.dirs {
        folder_line(&mut out, &dir.shown, dir.link, &dir.agents);
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
    heading(
        &mut out,
        tool,
        version,
        "skills",
        &status.base,
        status.scope,
    );
    let mut behind = 0;
    let mut total = 0;
    for dir in &status.dirs {
        folder_line(&mut out, &dir.shown, dir.link, &dir.agents);
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
