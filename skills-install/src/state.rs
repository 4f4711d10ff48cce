//! Where the installer keeps what only it may write: the lock, the
//! journals of runs in progress, what a refresh told, and what it wrote
//! (the [`owned`](crate::owned) entries of its records), in a folder of
//! the user's own (`$XDG_STATE_HOME/skills-install/<scope>`, by default
//! `~/.local/state/skills-install/<scope>`), one per scope, named after
//! the scope's folder and keyed by its path.
//!
//! A repository can carry anything inside a project, a staging folder and
//! its journal included; it cannot put a file in the user's state folder.
//! So a journal is only ever read from here, and whatever a project holds
//! under `.skills-staging` is never taken for a run of this installer.
//! The record stays in the scope (`.agents/.skills-install`), where a
//! team may commit it on purpose, and is checked whole when read.
//!
//! The folder is believed only if it is the user's alone: it is made with
//! mode 0700, and `skills-install` and the scope's folder are refused
//! when another user owns them or others may write to them. It is never
//! looked for under a relative home: `HOME=.` would put it in the
//! project.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use crate::dir::Dir;
use crate::env::Environment;
use crate::error::InstallError;
use crate::names::file_safe;
use crate::scope::Scope;

/// The prefix of the names of this tool's files in a scope's state
/// folder: its journals (other tools' journals are theirs to recover),
/// what it owns and what it told.
pub(crate) fn transaction_prefix(tool: &str, scope: Scope) -> String {
    format!("{}.{scope}.", file_safe(tool))
}

/// A plain folder's one hidden entry ([`Scope::Folder`](crate::Scope::Folder)): its record, its
/// state (`state/`: lock, journals, what was told) and its transactions'
/// staging folders.
pub(crate) const FOLDER_DIR: &str = ".skills-install";

/// The installer's folder in the user's state folder.
const ROOT: &str = "skills-install";

/// The user's state folder: `XDG_STATE_HOME` when absolute, else
/// `~/.local/state` with an absolute home (the environment's, else the
/// process's). A home that is relative is an error, never a folder taken
/// from the working directory.
fn state_home(env: &Environment) -> Result<PathBuf, InstallError> {
    if let Some(home) = env.state_home() {
        return Ok(home);
    }
    for var in ["HOME", "USERPROFILE"] {
        if let Some(value) = env.var_os(var) {
            return Err(InstallError::RelativeHome {
                var,
                value: PathBuf::from(value),
            });
        }
    }
    match std::env::home_dir() {
        Some(home) if home.is_absolute() => Ok(home.join(".local").join("state")),
        Some(home) => Err(InstallError::RelativeHome {
            var: "HOME",
            value: home,
        }),
        None => Err(InstallError::NoHome),
    }
}

fn scope_key(base: &Path) -> String {
    let name = base
        .file_name()
        .map(|name| file_safe(&name.to_string_lossy()))
        .unwrap_or_else(|| "root".to_string());
    let digest = skills_core::sha256::digest(path_bytes(base).as_ref());
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

/// A plain folder's state, in its hidden entry: `.skills-install/state`.
const FOLDER_STATE: &str = "state";

/// A scope's state folder, open and checked: the user's alone.
#[derive(Debug)]
pub(crate) struct StateDir {
    /// The user's state folder (`~/.local/state`); for a plain folder,
    /// the folder.
    home: Dir,
    /// Its `skills-install` (a plain folder's `.skills-install`).
    root: Dir,
    /// That folder's name.
    root_name: &'static str,
    /// The scope's folder in it.
    dir: Dir,
    key: String,
}

impl StateDir {
    /// The scope's state folder, if there is one (a plan or a status
    /// creates nothing): `None` when it does not exist.
    pub fn find(
        env: &Environment,
        base: &Path,
        scope: Scope,
    ) -> Result<Option<StateDir>, InstallError> {
        if scope == Scope::Folder {
            return find_in_folder(base);
        }
        let path = state_home(env)?;
        let Ok(real) = std::fs::canonicalize(&path) else {
            return Ok(None);
        };
        let home = Dir::open(&real).map_err(|e| InstallError::io("open", &path, e))?;
        let root = match home.open_dir(OsStr::new(ROOT)) {
            Ok(root) => root,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(InstallError::io("open", home.join(ROOT), error)),
        };
        check(&root)?;
        let key = scope_key(base);
        let dir = match root.open_dir(OsStr::new(&key)) {
            Ok(dir) => dir,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(InstallError::io("open", root.join(&key), error)),
        };
        check(&dir)?;
        Ok(Some(StateDir {
            home,
            root,
            root_name: ROOT,
            dir,
            key,
        }))
    }

    /// The scope's state folder, if there is one ([`find`](Self::find));
    /// none where no home is known.
    pub fn found(
        env: &Environment,
        base: &Path,
        scope: Scope,
    ) -> Result<Option<StateDir>, InstallError> {
        match StateDir::find(env, base, scope) {
            Ok(state) => Ok(state),
            Err(InstallError::RelativeHome { .. } | InstallError::NoHome) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The scope's state folder, made where missing (the user's state
    /// folder and the folders above it too, each readable by the user
    /// alone where the system says so).
    pub fn create(env: &Environment, base: &Path, scope: Scope) -> Result<StateDir, InstallError> {
        if scope == Scope::Folder {
            let home = Dir::open(base).map_err(|e| InstallError::io("open", base, e))?;
            let root = private_dir(&home, OsStr::new(FOLDER_DIR))?;
            let dir = private_dir(&root, OsStr::new(FOLDER_STATE))?;
            return Ok(StateDir {
                home,
                root,
                root_name: FOLDER_DIR,
                dir,
                key: FOLDER_STATE.to_string(),
            });
        }
        let path = state_home(env)?;
        if std::fs::symlink_metadata(&path).is_err() {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt;
                builder.mode(0o700);
            }
            builder
                .create(&path)
                .map_err(|e| InstallError::io("create", &path, e))?;
        }
        let real = std::fs::canonicalize(&path).map_err(|e| InstallError::io("open", &path, e))?;
        let home = Dir::open(&real).map_err(|e| InstallError::io("open", &path, e))?;
        let root = private_dir(&home, OsStr::new(ROOT))?;
        let key = scope_key(base);
        let dir = private_dir(&root, OsStr::new(&key))?;
        Ok(StateDir {
            home,
            root,
            root_name: ROOT,
            dir,
            key,
        })
    }

    /// The scope's folder.
    pub fn dir(&self) -> &Dir {
        &self.dir
    }

    /// Removes the scope's folder and `skills-install` if that leaves them
    /// empty: nothing of the installer stays behind.
    pub fn remove_if_empty(&self) {
        if self.root.remove_dir(OsStr::new(&self.key)).is_ok() {
            let _ = self.home.remove_dir(OsStr::new(self.root_name));
        }
    }
}

/// A plain folder's state, if there is one: `<base>/.skills-install/state`,
/// opened one name at a time from the folder, no link followed, each
/// checked as the user's alone.
fn find_in_folder(base: &Path) -> Result<Option<StateDir>, InstallError> {
    let home = Dir::open(base).map_err(|e| InstallError::io("open", base, e))?;
    let open = |dir: &Dir, name: &str| match dir.open_dir(OsStr::new(name)) {
        Ok(opened) => check(&opened).map(|()| Some(opened)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(InstallError::StateFolder {
            path: dir.join(name),
            error: error.to_string(),
        }),
    };
    let Some(root) = open(&home, FOLDER_DIR)? else {
        return Ok(None);
    };
    let Some(dir) = open(&root, FOLDER_STATE)? else {
        return Ok(None);
    };
    Ok(Some(StateDir {
        home,
        root,
        root_name: FOLDER_DIR,
        dir,
        key: FOLDER_STATE.to_string(),
    }))
}

/// Opens folder `name` in `dir`, making it (mode 0700) where missing, and
/// checks it is the user's alone.
fn private_dir(dir: &Dir, name: &OsStr) -> Result<Dir, InstallError> {
    match dir.mkdir(name, 0o700) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
        Err(error) => return Err(InstallError::io("create", dir.join(name), error)),
    }
    let opened = dir
        .open_dir(name)
        .map_err(|e| InstallError::io("open", dir.join(name), e))?;
    check(&opened)?;
    Ok(opened)
}

/// Refuses a state folder another user owns, or others may write to.
#[cfg(unix)]
fn check(dir: &Dir) -> Result<(), InstallError> {
    let (owner, mode) = dir
        .owner_and_mode()
        .map_err(|e| InstallError::io("read", dir.path(), e))?;
    let refused = |error: String| {
        Err(InstallError::StateFolder {
            path: dir.path().to_path_buf(),
            error,
        })
    };
    if owner != crate::dir::user() {
        return refused(format!("belongs to another user (uid {owner})"));
    }
    if mode & 0o022 != 0 {
        return refused(format!("is a folder others can write to (mode {mode:o})"));
    }
    Ok(())
}

/// Ownership and modes are not checked where the system has none.
#[cfg(not(unix))]
fn check(_: &Dir) -> Result<(), InstallError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_folder_per_scope_path() {
        let env = Environment::new("/work").var("HOME", "/home/ada");
        let dir = |base: &str| {
            state_home(&env)
                .unwrap()
                .join(ROOT)
                .join(scope_key(Path::new(base)))
        };
        let a = dir("/work/a project");
        let b = dir("/other/a project");
        assert!(a.starts_with("/home/ada/.local/state/skills-install"));
        assert_ne!(a, b);
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("a-project-") && name.len() == "a-project-".len() + 16,
            "{name}"
        );
    }

    #[test]
    fn never_under_a_relative_home() {
        let env = Environment::new("/work").var("HOME", ".");
        let error = state_home(&env).unwrap_err();
        assert!(
            matches!(error, InstallError::RelativeHome { .. }),
            "{error}"
        );
        let env = env.var("XDG_STATE_HOME", "relative");
        assert!(state_home(&env).is_err());
        let env = env.var("XDG_STATE_HOME", "/state");
        assert_eq!(state_home(&env).unwrap(), Path::new("/state"));
    }
}
