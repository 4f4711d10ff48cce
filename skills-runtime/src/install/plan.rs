//! The plan: for every agent folder and skill, what is there now (up to
//! date, outdated, modified, missing, not ours), what would change (files
//! added, replaced, removed; a link made) and every conflict, worked out
//! before anything is written. `status` is the same reading, shown.
//!
//! A file on disk is ours only if its bytes are what we embed now or what
//! the record says we last wrote there; anything else in the way is a
//! conflict. Files we know nothing of (a user's notes beside a skill) are
//! carried over untouched.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::prelude::rust_2024::*;

use super::agents::{AGENTS, Agent, SHARED_DIR};
use super::env::Environment;
use super::error::{InstallError, Problem};
use super::payload::{Payload, is_safe_folder};
use super::record::{Record, RecordFile, RecordSkill};
use super::target::{
    Agents, Layout, Resolved, Scope, Target, agent_dir, base, default_agents, relative_path,
    resolve, shown,
};
use super::tree::{self, Entry, Node};

/// The folder beside the skills where an apply stages its work.
pub const STAGING: &str = ".skills-staging";

/// Where a scope's records and lock live, under its base.
pub const STATE_DIR: &str = ".agents/.skills-install";

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
    /// Something we did not write is there.
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
            State::NotOurs => "not ours",
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
    /// Not ours: left as it is.
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
    /// Remarks on what it is written for, each naming an agent that reads
    /// this folder (see [`Installer::note`](super::Installer::note)).
    pub notes: Vec<String>,
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
    /// problem, and no conflict unless forced.
    pub fn is_ready(&self) -> bool {
        self.problems.is_empty() && (self.force || self.conflicts().next().is_none())
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

/// Reads the record at `path` (an empty one when there is none).
pub(crate) fn read_record(path: &Path) -> Result<Option<Record>, InstallError> {
    match std::fs::read(path) {
        Ok(bytes) => Record::from_json(&bytes)
            .map(Some)
            .map_err(|error| InstallError::Record {
                path: path.to_path_buf(),
                error,
            }),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(InstallError::io("read", path, error)),
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
        .join(STATE_DIR)
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
    if target.agents == Agents::Default {
        for (key, dir) in &record.dirs {
            let agents = dir
                .agents
                .iter()
                .filter_map(|id| AGENTS.iter().find(|a| a.id == id))
                .collect();
            wanted.push((base.join(key), agents));
        }
    }
    let mut dirs: Vec<DirPlan> = Vec::new();
    for (path, agents) in wanted {
        let resolved = match resolve(&path) {
            Ok(resolved) => resolved,
            Err(problem) => {
                if !problems.contains(&problem) {
                    problems.push(problem);
                }
                continue;
            }
        };
        add_dir(&mut dirs, &base, resolved, &agents);
    }

    // The layout: which folders hold links, and the shared copy.
    let store = resolve(&base.join(SHARED_DIR));
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
        if any_link && operation == Operation::Install {
            add_dir(&mut dirs, &base, store, &[]);
        }
        store_real = Some(real);
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

    Ok(Plan {
        operation,
        scope: target.scope,
        base,
        record_path,
        dirs,
        problems,
        force: target.force,
        target: target.clone(),
        record,
    })
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

/// One skill in one folder, and what we know of it.
struct Judge<'j, 'c> {
    folder: &'j Path,
    payload: Option<(usize, &'j Payload<'c>)>,
    recorded: Option<&'j RecordSkill>,
    /// The link we make to the shared copy, as written.
    ours_link: Option<PathBuf>,
    /// The shared copy of this skill.
    store: Option<PathBuf>,
}

/// How a path of ours is found on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Not there.
    Absent,
    /// What we embed now.
    Current,
    /// What the record says we wrote.
    Ours,
    /// A file with other bytes.
    Changed,
    /// Not a file.
    NotAFile,
}

/// A folder judged path by path.
struct Reading {
    /// Each path of ours (embedded or recorded) and its verdict.
    verdicts: BTreeMap<String, Verdict>,
    /// Entries that are not folders where our files need one.
    blockers: Vec<(PathBuf, Node)>,
    /// Entries we know nothing of (the user's), with their nodes.
    extras: Vec<(PathBuf, Node)>,
}

impl Judge<'_, '_> {
    fn read(&self, nodes: &BTreeMap<PathBuf, Node>) -> io::Result<Reading> {
        let mut ours: BTreeSet<&str> = BTreeSet::new();
        if let Some((_, payload)) = self.payload {
            ours.extend(payload.files.iter().map(|file| file.path));
        }
        if let Some(recorded) = self.recorded {
            ours.extend(recorded.files.keys().map(String::as_str));
        }
        let our_paths: BTreeSet<PathBuf> = ours.iter().map(|p| tree::relative(p)).collect();
        let mut needed_dirs: BTreeSet<PathBuf> = BTreeSet::new();
        if let Some((_, payload)) = self.payload {
            for file in &payload.files {
                let path = tree::relative(file.path);
                needed_dirs.extend(path.ancestors().skip(1).map(Path::to_path_buf));
            }
        }
        let mut verdicts = BTreeMap::new();
        for path in &ours {
            let relative = tree::relative(path);
            let verdict = match nodes.get(&relative) {
                None => Verdict::Absent,
                Some(Node::File { size }) => {
                    let on_disk = self.folder.join(&relative);
                    let embedded = self
                        .payload
                        .and_then(|(_, payload)| payload.file(path))
                        .map(|file| &file.bytes[..]);
                    let recorded = self.recorded.and_then(|r| r.files.get(*path));
                    if let Some(bytes) = embedded
                        && tree::same_bytes(&on_disk, *size, bytes)?
                    {
                        Verdict::Current
                    } else if let Some(RecordFile { size: was, sha256 }) = recorded
                        && was == size
                        && tree::sha256(&on_disk)? == *sha256
                    {
                        Verdict::Ours
                    } else {
                        Verdict::Changed
                    }
                }
                Some(_) => Verdict::NotAFile,
            };
            verdicts.insert(path.to_string(), verdict);
        }
        let mut blockers = Vec::new();
        let mut extras = Vec::new();
        for (path, node) in nodes {
            if our_paths.contains(path) {
                continue;
            }
            if path.ancestors().skip(1).any(|a| our_paths.contains(a)) {
                // Inside something standing where a file of ours goes.
                continue;
            }
            if needed_dirs.contains(path) {
                if *node != Node::Dir {
                    blockers.push((path.clone(), node.clone()));
                }
                continue;
            }
            extras.push((path.clone(), node.clone()));
        }
        Ok(Reading {
            verdicts,
            blockers,
            extras,
        })
    }

    fn is_our_link(&self, target: &Path) -> bool {
        if self.ours_link.as_deref() == Some(target) {
            return true;
        }
        match (&self.store, std::fs::canonicalize(self.folder)) {
            (Some(store), Ok(real)) => std::fs::canonicalize(store).is_ok_and(|s| s == real),
            _ => false,
        }
    }

    fn after_copy(&self) -> Option<RecordSkill> {
        let (_, payload) = self.payload?;
        Some(payload.copy_record())
    }

    fn after_link(&self, target: &Path) -> Option<RecordSkill> {
        let (_, payload) = self.payload?;
        Some(RecordSkill {
            revision: payload.revision.to_string(),
            link: Some(target.to_string_lossy().into_owned()),
            files: BTreeMap::new(),
        })
    }

    fn plan(&self, entry: &Entry, op: Operation, link: bool) -> io::Result<SkillPlan> {
        let mut skill = SkillPlan {
            name: String::new(),
            state: State::Missing,
            change: Change::Keep,
            files: Vec::new(),
            conflicts: Vec::new(),
            notes: Vec::new(),
            work: Work {
                payload: self.payload.map(|(at, _)| at),
                outcome: Outcome::Same,
                after: None,
            },
        };
        let whole = |kind| Conflict {
            path: String::new(),
            kind,
        };
        let all_added = || -> Vec<FileChange> {
            self.payload
                .map(|(_, payload)| {
                    payload
                        .files
                        .iter()
                        .map(|file| FileChange {
                            path: file.path.to_string(),
                            action: FileAction::Add,
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let link_target = self.ours_link.clone().filter(|_| link);
        // What an install puts in the skill's place.
        let install = |skill: &mut SkillPlan, carry: Vec<PathBuf>| match &link_target {
            Some(target) => {
                skill.change = Change::Link;
                skill.work.outcome = Outcome::Link(target.clone());
                skill.work.after = self.after_link(target);
            }
            None => {
                skill.work.outcome = Outcome::Folder { write: true, carry };
                skill.work.after = self.after_copy();
            }
        };
        match entry {
            Entry::Absent => {
                skill.state = State::Missing;
                if op == Operation::Install {
                    skill.change = Change::Write;
                    skill.files = all_added();
                    install(&mut skill, Vec::new());
                }
            }
            Entry::NotFolder => {
                skill.state = State::NotOurs;
                if op == Operation::Install {
                    skill.conflicts.push(whole(ConflictKind::NotAFolder));
                    skill.change = Change::Write;
                    skill.files = all_added();
                    install(&mut skill, Vec::new());
                } else {
                    skill.change = Change::Leave;
                }
            }
            Entry::Link(to) if self.is_our_link(to) => {
                skill.state = State::UpToDate;
                match (op, &link_target) {
                    (Operation::Uninstall, _) => {
                        skill.change = Change::Remove;
                        skill.work.outcome = Outcome::Gone;
                    }
                    (Operation::Install, Some(target)) if target == to => {
                        skill.work.after = self.after_link(target);
                    }
                    (Operation::Install, _) => {
                        // A link of ours where a copy (or another link) goes.
                        skill.state = State::Outdated;
                        skill.change = Change::Update;
                        skill.files = all_added();
                        install(&mut skill, Vec::new());
                    }
                }
            }
            Entry::Link(to) => {
                skill.state = State::NotOurs;
                if op == Operation::Install {
                    skill.conflicts.push(whole(ConflictKind::Link(to.clone())));
                    skill.change = Change::Write;
                    skill.files = all_added();
                    install(&mut skill, Vec::new());
                } else {
                    skill.change = Change::Leave;
                }
            }
            Entry::Folder(nodes) => {
                let reading = self.read(nodes)?;
                self.plan_folder(&mut skill, reading, op, link_target.as_deref());
                if skill.work.outcome == Outcome::Same && op == Operation::Install {
                    skill.work.after = match &link_target {
                        Some(target) => self.after_link(target),
                        None => self.after_copy(),
                    };
                }
            }
        }
        Ok(skill)
    }

    fn plan_folder(
        &self,
        skill: &mut SkillPlan,
        reading: Reading,
        op: Operation,
        link_target: Option<&Path>,
    ) {
        let embedded = |path: &str| {
            self.payload
                .is_some_and(|(_, payload)| payload.file(path).is_some())
        };
        let recorded = self.recorded.is_some();
        let conflict_of = |verdict: Verdict| match (verdict, recorded) {
            (Verdict::NotAFile, _) => Some(ConflictKind::NotAFile),
            (Verdict::Changed, true) => Some(ConflictKind::Changed),
            (Verdict::Changed, false) => Some(ConflictKind::NotOurs),
            _ => None,
        };
        let mut deleted = false;
        let mut present = false;
        for (path, verdict) in &reading.verdicts {
            present |= *verdict != Verdict::Absent;
            deleted |= *verdict == Verdict::Absent
                && embedded(path)
                && self.recorded.is_some_and(|r| r.files.contains_key(path));
            let conflict = conflict_of(*verdict);
            let action = match (op, embedded(path), verdict) {
                (_, _, Verdict::Absent) => {
                    (op == Operation::Install && embedded(path)).then_some(FileAction::Add)
                }
                (Operation::Install, true, Verdict::Current) => None,
                (Operation::Install, true, _) => Some(FileAction::Replace),
                // Uninstall: a folder where our file was is the user's.
                (Operation::Uninstall, _, Verdict::NotAFile) => None,
                _ => Some(FileAction::Remove),
            };
            if let Some(kind) = conflict
                && action.is_some()
            {
                skill.conflicts.push(Conflict {
                    path: path.clone(),
                    kind,
                });
            }
            if let Some(action) = action {
                skill.files.push(FileChange {
                    path: path.clone(),
                    action,
                });
            }
        }
        let changed = reading
            .verdicts
            .values()
            .any(|v| matches!(v, Verdict::Changed | Verdict::NotAFile));
        skill.state = if changed || !reading.blockers.is_empty() {
            match recorded {
                true => State::Modified,
                false => State::NotOurs,
            }
        } else if deleted {
            State::Modified
        } else if !present {
            State::Missing
        } else if skill.files.is_empty() || op == Operation::Uninstall {
            match reading.verdicts.iter().all(|(path, v)| {
                *v == Verdict::Current || (!embedded(path) && *v == Verdict::Absent)
            }) && self.payload.is_some()
            {
                true => State::UpToDate,
                false => State::Outdated,
            }
        } else {
            State::Outdated
        };
        let carry: Vec<PathBuf> = reading
            .extras
            .iter()
            .map(|(path, _)| path.clone())
            .collect();
        match op {
            Operation::Install => {
                for (path, node) in &reading.blockers {
                    let kind = match node {
                        Node::Link(to) => ConflictKind::Link(to.clone()),
                        _ => ConflictKind::NotAFolder,
                    };
                    skill.conflicts.push(Conflict {
                        path: slashed(path),
                        kind,
                    });
                }
                if let Some(target) = link_target {
                    // Replacing the folder with a link hides the user's files.
                    for (path, node) in &reading.extras {
                        if *node != Node::Dir {
                            skill.conflicts.push(Conflict {
                                path: slashed(path),
                                kind: ConflictKind::Hidden,
                            });
                        }
                    }
                    for file in skill.files.iter_mut() {
                        file.action = FileAction::Remove;
                    }
                    skill.change = Change::Link;
                    skill.work.outcome = Outcome::Link(target.to_path_buf());
                    skill.work.after = self.after_link(target);
                } else if !skill.files.is_empty() || !skill.conflicts.is_empty() {
                    skill.change = match present {
                        true => Change::Update,
                        false => Change::Write,
                    };
                    skill.work.outcome = Outcome::Folder { write: true, carry };
                    skill.work.after = self.after_copy();
                }
            }
            Operation::Uninstall => {
                if skill.files.is_empty() && skill.conflicts.is_empty() {
                    skill.change = match present {
                        true => Change::Leave,
                        false => Change::Keep,
                    };
                    if !present && skill.state == State::Missing && reading.extras.is_empty() {
                        skill.change = Change::Keep;
                    }
                } else {
                    skill.change = Change::Remove;
                    let keeps = reading.extras.iter().any(|(_, node)| *node != Node::Dir)
                        || !reading.blockers.is_empty();
                    let mut carry = carry;
                    carry.extend(reading.blockers.iter().map(|(path, _)| path.clone()));
                    carry.sort();
                    skill.work.outcome = match keeps {
                        true => Outcome::Folder {
                            write: false,
                            carry,
                        },
                        false => Outcome::Gone,
                    };
                }
            }
        }
    }
}

/// A relative path, `/`-separated.
fn slashed(path: &Path) -> String {
    path.components()
        .map(|part| part.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
