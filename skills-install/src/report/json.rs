//! Plans, statuses, errors and skill lists as one JSON document each, for
//! programs (`--json`): serde types shaped like the output, serialized
//! with two-space indentation.

use serde::Serialize;

use crate::agents::Agent;
use crate::error::{InstallError, Problem};
use crate::installer::Installer;
use crate::plan::{Operation, Plan, SkillPlan};
use crate::report::remedy::remedy;
use crate::status::Status;

/// A plan, after its apply or not.
#[derive(Serialize)]
struct PlanReport<'a> {
    action: &'static str,
    scope: &'static str,
    base: String,
    dry_run: bool,
    applied: bool,
    error: Option<String>,
    /// Whether the record lists entries this tool did not write here.
    claims: bool,
    directories: Vec<Folder<'a, SkillReport<'a>>>,
    problems: Vec<String>,
}

/// A status.
#[derive(Serialize)]
struct StatusReport<'a> {
    action: &'static str,
    scope: &'static str,
    base: String,
    up_to_date: bool,
    in_sync: bool,
    /// Whether the record lists entries this tool did not write here.
    claims: bool,
    directories: Vec<Folder<'a, SkillState<'a>>>,
    problems: Vec<String>,
}

/// One agent folder and its skills.
#[derive(Serialize)]
struct Folder<'a, S> {
    path: &'a str,
    agents: Vec<&'static str>,
    link: bool,
    skills: Vec<S>,
}

impl<'a, S> Folder<'a, S> {
    fn new(path: &'a str, agents: &[&'static Agent], link: bool, skills: Vec<S>) -> Self {
        Folder {
            path,
            agents: agents.iter().map(|agent| agent.id).collect(),
            link,
            skills,
        }
    }
}

/// One skill of a plan.
#[derive(Serialize)]
struct SkillReport<'a> {
    name: &'a str,
    state: &'static str,
    change: &'static str,
    files: Vec<FileReport<'a>>,
    conflicts: Vec<ConflictReport<'a>>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct FileReport<'a> {
    path: &'a str,
    action: &'static str,
}

#[derive(Serialize)]
struct ConflictReport<'a> {
    path: &'a str,
    kind: &'static str,
    message: String,
}

/// One skill of a status: its state, the command that resolves it, and
/// how the copy differs from what is embedded.
#[derive(Serialize)]
struct SkillState<'a> {
    name: &'a str,
    state: &'static str,
    embedded: bool,
    command: Option<String>,
    differences: Vec<DifferenceReport<'a>>,
}

#[derive(Serialize)]
struct DifferenceReport<'a> {
    path: &'a str,
    kind: &'static str,
    message: &'a str,
}

/// An error alone.
#[derive(Serialize)]
struct ErrorReport<'a> {
    action: &'a str,
    error: String,
}

/// The skills a tool carries.
#[derive(Serialize)]
pub(crate) struct ListReport<'a> {
    pub tool: &'a str,
    pub bundle_revision: String,
    pub skills: Vec<ListedSkill<'a>>,
}

/// One skill a tool carries.
#[derive(Serialize)]
pub(crate) struct ListedSkill<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub revision: String,
    pub files: usize,
}

/// `value` as indented JSON, ending with a newline.
pub(crate) fn document(value: &impl Serialize) -> String {
    // The report types hold only strings, numbers, booleans and lists.
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

fn problems(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(Problem::to_string).collect()
}

fn skill(skill: &SkillPlan) -> SkillReport<'_> {
    SkillReport {
        name: &skill.name,
        state: skill.state.key(),
        change: skill.change.key(),
        files: skill
            .files
            .iter()
            .map(|file| FileReport {
                path: &file.path,
                action: file.action.key(),
            })
            .collect(),
        conflicts: skill
            .conflicts
            .iter()
            .map(|conflict| ConflictReport {
                path: &conflict.path,
                kind: conflict.kind.key(),
                message: conflict.to_string(),
            })
            .collect(),
        notes: &skill.notes,
    }
}

/// A plan (after its apply, or not) as one JSON document.
pub(crate) fn plan(
    plan: &Plan,
    dry_run: bool,
    applied: bool,
    error: Option<&InstallError>,
) -> String {
    document(&PlanReport {
        action: match plan.operation {
            Operation::Install => "install",
            Operation::Uninstall => "uninstall",
        },
        scope: plan.scope.as_str(),
        base: plan.base.display().to_string(),
        dry_run,
        applied,
        error: error.map(InstallError::to_string),
        claims: plan.claims,
        directories: plan
            .dirs
            .iter()
            .map(|dir| {
                let skills = dir.skills.iter().map(skill).collect();
                Folder::new(&dir.shown, &dir.agents, dir.link, skills)
            })
            .collect(),
        problems: problems(&plan.problems),
    })
}

/// A status as one JSON document.
pub(crate) fn status(installer: &Installer<'_>, status: &Status) -> String {
    document(&StatusReport {
        action: "status",
        scope: status.scope.as_str(),
        base: status.base.display().to_string(),
        up_to_date: status.all_up_to_date(),
        in_sync: status.in_sync(),
        claims: status.claims,
        directories: status
            .dirs
            .iter()
            .map(|dir| {
                let skills = dir
                    .skills
                    .iter()
                    .map(|skill| SkillState {
                        name: &skill.name,
                        state: skill.state.key(),
                        embedded: skill.embedded,
                        command: remedy(installer, status, skill).map(|remedy| remedy.command),
                        differences: skill
                            .differences
                            .iter()
                            .map(|difference| DifferenceReport {
                                path: &difference.path,
                                kind: difference.kind.key(),
                                message: &difference.message,
                            })
                            .collect(),
                    })
                    .collect();
                Folder::new(&dir.shown, &dir.agents, dir.link, skills)
            })
            .collect(),
        problems: problems(&status.problems),
    })
}

/// An error alone as one JSON document.
pub(crate) fn error(action: &str, error: &InstallError) -> String {
    document(&ErrorReport {
        action,
        error: error.to_string(),
    })
}
