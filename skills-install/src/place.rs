//! Where a scope's record is kept (`<base>/.agents/.skills-install/
//! <tool>.<scope>.json`), and reading and writing it through its folder
//! as opened from the scope's base, one name at a time.
//!
//! In a project no link is followed on the way: `.agents` or
//! `.agents/.skills-install` committed as a link (to a record elsewhere,
//! or to a folder outside) is refused before anything is read through it.
//! For the user, a link on the way is followed as for the agents' folders
//! (`~/.agents` kept in a dotfiles repository), and the folder is then
//! opened at the real path it leads to, no link followed from there.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};

use crate::dir::{Dir, Kind};
use crate::error::InstallError;
use crate::names::file_safe;
use crate::ops::Ops;
use crate::record::{RECORD_CAP, RECORD_DIR, Record, RecordError};
use crate::scope::Scope;
use crate::state::FOLDER_DIR;
use crate::target::resolve;

/// The record of one tool in one scope: where it is, and its folder as
/// opened.
#[derive(Debug)]
pub(crate) struct Place {
    /// The record's path, for messages.
    pub path: PathBuf,
    /// The record's file name.
    name: OsString,
    /// The deepest folder on the way that exists (the record's folder
    /// itself when it exists), open.
    anchor: Dir,
    /// The folders below it still to make, outermost first.
    missing: Vec<OsString>,
    /// The scope it is of.
    scope: Scope,
}

/// The record's file name for a tool and scope: `<tool>.<scope>.json`, the
/// tool's name kept to `[A-Za-z0-9._-]`.
pub(crate) fn record_file(tool: &str, scope: Scope) -> String {
    format!("{}.{scope}.json", file_safe(tool))
}

/// Where a scope's record is, under its base.
pub(crate) fn record_dir(scope: Scope) -> &'static str {
    match scope {
        Scope::Folder => FOLDER_DIR,
        Scope::Project | Scope::User => RECORD_DIR,
    }
}

impl Place {
    /// Finds the record of `tool` in the scope whose base `base` is open
    /// as `base_dir`.
    pub fn find(base_dir: &Dir, scope: Scope, tool: &str) -> Result<Place, InstallError> {
        let folder = base_dir.join(record_dir(scope));
        let name = OsString::from(record_file(tool, scope));
        let path = folder.join(&name);
        let refused = |error: String| InstallError::Record {
            path: path.clone(),
            error: RecordError(error),
        };
        let (anchor, missing) = match scope {
            Scope::Project | Scope::Folder => {
                walk(base_dir, Path::new(record_dir(scope))).map_err(refused)?
            }
            Scope::User => {
                let resolved = resolve(&folder).map_err(|problem| refused(problem.to_string()))?;
                let existing: &Path = match resolved.missing.first() {
                    Some(first) => first.parent().unwrap_or(&resolved.real),
                    None => &resolved.real,
                };
                let anchor = Dir::open(existing).map_err(|e| refused(e.to_string()))?;
                let missing = resolved
                    .missing
                    .iter()
                    .filter_map(|path| path.file_name().map(OsStr::to_os_string))
                    .collect();
                (anchor, missing)
            }
        };
        Ok(Place {
            path,
            name,
            anchor,
            missing,
            scope,
        })
    }

    /// The record's folder, when it exists.
    fn dir(&self) -> Option<&Dir> {
        self.missing.is_empty().then_some(&self.anchor)
    }

    fn refused(&self, error: impl ToString) -> InstallError {
        InstallError::Record {
            path: self.path.clone(),
            error: RecordError(error.to_string()),
        }
    }

    /// The record's bytes (`None` when there is none): a regular file of
    /// at most [`RECORD_CAP`] bytes, opened without following a link or
    /// blocking on a pipe.
    pub fn read_bytes(&self) -> Result<Option<Vec<u8>>, InstallError> {
        let Some(dir) = self.dir() else {
            return Ok(None);
        };
        dir.read_capped(&self.name, RECORD_CAP)
            .map_err(|error| self.refused(error))
    }

    /// The record (`None` when there is none), every name in it checked.
    pub fn read(&self) -> Result<Option<Record>, InstallError> {
        match self.read_bytes()? {
            Some(bytes) => Record::from_json(&bytes)
                .map(Some)
                .map_err(|error| self.refused(error)),
            None => Ok(None),
        }
    }

    /// Removes the temporary files of this tool's a stopped run left
    /// beside the record (see [`journal::remove_temporaries`]).
    pub fn remove_temporaries(&self, prefix: &str) {
        if let Some(dir) = self.dir() {
            crate::journal::remove_temporaries(dir, prefix);
        }
    }

    /// Writes `record` (making the folders on the way: each one made is
    /// pushed on `created`, with the folder it was made in).
    pub fn write(
        &mut self,
        record: &Record,
        ops: &Ops,
        created: &mut Vec<(Dir, OsString)>,
    ) -> Result<(), InstallError> {
        for name in std::mem::take(&mut self.missing) {
            let (dir, made) = ops
                .ensure_dir(&self.anchor, &name)
                .map_err(|e| InstallError::io("create", self.anchor.join(&name), e))?;
            if made {
                created.push((self.anchor.try_clone().map_err(|e| self.refused(e))?, name));
            }
            self.anchor = dir;
        }
        ops.replace_file(&self.anchor, &self.name, record.to_json().as_bytes())
            .map_err(|e| InstallError::io("write", &self.path, e))
    }

    /// Removes the record, and its folder and the `.agents` above it when
    /// that leaves them empty (an uninstall that left nothing).
    pub fn remove(&self, base_dir: &Dir, ops: &Ops) {
        let Some(dir) = self.dir() else {
            return;
        };
        if ops.remove_file(dir, &self.name).is_err() {
            return;
        }
        if self.scope == Scope::Folder {
            // A plain folder's hidden entry, once nothing is left in it.
            let _ = base_dir.remove_dir(OsStr::new(FOLDER_DIR));
            return;
        }
        // Its folder and `.agents`, as the base holds them (a link there,
        // in the user's home, is not removed).
        if let Ok(agents) = base_dir.open_dir(OsStr::new(".agents"))
            && agents.remove_dir(OsStr::new(".skills-install")).is_ok()
        {
            let _ = base_dir.remove_dir(OsStr::new(".agents"));
        }
    }
}

/// Opens the folders of the relative `path` below `base` one name at a
/// time, no link followed: the deepest that exists, and the names below it
/// still to make. A link or a file on the way is an error.
fn walk(base: &Dir, path: &Path) -> Result<(Dir, Vec<OsString>), String> {
    let mut at = base.try_clone().map_err(|e| e.to_string())?;
    let mut parts = path.iter();
    for part in parts.by_ref() {
        match at.stat(part).map_err(|e| e.to_string())? {
            None => {
                let mut missing = vec![part.to_os_string()];
                missing.extend(parts.map(OsStr::to_os_string));
                return Ok((at, missing));
            }
            Some(stat) if stat.kind == Kind::Link => {
                return Err(format!(
                    "{} is a link: in a project the installer reads and writes its record through no link",
                    at.join(part).display()
                ));
            }
            Some(stat) if stat.kind != Kind::Dir => {
                return Err(format!("{} is not a folder", at.join(part).display()));
            }
            Some(_) => {
                at = at.open_dir(part).map_err(|e: io::Error| e.to_string())?;
            }
        }
    }
    Ok((at, Vec::new()))
}
