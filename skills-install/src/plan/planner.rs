//! The planner between its stages: what it works from (the skills, the
//! tool, the environment, the scope's state folder), the record it read,
//! the folders it opened, and the problems found so far. Each stage is a
//! method, in a module of its own.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;

use crate::dir::Dir;
use crate::env::Environment;
use crate::error::Problem;
use crate::owned::Owned;
use crate::payload::Payload;
use crate::plan::model::Operation;
use crate::record::Record;
use crate::state::StateDir;
use crate::target::Target;

/// Where an agent's folder is: the deepest folder on its way that exists
/// (the agent's folder itself when it exists), open, and the folders below
/// it still to make.
#[derive(Debug)]
pub(crate) struct Anchor {
    pub dir: Dir,
    pub missing: Vec<OsString>,
}

impl Anchor {
    /// The agent's folder, when it exists.
    pub fn folder(&self) -> Option<&Dir> {
        self.missing.is_empty().then_some(&self.dir)
    }
}

/// What the planner works from.
#[derive(Debug)]
pub(crate) struct Context<'a, 'c> {
    pub payloads: &'a [Payload<'c>],
    pub tool: &'a str,
    pub env: &'a Environment,
    /// The scope's state folder, if there is one.
    pub state: Option<&'a StateDir>,
}

/// The planner between its stages: what it works from, the record it
/// read, the folders it opened, and the problems found so far.
pub(super) struct Planner<'p, 'a, 'c> {
    pub ctx: &'p Context<'a, 'c>,
    pub target: &'p Target,
    pub operation: Operation,
    /// The scope's base, links followed.
    pub base: PathBuf,
    /// The same, open.
    pub base_dir: Dir,
    pub record: Record,
    /// What of the record this tool wrote (the rest is a claim).
    pub owned: Owned,
    /// Each agent folder's place, open, by its real path.
    pub anchors: BTreeMap<PathBuf, Anchor>,
    pub problems: Vec<Problem>,
}

impl Planner<'_, '_, '_> {
    /// Notes a problem once.
    pub(super) fn problem(&mut self, problem: Problem) {
        if !self.problems.contains(&problem) {
            self.problems.push(problem);
        }
    }
}
