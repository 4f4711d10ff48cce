//! One installer at a time per scope: an exclusive lock on a file in the
//! scope's state folder (in the user's own state folder, see
//! [`state`](super::state), never in the project) while an apply runs, a
//! shared one while a plan or status reads (only when the file exists:
//! reading creates nothing). The file is opened as every file the
//! installer finds: never through a link, never a pipe.

use std::fs::{self, File};
use std::io;
use std::path::Path;

use super::error::InstallError;
use super::open::{create_lock, open_file};
use super::state;

/// The lock file's name in the state folder.
pub const LOCK_FILE: &str = "lock";

/// A held lock, released when dropped.
#[derive(Debug)]
pub(crate) struct Lock {
    file: Option<File>,
}

/// Waits for the scope's lock, exclusively, making the state folder and the
/// lock file when missing.
pub(crate) fn exclusive(state_dir: &Path) -> Result<Lock, InstallError> {
    let path = state_dir.join(LOCK_FILE);
    loop {
        state::create(state_dir)?;
        let file = create_lock(&path).map_err(|e| InstallError::io("open", &path, e))?;
        file.lock()
            .map_err(|e| InstallError::io("lock", &path, e))?;
        // The run that held it may have removed the file (an uninstall that
        // left nothing): then this lock guards nothing, take the new one.
        if is_current(&file, &path) {
            return Ok(Lock { file: Some(file) });
        }
    }
}

/// Waits for the scope's lock, shared, if its file exists.
pub(crate) fn shared(state_dir: &Path) -> Result<Lock, InstallError> {
    let path = state_dir.join(LOCK_FILE);
    loop {
        let file = match open_file(&path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Ok(Lock { file: None });
            }
            Err(error) => return Err(InstallError::io("open", &path, error)),
        };
        file.lock_shared()
            .map_err(|e| InstallError::io("lock", &path, e))?;
        if is_current(&file, &path) {
            return Ok(Lock { file: Some(file) });
        }
    }
}

/// Whether the locked `file` is still the one at `path`.
#[cfg(unix)]
fn is_current(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
        _ => false,
    }
}

/// Lock files are never removed where this cannot be checked.
#[cfg(not(unix))]
fn is_current(_: &File, _: &Path) -> bool {
    true
}

impl Lock {
    /// Removes the lock file while holding it, then the scope's state
    /// folder and the installer's folder above it if that leaves them
    /// empty: after an uninstall that left no record, nothing of the
    /// installer stays behind. A run waiting on the removed file sees it is
    /// gone and takes a new one.
    pub(crate) fn remove(self, state_dir: &Path) {
        if cfg!(unix) && self.file.is_some() {
            let _ = fs::remove_file(state_dir.join(LOCK_FILE));
            let _ = fs::remove_dir(state_dir);
            if let Some(parent) = state_dir.parent() {
                let _ = fs::remove_dir(parent);
            }
        }
    }
}
