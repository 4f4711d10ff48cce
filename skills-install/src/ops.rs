//! Every change the installer makes to the file system goes through
//! [`Ops`], one step at a time, each relative to a folder opened once
//! ([`Dir`]), so a test can make any step fail (or stop the run there, as
//! a killed process would, or swap a folder for a link before it, as a
//! racing process would) and check what is left.

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::hash::BuildHasher;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::dir::{Dir, Kind};

/// A failure injected at one step of an apply (feature `test-faults`): not
/// part of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault {
    /// The step (counted from 1) that fails.
    pub at: usize,
    /// Whether the run stops there without undoing anything, as if the
    /// process had been killed; otherwise the step returns an error and the
    /// installer undoes what it did.
    pub crash: bool,
}

/// A folder swapped for a link at one step of an apply (feature
/// `test-faults`), as a process racing the installer would: before step
/// `at` runs, the folders inside `folder` are made again inside `link_to`
/// (as a process watching the folder could), `folder` is renamed to
/// `<folder>.swapped`, and a link to `link_to` put in its place. Not part
/// of the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Swap {
    /// The step (counted from 1) before which the swap happens.
    pub at: usize,
    /// The folder swapped away.
    pub folder: PathBuf,
    /// Where the link put in its place points.
    pub link_to: PathBuf,
}

/// The file system's mutating operations, counted.
#[derive(Debug, Default)]
pub(crate) struct Ops {
    fault: Option<Fault>,
    swap: Option<Swap>,
    steps: Cell<usize>,
    crashed: Cell<bool>,
}

impl Ops {
    /// Operations that fail (or race) as `fault` and `swap` say.
    pub fn new(fault: Option<Fault>, swap: Option<Swap>) -> Self {
        Ops {
            fault,
            swap,
            ..Ops::default()
        }
    }

    /// Whether an injected crash happened: nothing more may be done.
    pub fn crashed(&self) -> bool {
        self.crashed.get()
    }

    fn step(&self, what: &str, path: &Path) -> io::Result<()> {
        if self.crashed.get() {
            return Err(io::Error::other("the run was stopped (injected)"));
        }
        let n = self.steps.get() + 1;
        self.steps.set(n);
        if let Some(swap) = self.swap.as_ref().filter(|swap| swap.at == n) {
            let mut aside = swap.folder.as_os_str().to_owned();
            aside.push(".swapped");
            mirror(&swap.folder, &swap.link_to)?;
            fs::rename(&swap.folder, &aside)?;
            symlink(&swap.link_to, &swap.folder)?;
        }
        match self.fault {
            Some(fault) if fault.at == n => {
                self.crashed.set(fault.crash);
                Err(io::Error::other(format!(
                    "injected failure at step {n} ({what} {})",
                    path.display()
                )))
            }
            _ => Ok(()),
        }
    }

    /// Creates folder `name` in `dir`.
    pub fn create_dir(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.step("create folder", &dir.join(name))?;
        dir.mkdir(name, 0o777)
    }

    /// Creates folder `name` in `dir` if there is none (`true` when it
    /// did), and opens it: a link or a file there is an error.
    pub fn ensure_dir(&self, dir: &Dir, name: &OsStr) -> io::Result<(Dir, bool)> {
        let created = match dir.stat(name)? {
            Some(_) => false,
            None => match self.create_dir(dir, name) {
                Ok(()) => true,
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => false,
                Err(error) => return Err(error),
            },
        };
        Ok((dir.open_dir(name)?, created))
    }

    /// Creates file `name` in `dir` (never replacing one, never through a
    /// link) with these bytes, executable (subject to the umask) when
    /// `exec`.
    pub fn write_new(&self, dir: &Dir, name: &OsStr, bytes: &[u8], exec: bool) -> io::Result<()> {
        self.step("write", &dir.join(name))?;
        let mut file = dir.create_file(name, if exec { 0o777 } else { 0o666 })?;
        file.write_all(bytes)?;
        file.flush()
    }

    /// Replaces file `name` in `dir` with these bytes: a new file beside
    /// it under a name no one can know beforehand (made from the system's
    /// randomness), then renamed over it.
    pub fn replace_file(&self, dir: &Dir, name: &OsStr, bytes: &[u8]) -> io::Result<()> {
        let random = RandomState::new();
        let mut attempt = 0u64;
        let temporary = loop {
            let mut temporary = name.to_owned();
            temporary.push(format!(".{:016x}.tmp", random.hash_one(attempt)));
            match self.write_new(dir, &temporary, bytes, false) {
                Ok(()) => break temporary,
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 16 => {
                    attempt += 1;
                }
                Err(error) => return Err(error),
            }
        };
        let renamed = self.rename(dir, &temporary, dir, name);
        if renamed.is_err() && !self.crashed() {
            let _ = dir.remove_file(&temporary);
        }
        renamed
    }

    /// Renames `name` in `from` to `to_name` in `to`.
    pub fn rename(&self, from: &Dir, name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
        self.step("rename", &from.join(name))?;
        from.rename(name, to, to_name)
    }

    /// Removes the empty folder `name` in `dir`.
    pub fn remove_dir(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.step("remove folder", &dir.join(name))?;
        dir.remove_dir(name)
    }

    /// Removes file `name` in `dir`.
    pub fn remove_file(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.step("remove", &dir.join(name))?;
        dir.remove_file(name)
    }

    /// Removes `name` in `dir` and everything in it (links inside are
    /// removed, never followed).
    pub fn remove_all(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.step("remove", &dir.join(name))?;
        dir.remove_all(name)
    }

    /// Another name (`to_name` in `to`) for the file, link or special file
    /// `name` in `from`; where hard links are not possible, a copy of a
    /// regular file (read without following a link) or the same link made
    /// again.
    pub fn carry(&self, from: &Dir, name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
        self.step("link", &from.join(name))?;
        if from.hard_link(name, to, to_name).is_ok() {
            return Ok(());
        }
        match from.stat(name)?.map(|stat| stat.kind) {
            Some(Kind::Link) => to.symlink(&from.read_link(name)?, to_name),
            Some(Kind::File { .. }) => {
                let mut bytes = Vec::new();
                from.open_file(name)?.read_to_end(&mut bytes)?;
                let mut file = to.create_file(to_name, 0o666)?;
                file.write_all(&bytes)?;
                file.flush()
            }
            _ => Err(io::Error::other(format!(
                "{} is neither a file nor a link and cannot be linked here",
                from.join(name).display()
            ))),
        }
    }

    /// A symbolic link `name` in `dir` to `target` (to a folder):
    /// `Ok(false)` when the system cannot make one here (a copy is then
    /// made instead).
    pub fn symlink(&self, target: &Path, dir: &Dir, name: &OsStr) -> io::Result<bool> {
        self.step("link", &dir.join(name))?;
        Ok(dir.symlink(target, name).is_ok())
    }
}

/// The name of each part of a relative, `/`-separated path inside a skill.
pub(crate) fn parts(path: &Path) -> Vec<OsString> {
    path.components()
        .map(|part| part.as_os_str().to_os_string())
        .collect()
}

/// Makes every folder below `from` again below `to` (folders only,
/// links not followed): the racing process of [`Swap`].
fn mirror(from: &Path, to: &Path) -> io::Result<()> {
    for item in fs::read_dir(from)? {
        let item = item?;
        if item.file_type()?.is_dir() {
            let made = to.join(item.file_name());
            fs::create_dir_all(&made)?;
            mirror(&item.path(), &made)?;
        }
    }
    Ok(())
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}

#[cfg(not(any(unix, windows)))]
fn symlink(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}
