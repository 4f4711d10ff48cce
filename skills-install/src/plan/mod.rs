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
//! matching bytes, and a record entry this tool did not write here is a
//! claim) and [`links`] (no shared copy removed under a link that stays).
//! Whatever the plan reads (the record, the folders) may have been written
//! by a stranger: the record is read through its folder as opened and
//! checked whole, every agent folder must be an agent's own folder (not
//! `.git`, the project root, or anything else a link leads to), and in the
//! project scope none may lead out of the project. Each folder is opened
//! once, no link followed, and read (and, by an apply, changed) relative
//! to that handle only ([`Opened`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::dir::Dir;
use crate::error::InstallError;
use crate::journal;
use crate::owned::{self, Owned};
use crate::place::Place;
use crate::record::Record;
use crate::state::StateDir;
use crate::state::transaction_prefix;
use crate::target::Target;

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
use planner::Planner;
pub(crate) use planner::{Anchor, Context};
pub(crate) use verdicts::all_up_to_date;
pub use verdicts::{Change, Conflict, ConflictKind, FileAction, FileChange, State};

/// The folders a plan read, open: what an apply changes, relative to the
/// same handles.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The scope's base.
    pub base: Dir,
    /// The record.
    pub record: Place,
    /// Per agent folder ([`DirPlan::path`]), where it is.
    pub dirs: BTreeMap<PathBuf, Anchor>,
}

/// Works out the plan in the scope's `base` (as `real_base` found it),
/// and returns it with the folders it read, open. Reads only.
///
/// With no agent named, an install goes to the [`DEFAULT_AGENTS`] and to
/// every folder the record names (so an update reaches them all); an
/// uninstall and a status (`recorded_only`) to the folders the record
/// names, or the default agents' when it names none.
///
/// [`DEFAULT_AGENTS`]: crate::agents::DEFAULT_AGENTS
pub(crate) fn plan(
    ctx: &Context<'_, '_>,
    target: &Target,
    base: PathBuf,
    operation: Operation,
    recorded_only: bool,
) -> Result<(Plan, Opened), InstallError> {
    let base_dir = Dir::open(&base).map_err(|e| InstallError::io("open", &base, e))?;
    let place = Place::find(&base_dir, target.scope, ctx.tool)?;
    let record = place.read()?.unwrap_or_else(|| Record {
        tool: ctx.tool.to_string(),
        scope: target.scope.to_string(),
        ..Record::default()
    });
    let owned = Owned::read(
        ctx.state.map(StateDir::dir),
        &owned::file_name(ctx.tool, target.scope),
    );
    let mut planner = Planner {
        ctx,
        target,
        operation,
        base,
        base_dir,
        record,
        owned,
        anchors: BTreeMap::new(),
        problems: Vec::new(),
    };
    let selection = planner.select()?;
    let mut dirs = planner.folders(recorded_only || operation == Operation::Uninstall);
    let store = planner.layout(&mut dirs);
    planner.guard(&dirs);
    planner.judge(&mut dirs, &selection, store.as_deref());
    planner.keep_linked(&dirs, store.as_deref());
    let unfinished = journal::pending(ctx.state, &transaction_prefix(ctx.tool, target.scope));
    let claims = !planner.owned.owns_all(&planner.record);
    let plan = Plan {
        operation,
        scope: target.scope,
        base: planner.base,
        record_path: place.path.clone(),
        dirs,
        problems: planner.problems,
        force: target.force,
        unfinished,
        claims,
        target: target.clone(),
        record: planner.record,
        owned: planner.owned,
    };
    let opened = Opened {
        base: planner.base_dir,
        record: place,
        dirs: planner.anchors,
    };
    Ok((plan, opened))
}
