//! Carrying a plan out so that every skill is wholly old or wholly new,
//! whatever fails: each skill is built in a staging folder beside the
//! skills (`<dir>/.skills-staging/<transaction>/new/<name>`, one level
//! deeper than agents look), then the present folder is renamed aside
//! (`old/<name>`) and the new one renamed in. A [`Journal`] in the user's
//! state folder says which skills the transaction swaps; the record,
//! written last, names the transaction it completes. On an error every
//! swap is undone; a run that was killed is finished or undone by the next
//! one, which finds the journal and the record and knows which.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::error::InstallError;
use super::journal::{Journal, JournalDir, STAGING, Swap, exists, transaction_prefix, undo};
use super::ops::Ops;
use super::payload::Payload;
use super::plan::{Operation, Outcome, Plan};
use super::record::Record;
use super::target::shown;
use super::tree;

/// What the apply writes into the record besides the plan's entries.
#[derive(Debug)]
pub(crate) struct Stamp<'a> {
    pub tool: &'a str,
    pub version: &'a str,
    pub bundle_revision: String,
}

/// Carries out `plan` (already checked against the disk under the lock),
/// its journal kept in the scope's state folder `state_dir`. Returns the
/// record written.
pub(crate) fn execute(
    plan: &Plan,
    payloads: &[Payload<'_>],
    stamp: &Stamp<'_>,
    ops: &Ops,
    state_dir: &Path,
) -> Result<Record, InstallError> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tx_name = format!(
        "{}{}-{nanos}",
        transaction_prefix(stamp.tool, plan.scope),
        std::process::id()
    );
    let mut record = next_record(plan, stamp, &tx_name);
    let mut tx = Transaction {
        plan,
        journal_path: Journal::path(state_dir, &tx_name),
        journal: journal_of(plan, &tx_name),
        created: Vec::new(),
        staged: Vec::new(),
    };
    match tx.run(payloads, ops, &mut record) {
        Ok(()) => {
            cleanup(plan, &record, &tx, ops);
            Ok(record)
        }
        Err(error) if ops.crashed() => Err(error),
        Err(error) => {
            for (dir, staged, at) in tx.staged.iter().rev() {
                undo(dir, staged, &tx.journal.dirs[*at].swaps, ops)?;
                let _ = ops.remove_all(staged);
                let _ = fs::remove_dir(dir.join(STAGING));
            }
            for dir in tx.created.iter().rev() {
                let _ = ops.remove_dir(dir);
            }
            let _ = fs::remove_file(&tx.journal_path);
            Err(error)
        }
    }
}

/// The journal of carrying `plan` out: per folder that changes, the
/// skills swapped, whether each has something in its place now and
/// whether a new entry goes there.
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
                    had_live: exists(&dir.path.join(&skill.name)),
                    has_new: matches!(
                        skill.work.outcome,
                        Outcome::Folder { .. } | Outcome::Link(_)
                    ),
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
    journal_path: PathBuf,
    /// The folders created, outermost first.
    created: Vec<PathBuf>,
    /// The staging folders made: the agent folder, the transaction's
    /// folder in its staging folder, and its entry in the journal.
    staged: Vec<(PathBuf, PathBuf, usize)>,
}

/// The record after the plan: its entries updated, stamped.
fn next_record(plan: &Plan, stamp: &Stamp<'_>, tx: &str) -> Record {
    let mut record = plan.record.clone();
    record.tool = stamp.tool.to_string();
    record.version = stamp.version.to_string();
    record.scope = plan.scope.to_string();
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
        for skill in &dir.skills {
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

impl Transaction<'_> {
    fn write_journal(&self, ops: &Ops) -> Result<(), InstallError> {
        let path = &self.journal_path;
        ops.replace_file(path, self.journal.to_json().as_bytes())
            .map_err(|e| InstallError::io("write", path, e))
    }

    fn run(
        &mut self,
        payloads: &[Payload<'_>],
        ops: &Ops,
        record: &mut Record,
    ) -> Result<(), InstallError> {
        // The journal first: a run killed from here on is undone by the next.
        self.write_journal(ops)?;
        // Stage every skill of every folder.
        let plan = self.plan;
        let changing = plan
            .dirs
            .iter()
            .filter(|dir| dir.skills.iter().any(|skill| skill.change.writes()));
        for (at, dir) in changing.enumerate() {
            for path in &dir.missing {
                if !exists(path) {
                    ops.create_dir(path)
                        .map_err(|e| InstallError::io("create", path, e))?;
                    self.created.push(path.clone());
                }
            }
            let staging = dir.path.join(STAGING);
            if !exists(&staging) {
                ops.create_dir(&staging)
                    .map_err(|e| InstallError::io("create", &staging, e))?;
                self.created.push(staging.clone());
            }
            let tx = staging.join(&self.journal.transaction);
            ops.create_dir(&tx)
                .map_err(|e| InstallError::io("create", &tx, e))?;
            self.staged.push((dir.path.clone(), tx.clone(), at));
            for sub in ["new", "old"] {
                let path = tx.join(sub);
                ops.create_dir(&path)
                    .map_err(|e| InstallError::io("create", &path, e))?;
            }
            for skill in dir.skills.iter().filter(|skill| skill.change.writes()) {
                let live = dir.path.join(&skill.name);
                let new = tx.join("new").join(&skill.name);
                let payload = skill.work.payload.and_then(|at| payloads.get(at));
                match &skill.work.outcome {
                    Outcome::Same | Outcome::Gone => {}
                    Outcome::Folder { write, carry } => {
                        stage_folder(&new, &live, write.then_some(payload).flatten(), carry, ops)?;
                    }
                    Outcome::Link(target) => {
                        let linked = ops
                            .symlink(target, &new)
                            .map_err(|e| InstallError::io("link", &new, e))?;
                        if !linked {
                            // Links cannot be made here: a copy instead.
                            stage_folder(&new, &live, payload, &[], ops)?;
                            if let Some(entry) = record
                                .dirs
                                .get_mut(&dir.shown)
                                .and_then(|entry| entry.skills.get_mut(&skill.name))
                                && let Some(payload) = payload
                            {
                                *entry = payload.copy_record();
                            }
                        }
                    }
                }
            }
        }
        // Swap them in, the journal saying so first.
        self.journal.swapping = true;
        self.write_journal(ops)?;
        for (dir, tx, at) in &self.staged {
            for swap in &self.journal.dirs[*at].swaps {
                let live = dir.join(&swap.name);
                if swap.had_live {
                    let old = tx.join("old").join(&swap.name);
                    ops.rename(&live, &old)
                        .map_err(|e| InstallError::io("move aside", &live, e))?;
                }
                if swap.has_new {
                    let new = tx.join("new").join(&swap.name);
                    ops.rename(&new, &live)
                        .map_err(|e| InstallError::io("move in", &live, e))?;
                }
            }
        }
        // Commit: the record names the transaction.
        let path = &plan.record_path;
        if let Some(inside) = path
            .parent()
            .and_then(|dir| dir.strip_prefix(&plan.base).ok())
        {
            let mut at = plan.base.clone();
            for part in inside.components() {
                at.push(part);
                if !exists(&at) {
                    ops.create_dir(&at)
                        .map_err(|e| InstallError::io("create", &at, e))?;
                    self.created.push(at.clone());
                }
            }
        }
        ops.replace_file(path, record.to_json().as_bytes())
            .map_err(|e| InstallError::io("write", path, e))
    }
}

/// Builds a skill folder at `new`: the payload's files (if any), then the
/// entries of the present folder `live` listed in `carry`.
fn stage_folder(
    new: &Path,
    live: &Path,
    payload: Option<&Payload<'_>>,
    carry: &[PathBuf],
    ops: &Ops,
) -> Result<(), InstallError> {
    ops.create_dir(new)
        .map_err(|e| InstallError::io("create", new, e))?;
    if let Some(payload) = payload {
        for file in &payload.files {
            let path = new.join(tree::relative(file.path));
            ensure_parents(new, &path, ops)?;
            ops.write_new(&path, &file.bytes, file.exec)
                .map_err(|e| InstallError::io("write", &path, e))?;
        }
    }
    for relative in carry {
        let from = live.join(relative);
        let to = new.join(relative);
        ensure_parents(new, &to, ops)?;
        let is_dir = from.symlink_metadata().is_ok_and(|meta| meta.is_dir());
        if is_dir {
            if !exists(&to) {
                ops.create_dir(&to)
                    .map_err(|e| InstallError::io("create", &to, e))?;
            }
        } else {
            ops.carry(&from, &to)
                .map_err(|e| InstallError::io("carry over", &from, e))?;
        }
    }
    Ok(())
}

/// Creates the folders between `root` (which exists) and `path`'s parent.
fn ensure_parents(root: &Path, path: &Path, ops: &Ops) -> Result<(), InstallError> {
    let Some(parent) = path.parent() else {
        return Ok(());
    };
    let Ok(inside) = parent.strip_prefix(root) else {
        return Ok(());
    };
    let mut at = root.to_path_buf();
    for part in inside.components() {
        at.push(part);
        if !exists(&at) {
            ops.create_dir(&at)
                .map_err(|e| InstallError::io("create", &at, e))?;
        }
    }
    Ok(())
}

/// After the commit: the old folders removed, and after an uninstall the
/// folders we created and left empty. Failures here change nothing that
/// matters (a later run removes what is left), so they are not errors.
fn cleanup(plan: &Plan, record: &Record, tx: &Transaction<'_>, ops: &Ops) {
    let mut swept = true;
    for (dir, staged, _) in &tx.staged {
        swept &= ops.remove_all(staged).is_ok();
        let _ = fs::remove_dir(dir.join(STAGING));
    }
    // The journal goes last: while a staging folder is left, the next
    // run finds it through the journal and removes it.
    if swept {
        let _ = ops.remove_all(&tx.journal_path);
    }
    if plan.operation == Operation::Uninstall {
        let mut created: BTreeSet<PathBuf> = BTreeSet::new();
        for dir in &plan.dirs {
            if record.dirs.contains_key(&dir.shown) {
                continue;
            }
            if let Some(entry) = plan.record.dirs.get(&dir.shown) {
                created.extend(entry.created.iter().map(|path| plan.base.join(path)));
            }
        }
        // Deepest first; a folder that is not empty stays.
        for path in created.iter().rev() {
            let _ = fs::remove_dir(path);
        }
    }
    if record.is_empty() {
        // Nothing of the installer stays behind: the record, and its
        // folder and `.agents` if that leaves them empty.
        let _ = fs::remove_file(&plan.record_path);
        if let Some(record_dir) = plan.record_path.parent() {
            let _ = fs::remove_dir(record_dir);
            if let Some(agents) = record_dir.parent() {
                let _ = fs::remove_dir(agents);
            }
        }
    }
}

/// Whether carrying `plan` out writes anything: a skill changes, or the
/// record does (a skill found up to date by its bytes that the record
/// does not list yet, a new version).
pub(crate) fn needs_write(plan: &Plan, stamp: &Stamp<'_>) -> bool {
    if plan.changes() {
        return true;
    }
    let next = next_record(plan, stamp, &plan.record.transaction);
    !(next == plan.record || next.is_empty() && plan.record.is_empty())
}
