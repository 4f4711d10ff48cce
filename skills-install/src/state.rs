//! Where the installer keeps what only it may write: the lock and the
//! journals of runs in progress, in a folder of the user's own
//! (`$XDG_STATE_HOME/skills-install/<scope>`, by default
//! `~/.local/state/skills-install/<scope>`), one per scope, named after
//! the scope's folder and keyed by its path.
//!
//! A repository can carry anything inside a project, a staging folder and
//! its journal included; it cannot put a file in the user's state folder.
//! So a journal is only ever read from here, and whatever a project holds
//! under `.skills-staging` is never taken for a run of this installer.
//! The record stays in the scope (`.agents/.skills-install`), where a
//! team may commit it on purpose, and is checked whole when read.

use std::path::{Path, PathBuf};

use super::env::Environment;
use super::error::InstallError;
use super::names::file_safe;

/// The folder of this scope's lock and journals: under the user's state
/// folder, `<name>-<digest>` for the scope's base (its last part, kept to
/// `[A-Za-z0-9._-]`, and 16 hex digits of the SHA-256 of its full path).
/// Where the environment names no home, the process's own is used.
pub(crate) fn scope_dir(env: &Environment, base: &Path) -> Result<PathBuf, InstallError> {
    let root = env
        .state_home()
        .or_else(|| Some(std::env::home_dir()?.join(".local").join("state")))
        .ok_or(InstallError::NoHome)?;
    Ok(root.join("skills-install").join(scope_key(base)))
}

fn scope_key(base: &Path) -> String {
    let name = base
        .file_name()
        .map(|name| file_safe(&name.to_string_lossy()))
        .unwrap_or_else(|| "root".to_string());
    let digest = skills_core::trust::sha256::digest(path_bytes(base).as_ref());
    let hex = skills_core::Sha256(digest).to_hex();
    format!("{name}-{}", &hex.as_str()[..16])
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
}

/// Creates the scope's state folder (and the folders above it), readable
/// by the user alone where the system says so.
pub(crate) fn create(dir: &Path) -> Result<(), InstallError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(dir)
        .map_err(|error| InstallError::io("create", dir, error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_folder_per_scope_path() {
        let env = Environment::new("/work").var("HOME", "/home/ada");
        let a = scope_dir(&env, Path::new("/work/a project")).unwrap();
        let b = scope_dir(&env, Path::new("/other/a project")).unwrap();
        assert!(a.starts_with("/home/ada/.local/state/skills-install"));
        assert_ne!(a, b);
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("a-project-") && name.len() == "a-project-".len() + 16,
            "{name}"
        );
    }
}
