//! Plans, statuses and skill lists as text for people.

use std::fmt::Write as _;
use std::path::Path;

use crate::agents::{AGENTS, Agent};
use crate::error::Problem;
use crate::installer::Installer;
use crate::names::shown;
use crate::plan::{Change, FileAction, Operation, Plan, SkillPlan, State};
use crate::report::remedy::remedy;
use crate::scope::Scope;
use crate::status::{SkillStatus, Status};

/// The names of agents, for people.
fn agent_names(agents: &[&'static Agent], scope: Scope) -> String {
    match agents {
        [] if scope == Scope::Folder => "the program's own folder".to_string(),
        [] => "the shared copy that links point to".to_string(),
        agents => {
            let mut names: Vec<&str> = agents.iter().map(|agent| agent.name).collect();
            names.sort_unstable();
            names.join(", ")
        }
    }
}

pub(crate) fn where_(scope_base: &Path, scope: Scope) -> String {
    match scope {
        Scope::User => format!("for the user (home {})", scope_base.display()),
        Scope::Project => format!("in the project {}", scope_base.display()),
        Scope::Folder => format!("in the folder {}", scope_base.display()),
    }
}

fn count(n: usize, one: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    }
}

/// A skill's line: its change and what it touches.
fn skill_line(skill: &SkillPlan, force: bool) -> String {
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
        // Refused without force: what it would do, and when.
        _ if !force && !skill.conflicts.is_empty() => {
            format!("{}: {} with --force", skill.state, parts.join(", "))
        }
        _ => format!("{}: {}", skill.state, parts.join(", ")),
    };
    format!(
        "  {:<8} {}  {detail}\n",
        skill.change.key(),
        shown(&skill.name)
    )
}

/// The first line: the tool, its version, what it does, and where.
fn heading(out: &mut String, tool: &str, version: &str, what: &str, base: &Path, scope: Scope) {
    let _ = writeln!(
        out,
        "{tool}{}{version}: {what} {}",
        if version.is_empty() { "" } else { " " },
        where_(base, scope)
    );
}

/// Every agent that reads the folder planned for `agents` (those chosen)
/// in `scope`: a shared folder such as `.agents/skills` is labelled with
/// all its readers, not only the agent it was chosen for.
fn readers(agents: &[&'static Agent], scope: Scope) -> Vec<&'static Agent> {
    let folder = |agent: &Agent| match scope {
        Scope::Project => agent.project_dir,
        Scope::User => agent.user_dir,
        Scope::Folder => "",
    };
    let mut readers: Vec<&'static Agent> = AGENTS
        .iter()
        .filter(|agent| agents.iter().any(|chosen| folder(chosen) == folder(agent)))
        .collect();
    for chosen in agents {
        if !readers.iter().any(|agent| agent.id == chosen.id) {
            readers.push(chosen);
        }
    }
    readers
}

/// A folder's line: where it is, whether it holds links, who reads it.
fn folder_line(
    out: &mut String,
    folder: &str,
    link: bool,
    agents: &[&'static Agent],
    scope: Scope,
) {
    let _ = writeln!(
        out,
        "{}{}  ({})",
        shown(folder),
        if link { " [links]" } else { "" },
        agent_names(&readers(agents, scope), scope)
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
    if plan.claims {
        claims_note(&mut out, &plan.record_path);
    }
    for dir in &plan.dirs {
        folder_line(&mut out, &dir.shown, dir.link, &dir.agents, plan.scope);
        if dir.skills.is_empty() {
            out.push_str("  (no skill)\n");
        }
        for skill in &dir.skills {
            out.push_str(&skill_line(skill, plan.force));
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
            conflict_remedy(plan)
        );
        for (dir, skill, conflict) in conflicts {
            let _ = writeln!(
                out,
                "  {}/{}: {conflict}",
                shown(&dir.shown),
                shown(&skill.name)
            );
        }
    }
    kept_text(&mut out, plan);
    problems_text(&mut out, &plan.problems);
    out
}

/// What the plan does with its conflicts, for the line above them.
fn conflict_remedy(plan: &Plan) -> &'static str {
    match (plan.force, plan.operation, plan.scope) {
        (true, _, Scope::Folder) => "moved aside: --force",
        (true, Operation::Install, _) => "overwritten: --force",
        (true, Operation::Uninstall, _) => "removed: --force",
        (false, Operation::Install, Scope::Folder) => {
            "nothing is written; give --force to move each aside to <name>.user-N"
        }
        (false, Operation::Install, _) => "nothing is written; give --force to overwrite",
        (false, Operation::Uninstall, _) => {
            "nothing is removed; give --force to remove them too (the changes are lost)"
        }
    }
}

/// The skills a plan keeps as they are because of conflicts, and why.
fn kept_text(out: &mut String, plan: &Plan) {
    if plan.target.refresh {
        return;
    }
    let kept: Vec<_> = plan
        .dirs
        .iter()
        .flat_map(|dir| dir.skills.iter().map(move |skill| (dir, skill)))
        .filter(|(_, skill)| !skill.kept.is_empty())
        .collect();
    if kept.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "{} kept as {} (the rest goes on; give --force to {}):",
        count(kept.len(), "skill"),
        if kept.len() == 1 { "it is" } else { "they are" },
        match plan.scope {
            Scope::Folder => "move each aside to <name>.user-N",
            _ => "overwrite",
        }
    );
    for (dir, skill) in kept {
        for conflict in &skill.kept {
            let _ = writeln!(
                out,
                "  {}/{}: {conflict}",
                shown(&dir.shown),
                shown(&skill.name)
            );
        }
    }
}

/// What a run that kept skills as they are (conflicts) says last, if it
/// did: the others were carried out.
pub(crate) fn kept_line(plan: &Plan) -> Option<String> {
    if plan.target.refresh {
        return None;
    }
    let kept = plan
        .dirs
        .iter()
        .flat_map(|dir| &dir.skills)
        .filter(|skill| !skill.kept.is_empty())
        .count();
    (kept > 0).then(|| {
        format!(
            "{} kept as {} (conflicts, listed above); every other skill was carried out; give --force to {}",
            count(kept, "skill"),
            if kept == 1 { "it is" } else { "they are" },
            match plan.scope {
                Scope::Folder => "move each aside to <name>.user-N and write this version",
                _ => "overwrite them",
            }
        )
    })
}

/// What a run that was refused for its conflicts says last: what was not
/// done, and what `--force` does (for an uninstall, removes; in a plain
/// folder, moves aside).
pub(crate) fn conflicts_line(plan: &Plan, count: usize) -> String {
    let what = match count {
        1 => "1 conflict".to_string(),
        n => format!("{n} conflicts"),
    };
    match (plan.operation, plan.scope) {
        (Operation::Uninstall, _) => format!(
            "{what} (files changed since this tool wrote them): nothing was removed; give --force to remove them too (the changes are lost)"
        ),
        (Operation::Install, Scope::Folder) => format!(
            "{what} (files this tool did not write, or that changed since): nothing was written; give --force to move each conflicting copy aside to <name>.user-N and write this version"
        ),
        (Operation::Install, _) => format!(
            "{what} (files this tool did not write, or that changed since): nothing was written; give --force to overwrite them"
        ),
    }
}

/// Says the record lists entries this tool did not write here.
fn claims_note(out: &mut String, record: &Path) {
    let _ = writeln!(
        out,
        "note: {} is a record this tool did not write here (committed?): what it lists is a claim, not proof; \
         what it names is removed, or replaced where it differs from the claim, only with --force",
        record.display()
    );
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
        let skills = plan.dirs.iter().flat_map(|dir| &dir.skills);
        let left = skills.clone().filter(|s| s.change == Change::Leave).count();
        let forgotten = skills.clone().filter(|s| s.work.forgets).count();
        let kept = skills.filter(|s| s.change == Change::Keep).count();
        let not_ours = format!(
            "{} not installed by this tool, left as {}",
            count(left, "skill"),
            if left == 1 { "it is" } else { "they are" }
        );
        return match (plan.operation, left, kept) {
            (Operation::Install, 0, _) => {
                "ok: nothing to do, every skill is up to date\n".to_string()
            }
            (Operation::Install, _, 0) => format!("ok: nothing written: {not_ours}\n"),
            (Operation::Install, _, _) => {
                format!("ok: nothing written: {kept} up to date; {not_ours}\n")
            }
            (Operation::Uninstall, _, _) if forgotten > 0 && !dry_run => format!(
                "ok: nothing to remove; the record no longer lists {} that {} not there\n",
                count(forgotten, "skill"),
                if forgotten == 1 { "was" } else { "were" }
            ),
            (Operation::Uninstall, _, _) => "ok: nothing to remove\n".to_string(),
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

/// A status for people: per folder and skill its state and the command
/// that resolves it; with `check`, every difference beneath.
pub(crate) fn status_text(installer: &Installer<'_>, status: &Status, check: bool) -> String {
    let mut out = String::new();
    let version = installer.version_text();
    heading(
        &mut out,
        installer.tool(),
        version,
        "skills",
        &status.base,
        status.scope,
    );
    if status.claims {
        claims_note(&mut out, &status.record);
    }
    let mut tally = Tally::default();
    for dir in &status.dirs {
        folder_line(&mut out, &dir.shown, dir.link, &dir.agents, status.scope);
        for skill in &dir.skills {
            tally.total += 1;
            tally.behind += usize::from(skill.state != State::UpToDate);
            tally.differing += usize::from(!skill.differences.is_empty());
            let left = skill_status_line(&mut out, installer, status, skill, check);
            tally.left += usize::from(left);
        }
    }
    problems_text(&mut out, &status.problems);
    status_summary(&mut out, &tally, check, status.problems.is_empty());
    out
}

/// What a status counted of its skills, for its last line.
#[derive(Default)]
struct Tally {
    /// Every skill in every folder.
    total: usize,
    /// Those not up to date.
    behind: usize,
    /// Those not installed by this tool that hold this version: no command
    /// resolves them.
    left: usize,
    /// Those whose copy differs from what is embedded.
    differing: usize,
}

/// One skill's line of a status (its state and the command that resolves
/// it; with `check`, its differences beneath). Returns whether it is a
/// copy this tool did not install, left alone.
fn skill_status_line(
    out: &mut String,
    installer: &Installer<'_>,
    status: &Status,
    skill: &SkillStatus,
    check: bool,
) -> bool {
    let mut left = false;
    let _ = write!(out, "  {}  {}", shown(&skill.name), skill.state);
    let shown_differences = check && !skill.differences.is_empty();
    match remedy(installer, status, skill) {
        Some(remedy) => {
            let _ = write!(out, ": `{}` {}", remedy.command, remedy.does);
        }
        None if skill.state == State::NotOurs => {
            left = true;
            out.push_str(": it holds this version, and is left alone");
        }
        None if shown_differences => {
            out.push_str(", with files that are not part of it");
        }
        None => {}
    }
    out.push('\n');
    if shown_differences {
        for difference in &skill.differences {
            let _ = writeln!(out, "    {} ({})", difference, difference.kind.key());
        }
    }
    left
}

/// A status's last line: ok, or how many skills are not up to date (with
/// `check`: not exactly the skill's files) and what resolves them.
fn status_summary(out: &mut String, tally: &Tally, check: bool, no_problems: bool) {
    let Tally {
        total,
        behind,
        left,
        differing,
    } = *tally;
    let copies = match total {
        1 => "1 installed copy".to_string(),
        n => format!("{n} installed copies"),
    };
    match (check, behind, no_problems) {
        (true, _, true) if differing == 0 => {
            let _ = writeln!(out, "ok: {copies}, each exactly the skill's files");
        }
        (true, _, _) => {
            let _ = writeln!(
                out,
                "check failed: {differing} of {copies} not exactly the skill's files{}",
                match no_problems {
                    true => "",
                    false => ", and problems",
                }
            );
        }
        (false, 0, true) => {
            let _ = writeln!(out, "ok: {} up to date", count(total, "skill"));
        }
        (false, _, _) => {
            // A copy this tool did not install that holds this version has
            // no command: say so, never that a line names one.
            let resolvable = behind - left;
            let _ = match (resolvable, left) {
                (_, 0) => writeln!(
                    out,
                    "{behind} of {total} not up to date: each line above names the command that resolves it"
                ),
                (0, _) => writeln!(
                    out,
                    "{behind} of {total} not installed by this tool: each holds this version and is left as it is, nothing to run"
                ),
                _ => writeln!(
                    out,
                    "{behind} of {total} not up to date: {resolvable} resolved by the command its line names, \
                     {left} not installed by this tool and left as it is"
                ),
            };
        }
    }
}
