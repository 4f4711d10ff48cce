//! Carrying a plan out so that every skill is wholly old or wholly new,
//! whatever fails: each skill is built in a staging folder beside the
//! skills (`<dir>/.skills-staging/<transaction>/new/<name>`, one level
//! deeper than agents look), then the present folder is renamed aside
//! (`old/<name>`) and the new one renamed in. A [`Journal`] in the user's
//! state folder says which skills the transaction swaps (and, once it
//! swaps, which file it moves each way); the record, written last, names
//! the transaction it completes. On an error every swap is undone; a run
//! that was killed is finished or undone by the next one, which finds the
//! journal and the record and knows which.
//!
//! Every change is made relative to the folders the plan opened
//! ([`Opened`]): the agent's folder (or the deepest part of it that
//! exists), then each folder below it as it is made or opened, one name
//! at a time, no link followed. A folder swapped for a link while the run
//! goes on changes nothing outside: the run goes on in the folder it
//! opened, or fails on the link and is undone.

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::dir::{Dir, Kind};
use crate::error::InstallError;
use crate::journal::{self, Journal, JournalDir, Moved, Staged, Swap};
use crate::ops::{Ops, parts};
use crate::owned::{self, Owned};
use crate::payload::Payload;
use crate::plan::{DirPlan, Opened, Operation, Outcome, Plan};
use crate::record::Record;
use crate::state::StateDir;
use crate::state::transaction_prefix;
use crate::target::shown;
use crate::tree;

/// What the apply writes into the record besides the plan's entries.
#[derive(Debug)]
pub(crate) struct Stamp<'a> {
    pub tool: &'a str,
    pub version: &'a str,
    pub bundle_revision: String,
}

/// Carries out `plan` (made under the lock, with the folders it opened),
/// its journal and what it owns kept in the scope's state folder. Returns
/// the record written.
pub(crate) fn execute(
    plan: &Plan,
    opened: &mut Opened,
    payloads: &[Payload<'_>],
    stamp: &Stamp<'_>,
    ops: &Ops,
    state: &StateDir,
) -> Result<Record, InstallError> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tx_name = format!(
        "{}{}-{nanos}",
        transaction_prefix(stamp.tool, plan.target.scope),
        std::process::id()
    );
    let mut record = next_record(plan, stamp, &tx_name);
    let owned_name = owned::file_name(stamp.tool, plan.target.scope);
    let mut tx = Transaction {
        plan,
        journal_name: journal::file_name(&tx_name),
        journal: journal_of(plan, &tx_name),
        created: Vec::new(),
        staged: Vec::new(),
    };
    let run = tx.run(opened, payloads, ops, state, &mut record, &owned_name);
    match run {
        Ok(owned) => {
            cleanup(plan, opened, &record, &tx, ops, state);
            let _ = owned.write(state.dir(), &owned_name, ops);
            Ok(record)
        }
        Err(error) if ops.crashed() => Err(error),
        Err(error) => {
            for (staged, at) in tx.staged.iter().rev() {
                // Before the swapping began, nothing moved.
                if tx.journal.swapping {
                    let swaps = &tx.journal.dirs[*at].swaps;
                    let moves = journal::undo_moves(staged, swaps).map_err(|why| {
                        InstallError::Journal {
                            path: state.dir().join(&tx.journal_name),
                            error: why,
                        }
                    })?;
                    journal::undo(staged, &moves, ops)?;
                }
                let _ = staged.remove(ops);
            }
            for (dir, name) in tx.created.iter().rev() {
                let _ = ops.remove_dir(dir, name);
            }
            let _ = state.dir().remove_file(OsStr::new(&tx.journal_name));
            Err(error)
        }
    }
}

/// The journal of carrying `plan` out: per folder that changes, the
/// skills swapped, and whether a new entry goes there (what is there now,
/// and which files move, are filled in when the swapping begins).
fn journal_of(plan: &Plan, transaction: &str) -> Journal {
    let dirs = plan
        .dirs
        .iter()
        .filter(|dir| dir.skills.iter().any(|skill| skill.change.writes()))
        .map(|dir| JournalDir {
            key: dir.shown.clone(),
            swaps: dir
                .skills
                .iter()
                .filter(|skill| skill.change.writes())
                .map(|skill| Swap {
                    name: skill.name.clone(),
                    had_live: false,
                    has_new: matches!(
                        skill.work.outcome,
                        Outcome::Folder { .. } | Outcome::Link(_)
                    ),
                    live: None,
                    new: None,
                })
                .collect(),
        })
        .collect();
    Journal {
        transaction: transaction.to_string(),
        swapping: false,
        dirs,
    }
}

/// One apply under way: its journal, and what it made so far (undone on
/// an error).
struct Transaction<'p> {
    plan: &'p Plan,
    journal: Journal,
    journal_name: String,
    /// The folders created (with the folder each was made in), outermost
    /// first.
    created: Vec<(Dir, OsString)>,
    /// The staging folders made, each with its entry in the journal.
    staged: Vec<(Staged, usize)>,
}

/// The record after the plan: its entries updated, stamped.
fn next_record(plan: &Plan, stamp: &Stamp<'_>, tx: &str) -> Record {
    let mut record = plan.record.clone();
    record.tool = stamp.tool.to_string();
    record.version = stamp.version.to_string();
    record.scope = plan.target.scope.to_string();
    record.bundle_revision = stamp.bundle_revision.clone();
    record.transaction = tx.to_string();
    for dir in &plan.dirs {
        let entry = record.dirs.entry(dir.shown.clone()).or_default();
        if plan.operation == Operation::Install {
            entry
                .agents
                .extend(dir.agents.iter().map(|agent| agent.id.to_string()));
            if dir.skills.iter().any(|skill| skill.change.writes()) {
                entry
                    .created
                    .extend(dir.missing.iter().map(|path| shown(&plan.base, path)));
            }
        }
        for skill in dir.skills.iter().filter(|skill| !skill.work.keeps) {
            match &skill.work.after {
                Some(after) => {
                    entry.skills.insert(skill.name.clone(), after.clone());
                }
                None => {
                    entry.skills.remove(&skill.name);
                }
            }
        }
    }
    record.dirs.retain(|_, dir| !dir.skills.is_empty());
    record
}

/// What this tool owns once `record` is written: its own entries so far
/// (as they are now, their revision updated or not), and those the plan
/// writes (with the folders it creates for them). An entry of a claim the
/// plan leaves as it is stays a claim.
fn owned_after(plan: &Plan, record: &Record) -> Owned {
    let mut written = BTreeSet::new();
    let mut created = BTreeSet::new();
    for dir in &plan.dirs {
        let before = plan.record.dirs.get(&dir.shown);
        for skill in &dir.skills {
            let was_own = before
                .and_then(|entry| entry.skills.get(&skill.name))
                .is_some_and(|was| plan.owned.owns(&dir.shown, &skill.name, was));
            if skill.change.writes() || was_own || skill.work.adopted {
                written.insert((dir.shown.clone(), skill.name.clone()));
            }
            if skill.change.writes() {
                for path in &dir.missing {
                    created.insert((dir.shown.clone(), shown(&plan.base, path)));
                }
            }
        }
    }
    plan.owned.after(record, &written, &created)
}

impl Transaction<'_> {
    fn write_journal(&self, ops: &Ops, state: &StateDir) -> Result<(), InstallError> {
        ops.replace_file(
            state.dir(),
            OsStr::new(&self.journal_name),
            self.journal.to_json().as_bytes(),
        )
        .map_err(|e| InstallError::io("write", state.dir().join(&self.journal_name), e))
    }

    /// Stages, swaps and commits; returns what the tool owns afterwards.
    fn run(
        &mut self,
        opened: &mut Opened,
        payloads: &[Payload<'_>],
        ops: &Ops,
        state: &StateDir,
        record: &mut Record,
        owned_name: &str,
    ) -> Result<Owned, InstallError> {
        // The journal first: a run killed from here on is undone by the next.
        self.write_journal(ops, state)?;
        self.stage_all(opened, payloads, ops, record)?;
        // What moves each way, then the swaps, the journal saying so first.
        self.note_moves()?;
        self.journal.swapping = true;
        self.write_journal(ops, state)?;
        self.swap_all(ops)?;
        // What the tool owns: before the commit both the old and the new
        // entries (a run killed here is finished or undone), after it the
        // new ones.
        let plan = self.plan;
        let owned = owned_after(plan, record);
        plan.owned
            .union(&owned)
            .write(state.dir(), owned_name, ops)
            .map_err(|e| InstallError::io("write", state.dir().join(owned_name), e))?;
        // Commit: the record names the transaction.
        opened.record.write(record, ops, &mut self.created)?;
        Ok(owned)
    }

    /// Stages every skill of every folder that changes, one folder after
    /// the other: its missing folders made, a staging folder, the skills.
    fn stage_all(
        &mut self,
        opened: &Opened,
        payloads: &[Payload<'_>],
        ops: &Ops,
        record: &mut Record,
    ) -> Result<(), InstallError> {
        let plan = self.plan;
        let changing = plan
            .dirs
            .iter()
            .filter(|dir| dir.skills.iter().any(|skill| skill.change.writes()));
        for (at, dir) in changing.enumerate() {
            let agent = self.open_agent_dir(opened, dir, ops)?;
            self.make_staging(agent, at, ops)?;
            let staged = &self.staged[self.staged.len() - 1].0;
            stage_skills(dir, staged, payloads, record, ops)?;
        }
        Ok(())
    }

    /// Opens the agent's folder of `dir` from where the plan opened it,
    /// making the folders still missing (each noted, to be undone).
    fn open_agent_dir(
        &mut self,
        opened: &Opened,
        dir: &DirPlan,
        ops: &Ops,
    ) -> Result<Dir, InstallError> {
        let anchor = opened.dirs.get(&dir.path).ok_or_else(|| {
            InstallError::io(
                "open",
                &dir.path,
                std::io::Error::other("the plan did not open it"),
            )
        })?;
        let mut agent = anchor
            .dir
            .try_clone()
            .map_err(|e| InstallError::io("open", anchor.dir.path(), e))?;
        for name in &anchor.missing {
            let (made, created) = ops
                .ensure_dir(&agent, name)
                .map_err(|e| InstallError::io("create", agent.join(name), e))?;
            if created {
                self.created.push((agent, name.clone()));
            }
            agent = made;
        }
        Ok(agent)
    }

    /// Makes the staging folder in the agent's folder `agent` (noted when
    /// new) and this transaction's folder in it, kept as staged for the
    /// journal's folder `at`.
    fn make_staging(&mut self, agent: Dir, at: usize, ops: &Ops) -> Result<(), InstallError> {
        let staging_name = journal::staging(self.plan.target.scope);
        let (staging, created) = ops
            .ensure_dir(&agent, OsStr::new(staging_name))
            .map_err(|e| InstallError::io("create", agent.join(staging_name), e))?;
        if created {
            let again = agent
                .try_clone()
                .map_err(|e| InstallError::io("open", agent.path(), e))?;
            self.created.push((again, OsString::from(staging_name)));
        }
        let tx_name = OsStr::new(&self.journal.transaction);
        ops.create_dir(&staging, tx_name)
            .map_err(|e| InstallError::io("create", staging.join(tx_name), e))?;
        let tx = staging
            .open_dir(tx_name)
            .map_err(|e| InstallError::io("open", staging.join(tx_name), e))?;
        self.staged.push((
            Staged {
                dir: agent,
                staging,
                staging_name,
                tx,
                name: self.journal.transaction.clone(),
            },
            at,
        ));
        Ok(())
    }

    /// Notes in the journal, per swap, what stands in the skill's place
    /// now and what was staged for it: the entries that move each way.
    fn note_moves(&mut self) -> Result<(), InstallError> {
        for (staged, at) in &self.staged {
            let new = open_sub(&staged.tx, "new")?;
            for swap in &mut self.journal.dirs[*at].swaps {
                let name = OsStr::new(&swap.name);
                let live = staged
                    .dir
                    .stat(name)
                    .map_err(|e| InstallError::io("read", staged.dir.join(name), e))?;
                swap.had_live = live.is_some();
                swap.live = live.map(Moved::of);
                if swap.has_new {
                    let staged_new = new
                        .stat(name)
                        .map_err(|e| InstallError::io("read", new.join(name), e))?;
                    swap.new = staged_new.map(Moved::of);
                }
            }
        }
        Ok(())
    }

    /// Swaps each skill: what is in its place renamed aside into `old`,
    /// then the staged one renamed in from `new`.
    fn swap_all(&self, ops: &Ops) -> Result<(), InstallError> {
        for (staged, at) in &self.staged {
            let (old, new) = (open_sub(&staged.tx, "old")?, open_sub(&staged.tx, "new")?);
            for swap in &self.journal.dirs[*at].swaps {
                let name = OsStr::new(&swap.name);
                if swap.had_live {
                    ops.rename(&staged.dir, name, &old, name)
                        .map_err(|e| InstallError::io("move aside", staged.dir.join(name), e))?;
                }
                if swap.has_new {
                    ops.rename(&new, name, &staged.dir, name)
                        .map_err(|e| InstallError::io("move in", staged.dir.join(name), e))?;
                }
            }
        }
        Ok(())
    }
}

/// Opens the folder `sub` (`new` or `old`) of a transaction's folder `tx`.
fn open_sub(tx: &Dir, sub: &str) -> Result<Dir, InstallError> {
    tx.open_dir(OsStr::new(sub))
        .map_err(|e| InstallError::io("open", tx.join(sub), e))
}

/// Makes the `new` and `old` folders of the staging folder `staged`, and
/// builds in `new` each skill of `dir` that the plan writes.
fn stage_skills(
    dir: &DirPlan,
    staged: &Staged,
    payloads: &[Payload<'_>],
    record: &mut Record,
    ops: &Ops,
) -> Result<(), InstallError> {
    let Staged { dir: agent, tx, .. } = staged;
    for sub in ["new", "old"] {
        ops.create_dir(tx, OsStr::new(sub))
            .map_err(|e| InstallError::io("create", tx.join(sub), e))?;
    }
    let new = open_sub(tx, "new")?;
    for skill in dir.skills.iter().filter(|skill| skill.change.writes()) {
        let payload = skill.work.payload.and_then(|at| payloads.get(at));
        let name = OsStr::new(&skill.name);
        match &skill.work.outcome {
            Outcome::Same | Outcome::Gone => {}
            Outcome::Folder { write, carry } => {
                let payload = write.then_some(payload).flatten();
                stage_folder(&new, name, agent, payload, carry, ops)?;
            }
            Outcome::Link(target) => {
                let linked = ops
                    .symlink(target, &new, name)
                    .map_err(|e| InstallError::io("link", new.join(name), e))?;
                if !linked {
                    // Links cannot be made here: a copy instead.
                    stage_folder(&new, name, agent, payload, &[], ops)?;
                    record_copy(record, &dir.shown, &skill.name, payload);
                }
            }
        }
    }
    Ok(())
}

/// Records the copy staged where a link could not be made: the skill's
/// entry in folder `shown` says what the copy holds.
fn record_copy(record: &mut Record, shown: &str, name: &str, payload: Option<&Payload<'_>>) {
    if let Some(entry) = record
        .dirs
        .get_mut(shown)
        .and_then(|entry| entry.skills.get_mut(name))
        && let Some(payload) = payload
    {
        *entry = payload.copy_record();
    }
}

/// Builds skill folder `name` in the staging folder `new`: the payload's
/// files (if any), then the entries of the present folder (`name` in the
/// agent's folder `agent`) listed in `carry`.
fn stage_folder(
    new: &Dir,
    name: &OsStr,
    agent: &Dir,
    payload: Option<&Payload<'_>>,
    carry: &[PathBuf],
    ops: &Ops,
) -> Result<(), InstallError> {
    ops.create_dir(new, name)
        .map_err(|e| InstallError::io("create", new.join(name), e))?;
    let skill = new
        .open_dir(name)
        .map_err(|e| InstallError::io("open", new.join(name), e))?;
    if let Some(payload) = payload {
        for file in &payload.files {
            let path = tree::relative(file.path);
            let (parent, last) = split(&path);
            let at = ensure_dirs(&skill, parent, ops)?;
            ops.write_new(&at, last, &file.bytes, file.exec)
                .map_err(|e| InstallError::io("write", skill.join(&path), e))?;
        }
    }
    if carry.is_empty() {
        return Ok(());
    }
    let live = agent
        .open_dir(name)
        .map_err(|e| InstallError::io("open", agent.join(name), e))?;
    for relative in carry {
        let (parent, last) = split(relative);
        let from = live
            .open_dirs(parent)
            .map_err(|e| InstallError::io("open", live.join(parent), e))?;
        let to = ensure_dirs(&skill, parent, ops)?;
        match from.stat(last) {
            Ok(Some(stat)) if stat.kind == Kind::Dir => {
                ops.ensure_dir(&to, last)
                    .map_err(|e| InstallError::io("create", to.join(last), e))?;
            }
            Ok(Some(_)) => ops
                .carry(&from, last, &to, last)
                .map_err(|e| InstallError::io("carry over", live.join(relative), e))?,
            Ok(None) => {
                return Err(InstallError::io(
                    "carry over",
                    live.join(relative),
                    std::io::Error::from(std::io::ErrorKind::NotFound),
                ));
            }
            Err(e) => return Err(InstallError::io("read", live.join(relative), e)),
        }
    }
    Ok(())
}

/// A relative path's folder and last name.
fn split(path: &Path) -> (&Path, &OsStr) {
    (
        path.parent().unwrap_or(Path::new("")),
        path.file_name().unwrap_or_default(),
    )
}

/// Opens (making the missing ones) the folders of the relative `path`
/// below `root`.
fn ensure_dirs(root: &Dir, path: &Path, ops: &Ops) -> Result<Dir, InstallError> {
    let mut at = root
        .try_clone()
        .map_err(|e| InstallError::io("open", root.path(), e))?;
    for part in parts(path) {
        let (next, _) = ops
            .ensure_dir(&at, &part)
            .map_err(|e| InstallError::io("create", at.join(&part), e))?;
        at = next;
    }
    Ok(at)
}

/// After the commit: the staging folders removed, the journal, and after
/// an uninstall the folders this tool created and left empty; the record
/// itself when it lists nothing. Failures here change nothing that matters
/// (a later run removes what is left), so they are not errors.
fn cleanup(
    plan: &Plan,
    opened: &Opened,
    record: &Record,
    tx: &Transaction<'_>,
    ops: &Ops,
    state: &StateDir,
) {
    let mut swept = true;
    for (staged, _) in &tx.staged {
        swept &= staged.remove(ops).is_ok();
    }
    // The journal goes last: while a staging folder is left, the next
    // run finds it through the journal and removes it.
    if swept {
        let _ = ops.remove_file(state.dir(), OsStr::new(&tx.journal_name));
    }
    if plan.operation == Operation::Uninstall {
        let mut created: BTreeSet<&str> = BTreeSet::new();
        for dir in &plan.dirs {
            if record.dirs.contains_key(&dir.shown) {
                continue;
            }
            if let Some(entry) = plan.record.dirs.get(&dir.shown) {
                // Only what this tool created itself, not what a claim says.
                let own = entry
                    .created
                    .iter()
                    .filter(|folder| plan.owned.created(&dir.shown, folder));
                created.extend(own.map(String::as_str));
            }
        }
        // Deepest first; a folder that is not empty stays.
        for folder in created.iter().rev() {
            remove_empty(&opened.base, Path::new(folder), ops);
        }
    }
    if record.is_empty() {
        // Nothing of the installer stays behind: the record, and its
        // folder and `.agents` if that leaves them empty.
        opened.record.remove(&opened.base, ops);
    }
}

/// Removes the folder `path` (relative to the base `base`, or absolute)
/// if it is empty, through no link.
fn remove_empty(base: &Dir, path: &Path, ops: &Ops) {
    let (parent, last) = split(path);
    let dir = match path.is_absolute() {
        true => Dir::open(parent),
        false => base.open_dirs(parent),
    };
    if let Ok(dir) = dir {
        let _ = ops.remove_dir(&dir, last);
    }
}

/// Whether carrying `plan` out writes anything: a skill changes, or the
/// record's entries do (a skill the record does not list yet, one an
/// uninstall forgets), or an install stamps a new version. An uninstall
/// that changes no entry writes nothing. Worked out entry by entry, with
/// no copy of the record.
pub(crate) fn needs_write(plan: &Plan, stamp: &Stamp<'_>) -> bool {
    if plan.changes() {
        return true;
    }
    let record = &plan.record;
    let mut adds = false;
    for dir in &plan.dirs {
        let entry = record.dirs.get(&dir.shown);
        if plan.operation == Operation::Install
            && entry.is_some_and(|entry| {
                dir.agents
                    .iter()
                    .any(|agent| !entry.agents.contains(agent.id))
            })
        {
            return true;
        }
        for skill in dir.skills.iter().filter(|skill| !skill.work.keeps) {
            let was = entry.and_then(|entry| entry.skills.get(&skill.name));
            adds |= skill.work.after.is_some();
            if skill.work.after.as_ref() != was {
                return true;
            }
        }
    }
    let stamped = record.tool == stamp.tool
        && record.version == stamp.version
        && record.bundle_revision == stamp.bundle_revision
        && record.scope == plan.target.scope.as_str();
    plan.operation == Operation::Install && !stamped && (adds || !record.is_empty())
}
