//! Which skills a plan is about: the ones named, or all; each folder name
//! once; and which skills the record lists that the plan removes.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{InstallError, Problem};
use crate::names::{is_safe_folder, is_safe_path};
use crate::plan::model::Operation;
use crate::plan::planner::Planner;

/// The skills chosen.
pub(super) struct Selection {
    /// The embedded skills, by index among the payloads.
    pub selected: Vec<usize>,
    /// Their folder names, lowercased (compared as a file system that
    /// does not tell case apart compares them).
    folders: BTreeSet<String>,
    /// Whether every skill was asked for (none named).
    every: bool,
}

impl Planner<'_, '_, '_> {
    /// Chooses the skills: every one named must be embedded (or, for an
    /// uninstall, recorded); a skill whose name is no plain folder name,
    /// or that shares its folder with another, is a problem.
    pub(super) fn select(&mut self) -> Result<Selection, InstallError> {
        let payloads = self.ctx.payloads;
        let target = self.target;
        let recorded: BTreeSet<&str> = self
            .record
            .dirs
            .values()
            .flat_map(|dir| dir.skills.keys().map(String::as_str))
            .collect();
        for name in &target.skills {
            let embedded = payloads.iter().any(|p| p.listed == name);
            let uninstalled =
                self.operation == Operation::Uninstall && recorded.contains(name.as_str());
            if !embedded && !uninstalled {
                return Err(InstallError::UnknownSkill {
                    name: name.clone(),
                    known: payloads.iter().map(|p| p.listed.to_string()).collect(),
                });
            }
        }
        let every = target.skills.is_empty();
        let mut selected = Vec::new();
        let mut folders: BTreeMap<&str, &str> = BTreeMap::new();
        for (at, payload) in payloads.iter().enumerate() {
            if !every && !target.skills.iter().any(|name| name == payload.listed) {
                continue;
            }
            if !is_safe_folder(payload.folder) {
                self.problem(Problem::UnsafeName {
                    name: payload.listed.to_string(),
                });
                continue;
            }
            if let Some(file) = payload.files.iter().find(|file| !is_safe_path(file.path)) {
                self.problem(Problem::UnsafeFile {
                    skill: payload.listed.to_string(),
                    path: file.path.to_string(),
                });
                continue;
            }
            if let Some(first) = folders.insert(payload.folder, payload.listed) {
                self.problem(Problem::NameClash {
                    folder: payload.folder.to_string(),
                    skills: [first.to_string(), payload.listed.to_string()],
                });
                continue;
            }
            selected.push(at);
        }
        Ok(Selection {
            selected,
            folders: folders.keys().map(|name| name.to_lowercase()).collect(),
            every,
        })
    }

    /// Whether the plan removes recorded skill `name` (one that is not a
    /// selected payload): an uninstall of everything, or of it by name;
    /// an install of everything (a new version that no longer has it).
    /// A recorded name that differs from a selected one only by case is
    /// never removed: where case is not told apart it is that skill's
    /// folder.
    pub(super) fn removes(&self, selection: &Selection, name: &str) -> bool {
        !selection.folders.contains(&name.to_lowercase())
            && match self.operation {
                Operation::Install => selection.every,
                Operation::Uninstall => {
                    selection.every || self.target.skills.iter().any(|n| n == name)
                }
            }
    }
}
