//! Every change the installer makes to the file system goes through
//! [`Ops`], one step at a time, each relative to a folder opened once
//! ([`Dir`]), so the installer's tests can make any step fail (or stop the
//! run there, as a killed process would, or swap a folder for a link
//! before it, as a racing process would) and check what is left
//! ([`Faults`], compiled only into those tests).

use std::collections::hash_map::RandomState;
use std::ffi::{OsStr, OsString};
use std::hash::BuildHasher;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::dir::{Dir, Kind};
use crate::faults::{Faults, Injected};

/// The file system's mutating operations (each a step an installer test
/// can make fail: [`Faults`]).
#[derive(Debug, Default)]
pub(crate) struct Ops {
    faults: Faults,
}

impl Ops {
    /// Operations that fail (or race) as `injected` says (nothing, outside
    /// the installer's tests).
    pub fn new(injected: &Injected) -> Self {
        Ops {
            faults: Faults::new(injected),
        }
    }

    /// Whether an injected crash happened: nothing more may be done.
    pub fn crashed(&self) -> bool {
        self.faults.crashed()
    }

    /// Creates folder `name` in `dir`.
    pub fn create_dir(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.faults.step("create folder", dir, name)?;
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
        self.faults.step("write", dir, name)?;
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
        self.faults.step("rename", from, name)?;
        from.rename(name, to, to_name)
    }

    /// Removes the empty folder `name` in `dir`.
    pub fn remove_dir(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.faults.step("remove folder", dir, name)?;
        dir.remove_dir(name)
    }

    /// Removes file `name` in `dir`.
    pub fn remove_file(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.faults.step("remove", dir, name)?;
        dir.remove_file(name)
    }

    /// Removes `name` in `dir` and everything in it (links inside are
    /// removed, never followed).
    pub fn remove_all(&self, dir: &Dir, name: &OsStr) -> io::Result<()> {
        self.faults.step("remove", dir, name)?;
        dir.remove_all(name)
    }

    /// Another name (`to_name` in `to`) for the file, link or special file
    /// `name` in `from`; where hard links are not possible, a copy of a
    /// regular file (read without following a link) or the same link made
    /// again.
    pub fn carry(&self, from: &Dir, name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
        self.faults.step("link", from, name)?;
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
        self.faults.step("link", dir, name)?;
        Ok(dir.symlink(target, name).is_ok())
    }
}

/// The name of each part of a relative, `/`-separated path inside a skill.
pub(crate) fn parts(path: &Path) -> Vec<OsString> {
    path.components()
        .map(|part| part.as_os_str().to_os_string())
        .collect()
}
