//! Every change the installer makes to the file system goes through
//! [`Ops`], one step at a time, so a test can make any step fail (or stop
//! the run there, as a killed process would) and check what is left.

use std::cell::Cell;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
    /// Operations that fail as `fault` says.
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

    pub fn create_dir(&self, path: &Path) -> io::Result<()> {
        self.step("create folder", path)?;
        fs::create_dir(path)
    }

    /// Creates a new file (never replacing one) with these bytes, executable
    /// (subject to the umask) when `exec`.
    pub fn write_new(&self, path: &Path, bytes: &[u8], exec: bool) -> io::Result<()> {
        self.step("write", path)?;
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(if exec { 0o777 } else { 0o666 });
        }
        #[cfg(not(unix))]
        let _ = exec;
        let mut file = options.open(path)?;
        file.write_all(bytes)?;
        file.flush()
    }

    /// Replaces `path` with these bytes: a temporary file beside it, then
    /// renamed over it.
    pub fn replace_file(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(format!(".{}.tmp", std::process::id()));
        let temporary = Path::new(&temporary);
        let _ = fs::remove_file(temporary);
        self.write_new(temporary, bytes, false)?;
        let renamed = self.rename(temporary, path);
        if renamed.is_err() && !self.crashed() {
            let _ = fs::remove_file(temporary);
        }
        renamed
    }

    pub fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.step("rename", from)?;
        fs::rename(from, to)
    }

    pub fn remove_dir(&self, path: &Path) -> io::Result<()> {
        self.step("remove folder", path)?;
        fs::remove_dir(path)
    }

    /// Removes a folder and everything in it, or a link or file at `path`
    /// (links inside are removed, never followed).
    pub fn remove_all(&self, path: &Path) -> io::Result<()> {
        self.step("remove", path)?;
        match fs::symlink_metadata(path)?.is_dir() {
            true => fs::remove_dir_all(path),
            false => fs::remove_file(path),
        }
    }

    /// Another name for the file (or link, or special file) at `from`; a
    /// copy of a regular file where hard links are not possible.
    pub fn carry(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.step("link", from)?;
        if fs::hard_link(from, to).is_ok() {
            return Ok(());
        }
        let meta = fs::symlink_metadata(from)?;
        if meta.file_type().is_symlink() {
            return symlink(&fs::read_link(from)?, to);
        }
        if !meta.is_file() {
            return Err(io::Error::other(format!(
                "{} is neither a file nor a link and cannot be linked here",
                from.display()
            )));
        }
        fs::copy(from, to).map(|_| ())
    }

    /// A symbolic link at `link` to `target` (to a folder): `Ok(false)`
    /// when the system cannot make one here (a copy is then made instead).
    pub fn symlink(&self, target: &Path, link: &Path) -> io::Result<bool> {
        self.step("link", link)?;
        Ok(symlink(target, link).is_ok())
    }
}

/// Makes every folder below `from` again below `to` (folders only,
/// links not followed).
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
