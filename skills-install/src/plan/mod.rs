//! The plan: for every agent folder and skill, what is there now (up to
//! date, outdated, modified, missing, not installed by this tool), what
//! would change (files added, replaced, removed; a link made) and every
//! conflict, worked out before anything is written. `status` is the same
//! reading, shown.
//!
//! A plan is made in stages, each a module: [`select`] (which skills),
//! [`folders`] (which agent folders, and whether they may be written),
//! [`layout`] (copies or links to the shared copy), [`skills`] (each skill
//! in each folder, judged by [`judge`]: ownership is the record, never
//! matching bytes) and [`links`] (no shared copy removed under a link that
//! stays). Whatever the plan reads (the record, the folders) may have been
//! written by a stranger: the record is checked whole when read, a folder
//! the record names must be an agent's folder of this scope, and in the
//! project scope no folder the plan would write may lead out of the
//! project through a link.

use std::path::Path;

use crate::error::InstallError;
use crate::journal::{self, transaction_prefix};
use crate::names::file_safe;
use crate::open::{RECORD_CAP, read_state};
use crate::record::{RECORD_DIR, Record, RecordError};
use crate::state;
use crate::target::{Scope, Target};

mod folders;
mod judge;
mod layout;
mod links;
mod model;
mod planner;
mod select;
mod skills;
mod verdicts;

pub(crate) use folders::{agent_folders, real_base};
pub(crate) use model::Outcome;
pub use model::{DirPlan, Operation, Plan, SkillPlan};
pub(crate) use planner::Context;
use planner::Planner;
pub(crate) use verdicts::all_up_to_date;
pub use verdicts::{Change, Conflict, ConflictKind, FileAction, FileChange, State};

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
    let base = real_base(ctx.env, target)?;
    let record_path = base
        .join(RECORD_DIR)
        .join(record_file(ctx.tool, target.scope));
    let record = read_record(&record_path)?.unwrap_or_else(|| Record {
        tool: ctx.tool.to_string(),
        scope: target.scope.to_string(),
        ..Record::default()
    });
    let mut planner = Planner {
        ctx,
        target,
        operation,
        base,
        record,
        problems: Vec::new(),
    };
    let selection = planner.select()?;
    let mut dirs = planner.folders(recorded_only || operation == Operation::Uninstall);
    let store = planner.layout(&mut dirs);
    planner.guard(&dirs);
    planner.judge(&mut dirs, &selection, store.as_deref());
    planner.keep_linked(&dirs, store.as_deref());
    let unfinished = state::scope_dir(ctx.env, &planner.base).is_ok_and(|state_dir| {
        journal::pending(&state_dir, &transaction_prefix(ctx.tool, target.scope))
    });
    Ok(Plan {
        operation,
        scope: target.scope,
        base: planner.base,
        record_path,
        dirs,
        problems: planner.problems,
        force: target.force,
        unfinished,
        target: target.clone(),
        record: planner.record,
    })
}

/// The record's file name for a tool and scope: `<tool>.<scope>.json`, the
/// tool's name kept to `[A-Za-z0-9._-]`.
pub(crate) fn record_file(tool: &str, scope: Scope) -> String {
    format!("{}.{scope}.json", file_safe(tool))
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
