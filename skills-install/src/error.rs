//! What can stop an install: [`InstallError`] for a run that cannot go on,
//! [`Problem`] for what a plan finds that no `--force` may override.

use std::fmt;
use std::io;
use std::path::PathBuf;

use skills_core::DecodeError;

/// Why an install, status or uninstall could not run (nothing was changed,
/// or what was changed was undone).
///
/// ```
/// use skills_install::InstallError;
/// let error = InstallError::Conflicts { count: 2 };
/// assert!(error.to_string().contains("--force"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum InstallError {
    /// The embedded skills do not decode.
    Decode(DecodeError),
    /// The user scope was asked for and no home directory is known.
    NoHome,
    /// The home (or the state folder) the environment names is a relative
    /// path: the installer's lock and journals are never kept in a folder
    /// found from the working directory, where a repository could carry
    /// them.
    RelativeHome {
        /// The variable (`HOME`, `USERPROFILE`).
        var: &'static str,
        /// Its value.
        value: PathBuf,
    },
    /// The scope's state folder (where the lock and journals are kept) is
    /// not the user's alone: another user owns it, or others may write to
    /// it.
    StateFolder {
        /// The folder.
        path: PathBuf,
        /// What is wrong with it.
        error: String,
    },
    /// A file system operation failed.
    Io {
        /// What was being done.
        action: &'static str,
        /// Where.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
    /// The record of a previous install cannot be read.
    Record {
        /// Its path.
        path: PathBuf,
        /// What is wrong with it.
        error: RecordError,
    },
    /// A journal of a stopped run fails a check (not a regular file, too
    /// large, unreadable, or naming a folder or skill it may not): it is
    /// reported and left alone, never acted on.
    Journal {
        /// Its path.
        path: PathBuf,
        /// What is wrong with it.
        error: String,
    },
    /// The plan has conflicts and `force` was not given.
    Conflicts {
        /// How many.
        count: usize,
    },
    /// The plan has problems that no `force` overrides.
    Problems {
        /// How many.
        count: usize,
    },
    /// The folders changed between the plan and its apply in a way the
    /// plan did not show (a new conflict).
    Changed,
    /// A skill was named that is not embedded (nor recorded).
    UnknownSkill {
        /// The name given.
        name: String,
        /// The names known.
        known: Vec<String>,
    },
}

impl InstallError {
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>, error: io::Error) -> Self {
        InstallError::Io {
            action,
            path: path.into(),
            error,
        }
    }
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstallError::Decode(error) => write!(f, "the embedded skills do not decode: {error}"),
            InstallError::NoHome => f.write_str(
                "no home directory is known: set HOME (USERPROFILE on Windows), or use --scope project",
            ),
            InstallError::RelativeHome { var, value } => write!(
                f,
                "{var} is a relative path ({}): the installer keeps its lock and journals only under an absolute home; set {var} (or XDG_STATE_HOME) to an absolute path",
                value.display()
            ),
            InstallError::StateFolder { path, error } => write!(
                f,
                "the installer's state folder {} {error}: it keeps its lock and journals only in a folder of the user's alone (make it 0700 and the user's, or remove it)",
                path.display()
            ),
            InstallError::Io {
                action,
                path,
                error,
            } => write!(f, "cannot {action} {}: {error}", path.display()),
            InstallError::Record { path, error } => write!(
                f,
                "the install record {} cannot be read ({error}); move it away to start over (nothing is then counted as installed by this tool)",
                path.display()
            ),
            InstallError::Journal { path, error } => write!(
                f,
                "the journal of a stopped run, {}, fails a check ({error}): it was left alone and nothing was written; remove it to go on",
                path.display()
            ),
            InstallError::Conflicts { count } => write!(
                f,
                "{count} conflict{} (files this tool did not write, or that changed since): nothing was written; give --force to overwrite them",
                if *count == 1 { "" } else { "s" }
            ),
            InstallError::Problems { count } => write!(
                f,
                "{count} problem{} in the target folders: nothing was written",
                if *count == 1 { "" } else { "s" }
            ),
            InstallError::Changed => f.write_str(
                "the skill folders changed since the plan was made: nothing was written; run again to see the new plan",
            ),
            InstallError::UnknownSkill { name, known } => {
                write!(f, "no skill named {name:?}; the skills are: {}", known.join(", "))
            }
        }
    }
}

impl std::error::Error for InstallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InstallError::Decode(error) => Some(error),
            InstallError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<DecodeError> for InstallError {
    fn from(error: DecodeError) -> Self {
        InstallError::Decode(error)
    }
}

/// Something in the way that `force` does not override: the plan lists it
/// and nothing is written.
///
/// ```
/// use skills_install::Problem;
/// let problem = Problem::NotAFolder { path: ".claude/skills".into() };
/// assert!(problem.to_string().contains("not a folder"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A file (or something else) stands where an agent's folder, or one of
    /// its parents, should be.
    NotAFolder {
        /// The path.
        path: PathBuf,
    },
    /// A link on the way to an agent's folder points nowhere.
    DanglingLink {
        /// The link.
        path: PathBuf,
    },
    /// Two skills would go into one folder (`pdf` and `team:pdf`).
    NameClash {
        /// The folder name.
        folder: String,
        /// The two listed names.
        skills: [String; 2],
    },
    /// A skill's name cannot be a folder name.
    UnsafeName {
        /// The listed name.
        name: String,
    },
    /// A file of a skill cannot be written where it belongs on this
    /// system (on Windows a path with a colon, `C:x`, names another
    /// drive; a device name such as `CON` is no file).
    UnsafeFile {
        /// The skill's listed name.
        skill: String,
        /// The file's path inside it.
        path: String,
    },
    /// A folder could not be read.
    Unreadable {
        /// The path.
        path: PathBuf,
        /// The error's text.
        error: String,
    },
    /// In the project scope, a folder the install would write (an agent's
    /// folder, the shared copy, the record's folder) leads outside the
    /// project through a link.
    Outside {
        /// The folder as named.
        path: PathBuf,
        /// Where it leads.
        real: PathBuf,
    },
    /// An agent's folder resolves (a link on the way followed) to a folder
    /// that is no agent's own: in a project, anything but one of the
    /// agents' folder paths (`.git`, the project root, any other folder);
    /// in any scope, the scope's base, a folder above it, or one inside a
    /// `.git`.
    NotAgentFolder {
        /// The agent's folder as named.
        path: PathBuf,
        /// Where it leads.
        real: PathBuf,
    },
    /// An agent's folder is, holds or lies inside a folder the skills are
    /// read from: installing or uninstalling there would take the sources
    /// for installed copies.
    SourceFolder {
        /// The agent's folder.
        folder: PathBuf,
        /// The source folder.
        source: PathBuf,
    },
    /// The record names a folder that is no agent's skill folder in this
    /// scope (a record changed by hand, or the variables or links that
    /// placed the folder changed): it is left alone.
    UnknownFolder {
        /// The folder's key in the record.
        key: String,
    },
    /// An agent folder's `.skills-staging` is a link or a file, not a
    /// folder the installer can stage in.
    Staging {
        /// Its path.
        path: PathBuf,
    },
    /// The shared copy would be removed while a link not being removed
    /// still points at it.
    StillLinked {
        /// The shared copy.
        path: PathBuf,
        /// The link.
        link: PathBuf,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotAFolder { path } => write!(
                f,
                "{} is not a folder: move it away to install there",
                path.display()
            ),
            Problem::DanglingLink { path } => write!(
                f,
                "{} is a link to a place that does not exist: create that folder or remove the link",
                path.display()
            ),
            Problem::NameClash { folder, skills } => write!(
                f,
                "skills {:?} and {:?} would both be installed as {folder:?}: install one of them (--skill)",
                skills[0], skills[1]
            ),
            Problem::UnsafeName { name } => {
                write!(
                    f,
                    "skill {name:?} cannot be installed: its name is not a plain folder name"
                )
            }
            Problem::UnsafeFile { skill, path } => write!(
                f,
                "skill {skill:?} cannot be installed here: its file {path:?} is not a plain relative path on this system"
            ),
            Problem::Unreadable { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            Problem::Outside { path, real } => write!(
                f,
                "{} leads to {}, outside the project: a project's links out are not followed (remove the link, or use --scope user)",
                path.display(),
                real.display()
            ),
            Problem::NotAgentFolder { path, real } => write!(
                f,
                "{} leads to {}, which is no agent's skill folder here (a link on the way points elsewhere): the installer writes only into agents' own folders; remove the link",
                path.display(),
                real.display()
            ),
            Problem::SourceFolder { folder, source } => {
                let relation = if folder == source {
                    "is the folder the skills are read from"
                } else if source.starts_with(folder) {
                    "holds the folder the skills are read from"
                } else {
                    "lies inside the folder the skills are read from"
                };
                write!(
                    f,
                    "{} {relation} ({}): its skills are the sources, not installed copies; install for another agent (--agent) or keep the sources elsewhere",
                    folder.display(),
                    source.display()
                )
            }
            Problem::UnknownFolder { key } => write!(
                f,
                "the install record names {}, which is no agent's skill folder here: it is left alone (name the agents with --agent, or move the record away)",
                crate::names::quoted(key)
            ),
            Problem::Staging { path } => write!(
                f,
                "{} is a link or a file, not a staging folder of the installer: move it away",
                path.display()
            ),
            Problem::StillLinked { path, link } => write!(
                f,
                "{} is the copy that {} links to: uninstall that agent too",
                path.display(),
                link.display()
            ),
        }
    }
}

/// A record that cannot be read: what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError(pub String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
