//! An uninstall never removes the shared copy of a skill while a link
//! that stays (in a folder the uninstall does not cover) points at it.

use std::collections::BTreeSet;
use std::path::Path;

use crate::error::Problem;
use crate::plan::model::{DirPlan, Operation};
use crate::plan::planner::Planner;
use crate::plan::verdicts::Change;
use crate::target::shown;

impl Planner<'_, '_, '_> {
    /// Notes a problem for every recorded link outside the planned folders
    /// whose shared copy the uninstall removes.
    pub(super) fn keep_linked(&mut self, dirs: &[DirPlan], store: Option<&Path>) {
        let Some(store) = store.filter(|_| self.operation == Operation::Uninstall) else {
            return;
        };
        let store_key = shown(&self.base, store);
        let removed: BTreeSet<&str> = dirs
            .iter()
            .filter(|dir| dir.path == store)
            .flat_map(|dir| &dir.skills)
            .filter(|skill| skill.change == Change::Remove)
            .map(|skill| skill.name.as_str())
            .collect();
        let planned: BTreeSet<&str> = dirs.iter().map(|dir| dir.shown.as_str()).collect();
        let mut problems = Vec::new();
        for (key, dir) in &self.record.dirs {
            if planned.contains(key.as_str()) || *key == store_key {
                continue;
            }
            for (name, skill) in &dir.skills {
                if skill.link.is_some() && removed.contains(name.as_str()) {
                    problems.push(Problem::StillLinked {
                        path: store.join(name),
                        link: self.base.join(key).join(name),
                    });
                }
            }
        }
        problems
            .into_iter()
            .for_each(|problem| self.problem(problem));
    }
}
