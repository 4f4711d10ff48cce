//! The planner between its stages: what it works from (the skills, the
//! tool, the environment), the record it read, and the problems found so
//! far. Each stage is a method, in a module of its own.

use std::path::PathBuf;

use super::model::Operation;
use crate::env::Environment;
use crate::error::Problem;
use crate::payload::Payload;
use crate::record::Record;
use crate::target::Target;

/// What the planner works from.
#[derive(Debug)]
pub(crate) struct Context<'a, 'c> {
    pub payloads: &'a [Payload<'c>],
    pub tool: &'a str,
    pub env: &'a Environment,
}

/// The planner between its stages: what it works from, the record it
/// read, and the problems found so far.
pub(super) struct Planner<'p, 'a, 'c> {
    pub ctx: &'p Context<'a, 'c>,
    pub target: &'p Target,
    pub operation: Operation,
    /// The scope's base, links followed.
    pub base: PathBuf,
    pub record: Record,
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
