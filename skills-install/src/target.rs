//! Where to install: the [`Scope`], the agents, the options; and the folders
//! they come to on this machine (the project root found from `.git`, the
//! home directory and the variables that move agents' folders, links on
//! the way followed, agents that share a folder merged).

use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::agents::{AGENTS, Agent, DEFAULT_AGENTS, OVERRIDES, agent};
use crate::env::Environment;
use crate::error::{InstallError, Problem};
use crate::scope::Scope;

/// Which agents: the default ([`DEFAULT_AGENTS`] for an install; for
/// status and uninstall, every folder the record names), all of them, or
/// the ones named.
///
/// ```
/// use skills_install::Agents;
/// assert_eq!(Agents::parse(["all"]).unwrap(), Agents::All);
/// assert_eq!(Agents::parse(Vec::<String>::new()).unwrap(), Agents::Default);
/// let some = Agents::parse(["cursor", "codex"]).unwrap();
/// assert!(matches!(some, Agents::Only(ref list) if list.len() == 2));
/// let error = Agents::parse(["vim"]).unwrap_err();
/// assert!(error.to_string().contains("claude-code"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Agents {
    /// Nothing named.
    #[default]
    Default,
    /// Every agent of the table.
    All,
    /// These agents.
    Only(Vec<&'static Agent>),
}

/// An agent id that is not in the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAgent(pub String);

impl fmt::Display for UnknownAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown agent {:?}; the agents are: all, ", self.0)?;
        let ids: Vec<&str> = AGENTS.iter().map(|agent| agent.id).collect();
        f.write_str(&ids.join(", "))
    }
}

impl std::error::Error for UnknownAgent {}

impl Agents {
    /// Agents from ids (`all` for every one; ids may also come
    /// comma-separated); none for the default.
    pub fn parse<S: AsRef<str>>(ids: impl IntoIterator<Item = S>) -> Result<Agents, UnknownAgent> {
        let mut chosen: Vec<&'static Agent> = Vec::new();
        let mut any = false;
        for id in ids {
            for id in id
                .as_ref()
                .split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
            {
                any = true;
                if id == "all" {
                    return Ok(Agents::All);
                }
                let agent = agent(id).ok_or_else(|| UnknownAgent(id.to_string()))?;
                if !chosen.contains(&agent) {
                    chosen.push(agent);
                }
            }
        }
        Ok(match any {
            true => Agents::Only(chosen),
            false => Agents::Default,
        })
    }

    /// The agents this stands for, the default being `default`.
    pub(crate) fn list(&self, default: &[&'static Agent]) -> Vec<&'static Agent> {
        match self {
            Agents::Default => default.to_vec(),
            Agents::All => AGENTS.iter().collect(),
            Agents::Only(list) => list.clone(),
        }
    }
}

/// The [`DEFAULT_AGENTS`].
pub(crate) fn default_agents() -> Vec<&'static Agent> {
    DEFAULT_AGENTS.iter().filter_map(|id| agent(id)).collect()
}

/// How a skill is put in each agent's folder.
///
/// ```
/// use skills_install::Layout;
/// assert_eq!(Layout::default(), Layout::AsRecorded);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// As the last install did in that folder (a copy where there was
    /// none).
    #[default]
    AsRecorded,
    /// A copy in every folder.
    Copy,
    /// One copy in `.agents/skills`, and in every other folder a link to
    /// it (a copy where links cannot be made).
    Link,
}

/// What to install where: the scope, the agents, and the options.
///
/// ```
/// use skills_install::{Agents, Scope, Target};
/// let target = Target::new(Scope::User)
///     .agents(Agents::parse(["claude-code", "cursor"])?)
///     .force(true);
/// assert_eq!(target.scope, Scope::User);
/// # Ok::<(), skills_install::UnknownAgent>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Target {
    /// The scope.
    pub scope: Scope,
    /// The agents.
    pub agents: Agents,
    /// The project root, overriding the one found from the working
    /// directory (relative to it); for [`Scope::Folder`], the folder.
    pub project_dir: Option<PathBuf>,
    /// The skills (listed names); empty for every one.
    pub skills: Vec<String>,
    /// Overwrite conflicts (files the tool did not write, or that changed).
    pub force: bool,
    /// Copies or links.
    pub layout: Layout,
    /// The folders the skills are read from (the `skills` CLI's sources):
    /// an agent's folder that is, holds or lies inside one is refused, so
    /// sources are never taken for installed copies.
    pub sources: Vec<PathBuf>,
    /// Keep what cannot be updated: a skill with a conflict is left as it
    /// is (and reported as left), and every other skill is updated;
    /// without it (the default) one conflict refuses the whole run. No
    /// effect with `force`.
    pub keep_conflicts: bool,
    /// A refresh ([`Installer::refresh`](crate::Installer::refresh)): only
    /// the folders the record names, only the recorded skills whose
    /// revision is not the embedded one (or that are no longer embedded),
    /// and every one of them a user changed left as it is.
    pub(crate) refresh: bool,
}

impl Target {
    /// Every skill, for the default agents, in `scope`.
    pub fn new(scope: Scope) -> Self {
        Target {
            scope,
            ..Target::default()
        }
    }

    /// Every skill, directly under the plain folder `dir` (relative to the
    /// working directory): the [`Scope::Folder`] destination.
    ///
    /// ```
    /// use skills_install::{Scope, Target};
    /// let target = Target::folder("/opt/app/skills/.system");
    /// assert_eq!(target.scope, Scope::Folder);
    /// ```
    pub fn folder(dir: impl Into<PathBuf>) -> Self {
        Target {
            scope: Scope::Folder,
            project_dir: Some(dir.into()),
            ..Target::default()
        }
    }

    /// Keep what cannot be updated (see [`keep_conflicts`](Self::keep_conflicts)).
    ///
    /// ```
    /// use skills_install::{Scope, Target};
    /// assert!(Target::new(Scope::Project).keep_conflicts(true).keep_conflicts);
    /// ```
    pub fn keep_conflicts(mut self, keep: bool) -> Self {
        self.keep_conflicts = keep;
        self
    }

    /// The agents.
    pub fn agents(mut self, agents: Agents) -> Self {
        self.agents = agents;
        self
    }

    /// The project root (project scope).
    pub fn project_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.project_dir = Some(dir.into());
        self
    }

    /// Only these skills.
    pub fn skills<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.skills = names.into_iter().map(Into::into).collect();
        self
    }

    /// Overwrite conflicts.
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }

    /// Copies or links.
    pub fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// The folders the skills are read from: a plan refuses an agent's
    /// folder that is, holds or lies inside one
    /// ([`Problem::SourceFolder`](crate::Problem::SourceFolder)).
    ///
    /// ```
    /// use skills_install::{Agents, Scope, Target};
    /// // OpenClaw reads `<project>/skills`, where the sources are kept.
    /// let target = Target::new(Scope::Project)
    ///     .agents(Agents::parse(["openclaw"])?)
    ///     .sources(["skills"]);
    /// assert_eq!(target.sources, [std::path::PathBuf::from("skills")]);
    /// # Ok::<(), skills_install::UnknownAgent>(())
    /// ```
    pub fn sources<P: Into<PathBuf>>(mut self, folders: impl IntoIterator<Item = P>) -> Self {
        self.sources = folders.into_iter().map(Into::into).collect();
        self
    }
}

/// The root of a scope: the project root, the home directory, or the
/// plain folder itself.
pub(crate) fn base(env: &Environment, target: &Target) -> Result<PathBuf, InstallError> {
    match target.scope {
        Scope::User => env.home().ok_or(InstallError::NoHome),
        Scope::Folder => Ok(env
            .working_dir()
            .join(target.project_dir.as_deref().unwrap_or(Path::new(".")))),
        Scope::Project => Ok(match &target.project_dir {
            Some(dir) => env.working_dir().join(dir),
            None => project_root(env.working_dir()),
        }),
    }
}

/// The nearest ancestor of `dir` holding `.git` (a folder, or the file a
/// worktree has), else `dir`. On Unix a `.git` counts only where it could
/// not have been put by someone else: not in a folder anyone may write to
/// (a `/tmp/.git` would make `/tmp` every project below it), and, unless
/// the program runs as root, only a `.git` of the user's own (as `git`
/// refuses a repository of another owner).
///
/// ```
/// # let temp = std::env::temp_dir().join(format!("doc-root-{}", std::process::id()));
/// # std::fs::create_dir_all(temp.join(".git")).unwrap();
/// # std::fs::create_dir_all(temp.join("src/deep")).unwrap();
/// use skills_install::project_root;
/// assert_eq!(project_root(&temp.join("src/deep")), temp);
/// # std::fs::remove_dir_all(&temp).unwrap();
/// ```
pub fn project_root(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|ancestor| holds_own_git(ancestor))
        .unwrap_or(dir)
        .to_path_buf()
}

/// Whether `folder` holds a `.git` that counts (see [`project_root`]).
fn holds_own_git(folder: &Path) -> bool {
    let Ok(git) = folder.join(".git").symlink_metadata() else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let user = crate::dir::user();
        let shared = folder
            .metadata()
            .map_or(true, |meta| meta.mode() & 0o002 != 0);
        if shared || (user != 0 && git.uid() != user) {
            return false;
        }
    }
    #[cfg(not(unix))]
    let _ = git;
    true
}

/// The folder `agent` reads in `scope`, not yet resolved.
pub(crate) fn agent_dir(env: &Environment, base: &Path, scope: Scope, agent: &Agent) -> PathBuf {
    match scope {
        Scope::Project => base.join(agent.project_dir),
        Scope::User => user_dir(env, base, agent.user_dir),
        Scope::Folder => base.to_path_buf(),
    }
}

/// A user directory as written in the table (`~/.config/goose/skills`),
/// with the overrides applied: `XDG_CONFIG_HOME` only when absolute, as the
/// XDG specification says; the others relative to the working directory.
pub(crate) fn user_dir(env: &Environment, home: &Path, written: &str) -> PathBuf {
    for over in OVERRIDES {
        let rest = match written.strip_prefix(over.replaces) {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => rest.trim_start_matches('/'),
            _ => continue,
        };
        let value = match over.var {
            "XDG_CONFIG_HOME" => env
                .var_os(over.var)
                .map(PathBuf::from)
                .filter(|path| path.is_absolute()),
            _ => env.path_var(over.var),
        };
        if let Some(value) = value {
            return join(&value, rest);
        }
    }
    join(home, written.trim_start_matches("~/"))
}

fn join(base: &Path, slashed: &str) -> PathBuf {
    let mut path = base.to_path_buf();
    path.extend(slashed.split('/').filter(|part| !part.is_empty()));
    path
}

/// A folder as it really is: `real`, with every link on the way followed,
/// and the folders that do not exist yet (outermost first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub real: PathBuf,
    pub missing: Vec<PathBuf>,
}

/// Resolves `path`: the deepest part of it that exists is made canonical
/// (links followed), the rest appended. A part that exists but is not a
/// folder, or a link that points nowhere, is a [`Problem`].
pub(crate) fn resolve(path: &Path) -> Result<Resolved, Problem> {
    let path = lexical(path);
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let mut at: &Path = &path;
    loop {
        match std::fs::metadata(at) {
            Ok(meta) if meta.is_dir() => break,
            Ok(_) => {
                return Err(Problem::NotAFolder {
                    path: at.to_path_buf(),
                });
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                if at.symlink_metadata().is_ok() {
                    return Err(Problem::DanglingLink {
                        path: at.to_path_buf(),
                    });
                }
            }
            Err(error) => {
                return Err(Problem::Unreadable {
                    path: at.to_path_buf(),
                    error: error.to_string(),
                });
            }
        }
        match (at.file_name(), at.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                at = parent;
            }
            _ => break,
        }
    }
    let mut real = std::fs::canonicalize(at).map_err(|error| Problem::Unreadable {
        path: at.to_path_buf(),
        error: error.to_string(),
    })?;
    let mut missing = Vec::new();
    for name in rest.iter().rev() {
        real.push(name);
        missing.push(real.clone());
    }
    Ok(Resolved { real, missing })
}

/// `path` with `.` dropped and `..` applied to the part before it (the
/// paths here are built from absolute bases and the table's names).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// How `path` is shown and recorded: relative to `base` when inside it,
/// `/`-separated; else in full.
pub(crate) fn shown(base: &Path, path: &Path) -> String {
    match path.strip_prefix(base) {
        Ok(inside) if !inside.as_os_str().is_empty() => inside
            .components()
            .map(|part| part.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Ok(_) => ".".to_string(),
        Err(_) => path.display().to_string(),
    }
}

/// The relative path from folder `from` to `to` (both absolute and
/// canonical), for a link that keeps working when the tree moves.
pub(crate) fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component<'_>> = from.components().collect();
    let to: Vec<Component<'_>> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return to.iter().collect();
    }
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    out.extend(&to[common..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides() {
        let env = Environment::new("/work")
            .var("HOME", "/home/ada")
            .var("CODEX_HOME", "/opt/codex")
            .var("XDG_CONFIG_HOME", "relative/ignored");
        let home = Path::new("/home/ada");
        assert_eq!(
            user_dir(&env, home, "~/.codex/skills"),
            Path::new("/opt/codex/skills")
        );
        assert_eq!(
            user_dir(&env, home, "~/.config/goose/skills"),
            Path::new("/home/ada/.config/goose/skills")
        );
        let env = env
            .var("XDG_CONFIG_HOME", "/xdg")
            .var("CLAUDE_CONFIG_DIR", "claude");
        assert_eq!(
            user_dir(&env, home, "~/.config/goose/skills"),
            Path::new("/xdg/goose/skills")
        );
        assert_eq!(
            user_dir(&env, home, "~/.claude/skills"),
            Path::new("/work/claude/skills")
        );
        assert_eq!(
            user_dir(&env, home, "~/.claudex/skills"),
            Path::new("/home/ada/.claudex/skills")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_git_in_a_folder_anyone_may_write_to_is_no_project() {
        use std::os::unix::fs::PermissionsExt;
        let shared = std::env::temp_dir().join(format!("install-root-{}", std::process::id()));
        std::fs::create_dir_all(shared.join(".git")).unwrap();
        std::fs::create_dir_all(shared.join("work/src")).unwrap();
        let shared = std::fs::canonicalize(&shared).unwrap();
        let work = shared.join("work/src");
        assert_eq!(project_root(&work), shared);
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        assert_eq!(project_root(&work), work);
        std::fs::remove_dir_all(&shared).unwrap();
    }

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative_path(
                Path::new("/p/.claude/skills"),
                Path::new("/p/.agents/skills/pdf")
            ),
            Path::new("../../.agents/skills/pdf")
        );
        assert_eq!(
            shown(Path::new("/p"), Path::new("/p/.claude/skills")),
            ".claude/skills"
        );
        assert_eq!(shown(Path::new("/p"), Path::new("/q/skills")), "/q/skills");
    }
}
