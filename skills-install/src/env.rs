//! What the installer reads of the process: the working directory and the
//! variables that say where home is and where agents keep their folders.
//! Passed in as a value, so a test (or a host with its own idea of home)
//! decides them without touching the process environment.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};

/// The variables the installer reads: `HOME` (`USERPROFILE` on Windows),
/// the [`OVERRIDES`](crate::agents::OVERRIDES), and `XDG_STATE_HOME`
/// (where it keeps its lock and journals).
pub const VARIABLES: [&str; 6] = [
    "HOME",
    "USERPROFILE",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
];

/// The working directory and the environment variables an
/// [`Installer`](crate::Installer) resolves folders against. By default,
/// the process's own ([`Environment::current`]).
///
/// ```
/// use skills_install::Environment;
/// let env = Environment::new("/work/project").var("HOME", "/home/ada");
/// assert_eq!(env.home().unwrap(), std::path::Path::new("/home/ada"));
/// assert_eq!(env.var_os("CODEX_HOME"), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    working_dir: PathBuf,
    vars: BTreeMap<String, OsString>,
}

impl Environment {
    /// An environment with this working directory and no variables.
    pub fn new(working_dir: impl Into<PathBuf>) -> Self {
        Environment {
            working_dir: working_dir.into(),
            vars: BTreeMap::new(),
        }
    }

    /// The process's working directory and the [`VARIABLES`] it has.
    ///
    /// ```
    /// let env = skills_install::Environment::current()?;
    /// assert!(env.working_dir().is_absolute());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn current() -> io::Result<Self> {
        let mut env = Environment::new(std::env::current_dir()?);
        for name in VARIABLES {
            if let Some(value) = std::env::var_os(name) {
                env = env.var(name, value);
            }
        }
        Ok(env)
    }

    /// Sets a variable (an empty value counts as unset, as the agents
    /// treat it).
    pub fn var(mut self, name: &str, value: impl Into<OsString>) -> Self {
        self.vars.insert(name.to_string(), value.into());
        self
    }

    /// The working directory.
    pub fn working_dir(&self) -> &Path {
        &self.working_dir
    }

    /// A variable's value; `None` when unset or empty.
    pub fn var_os(&self, name: &str) -> Option<&OsStr> {
        self.vars
            .get(name)
            .map(OsString::as_os_str)
            .filter(|value| !value.is_empty())
    }

    /// A variable naming a folder: relative values are taken from the
    /// working directory.
    pub fn path_var(&self, name: &str) -> Option<PathBuf> {
        self.var_os(name).map(|value| self.working_dir.join(value))
    }

    /// The home directory: `HOME`, else `USERPROFILE`.
    pub fn home(&self) -> Option<PathBuf> {
        self.path_var("HOME")
            .or_else(|| self.path_var("USERPROFILE"))
    }

    /// Where the user's programs keep their state: `XDG_STATE_HOME` when
    /// absolute (as the XDG specification says), else `~/.local/state`
    /// when the home (`HOME`, else `USERPROFILE`) is absolute; never a
    /// folder found from the working directory (`HOME=.` in a project
    /// would put the installer's journals where a repository can carry
    /// them).
    ///
    /// ```
    /// use skills_install::Environment;
    /// let env = Environment::new("/work").var("HOME", "/home/ada");
    /// assert_eq!(env.state_home().unwrap(), std::path::Path::new("/home/ada/.local/state"));
    /// let env = env.var("XDG_STATE_HOME", "/var/ada");
    /// assert_eq!(env.state_home().unwrap(), std::path::Path::new("/var/ada"));
    /// let env = Environment::new("/work").var("HOME", ".");
    /// assert_eq!(env.state_home(), None);
    /// ```
    pub fn state_home(&self) -> Option<PathBuf> {
        let absolute = |name| {
            self.var_os(name)
                .map(PathBuf::from)
                .filter(|path| path.is_absolute())
        };
        absolute("XDG_STATE_HOME").or_else(|| {
            let home = match self.var_os("HOME") {
                Some(_) => absolute("HOME"),
                None => absolute("USERPROFILE"),
            };
            Some(home?.join(".local").join("state"))
        })
    }
}
