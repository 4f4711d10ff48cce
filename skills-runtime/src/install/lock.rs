//! One installer at a time per scope: an exclusive lock on a file in the
//! scope's state folder while an apply runs, a shared one while a plan or
//! status reads (only when the file exists: reading creates nothing).

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::Path;
use std::prelude::rust_2024::*;

use super::error::InstallError;

/// The lock file's name in the state folder.
pub const LOCK_FILE: &str = "lock";

/// A held lock, released when dropped.
#[derive(Debug)]
pub(crate) struct Lock {
    _file: Option<File>,
}

/// Waits for the scope's lock, exclusively, making the state folder and the
/// lock file when missing.
pub(crate) fn exclusive(state_dir: &Path) -> Result<Lock, InstallError> {
    fs::create_dir_all(state_dir).map_err(|e| InstallError::io("create", state_dir, e))?;
    let path = state_dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| InstallError::io("open", &path, e))?;
    file.lock()
        .map_err(|e| InstallError::io("lock", &path, e))?;
    Ok(Lock { _file: Some(file) })
}

/// Waits for the scope's lock, shared, if its file exists.
pub(crate) fn shared(state_dir: &Path) -> Result<Lock, InstallError> {
    let path = state_dir.join(LOCK_FILE);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Lock { _file: None }),
        Err(error) => return Err(InstallError::io("open", &path, error)),
    };
    file.lock_shared()
        .map_err(|e| InstallError::io("lock", &path, e))?;
    Ok(Lock { _file: Some(file) })
}
