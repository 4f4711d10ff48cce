//! Copies or links: which folders hold links to the shared copy in
//! `.agents/skills` (with `--link`, or as the record says they did), and
//! the shared copy itself, planned first so links can say what they point
//! at.

use std::path::PathBuf;

use crate::agents::SHARED_DIR;
use crate::plan::model::{DirPlan, Operation};
use crate::plan::planner::Planner;
use crate::target::{Layout, resolve};

impl Planner<'_, '_, '_> {
    /// Marks the folders that hold links and adds the shared copy when an
    /// install links to it; returns the shared copy's folder (links
    /// followed), if it can be resolved.
    pub(super) fn layout(&mut self, dirs: &mut Vec<DirPlan>) -> Option<PathBuf> {
        let store_path = self.base.join(SHARED_DIR);
        let Ok(store) = resolve(&store_path).map(|resolved| resolved.real) else {
            dirs.sort_by_key(|dir| dir.shown.clone());
            return None;
        };
        let mut any_link = false;
        for dir in dirs.iter_mut() {
            dir.link = dir.path != store
                && match self.target.layout {
                    Layout::Link => self.operation == Operation::Install,
                    Layout::Copy => false,
                    Layout::AsRecorded => self.record.dirs.get(&dir.shown).is_some_and(|entry| {
                        entry.skills.values().any(|skill| skill.link.is_some())
                    }),
                };
            any_link |= dir.link;
        }
        if any_link
            && let Some(resolved) = self.agent_folder(&store_path)
            && self.operation == Operation::Install
        {
            self.add_dir(dirs, resolved, &[]);
        }
        dirs.sort_by_key(|dir| (dir.path != store, dir.shown.clone()));
        Some(store)
    }
}
