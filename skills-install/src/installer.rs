//! [`Installer`]: the embedded skills, the tool that ships them, and the
//! environment, as set by its builder; what it does with them (plan,
//! apply, status, uninstall, extract) is in `runs`, the refresh in
//! `refresh`, the `skill` subcommand in `command`.

use std::path::{Path, PathBuf};

use skills_core::wire::bundle::Bundle;
use skills_core::{Catalog, DecodeError, Embedded};

use crate::env::Environment;
use crate::error::InstallError;
use crate::faults::Injected;
#[cfg(any(test, feature = "test-faults"))]
use crate::faults::{Fault, Swap};
use crate::payload::folder_name;
use crate::plan::{Operation, Plan};

/// The skills an [`Installer`] installs: an [`Embedded`] bundle or a
/// [`Catalog`] (`Installer::new` takes either).
#[derive(Debug, Clone)]
pub struct Skills<'c>(Result<&'c Bundle<'c>, DecodeError>);

impl<'c> From<&'c Embedded> for Skills<'c> {
    fn from(embedded: &'c Embedded) -> Self {
        Skills(
            embedded
                .catalog()
                .map(|catalog| catalog.bundle() as &Bundle<'c>),
        )
    }
}

impl<'c, 'a: 'c> From<&'c Catalog<'a>> for Skills<'c> {
    fn from(catalog: &'c Catalog<'a>) -> Self {
        Skills(Ok(catalog.bundle() as &Bundle<'c>))
    }
}

/// Installs embedded skills into the folders coding agents read
/// (`.claude/skills`, `.agents/skills`, `~/.cursor/skills`, ...), keeps a
/// record of what it wrote, and never loses a file it did not write.
///
/// ```
/// use skills_install::{Installer, Scope, State, Target};
/// // static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("skills");
/// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
/// # let project = std::env::temp_dir().join(format!("doc-installer-{}", std::process::id()));
/// # std::fs::create_dir_all(&project).unwrap();
///
/// let installer = Installer::new(&SKILLS)
///     .tool_name("mytool")
///     .version("1.2.0")
///     .environment(skills_install::Environment::new(&project));
/// let target = Target::new(Scope::Project);
///
/// let plan = installer.plan(&target)?; // what would be written, and every conflict
/// assert!(plan.is_ready());
/// installer.apply(plan)?;
///
/// let status = installer.status(&target)?;
/// assert_eq!(status.state(".claude/skills", "pdf-forms"), Some(State::UpToDate));
/// assert!(project.join(".agents/skills/pdf-forms/SKILL.md").is_file());
///
/// installer.uninstall(&target)?;
/// assert!(!project.join(".claude/skills/pdf-forms").exists());
/// # std::fs::remove_dir_all(&project).unwrap();
/// # Ok::<(), skills_install::InstallError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Installer<'c> {
    pub(crate) skills: Result<&'c Bundle<'c>, DecodeError>,
    pub(crate) tool: String,
    pub(crate) version: String,
    pub(crate) env: Option<Environment>,
    /// Failures injected into its applies (the installer's tests only).
    pub(crate) injected: Injected,
    pub(crate) refresh_on_start: bool,
    pub(crate) install_command: Option<Vec<String>>,
    /// The folders the skills are built from, refused as targets.
    pub(crate) sources: Vec<PathBuf>,
    /// (skill, agent id, remark), shown with the plans that write the
    /// skill where the agent reads.
    pub(crate) notes: Vec<(String, String, String)>,
}

impl<'c> Installer<'c> {
    /// An installer of these skills, as the tool named after the program
    /// (its file name without extension), version unknown: set both with
    /// [`tool_name`](Self::tool_name) and [`version`](Self::version).
    pub fn new(skills: impl Into<Skills<'c>>) -> Self {
        let program = std::env::args_os()
            .next()
            .and_then(|arg| {
                Path::new(&arg)
                    .file_stem()
                    .map(|stem| stem.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "skills".to_string());
        Installer {
            skills: skills.into().0,
            tool: program,
            version: String::new(),
            env: None,
            injected: Default::default(),
            refresh_on_start: false,
            install_command: None,
            sources: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The tool's name: it names the record (`<tool>.<scope>.json`), so
    /// keep it stable across versions.
    pub fn tool_name(mut self, name: impl Into<String>) -> Self {
        self.tool = name.into();
        self
    }

    /// The tool's version, kept in the record.
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    /// The command a person runs to install these skills, word by word,
    /// as the hints of `status` and of a refresh name it: by default
    /// `<tool> skill install` (the subcommand, which takes a skill's name);
    /// the `skills` CLI names its own (`skills install SRC...`).
    ///
    /// ```
    /// use skills_install::Installer;
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// let installer = Installer::new(&SKILLS).tool_name("mytool");
    /// assert_eq!(installer.install_hint(Some("pdf-forms"), &["--force"]), "mytool skill install pdf-forms --force");
    /// let installer = installer.install_command(["skills", "install", "my skills/"]);
    /// assert_eq!(installer.install_hint(Some("pdf-forms"), &[]), "skills install 'my skills/'");
    /// ```
    pub fn install_command<S: Into<String>>(mut self, words: impl IntoIterator<Item = S>) -> Self {
        self.install_command = Some(words.into_iter().map(Into::into).collect());
        self
    }

    /// The command that installs (skill `name`, where the command takes
    /// names), with `flags` after it, as a person types it (words quoted
    /// for a POSIX shell where they need it).
    pub fn install_hint(&self, name: Option<&str>, flags: &[&str]) -> String {
        let mut words: Vec<&str> = match &self.install_command {
            Some(words) => words.iter().map(String::as_str).collect(),
            None => [self.tool.as_str(), "skill", "install"]
                .into_iter()
                .chain(name)
                .collect(),
        };
        words.extend(flags);
        let words: Vec<String> = words.into_iter().map(shell_word).collect();
        words.join(" ")
    }

    /// The folders the embedded skills are built from (relative to the
    /// working directory): every plan, whatever its target, refuses an
    /// agent's folder (or plain folder) that is, holds or lies inside one
    /// ([`Problem::SourceFolder`](crate::Problem::SourceFolder)), so
    /// `mytool skill install --agent all --force` run in the tool's own
    /// repository never writes over the skills' sources.
    ///
    /// ```
    /// use skills_install::{Agents, Environment, Installer, Problem, Scope, Target};
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// # let project = std::env::temp_dir().join(format!("doc-sources-{}", std::process::id()));
    /// # std::fs::create_dir_all(project.join("skills")).unwrap();
    /// let installer = Installer::new(&SKILLS)
    ///     .environment(Environment::new(&project))
    ///     .sources([project.join("skills")]);
    /// // OpenClaw reads `<project>/skills`, where the sources are.
    /// let target = Target::new(Scope::Project).agents(Agents::parse(["openclaw"]).unwrap()).force(true);
    /// let plan = installer.plan(&target)?;
    /// assert!(matches!(plan.problems[..], [Problem::SourceFolder { .. }]));
    /// # std::fs::remove_dir_all(&project).unwrap();
    /// # Ok::<(), skills_install::InstallError>(())
    /// ```
    pub fn sources<P: Into<PathBuf>>(mut self, folders: impl IntoIterator<Item = P>) -> Self {
        self.sources = folders.into_iter().map(Into::into).collect();
        self
    }

    /// The working directory and variables to resolve folders against,
    /// instead of the process's.
    pub fn environment(mut self, env: Environment) -> Self {
        self.env = Some(env);
        self
    }

    /// A remark shown with every install plan that writes `skill` (as the
    /// catalog lists it) into a folder `agent` (an id, `github-copilot`)
    /// reads: what the caller knows and the installer does not, such as a
    /// frontmatter field that agent ignores. It changes nothing that is
    /// written.
    ///
    /// ```
    /// use skills_install::{Environment, Installer, Scope, Target};
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// # let project = std::env::temp_dir().join(format!("doc-note-{}", std::process::id()));
    /// # std::fs::create_dir_all(&project).unwrap();
    /// let installer = Installer::new(&SKILLS)
    ///     .environment(Environment::new(&project))
    ///     .note("pdf-forms", "codex", "ignores `model`");
    /// let plan = installer.plan(&Target::new(Scope::Project))?;
    /// let shared = plan.dirs.iter().find(|dir| dir.shown == ".agents/skills").unwrap();
    /// let skill = shared.skills.iter().find(|skill| skill.name == "pdf-forms").unwrap();
    /// assert_eq!(skill.notes, ["Codex: ignores `model`"]);
    /// # std::fs::remove_dir_all(&project).unwrap();
    /// # Ok::<(), skills_install::InstallError>(())
    /// ```
    pub fn note(
        mut self,
        skill: impl Into<String>,
        agent: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        self.notes.push((skill.into(), agent.into(), text.into()));
        self
    }

    /// `plan` with the [`note`](Self::note)s of each skill it writes,
    /// for the agents of its folder.
    pub(crate) fn noted(&self, mut plan: Plan) -> Plan {
        if plan.operation != Operation::Install {
            return plan;
        }
        for dir in &mut plan.dirs {
            for skill in &mut dir.skills {
                if !skill.change.writes() {
                    continue;
                }
                for agent in &dir.agents {
                    skill.notes.extend(
                        self.notes
                            .iter()
                            .filter(|(name, id, _)| {
                                folder_name(name) == skill.name && id == agent.id
                            })
                            .map(|(_, _, text)| format!("{}: {text}", agent.name)),
                    );
                }
            }
        }
        plan
    }

    /// Makes step `fault.at` of the next applies fail: for the installer's
    /// own tests (feature `test-faults`), not part of the API.
    #[cfg(any(test, feature = "test-faults"))]
    #[doc(hidden)]
    pub fn __inject_fault(mut self, fault: Option<Fault>) -> Self {
        self.injected.fault = fault;
        self
    }

    /// Swaps a folder for a link before step `swap.at` of the next
    /// applies, as a process racing the installer would: for the
    /// installer's own tests (feature `test-faults`), not part of the API.
    #[cfg(any(test, feature = "test-faults"))]
    #[doc(hidden)]
    pub fn __inject_swap(mut self, swap: Option<Swap>) -> Self {
        self.injected.swap = swap;
        self
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    pub(crate) fn version_text(&self) -> &str {
        &self.version
    }

    /// The embedded skills' names.
    pub fn skill_names(&self) -> Result<Vec<&'c str>, InstallError> {
        let bundle = self.bundle()?;
        Ok(bundle.skills.iter().map(|skill| skill.name).collect())
    }

    pub(crate) fn bundle(&self) -> Result<&'c Bundle<'c>, InstallError> {
        self.skills.clone().map_err(InstallError::Decode)
    }

    pub(crate) fn env(&self) -> Result<Environment, InstallError> {
        match &self.env {
            Some(env) => Ok(env.clone()),
            None => Environment::current().map_err(|e| InstallError::io("read", ".", e)),
        }
    }
}

/// `word` as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,@%+".contains(c);
    match !word.is_empty() && word.chars().all(plain) {
        true => word.to_string(),
        false => format!("'{}'", word.replace('\'', r"'\''")),
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn shell_words_are_quoted_where_needed() {
        assert_eq!(shell_word("skills/pdf-forms"), "skills/pdf-forms");
        assert_eq!(shell_word("my skills"), "'my skills'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("$HOME"), "'$HOME'");
    }
}
