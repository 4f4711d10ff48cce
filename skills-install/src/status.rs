//! `status`: per agent folder and skill, whether it is up to date,
//! outdated, modified by the user, missing, or not installed by this tool,
//! and how the installed copy differs from what is embedded, file by file
//! (what `status --check` fails on). The same reading of the disk as an
//! install's plan, shown instead of acted on.

use std::fmt;
use std::path::PathBuf;

use crate::agents::Agent;
use crate::error::Problem;
use crate::names::shown;
use crate::plan::{
    Change, ConflictKind, FileAction, FileChange, Plan, SkillPlan, State, all_up_to_date,
};
use crate::scope::Scope;
use crate::target::{Agents, Target};

/// The state of every selected skill in every selected folder.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Status {
    /// The scope.
    pub scope: Scope,
    /// The scope's base.
    pub base: PathBuf,
    /// Every folder.
    pub dirs: Vec<DirStatus>,
    /// What could not be read, or is in the way of every install.
    pub problems: Vec<Problem>,
    /// The options that chose these folders, as a command line gives them
    /// (`--scope user`, `--agent cursor`, `--project-dir DIR`): what the
    /// commands a status names repeat.
    pub flags: Vec<String>,
    /// Whether the record lists entries this tool did not write here (a
    /// record committed to the repository, say): the states are what that
    /// claim says ([`Plan::claims`]).
    pub claims: bool,
    /// Where the record is.
    pub record: PathBuf,
}

/// One agent folder's skills.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DirStatus {
    /// The folder, links followed.
    pub path: PathBuf,
    /// As shown (relative to the base when inside it).
    pub shown: String,
    /// The agents that read it.
    pub agents: Vec<&'static Agent>,
    /// Whether skills are links to the shared copy here.
    pub link: bool,
    /// Each skill.
    pub skills: Vec<SkillStatus>,
}

/// One skill in one agent folder.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillStatus {
    /// Its folder name.
    pub name: String,
    /// Its state.
    pub state: State,
    /// Whether the skill is embedded (else it was installed by an earlier
    /// version, and an install of every skill removes it).
    pub embedded: bool,
    /// How the copy differs from what is embedded, file by file; none
    /// when it holds exactly the embedded files, and nothing else.
    pub differences: Vec<Difference>,
}

/// One way an installed copy differs from what is embedded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Difference {
    /// The `/`-separated path inside the skill's folder (`""` for the
    /// skill as a whole).
    pub path: String,
    /// What kind of difference.
    pub kind: DifferenceKind,
    /// Why, in words.
    pub message: String,
}

/// What kind of difference, each with its own remedy.
///
/// ```
/// use skills_install::DifferenceKind;
/// assert_eq!(DifferenceKind::Stale.key(), "stale");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DifferenceKind {
    /// A file this tool wrote, from an earlier version (or the skill, no
    /// longer embedded): an install updates (or removes) it.
    Stale,
    /// A file this tool wrote, changed since: an install replaces it only
    /// with `force`.
    Edited,
    /// The skill, or a file of it, is not there: an install writes it.
    Missing,
    /// A file that is not part of the skill (the user's own): an install
    /// keeps it; remove it by hand.
    Extra,
    /// Something this tool did not write stands where the skill (or a file
    /// of it) goes, and differs: an install replaces it only with `force`.
    Foreign,
}

impl DifferenceKind {
    /// The kind's key in JSON output: `stale`, `edited`, `missing`,
    /// `extra`, `foreign`.
    pub fn key(self) -> &'static str {
        match self {
            DifferenceKind::Stale => "stale",
            DifferenceKind::Edited => "edited",
            DifferenceKind::Missing => "missing",
            DifferenceKind::Extra => "extra",
            DifferenceKind::Foreign => "foreign",
        }
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Status {
    /// Whether every selected skill is installed and up to date (what
    /// `status`'s exit code 0 says).
    ///
    /// ```
    /// # use skills_install::{Scope, Status};
    /// # fn check(status: &Status) {
    /// if !status.all_up_to_date() {
    ///     eprintln!("run `mytool skill install`");
    /// }
    /// # }
    /// ```
    pub fn all_up_to_date(&self) -> bool {
        let states = self.dirs.iter().flat_map(|dir| &dir.skills);
        all_up_to_date(&self.problems, states.map(|skill| &skill.state))
    }

    /// Whether every installed copy holds exactly what is embedded, and
    /// nothing else, in every selected folder: no skill stale, edited,
    /// missing, holding an extra file, or something else in its place;
    /// and no problem (what `status --check`'s exit code 0 says). A copy
    /// this tool did not install that holds exactly what is embedded is
    /// the same.
    pub fn in_sync(&self) -> bool {
        self.problems.is_empty() && self.differences().next().is_none()
    }

    /// Every difference, with its folder and skill.
    pub fn differences(&self) -> impl Iterator<Item = (&DirStatus, &SkillStatus, &Difference)> {
        self.dirs.iter().flat_map(|dir| {
            dir.skills.iter().flat_map(move |skill| {
                skill
                    .differences
                    .iter()
                    .map(move |difference| (dir, skill, difference))
            })
        })
    }

    /// The state of skill `name` in the folder shown as `dir`.
    pub fn state(&self, dir: &str, name: &str) -> Option<State> {
        self.dirs
            .iter()
            .find(|d| d.shown == dir)?
            .skills
            .iter()
            .find(|skill| skill.name == name)
            .map(|skill| skill.state)
    }
}

impl From<Plan> for Status {
    fn from(plan: Plan) -> Self {
        Status {
            scope: plan.scope,
            base: plan.base,
            flags: flags(&plan.target),
            claims: plan.claims,
            record: plan.record_path,
            dirs: plan
                .dirs
                .into_iter()
                .map(|dir| DirStatus {
                    path: dir.path,
                    shown: dir.shown,
                    agents: dir.agents,
                    link: dir.link,
                    skills: dir
                        .skills
                        .iter()
                        .map(|skill| SkillStatus {
                            differences: differences(skill),
                            name: skill.name.clone(),
                            state: skill.state,
                            embedded: skill.work.payload.is_some(),
                        })
                        .collect(),
                })
                .collect(),
            problems: plan.problems,
        }
    }
}

/// The command-line options that chose `target`'s folders.
fn flags(target: &Target) -> Vec<String> {
    let mut flags = Vec::new();
    match &target.agents {
        Agents::Default => {}
        Agents::All => flags.extend(["--agent".to_string(), "all".to_string()]),
        Agents::Only(agents) => {
            let ids: Vec<&str> = agents.iter().map(|agent| agent.id).collect();
            flags.extend(["--agent".to_string(), ids.join(",")]);
        }
    }
    if target.scope == Scope::User {
        flags.extend(["--scope".to_string(), "user".to_string()]);
    }
    let dir_flag = match target.scope {
        Scope::Folder => "--into",
        Scope::Project | Scope::User => "--project-dir",
    };
    if let Some(dir) = &target.project_dir {
        flags.extend([dir_flag.to_string(), dir.display().to_string()]);
    }
    flags
}

/// How a skill's copy differs from what is embedded, read off its plan.
fn differences(skill: &SkillPlan) -> Vec<Difference> {
    if let Some(whole) = whole_difference(skill) {
        return whole;
    }
    let mut out: Vec<Difference> = skill
        .files
        .iter()
        .filter_map(|file| file_difference(skill, file))
        .collect();
    // What stands in the way that is not a file of the skill.
    for conflict in &skill.conflicts {
        if !skill.files.iter().any(|file| file.path == conflict.path) {
            out.push(Difference {
                path: conflict.path.clone(),
                kind: DifferenceKind::Foreign,
                message: conflict.to_string(),
            });
        }
    }
    for other in &skill.others {
        out.push(Difference {
            path: other.clone(),
            kind: DifferenceKind::Extra,
            message: format!(
                "{} is not part of the skill (install keeps it: remove it by hand)",
                shown(other)
            ),
        });
    }
    out
}

/// The differences of a skill judged as a whole, not file by file: one
/// no longer embedded, missing, something else in its place, or a copy
/// where a link goes (none when up to date). `None` when it is read file
/// by file.
fn whole_difference(skill: &SkillPlan) -> Option<Vec<Difference>> {
    let whole = |kind, message: &str| {
        vec![Difference {
            path: String::new(),
            kind,
            message: message.to_string(),
        }]
    };
    let by_state = |state| match state {
        State::Modified => DifferenceKind::Edited,
        State::NotOurs => DifferenceKind::Foreign,
        State::Missing => DifferenceKind::Missing,
        _ => DifferenceKind::Stale,
    };
    if skill.work.payload.is_none() {
        return Some(match skill.state {
            State::Missing => Vec::new(),
            state => whole(
                by_state(state),
                "installed by an earlier version, which this one no longer carries",
            ),
        });
    }
    if skill.state == State::Missing {
        return Some(whole(DifferenceKind::Missing, "not installed here"));
    }
    if let Some(conflict) = skill.conflicts.iter().find(|c| c.path.is_empty()) {
        // Something else in the skill's place.
        return Some(whole(DifferenceKind::Foreign, &conflict.to_string()));
    }
    if skill.change == Change::Link {
        // A copy where the link to the shared copy goes.
        return Some(match skill.state {
            State::UpToDate => Vec::new(),
            state => whole(
                by_state(state),
                "a copy where a link to the shared copy goes, and not the same",
            ),
        });
    }
    None
}

/// How the file `file` of the skill's plan differs, if it does (a file
/// not written by this tool that holds the same bytes does not).
fn file_difference(skill: &SkillPlan, file: &FileChange) -> Option<Difference> {
    let conflict = skill.conflicts.iter().find(|c| c.path == file.path);
    if conflict.is_some_and(|c| c.kind == ConflictKind::NotOurs) && skill.same.contains(&file.path)
    {
        // Not written by this tool, but the same bytes.
        return None;
    }
    let (kind, message) = match (file.action, conflict.map(|c| &c.kind)) {
        (FileAction::Add, _) => (DifferenceKind::Missing, "is missing"),
        (FileAction::Replace, None) => (DifferenceKind::Stale, "is from an earlier version"),
        (FileAction::Remove, None) => (
            DifferenceKind::Stale,
            "is from an earlier version, and no longer part of the skill",
        ),
        (_, Some(ConflictKind::Claimed)) => (DifferenceKind::Edited, ""),
        (_, Some(ConflictKind::Changed)) => {
            (DifferenceKind::Edited, "was changed since it was installed")
        }
        (_, Some(ConflictKind::NotOurs)) => (
            DifferenceKind::Foreign,
            "was not written by this tool, and differs",
        ),
        (_, Some(_)) => (DifferenceKind::Foreign, ""),
    };
    // An empty message: the conflict says it.
    let message = match (message.is_empty(), conflict) {
        (true, Some(conflict)) => conflict.to_string(),
        _ => format!("{} {message}", shown(&file.path)),
    };
    Some(Difference {
        path: file.path.clone(),
        kind,
        message,
    })
}
