//! Carrying a plan out so that every skill is wholly old or wholly new,
//! whatever fails: each skill is built in a staging folder beside the
//! skills (`<dir>/.skills-staging/<transaction>/new/<name>`, one level
//! deeper than agents look), then the present folder is renamed aside
//! (`old/<name>`) and the new one renamed in. A journal in the staging
//! folder says which skills the transaction swaps; the record, written
//! last, names the transaction it completes. On an error every swap is
//! undone; a run that was killed is finished or undone by the next one,
//! which finds the staging folder and the record and knows which.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::prelude::rust_2024::*;

use super::error::InstallError;
use super::ops::Ops;
use super::payload::Payload;
use super::plan::{Operation, Outcome, Plan, STAGING, file_safe};
use super::record::Record;
use super::target::shown;
use super::tree;

/// The journal's name in a transaction's staging folder.
const JOURNAL: &str = "journal";

/// The prefix of this tool's transactions in a scope (other tools' staging
/// folders are theirs to recover).
pub(crate) fn transaction_prefix(tool: &str, plan: &Plan) -> String {
    format!("{}.{}.", file_safe(tool), plan.scope)
}

/// What the apply writes into the record besides the plan's entries.
#[derive(Debug)]
pub(crate) struct Stamp<'a> {
    pub tool: &'a str,
    pub version: &'a str,
    pub bundle_revision: String,
}

/// One skill swapped by a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Swap {
    name: String,
    /// Whether something was at the skill's place (moved to `old/`).
    had_live: bool,
    /// Whether a new entry was staged (moved in from `new/`).
    has_new: bool,
}

/// Finishes or undoes the transactions of this tool left in `dirs` by a
/// run that stopped: one the record names completed (its old folders are
/// removed); any other is undone.
pub(crate) fn recover<'p>(
    dirs: impl IntoIterator<Item = &'p Path>,
    prefix: &str,
    committed: &str,
    ops: &Ops,
) -> Result<(), InstallError> {
    for dir in dirs {
        let staging = dir.join(STAGING);
        let Ok(items) = fs::read_dir(&staging) else {
            continue;
        };
        for item in items.flatten() {
            let name = item.file_name().to_string_lossy().into_owned();
            if !name.starts_with(prefix) {
                continue;
            }
            let tx = item.path();
            if name != committed {
                let swaps = read_journal(&tx);
                undo(dir, &tx, &swaps, ops)?;
            }
            ops.remove_all(&tx)
                .map_err(|e| InstallError::io("remove", &tx, e))?;
        }
        let _ = fs::remove_dir(&staging);
    }
    Ok(())
}

fn read_journal(tx: &Path) -> Vec<Swap> {
    let text = fs::read_to_string(tx.join(JOURNAL)).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split('\t');
            let (name, had, new) = (parts.next()?, parts.next()?, parts.next()?);
            Some(Swap {
                name: name.to_string(),
                had_live: had == "1",
                has_new: new == "1",
            })
        })
        .collect()
}

fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// Puts every skill of a transaction back as it was: the new entry moved
/// out of the way (into the staging folder, removed with it), the old one
/// moved back.
fn undo(dir: &Path, tx: &Path, swaps: &[Swap], ops: &Ops) -> Result<(), InstallError> {
    for swap in swaps.iter().rev() {
        let live = dir.join(&swap.name);
        let old = tx.join("old").join(&swap.name);
        let new = tx.join("new").join(&swap.name);
        let swapped_out = exists(&old);
        let swapped_in = swap.has_new && !exists(&new) && (!swap.had_live || swapped_out);
        if swapped_in && exists(&live) {
            let aside = tx.join("undone");
            if !exists(&aside) {
                ops.create_dir(&aside)
                    .map_err(|e| InstallError::io("create", &aside, e))?;
            }
            let aside = aside.join(&swap.name);
            ops.rename(&live, &aside)
                .map_err(|e| InstallError::io("move aside", &live, e))?;
        }
        if swapped_out && !exists(&live) {
            ops.rename(&old, &live)
                .map_err(|e| InstallError::io("restore", &live, e))?;
        }
    }
    Ok(())
}

/// Carries out `plan` (already checked against the disk under the lock).
/// Returns the record written.
pub(crate) fn execute(
    plan: &Plan,
    payloads: &[Payload<'_>],
    stamp: &Stamp<'_>,
    ops: &Ops,
) -> Result<Record, InstallError> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tx_name = format!(
        "{}{}-{nanos}",
        transaction_prefix(stamp.tool, plan),
        std::process::id()
    );
    let mut record = next_record(plan, stamp, &tx_name);
    let mut created: Vec<PathBuf> = Vec::new();
    let mut staged: Vec<(PathBuf, PathBuf, Vec<Swap>)> = Vec::new();
    let result = run(
        plan,
        payloads,
        ops,
        &tx_name,
        &mut record,
        &mut created,
        &mut staged,
    );
    match result {
        Ok(()) => {
            cleanup(plan, &record, &staged, ops);
            Ok(record)
        }
        Err(error) if ops.crashed() => Err(error),
        Err(error) => {
            for (dir, tx, swaps) in staged.iter().rev() {
                undo(dir, tx, swaps, ops)?;
                let _ = ops.remove_all(tx);
                let _ = fs::remove_dir(dir.join(STAGING));
            }
            for dir in created.iter().rev() {
                let _ = ops.remove_dir(dir);
            }
            Err(error)
        }
    }
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

#[allow(clippy::too_many_arguments)]
fn run(
    plan: &Plan,
    payloads: &[Payload<'_>],
    ops: &Ops,
    tx_name: &str,
    record: &mut Record,
    created: &mut Vec<PathBuf>,
    staged: &mut Vec<(PathBuf, PathBuf, Vec<Swap>)>,
) -> Result<(), InstallError> {
    // Stage every skill of every folder.
    for dir in &plan.dirs {
        let changing: Vec<_> = dir.skills.iter().filter(|s| s.change.writes()).collect();
        if changing.is_empty() {
            continue;
        }
        for path in &dir.missing {
            if !exists(path) {
                ops.create_dir(path)
                    .map_err(|e| InstallError::io("create", path, e))?;
                created.push(path.clone());
            }
        }
        let staging = dir.path.join(STAGING);
        if !exists(&staging) {
            ops.create_dir(&staging)
                .map_err(|e| InstallError::io("create", &staging, e))?;
            created.push(staging.clone());
        }
        let tx = staging.join(tx_name);
        ops.create_dir(&tx)
            .map_err(|e| InstallError::io("create", &tx, e))?;
        staged.push((dir.path.clone(), tx.clone(), Vec::new()));
        for sub in ["new", "old"] {
            let path = tx.join(sub);
            ops.create_dir(&path)
                .map_err(|e| InstallError::io("create", &path, e))?;
        }
        let mut swaps = Vec::new();
        for skill in changing {
            let live = dir.path.join(&skill.name);
            let new = tx.join("new").join(&skill.name);
            let payload = skill.work.payload.and_then(|at| payloads.get(at));
            let has_new = match &skill.work.outcome {
                Outcome::Same | Outcome::Gone => false,
                Outcome::Folder { write, carry } => {
                    stage_folder(&new, &live, write.then_some(payload).flatten(), carry, ops)?;
                    true
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
                    true
                }
            };
            swaps.push(Swap {
                name: skill.name.clone(),
                had_live: exists(&live),
                has_new,
            });
        }
        let journal: String = swaps
            .iter()
            .map(|s| {
                format!(
                    "{}\t{}\t{}\n",
                    s.name,
                    u8::from(s.had_live),
                    u8::from(s.has_new)
                )
            })
            .collect();
        let path = tx.join(JOURNAL);
        ops.write_new(&path, journal.as_bytes(), false)
            .map_err(|e| InstallError::io("write", &path, e))?;
        if let Some(last) = staged.last_mut() {
            last.2 = swaps;
        }
    }
    // Swap them in.
    for (dir, tx, swaps) in staged.iter() {
        for swap in swaps {
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
    ops.replace_file(path, record.to_json().as_bytes())
        .map_err(|e| InstallError::io("write", path, e))
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
fn cleanup(plan: &Plan, record: &Record, staged: &[(PathBuf, PathBuf, Vec<Swap>)], ops: &Ops) {
    for (dir, tx, _) in staged {
        let _ = ops.remove_all(tx);
        let _ = fs::remove_dir(dir.join(STAGING));
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
        let _ = fs::remove_file(&plan.record_path);
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
