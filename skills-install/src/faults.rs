//! Failures and races injected into an apply, for the installer's own
//! tests: with `cfg(test)` or the feature `test-faults`, [`Faults`] counts
//! the steps [`Ops`](crate::ops::Ops) takes and makes the chosen one fail
//! (or stop the run there, as a killed process would, or swap a folder for
//! a link before it, as a racing process would). In every other build its
//! twin is an empty type whose checks are `Ok(())` and `false`, so a
//! program's installer carries no counter, no injected branch and no
//! folder-swapping code.

#[cfg(any(test, feature = "test-faults"))]
pub use injected::{Fault, Swap};
#[cfg(any(test, feature = "test-faults"))]
pub(crate) use injected::{Faults, Injected};
#[cfg(not(any(test, feature = "test-faults")))]
pub(crate) use none::{Faults, Injected};

#[cfg(any(test, feature = "test-faults"))]
mod injected {
    use std::cell::Cell;
    use std::ffi::OsStr;
    use std::fs;
    use std::io;
    use std::path::{Path, PathBuf};

    use crate::dir::Dir;

    /// A failure injected at one step of an apply (feature `test-faults`):
    /// not part of the API.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Fault {
        /// The step (counted from 1) that fails.
        pub at: usize,
        /// Whether the run stops there without undoing anything, as if the
        /// process had been killed; otherwise the step returns an error and
        /// the installer undoes what it did.
        pub crash: bool,
    }

    /// A folder swapped for a link at one step of an apply (feature
    /// `test-faults`), as a process racing the installer would: before step
    /// `at` runs, the folders inside `folder` are made again inside
    /// `link_to` (as a process watching the folder could), `folder` is
    /// renamed to `<folder>.swapped`, and a link to `link_to` put in its
    /// place. Not part of the API.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Swap {
        /// The step (counted from 1) before which the swap happens.
        pub at: usize,
        /// The folder swapped away.
        pub folder: PathBuf,
        /// Where the link put in its place points.
        pub link_to: PathBuf,
    }

    /// What an installer was told to inject into its applies.
    #[derive(Debug, Clone, Default)]
    pub(crate) struct Injected {
        pub fault: Option<Fault>,
        pub swap: Option<Swap>,
    }

    /// The injection of one run: its steps counted.
    #[derive(Debug, Default)]
    pub(crate) struct Faults {
        injected: Injected,
        steps: Cell<usize>,
        crashed: Cell<bool>,
    }

    impl Faults {
        /// Injects what `injected` says into the run these steps count.
        pub fn new(injected: &Injected) -> Self {
            Faults {
                injected: injected.clone(),
                ..Faults::default()
            }
        }

        /// Whether an injected crash happened: nothing more may be done.
        pub fn crashed(&self) -> bool {
            self.crashed.get()
        }

        /// Counts one step (`what` on `name` in `dir`), swapping a folder
        /// before it or failing it as injected.
        pub fn step(&self, what: &str, dir: &Dir, name: &OsStr) -> io::Result<()> {
            if self.crashed.get() {
                return Err(io::Error::other("the run was stopped (injected)"));
            }
            let n = self.steps.get() + 1;
            self.steps.set(n);
            if let Some(swap) = self.injected.swap.as_ref().filter(|swap| swap.at == n) {
                let mut aside = swap.folder.as_os_str().to_owned();
                aside.push(".swapped");
                mirror(&swap.folder, &swap.link_to)?;
                fs::rename(&swap.folder, &aside)?;
                symlink(&swap.link_to, &swap.folder)?;
            }
            match self.injected.fault {
                Some(fault) if fault.at == n => {
                    self.crashed.set(fault.crash);
                    Err(io::Error::other(format!(
                        "injected failure at step {n} ({what} {})",
                        dir.join(name).display()
                    )))
                }
                _ => Ok(()),
            }
        }
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
}

#[cfg(not(any(test, feature = "test-faults")))]
mod none {
    use std::ffi::OsStr;
    use std::io;

    use crate::dir::Dir;

    /// Nothing to inject: a program's installer.
    #[derive(Debug, Clone, Default)]
    pub(crate) struct Injected;

    /// No step fails and none is counted.
    #[derive(Debug, Default)]
    pub(crate) struct Faults;

    impl Faults {
        /// No injection.
        pub fn new(_: &Injected) -> Self {
            Faults
        }

        /// Never: nothing is injected.
        #[inline(always)]
        pub fn crashed(&self) -> bool {
            false
        }

        /// Every step goes ahead.
        #[inline(always)]
        pub fn step(&self, _: &str, _: &Dir, _: &OsStr) -> io::Result<()> {
            Ok(())
        }
    }
}
