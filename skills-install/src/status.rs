//! `status`: per agent folder and skill, whether it is up to date,
//! outdated, modified by the user, missing, or not installed by this tool.
//! The same reading of the disk as an install's plan, shown instead of
//! acted on.

use std::path::PathBuf;

use super::agents::Agent;
use super::error::Problem;
use super::plan::{Plan, State, all_up_to_date};
use super::target::Scope;

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
    /// Each skill's folder name and state.
    pub skills: Vec<(String, State)>,
}

impl Status {
    /// Whether every selected skill is installed and up to date (what
    /// `status`'s exit code 0 says).
    ///
    /// ```
    /// # use skills_runtime::install::{Scope, Status};
    /// # fn check(status: &Status) {
    /// if !status.all_up_to_date() {
    ///     eprintln!("run `mytool skill install`");
    /// }
    /// # }
    /// ```
    pub fn all_up_to_date(&self) -> bool {
        let states = self.dirs.iter().flat_map(|dir| &dir.skills);
        all_up_to_date(&self.problems, states.map(|(_, state)| state))
    }

    /// The state of skill `name` in the folder shown as `dir`.
    pub fn state(&self, dir: &str, name: &str) -> Option<State> {
        self.dirs
            .iter()
            .find(|d| d.shown == dir)?
            .skills
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, state)| *state)
    }
}

impl From<Plan> for Status {
    fn from(plan: Plan) -> Self {
        Status {
            scope: plan.scope,
            base: plan.base,
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
                        .into_iter()
                        .map(|skill| (skill.name, skill.state))
                        .collect(),
                })
                .collect(),
            problems: plan.problems,
        }
    }
}
