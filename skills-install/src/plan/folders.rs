//! Which agent folders a plan is about, and whether it may write there:
//! the agents asked for (or the default ones) and every folder the record
//! names that is an agent's folder of the scope, each resolved with the
//! links on the way followed and agents that share a folder merged. Each
//! must be an agent's own folder: in the project scope it must resolve to
//! one of the agents' folder paths (so a committed `.claude/skills ->
//! ../.git` or `-> ..` is refused) and never lead out of the project; in
//! any scope it is never the scope's base, a folder above it, or inside a
//! `.git`. A folder's `.skills-staging` must be a folder; and none may be,
//! hold or lie inside a folder the skills are read from. Each accepted
//! folder is opened (the deepest part of it that exists), no link
//! followed, for the rest of the plan and the apply to work relative to.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::agents::{AGENTS, Agent, SHARED_DIR};
use crate::dir::{Dir, Kind};
use crate::env::Environment;
use crate::error::{InstallError, Problem};
use crate::journal;
use crate::plan::model::DirPlan;
use crate::plan::planner::{Anchor, Planner};
use crate::scope::Scope;
use crate::target::{Agents, Resolved, Target, agent_dir, base, default_agents, resolve, shown};

/// The scope's base, links followed; it must exist (a mistyped
/// `--project-dir` is an error, not a new folder).
pub(crate) fn real_base(env: &Environment, target: &Target) -> Result<PathBuf, InstallError> {
    let base = base(env, target)?;
    match resolve(&base) {
        Ok(resolved) if resolved.missing.is_empty() => Ok(resolved.real),
        Ok(_) => Err(InstallError::io(
            "use",
            base,
            io::Error::new(io::ErrorKind::NotFound, "no such folder"),
        )),
        Err(problem) => Err(InstallError::io(
            "use",
            base,
            io::Error::other(problem.to_string()),
        )),
    }
}

/// Every agent's folder in this scope, and the shared copy, links
/// followed, by key (as the record writes them): the only folders a record
/// or a journal may name.
pub(crate) fn agent_folders(
    env: &Environment,
    base: &Path,
    scope: Scope,
) -> BTreeMap<String, PathBuf> {
    if scope == Scope::Folder {
        // A plain folder is its own and only folder.
        return BTreeMap::from([(".".to_string(), base.to_path_buf())]);
    }
    // A folder that cannot be resolved now keeps its key as written, so
    // the plan says what is wrong with it (a link pointing nowhere).
    AGENTS
        .iter()
        .map(|agent| agent_dir(env, base, scope, agent))
        .chain([base.join(SHARED_DIR)])
        .map(|path| match resolve(&path) {
            Ok(resolved) => (shown(base, &resolved.real), resolved.real),
            Err(_) => (shown(base, &path), path),
        })
        .collect()
}

impl Planner<'_, '_, '_> {
    /// The folders: the agents named (or the default ones: with
    /// `recorded_only`, only when the record names none; for a refresh,
    /// never), and with no agent named every folder the record names.
    pub(super) fn folders(&mut self, recorded_only: bool) -> Vec<DirPlan> {
        let env = self.ctx.env;
        let target = self.target;
        if target.scope == Scope::Folder {
            let base = self.base.clone();
            let mut dirs = Vec::new();
            if let Some(resolved) = self.agent_folder(&base) {
                self.add_dir(&mut dirs, resolved, &[]);
            }
            return dirs;
        }
        let requested: Vec<&'static Agent> = match &target.agents {
            // A refresh never goes where nothing was installed.
            _ if target.refresh => Vec::new(),
            Agents::Default if recorded_only && !self.record.is_empty() => Vec::new(),
            Agents::Default => default_agents(),
            agents => agents.list(&[]),
        };
        let mut wanted: Vec<(PathBuf, Vec<&'static Agent>)> = requested
            .iter()
            .map(|agent| {
                (
                    agent_dir(env, &self.base, target.scope, agent),
                    vec![*agent],
                )
            })
            .collect();
        if target.agents == Agents::Default && !self.record.dirs.is_empty() {
            // A folder the record names is acted on only if it is an
            // agent's folder here: a record may come from a repository.
            let known = agent_folders(env, &self.base, target.scope);
            let mut unknown = Vec::new();
            for (key, dir) in &self.record.dirs {
                if !known.contains_key(key) {
                    unknown.push(Problem::UnknownFolder { key: key.clone() });
                    continue;
                }
                let agents = dir
                    .agents
                    .iter()
                    .filter_map(|id| AGENTS.iter().find(|a| a.id == id))
                    .collect();
                wanted.push((self.base.join(key), agents));
            }
            unknown
                .into_iter()
                .for_each(|problem| self.problem(problem));
        }
        let mut dirs = Vec::new();
        for (path, agents) in wanted {
            if let Some(resolved) = self.agent_folder(&path) {
                self.add_dir(&mut dirs, resolved, &agents);
            }
        }
        dirs
    }

    /// The agent's folder at `path` resolved and opened, if the plan may
    /// work there: it resolves (no file or dangling link on the way), it
    /// is an agent's own folder (see the module), and in the project scope
    /// it stays in the project. Otherwise a problem.
    pub(super) fn agent_folder(&mut self, path: &Path) -> Option<Resolved> {
        let resolved = match resolve(path) {
            Ok(resolved) => resolved,
            Err(problem) => {
                self.problem(problem);
                return None;
            }
        };
        let real = &resolved.real;
        let folder = self.target.scope == Scope::Folder;
        let project = self.target.scope == Scope::Project;
        if (project || folder) && !real.starts_with(&self.base) {
            self.problem(Problem::Outside {
                path: path.to_path_buf(),
                real: resolved.real,
            });
            return None;
        }
        let own = match (project, folder) {
            (true, _) => self.agent_paths().contains(real),
            (_, true) => *real == self.base,
            _ => true,
        };
        let in_git = real
            .components()
            .any(|part| part == Component::Normal(OsStr::new(".git")));
        let above_base = !folder && self.base.starts_with(real);
        if !own || in_git || above_base {
            self.problem(Problem::NotAgentFolder {
                path: path.to_path_buf(),
                real: resolved.real,
            });
            return None;
        }
        if !self.anchors.contains_key(real) {
            let existing = match resolved.missing.first() {
                Some(first) => first.parent().unwrap_or(real).to_path_buf(),
                None => real.clone(),
            };
            match Dir::open(&existing) {
                Ok(dir) => {
                    let missing = resolved
                        .missing
                        .iter()
                        .filter_map(|path| path.file_name().map(OsStr::to_os_string))
                        .collect();
                    self.anchors.insert(real.clone(), Anchor { dir, missing });
                }
                Err(error) => {
                    self.problem(Problem::Unreadable {
                        path: existing,
                        error: error.to_string(),
                    });
                    return None;
                }
            }
        }
        Some(resolved)
    }

    /// Every agent's folder path of the scope, and the shared copy's, as
    /// written (no link followed): in a project, the only places an agent's
    /// folder may resolve to.
    fn agent_paths(&self) -> BTreeSet<PathBuf> {
        AGENTS
            .iter()
            .map(|agent| agent_dir(self.ctx.env, &self.base, self.target.scope, agent))
            .chain([self.base.join(SHARED_DIR)])
            .collect()
    }

    /// Adds a resolved folder, or its agents to the folder already there.
    pub(super) fn add_dir(
        &self,
        dirs: &mut Vec<DirPlan>,
        resolved: Resolved,
        agents: &[&'static Agent],
    ) {
        if let Some(dir) = dirs.iter_mut().find(|dir| dir.path == resolved.real) {
            for agent in agents {
                if !dir.agents.contains(agent) {
                    dir.agents.push(agent);
                }
            }
            return;
        }
        dirs.push(DirPlan {
            shown: shown(&self.base, &resolved.real),
            path: resolved.real,
            agents: agents.to_vec(),
            link: false,
            skills: Vec::new(),
            missing: resolved.missing,
        });
    }

    /// What no `force` overrides about the folders themselves: a
    /// `.skills-staging` that is a link or a file, and a folder that is,
    /// holds or lies inside a folder the skills are read from.
    pub(super) fn guard(&mut self, dirs: &[DirPlan]) {
        let sources: Vec<PathBuf> = self
            .target
            .sources
            .iter()
            .filter_map(|source| {
                std::fs::canonicalize(self.ctx.env.working_dir().join(source)).ok()
            })
            .collect();
        for dir in dirs {
            let staging = self
                .anchors
                .get(&dir.path)
                .and_then(Anchor::folder)
                .and_then(|folder| {
                    folder
                        .stat(OsStr::new(journal::staging(self.target.scope)))
                        .ok()
                        .flatten()
                });
            if staging.is_some_and(|stat| stat.kind != Kind::Dir) {
                self.problem(Problem::Staging {
                    path: dir.path.join(journal::staging(self.target.scope)),
                });
            }
            for source in &sources {
                if dir.path.starts_with(source) || source.starts_with(&dir.path) {
                    self.problem(Problem::SourceFolder {
                        folder: dir.path.clone(),
                        source: source.clone(),
                    });
                }
            }
        }
    }
}
