//! One installer at a time per scope: an exclusive lock on a file in the
//! scope's state folder (in the user's own state folder, see
//! [`state`](crate::state), never in the project) while an apply runs, a
//! shared one while a plan or status reads (only when the file exists:
//! reading creates nothing). The file is opened as every file the
//! installer finds: relative to the state folder as opened, never through
//! a link, never a pipe.

use std::ffi::OsStr;
use std::fs::File;
use std::io;

use crate::dir::Dir;
use crate::error::InstallError;
use crate::state::StateDir;

/// The lock file's name in the state folder.
pub const LOCK_FILE: &str = "lock";

/// A held lock, released when dropped.
#[derive(Debug)]
pub(crate) struct Lock {
    file: Option<File>,
}

fn name() -> &'static OsStr {
    OsStr::new(LOCK_FILE)
}

/// Waits for the scope's lock, exclusively, making the lock file when
/// missing.
pub(crate) fn exclusive(state: &StateDir) -> Result<Lock, InstallError> {
    let dir = state.dir();
    let path = dir.join(LOCK_FILE);
    loop {
        let file = dir
            .open_or_create(name())
            .map_err(|e| InstallError::io("open", &path, e))?;
        file.lock()
            .map_err(|e| InstallError::io("lock", &path, e))?;
        // The run that held it may have removed the file (an uninstall that
        // left nothing): then this lock guards nothing, take the new one.
        if is_current(&file, dir) {
            return Ok(Lock { file: Some(file) });
        }
    }
}

/// Waits for the scope's lock, shared, if its file exists.
pub(crate) fn shared(state: Option<&StateDir>) -> Result<Lock, InstallError> {
    let Some(state) = state else {
        return Ok(Lock { file: None });
    };
    let dir = state.dir();
    let path = dir.join(LOCK_FILE);
    loop {
        let file = match dir.open_file(name()) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Ok(Lock { file: None });
            }
            Err(error) => return Err(InstallError::io("open", &path, error)),
        };
        file.lock_shared()
            .map_err(|e| InstallError::io("lock", &path, e))?;
        if is_current(&file, dir) {
            return Ok(Lock { file: Some(file) });
        }
    }
}

/// Whether the locked `file` is still the one named `lock` in `dir`.
#[cfg(unix)]
fn is_current(file: &File, dir: &Dir) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), dir.stat(name())) {
        (Ok(held), Ok(Some(named))) => named
            .id
            .is_some_and(|id| id.dev == held.dev() && id.ino == held.ino()),
        _ => false,
    }
}

/// Lock files are never removed where this cannot be checked.
#[cfg(not(unix))]
fn is_current(_: &File, _: &Dir) -> bool {
    true
}

impl Lock {
    /// Removes the lock file while holding it, then the scope's state
    /// folder and the installer's folder above it if that leaves them
    /// empty: after an uninstall that left no record, nothing of the
    /// installer stays behind. A run waiting on the removed file sees it is
    /// gone and takes a new one.
    pub(crate) fn remove(self, state: &StateDir) {
        if cfg!(unix) && self.file.is_some() {
            let _ = state.dir().remove_file(name());
            state.remove_if_empty();
        }
    }
}
