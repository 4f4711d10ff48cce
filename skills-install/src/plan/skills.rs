//! Each skill in each folder: the selected skills, and the recorded ones
//! the plan removes, read from disk and judged ([`Judge`]); a link to the
//! shared copy is as up to date as the copy. A refresh judges only the
//! recorded skills whose revision is not the embedded one, and leaves
//! every one a user changed as it is.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use crate::error::Problem;
use crate::plan::judge::Judge;
use crate::plan::model::{DirPlan, Operation, Outcome, SkillPlan};
use crate::plan::planner::{Anchor, Planner};
use crate::plan::select::Selection;
use crate::plan::verdicts::{Change, State};
use crate::record::stale;
use crate::scope::Scope;
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
        let mut store_states: BTreeMap<String, State> = BTreeMap::new();
        for dir in dirs.iter_mut() {
            let mut problems = Vec::new();
            for (name, payload) in self.names(dir, selection) {
                let mut skill = match self.judge_skill(dir, name, payload, store) {
                    Ok(skill) => skill,
                    Err(error) => {
                        problems.push(Problem::Unreadable {
                            path: dir.path.join(name),
                            error: error.to_string(),
                        });
                        continue;
                    }
                };
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

    /// The skills to judge in `dir`, each with its payload (none for one
    /// only recorded): the selected ones and the recorded ones the plan
    /// removes, or for a refresh the recorded ones not at the embedded
    /// revision.
    fn names<'s>(&'s self, dir: &DirPlan, selection: &Selection) -> Vec<(&'s str, Option<usize>)> {
        let payloads = self.ctx.payloads;
        let recorded = self.record.dirs.get(&dir.shown);
        match self.target.refresh {
            false => {
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
                names
            }
            true => {
                let skills = recorded.into_iter().flat_map(|dir| &dir.skills);
                stale(
                    skills.map(|(name, was)| (name, was.revision.as_str())),
                    |name| {
                        let mut selected = selection.selected.iter().copied();
                        let at = selected.find(|&at| payloads[at].folder == name)?;
                        Some((at, payloads[at].revision))
                    },
                )
            }
        }
    }

    /// Reads skill `name` in `dir` (embedded as the payload `payload`, or
    /// only recorded) and judges what the plan does with it; one the plan
    /// holds is left as it is.
    fn judge_skill(
        &self,
        dir: &DirPlan,
        name: &str,
        payload: Option<usize>,
        store: Option<&Path>,
    ) -> io::Result<SkillPlan> {
        let payloads = self.ctx.payloads;
        let folder = dir.path.join(name);
        let recorded = self.record.dirs.get(&dir.shown);
        let was = recorded.and_then(|dir| dir.skills.get(name));
        let judge = Judge {
            folder: &folder,
            payload: payload.map(|at| (at, &payloads[at])),
            recorded: was,
            claimed: was.is_some_and(|was| !self.owned.owns(&dir.shown, name, was)),
            ours_link: store.map(|store| relative_path(&dir.path, &store.join(name))),
            store: store.map(|store| store.join(name)),
            adopt: self.target.scope == Scope::Folder,
        };
        let op = match payload {
            None => Operation::Uninstall,
            Some(_) => self.operation,
        };
        let opened = self.anchors.get(&dir.path).and_then(Anchor::folder);
        let mut skill =
            tree::entry(opened, name).and_then(|entry| judge.plan(&entry, op, dir.link))?;
        skill.name = name.to_string();
        if holds(self.target, &skill) {
            // A refresh (or a run that keeps what cannot be
            // updated) updates only what no one changed.
            skill.change = Change::Leave;
            skill.files.clear();
            skill.kept = std::mem::take(&mut skill.conflicts);
            skill.work.outcome = Outcome::Same;
            skill.work.after = was.cloned();
        }
        Ok(skill)
    }
}

/// Whether the plan leaves a skill as it is: a refresh what it holds back,
/// a plan that keeps what cannot be updated (without `force`) a skill with
/// a conflict.
fn holds(target: &crate::target::Target, skill: &SkillPlan) -> bool {
    (target.refresh && held_back(skill))
        || (target.keep_conflicts && !target.force && !skill.conflicts.is_empty())
}

/// Whether a refresh leaves a skill as it is: a user changed it (edited,
/// deleted a file of it, or put something else in its place), or removed
/// a skill that is still embedded; or anything stands in the way.
fn held_back(skill: &SkillPlan) -> bool {
    !skill.conflicts.is_empty()
        || matches!(skill.state, State::Modified | State::NotOurs)
        || (skill.state == State::Missing && skill.work.payload.is_some())
}
