//! The plan itself: what it is for, and per agent folder and skill what
//! is there, what an apply does, and what it records afterwards.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::agents::Agent;
use crate::error::Problem;
use crate::owned::Owned;
use crate::plan::verdicts::{Change, Conflict, FileChange, State, all_up_to_date};
use crate::record::{Record, RecordSkill};
use crate::scope::Scope;
use crate::target::Target;

/// What a plan is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Write the embedded skills (and remove the ones a new version no
    /// longer has).
    Install,
    /// Remove what was installed.
    Uninstall,
}

/// One skill in one folder: its state, its change, its conflicts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillPlan {
    /// The folder name (the skill's name without a qualifier).
    pub name: String,
    /// What is there now.
    pub state: State,
    /// What an apply does.
    pub change: Change,
    /// The files added, replaced or removed.
    pub files: Vec<FileChange>,
    /// What is in the way (overwritten only with `force`).
    pub conflicts: Vec<Conflict>,
    /// What kept the skill as it is, when the plan keeps what cannot be
    /// updated ([`Target::keep_conflicts`](crate::Target::keep_conflicts))
    /// or refreshes: the conflicts it was not written over.
    pub kept: Vec<Conflict>,
    /// The files in the skill's folder that neither the embedded skill nor
    /// the record lists: the user's own, which an install carries over
    /// and `status --check` counts as differences.
    pub others: Vec<String>,
    /// The files found holding exactly the embedded bytes (whoever wrote
    /// them).
    pub(crate) same: Vec<String>,
    /// Remarks on what it is written for, each naming an agent that reads
    /// this folder (see [`Installer::note`](crate::Installer::note)).
    pub notes: Vec<String>,
    pub(crate) work: Work,
}

/// What an apply builds for a skill, and records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Work {
    /// The embedded skill (index into the payloads), if any.
    pub payload: Option<usize>,
    /// What goes in the skill's place.
    pub outcome: Outcome,
    /// The record's entry afterwards (`None`: none).
    pub after: Option<RecordSkill>,
    /// Whether the record lists it and an uninstall forgets it (its entry
    /// goes) though nothing of it is there to remove.
    pub forgets: bool,
    /// Whether the record keeps its entry as it is (a claim an uninstall
    /// found nothing of to remove): `after` is then not used.
    pub keeps: bool,
    /// Whether the skill is taken into the record as it is (a plain
    /// folder's copy that holds exactly what is embedded).
    pub adopted: bool,
}

/// What goes in a skill's place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing changes.
    Same,
    /// A folder with the payload's files (if `write`) and these entries
    /// of the present folder carried over.
    Folder { write: bool, carry: Vec<PathBuf> },
    /// A link with this target (the payload's files as a copy where links
    /// cannot be made).
    Link(PathBuf),
    /// Nothing at all.
    Gone,
}

/// One agent folder (shared by every agent listed) and its skills.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DirPlan {
    /// The folder, links on the way followed.
    pub path: PathBuf,
    /// How it is shown and recorded: relative to the scope's base when
    /// inside it.
    pub shown: String,
    /// The agents that read it (none for the shared copy of `--link` in
    /// the user scope, which only links point to).
    pub agents: Vec<&'static Agent>,
    /// Whether skills go here as links to the shared copy.
    pub link: bool,
    /// The skills.
    pub skills: Vec<SkillPlan>,
    /// The folders to create, outermost first.
    pub(crate) missing: Vec<PathBuf>,
}

/// What an install or uninstall would do, worked out before anything is
/// written: [`Installer::plan`](crate::Installer::plan) makes one,
/// [`Installer::apply`](crate::Installer::apply) carries it out.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Plan {
    /// Install or uninstall.
    pub operation: Operation,
    /// The scope.
    pub scope: Scope,
    /// The scope's base (the project root or the home directory), links
    /// followed.
    pub base: PathBuf,
    /// Where the record is.
    pub record_path: PathBuf,
    /// Every folder, with its skills.
    pub dirs: Vec<DirPlan>,
    /// What stops the plan, whatever `force` says.
    pub problems: Vec<Problem>,
    /// Whether conflicts are overwritten.
    pub force: bool,
    /// Whether a stopped run of this tool left changes half done in this
    /// scope: the plan shows them as they are, and an apply first
    /// finishes or undoes them, then works from the folders as they are
    /// then (refusing if they hold a conflict and `force` is not given).
    pub unfinished: bool,
    /// Whether the record lists entries this tool did not write here (a
    /// record committed to the repository, copied from another machine,
    /// or written by hand): each is a claim, not proof. Status believes
    /// it; an update replaces or removes a file it names only when the file
    /// holds what it says; nothing else it names is removed without
    /// `force` ([`ConflictKind::Claimed`](crate::ConflictKind::Claimed)).
    pub claims: bool,
    pub(crate) target: Target,
    pub(crate) record: Record,
    /// What of the record this tool wrote.
    pub(crate) owned: Owned,
}

impl Plan {
    /// Every conflict, with its folder and skill.
    pub fn conflicts(&self) -> impl Iterator<Item = (&DirPlan, &SkillPlan, &Conflict)> {
        self.dirs.iter().flat_map(|dir| {
            dir.skills
                .iter()
                .flat_map(move |skill| skill.conflicts.iter().map(move |c| (dir, skill, c)))
        })
    }

    /// Whether an apply would write or remove anything.
    pub fn changes(&self) -> bool {
        self.dirs
            .iter()
            .flat_map(|dir| &dir.skills)
            .any(|skill| skill.change.writes())
    }

    /// Whether [`apply`](crate::Installer::apply) would carry it out: no
    /// problem, and no conflict unless forced (or left by a stopped run).
    pub fn is_ready(&self) -> bool {
        self.problems.is_empty()
            && (self.force || self.unfinished || self.conflicts().next().is_none())
    }

    /// Whether every skill of every folder is up to date.
    pub fn all_up_to_date(&self) -> bool {
        let states = self.dirs.iter().flat_map(|dir| &dir.skills);
        all_up_to_date(&self.problems, states.map(|skill| &skill.state))
    }

    pub(crate) fn conflict_set(&self) -> BTreeSet<(PathBuf, String, Conflict)> {
        self.conflicts()
            .map(|(dir, skill, c)| (dir.path.clone(), skill.name.clone(), c.clone()))
            .collect()
    }
}
