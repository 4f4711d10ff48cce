//! Each skill in each folder: the selected skills, and the recorded ones
//! the plan removes, read from disk and judged ([`Judge`]); a link to the
//! shared copy is as up to date as the copy.

use std::collections::BTreeMap;
use std::path::Path;

use super::judge::Judge;
use super::model::{DirPlan, Operation};
use super::planner::Planner;
use super::select::Selection;
use super::verdicts::{Change, State};
use crate::error::Problem;
use crate::target::relative_path;
use crate::tree;

impl Planner<'_, '_, '_> {
    /// Fills every folder's skills (the shared copy's first, as the layout
    /// ordered them).
    pub(super) fn judge(
        &mut self,
        dirs: &mut [DirPlan],
        selection: &Selection,
        store: Option<&Path>,
    ) {
        let payloads = self.ctx.payloads;
        let mut store_states: BTreeMap<String, State> = BTreeMap::new();
        for dir in dirs.iter_mut() {
            let recorded = self.record.dirs.get(&dir.shown);
            let mut names: Vec<(&str, Option<usize>)> = selection
                .selected
                .iter()
                .map(|&at| (payloads[at].folder, Some(at)))
                .collect();
            for name in recorded.into_iter().flat_map(|dir| dir.skills.keys()) {
                if self.removes(selection, name) {
                    names.push((name, None));
                }
            }
            let mut problems = Vec::new();
            for (name, payload) in names {
                let folder = dir.path.join(name);
                let judge = Judge {
                    folder: &folder,
                    payload: payload.map(|at| (at, &payloads[at])),
                    recorded: recorded.and_then(|dir| dir.skills.get(name)),
                    ours_link: store.map(|store| relative_path(&dir.path, &store.join(name))),
                    store: store.map(|store| store.join(name)),
                };
                let op = match payload {
                    None => Operation::Uninstall,
                    Some(_) => self.operation,
                };
                let judged =
                    tree::entry(&folder).and_then(|entry| judge.plan(&entry, op, dir.link));
                let mut skill = match judged {
                    Ok(skill) => skill,
                    Err(error) => {
                        problems.push(Problem::Unreadable {
                            path: folder.clone(),
                            error: error.to_string(),
                        });
                        continue;
                    }
                };
                skill.name = name.to_string();
                if Some(dir.path.as_path()) == store {
                    store_states.insert(skill.name.clone(), skill.state);
                } else if dir.link
                    && skill.change == Change::Keep
                    && let Some(state) = store_states.get(&skill.name)
                {
                    // An up-to-date link is as up to date as what it points at.
                    skill.state = *state;
                }
                dir.skills.push(skill);
            }
            self.problems.extend(problems);
        }
    }
}
