//! [`Scope`]: which of an agent's two folders (a project's or the
//! user's), or a folder of the program's own; a word most of the crate
//! speaks, so it depends on nothing.

use std::fmt;
use std::str::FromStr;

/// Which agent folders: a project's or the user's.
///
/// ```
/// use skills_install::Scope;
/// assert_eq!("user".parse::<Scope>(), Ok(Scope::User));
/// assert_eq!(Scope::Project.to_string(), "project");
/// assert!("global".parse::<Scope>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Scope {
    /// The project's folders (`.claude/skills`), under the project root.
    #[default]
    Project,
    /// The user's folders (`~/.claude/skills`), under the home directory.
    User,
    /// A plain folder the calling program owns ([`Target::folder`](crate::Target::folder)): the
    /// skills go directly under it, and everything the installer keeps
    /// (record, lock, journals, staging) is in its one hidden entry
    /// `.skills-install`. No agent, scope or home is consulted.
    Folder,
}

impl Scope {
    /// `project` or `user`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Folder => "folder",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "project" => Ok(Scope::Project),
            "user" => Ok(Scope::User),
            _ => Err(format!("unknown scope {text:?}: use project or user")),
        }
    }
}
