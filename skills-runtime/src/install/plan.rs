//! The plan: for every agent folder and skill, what is there now (up to
//! date, outdated, modified, missing, not ours), what would change (files
//! added, replaced, removed; a link made) and every conflict, worked out
//! before anything is written. `status` is the same reading, shown.
//!
//! Each skill in each folder is judged by [`judge`](super::judge):
//! ownership is the record, never matching bytes. Whatever the plan reads
//! (the record, the folders) may have been written by a stranger: the
//! record is checked whole when read, a folder the record names must be an
//! agent's folder of this scope, and in the project scope no folder the
//! plan would write may lead out of the project through a link.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::prelude::rust_2024::*;

use super::agents::{AGENTS, Agent, SHARED_DIR};
use super::env::Environment;
use super::error::{InstallError, Problem};
use super::journal::{self, transaction_prefix};
use super::judge::Judge;
use super::names::is_safe_folder;
use super::open::{RECORD_CAP, read_state};
use super::payload::Payload;
use super::record::{Record, RecordError, RecordSkill};
use super::state;
use super::target::{
    Agents, Layout, Resolved, Scope, Target, agent_dir, base, default_agents, relative_path,
    resolve, shown,
};
use super::tree;

/// The folder beside the skills where an apply stages its work.
pub const STAGING: &str = ".skills-staging";

/// Where a scope's records live, under its base (the lock and journals
/// live in the user's state folder: [`state`](super::state)).
pub const RECORD_DIR: &str = ".agents/.skills-install";

/// What a plan is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Write the embedded skills (and remove the ones a new version no
    /// longer has).
    Install,
    /// Remove what was installed.
    Uninstall,
}

/// What is in an agent's folder for one skill, before anything is done.
///
/// ```
/// use skills_runtime::install::State;
/// assert_eq!(State::Modified.to_string(), "modified by the user");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    /// Every file is what we embed now.
    UpToDate,
    /// Every file is ours, some from an earlier version.
    Outdated,
    /// Files we wrote were changed or deleted since.
    Modified,
    /// Not installed.
    Missing,
    /// Something this tool's record does not list is there (whatever its
    /// bytes): not installed by this tool.
    NotOurs,
}

impl State {
    /// The state's key in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            State::UpToDate => "up-to-date",
            State::Outdated => "outdated",
            State::Modified => "modified",
            State::Missing => "missing",
            State::NotOurs => "not-ours",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            State::UpToDate => "up to date",
            State::Outdated => "outdated",
            State::Modified => "modified by the user",
            State::Missing => "missing",
            State::NotOurs => "not installed by this tool",
        })
    }
}

/// What an apply does to one skill in one folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Nothing: it is as it should be.
    Keep,
    /// Written where there was none.
    Write,
    /// Replaced by the new version, the user's own files carried over.
    Update,
    /// Made a link to the shared copy.
    Link,
    /// Our files removed (the user's own kept).
    Remove,
    /// Not installed by this tool: left as it is.
    Leave,
}

impl Change {
    /// The change's key in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            Change::Keep => "keep",
            Change::Write => "write",
            Change::Update => "update",
            Change::Link => "link",
            Change::Remove => "remove",
            Change::Leave => "leave",
        }
    }

    /// Whether anything is written or removed.
    pub fn writes(self) -> bool {
        !matches!(self, Change::Keep | Change::Leave)
    }
}

/// One file an apply adds, replaces or removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The `/`-separated path inside the skill folder.
    pub path: String,
    /// What happens to it.
    pub action: FileAction,
}

/// What happens to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// Written where there was none.
    Add,
    /// Written over ours.
    Replace,
    /// Removed.
    Remove,
}

impl FileAction {
    /// `add`, `replace` or `remove`.
    pub fn key(self) -> &'static str {
        match self {
            FileAction::Add => "add",
            FileAction::Replace => "replace",
            FileAction::Remove => "remove",
        }
    }
}

/// Something in the way that is not ours: written over or removed only
/// with `force`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Conflict {
    /// The path inside the skill folder (`""` for the folder itself).
    pub path: String,
    /// What it is.
    pub kind: ConflictKind,
}

/// What stands in the way.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConflictKind {
    /// A file we wrote, changed since.
    Changed,
    /// A file we did not write.
    NotOurs,
    /// A folder, link or special file where our file goes.
    NotAFile,
    /// A file where a folder goes.
    NotAFolder,
    /// A link to somewhere else where the skill (or one of its folders)
    /// goes.
    Link(PathBuf),
    /// A file of the user's that a link to the shared copy would hide.
    Hidden,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = match self.path.as_str() {
            "" => "the skill folder",
            path => path,
        };
        match &self.kind {
            ConflictKind::Changed => write!(f, "{path} was changed since it was installed"),
            ConflictKind::NotOurs => write!(f, "{path} was not written by this tool"),
            ConflictKind::NotAFile => write!(f, "{path} is a folder or a link, not our file"),
            ConflictKind::NotAFolder => write!(f, "{path} is a file where a folder goes"),
            ConflictKind::Link(to) => write!(f, "{path} is a link to {}", to.display()),
            ConflictKind::Hidden => write!(f, "{path} is not ours and a link would hide it"),
        }
    }
}

impl ConflictKind {
    /// The kind's key in JSON output.
    pub fn key(&self) -> &'static str {
        match self {
            ConflictKind::Changed => "changed",
            ConflictKind::NotOurs => "not-ours",
            ConflictKind::NotAFile => "not-a-file",
            ConflictKind::NotAFolder => "not-a-folder",
            ConflictKind::Link(_) => "link",
            ConflictKind::Hidden => "hidden",
        }
    }
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
/// written: [`Installer::plan`](super::Installer::plan) makes one,
/// [`Installer::apply`](super::Installer::apply) carries it out.
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
    pub(crate) target: Target,
    pub(crate) record: Record,
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

    /// Whether [`apply`](super::Installer::apply) would carry it out: no
    /// problem, and no conflict unless forced (or left by a stopped run).
    pub fn is_ready(&self) -> bool {
        self.problems.is_empty()
            && (self.force || self.unfinished || self.conflicts().next().is_none())
    }

    /// Whether every skill of every folder is up to date.
    pub fn all_up_to_date(&self) -> bool {
        self.problems.is_empty()
            && self
                .dirs
                .iter()
                .flat_map(|dir| &dir.skills)
                .all(|skill| skill.state == State::UpToDate)
    }

    pub(crate) fn conflict_set(&self) -> BTreeSet<(PathBuf, String, Conflict)> {
        self.conflicts()
            .map(|(dir, skill, c)| (dir.path.clone(), skill.name.clone(), c.clone()))
            .collect()
    }
}

/// What the planner works from.
#[derive(Debug)]
pub(crate) struct Context<'a, 'c> {
    pub payloads: &'a [Payload<'c>],
    pub tool: &'a str,
    pub env: &'a Environment,
}

/// The record's file name for a tool and scope: `<tool>.<scope>.json`, the
/// tool's name kept to `[A-Za-z0-9._-]`.
pub(crate) fn record_file(tool: &str, scope: Scope) -> String {
    format!("{}.{scope}.json", file_safe(tool))
}

/// `name` with every character outside `[A-Za-z0-9._-]` made `-`.
pub(crate) fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                true => c,
                false => '-',
            },
        )
        .collect();
    match safe.trim_start_matches('.') {
        "" => "skills".to_string(),
        rest => rest.to_string(),
    }
}

/// Reads the record at `path` (`None` when there is none): a regular file
/// of at most [`RECORD_CAP`] bytes, opened without following a link or
/// blocking on a pipe, every name in it checked.
pub(crate) fn read_record(path: &Path) -> Result<Option<Record>, InstallError> {
    let refused = |error: RecordError| InstallError::Record {
        path: path.to_path_buf(),
        error,
    };
    match read_state(path, RECORD_CAP) {
        Ok(Some(bytes)) => Record::from_json(&bytes).map(Some).map_err(refused),
        Ok(None) => Ok(None),
        Err(error) => Err(refused(RecordError(error.to_string()))),
    }
}

/// The scope's base, links followed; it must exist (a mistyped
/// `--project-dir` is an error, not a new folder).
pub(crate) fn real_base(ctx: &Context<'_, '_>, target: &Target) -> Result<PathBuf, InstallError> {
    let base = base(ctx.env, target)?;
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

/// Works out the plan. Reads only.
///
/// With no agent named, an install goes to the [`DEFAULT_AGENTS`] and to
/// every folder the record names (so an update reaches them all); an
/// uninstall and a status (`recorded_only`) to the folders the record
/// names, or the default agents' when it names none.
///
/// [`DEFAULT_AGENTS`]: super::agents::DEFAULT_AGENTS
pub(crate) fn plan(
    ctx: &Context<'_, '_>,
    target: &Target,
    operation: Operation,
    recorded_only: bool,
) -> Result<Plan, InstallError> {
    let base = real_base(ctx, target)?;
    let record_path = base
        .join(RECORD_DIR)
        .join(record_file(ctx.tool, target.scope));
    let record = read_record(&record_path)?.unwrap_or_else(|| Record {
        tool: ctx.tool.to_string(),
        scope: target.scope.to_string(),
        ..Record::default()
    });
    let mut problems = Vec::new();

    // The skills: the named ones, or all; each folder name once.
    let recorded_names: BTreeSet<&str> = record
        .dirs
        .values()
        .flat_map(|dir| dir.skills.keys().map(String::as_str))
        .collect();
    for name in &target.skills {
        let embedded = ctx.payloads.iter().any(|p| p.listed == name);
        let recorded = operation == Operation::Uninstall && recorded_names.contains(name.as_str());
        if !embedded && !recorded {
            return Err(InstallError::UnknownSkill {
                name: name.clone(),
                known: ctx.payloads.iter().map(|p| p.listed.to_string()).collect(),
            });
        }
    }
    let every = target.skills.is_empty();
    let mut selected: Vec<usize> = Vec::new();
    let mut folders: BTreeMap<&str, &str> = BTreeMap::new();
    for (at, payload) in ctx.payloads.iter().enumerate() {
        if !every && !target.skills.iter().any(|name| name == payload.listed) {
            continue;
        }
        if !is_safe_folder(payload.folder) {
            problems.push(Problem::UnsafeName {
                name: payload.listed.to_string(),
            });
            continue;
        }
        if let Some(first) = folders.insert(payload.folder, payload.listed) {
            problems.push(Problem::NameClash {
                folder: payload.folder.to_string(),
                skills: [first.to_string(), payload.listed.to_string()],
            });
            continue;
        }
        selected.push(at);
    }
    // Recorded skills that are not selected payloads: removed by an
    // uninstall of everything (or of them by name), and by an install of
    // everything (a new version that no longer has them).
    let wanted_recorded = |name: &str| -> bool {
        !folders.contains_key(name)
            && match operation {
                Operation::Install => every,
                Operation::Uninstall => every || target.skills.iter().any(|n| n == name),
            }
    };

    // The folders.
    let recorded_only = recorded_only || operation == Operation::Uninstall;
    let requested: Vec<&'static Agent> = match &target.agents {
        Agents::Default if recorded_only && !record.is_empty() => Vec::new(),
        Agents::Default => default_agents(),
        agents => agents.list(&[]),
    };
    let mut wanted: Vec<(PathBuf, Vec<&'static Agent>)> = requested
        .iter()
        .map(|agent| (agent_dir(ctx.env, &base, target.scope, agent), vec![*agent]))
        .collect();
    if target.agents == Agents::Default && !record.dirs.is_empty() {
        // A folder the record names is acted on only if it is an agent's
        // folder here: a record may come from a repository.
        let known = agent_folders(ctx.env, &base, target.scope);
        for (key, dir) in &record.dirs {
            if !known.contains_key(key) {
                problems.push(Problem::UnknownFolder { key: key.clone() });
                continue;
            }
            let agents = dir
                .agents
                .iter()
                .filter_map(|id| AGENTS.iter().find(|a| a.id == id))
                .collect();
            wanted.push((base.join(key), agents));
        }
    }
    // In a project, what the plan would write stays in the project.
    let confined = target.scope == Scope::Project;
    let inside = |path: &Path, problems: &mut Vec<Problem>| -> Option<Resolved> {
        let resolved = match resolve(path) {
            Ok(resolved) => resolved,
            Err(problem) => {
                if !problems.contains(&problem) {
                    problems.push(problem);
                }
                return None;
            }
        };
        if confined && !resolved.real.starts_with(&base) {
            let problem = Problem::Outside {
                path: path.to_path_buf(),
                real: resolved.real,
            };
            if !problems.contains(&problem) {
                problems.push(problem);
            }
            return None;
        }
        Some(resolved)
    };
    let mut dirs: Vec<DirPlan> = Vec::new();
    for (path, agents) in wanted {
        if let Some(resolved) = inside(&path, &mut problems) {
            add_dir(&mut dirs, &base, resolved, &agents);
        }
    }
    inside(&base.join(RECORD_DIR), &mut problems);

    // The layout: which folders hold links, and the shared copy.
    let store_path = base.join(SHARED_DIR);
    let store = resolve(&store_path);
    let linked_before = |dir: &DirPlan| {
        record
            .dirs
            .get(&dir.shown)
            .is_some_and(|entry| entry.skills.values().any(|skill| skill.link.is_some()))
    };
    let mut store_real = None;
    if let Ok(store) = store {
        let real = store.real.clone();
        let mut any_link = false;
        for dir in &mut dirs {
            dir.link = dir.path != real
                && match target.layout {
                    Layout::Link => operation == Operation::Install,
                    Layout::Copy => false,
                    Layout::AsRecorded => linked_before(dir),
                };
            any_link |= dir.link;
        }
        if any_link
            && let Some(store) = inside(&store_path, &mut problems)
            && operation == Operation::Install
        {
            add_dir(&mut dirs, &base, store, &[]);
        }
        store_real = Some(real);
    }
    for dir in &dirs {
        let staging = dir.path.join(STAGING);
        if staging
            .symlink_metadata()
            .is_ok_and(|meta| !meta.file_type().is_dir())
        {
            problems.push(Problem::Staging { path: staging });
        }
        for source in &target.sources {
            let Ok(source) = std::fs::canonicalize(ctx.env.working_dir().join(source)) else {
                continue;
            };
            if dir.path.starts_with(&source) || source.starts_with(&dir.path) {
                problems.push(Problem::SourceFolder {
                    folder: dir.path.clone(),
                    source,
                });
            }
        }
    }
    // The shared copy first, so links can say what they point at.
    dirs.sort_by_key(|dir| (Some(&dir.path) != store_real.as_ref(), dir.shown.clone()));

    let mut store_states: BTreeMap<String, State> = BTreeMap::new();
    for dir in &mut dirs {
        let recorded = record.dirs.get(&dir.shown);
        let mut names: Vec<(&str, Option<usize>)> = selected
            .iter()
            .map(|&at| (ctx.payloads[at].folder, Some(at)))
            .collect();
        if let Some(recorded) = recorded {
            for name in recorded.skills.keys() {
                if wanted_recorded(name) {
                    names.push((name, None));
                }
            }
        }
        let link_to = |name: &str| -> Option<PathBuf> {
            let store = store_real.as_ref()?;
            Some(relative_path(&dir.path, &store.join(name)))
        };
        for (name, payload) in names {
            let folder = dir.path.join(name);
            let entry = tree::entry(&folder).map_err(|error| Problem::Unreadable {
                path: folder.clone(),
                error: error.to_string(),
            });
            let entry = match entry {
                Ok(entry) => entry,
                Err(problem) => {
                    problems.push(problem);
                    continue;
                }
            };
            let recorded = recorded.and_then(|dir| dir.skills.get(name));
            let skill = Judge {
                folder: &folder,
                payload: payload.map(|at| (at, &ctx.payloads[at])),
                recorded,
                ours_link: link_to(name),
                store: store_real.as_ref().map(|store| store.join(name)),
            };
            let op = match payload {
                None => Operation::Uninstall,
                Some(_) => operation,
            };
            let mut skill = match skill.plan(&entry, op, dir.link) {
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
            if Some(&dir.path) == store_real.as_ref() {
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
    }

    // Removing the shared copy while a link that stays points at it.
    if operation == Operation::Uninstall
        && let Some(store) = &store_real
    {
        let store_key = shown(&base, store);
        let removed: BTreeSet<String> = dirs
            .iter()
            .filter(|dir| &dir.path == store)
            .flat_map(|dir| &dir.skills)
            .filter(|skill| skill.change == Change::Remove)
            .map(|skill| skill.name.clone())
            .collect();
        let planned: BTreeSet<&String> = dirs.iter().map(|dir| &dir.shown).collect();
        for (key, dir) in &record.dirs {
            if planned.contains(key) || key == &store_key {
                continue;
            }
            for (name, skill) in &dir.skills {
                if skill.link.is_some() && removed.contains(name) {
                    problems.push(Problem::StillLinked {
                        path: store.join(name),
                        link: base.join(key).join(name),
                    });
                }
            }
        }
    }

    let unfinished = state::scope_dir(ctx.env, &base).is_ok_and(|state_dir| {
        journal::pending(&state_dir, &transaction_prefix(ctx.tool, target.scope))
    });
    Ok(Plan {
        operation,
        scope: target.scope,
        base,
        record_path,
        dirs,
        problems,
        force: target.force,
        unfinished,
        target: target.clone(),
        record,
    })
}

/// Every agent's folder in this scope, and the shared copy, links
/// followed, by key (as the record writes them): the only folders a record
/// or a journal may name.
pub(crate) fn agent_folders(
    env: &Environment,
    base: &Path,
    scope: Scope,
) -> BTreeMap<String, PathBuf> {
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

/// Adds a resolved folder, or its agents to the folder already there.
fn add_dir(dirs: &mut Vec<DirPlan>, base: &Path, resolved: Resolved, agents: &[&'static Agent]) {
    if let Some(dir) = dirs.iter_mut().find(|dir| dir.path == resolved.real) {
        for agent in agents {
            if !dir.agents.contains(agent) {
                dir.agents.push(agent);
            }
        }
        return;
    }
    dirs.push(DirPlan {
        shown: shown(base, &resolved.real),
        path: resolved.real,
        agents: agents.to_vec(),
        link: false,
        skills: Vec::new(),
        missing: resolved.missing,
    });
}
