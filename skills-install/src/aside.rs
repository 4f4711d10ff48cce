//! Moving a user's copy aside in a plain folder: what `force`, and the
//! replace policy, do with a skill folder that is in the way, beside it as
//! `<name>.user-<n>`, so nothing of the user's is deleted.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;

use crate::dir::Dir;
use crate::env::Environment;
use crate::error::InstallError;
use crate::lock;
use crate::ops::Ops;
use crate::plan::{Change, Operation, Plan, State};
use crate::refresh::outcome::Kept;
use crate::scope::Scope;
use crate::state::StateDir;

/// Moves each embedded skill's copy the install `plan` conflicts on
/// (or, with `held`, leaves as it is): the user changed it, or
/// something else stands there; aside to `<name>.user-<n>`, under the
/// lock. Returns what was moved.
pub(crate) fn move_aside(
    env: &Environment,
    base: &Path,
    plan: &Plan,
    held: bool,
) -> Result<Vec<Kept>, InstallError> {
    if plan.operation != Operation::Install {
        return Ok(Vec::new());
    }
    let held: Vec<(&str, State)> = plan
        .dirs
        .iter()
        .flat_map(|dir| &dir.skills)
        .filter(|skill| skill.work.payload.is_some())
        .filter(|skill| (held && skill.change == Change::Leave) || !skill.conflicts.is_empty())
        .filter(|skill| matches!(skill.state, State::Modified | State::NotOurs))
        .map(|skill| (skill.name.as_str(), skill.state))
        .collect();
    if held.is_empty() {
        return Ok(Vec::new());
    }
    let state = StateDir::create(env, base, Scope::Folder)?;
    let _lock = lock::exclusive(&state)?;
    let dir = Dir::open(base).map_err(|e| InstallError::io("open", base, e))?;
    let ops = Ops::default();
    let mut moved = Vec::new();
    for (name, skill_state) in held {
        let Some(aside) = free_name(&dir, name)? else {
            continue;
        };
        match ops.rename(&dir, OsStr::new(name), &dir, &aside) {
            Ok(()) => {}
            // Another start moved it first.
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => return Err(InstallError::io("move aside", dir.join(name), error)),
        }
        moved.push(Kept {
            dir: ".".to_string(),
            name: name.to_string(),
            state: skill_state,
            embedded: true,
            told: true,
            aside: Some(aside.to_string_lossy().into_owned()),
        });
    }
    Ok(moved)
}

/// The first `<name>.user-<n>` (n from 1) not in `dir`; `None` when
/// `name` itself is gone (another start moved it).
fn free_name(dir: &Dir, name: &str) -> Result<Option<OsString>, InstallError> {
    let stat = |entry: &OsStr| {
        dir.stat(entry)
            .map_err(|e| InstallError::io("read", dir.join(entry), e))
    };
    if stat(OsStr::new(name))?.is_none() {
        return Ok(None);
    }
    for n in 1u32.. {
        let aside = OsString::from(format!("{name}.user-{n}"));
        if stat(&aside)?.is_none() {
            return Ok(Some(aside));
        }
    }
    Ok(None)
}
