//! What resolves each state a status reports: the command to run, and
//! what it does there. One place, so the text and the JSON name the same
//! command, and the `skills` CLI names its own (`skills install SRC...`)
//! where a program names `mytool skill install`.

use crate::installer::Installer;
use crate::plan::State;
use crate::status::{SkillStatus, Status};

/// The command that resolves a skill's state, and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Remedy {
    /// The command line.
    pub command: String,
    /// What it does, in words (`updates it`).
    pub does: &'static str,
}

/// What resolves `skill`'s state in `status` (`None`: nothing to do, or
/// nothing this tool does: a copy it did not install that holds what is
/// embedded is left alone).
pub(crate) fn remedy(
    installer: &Installer<'_>,
    status: &Status,
    skill: &SkillStatus,
) -> Option<Remedy> {
    let flags: Vec<&str> = status.flags.iter().map(String::as_str).collect();
    let forced: Vec<&str> = flags.iter().copied().chain(["--force"]).collect();
    let name = skill.embedded.then_some(skill.name.as_str());
    let (flags, does) = match (skill.state, skill.embedded) {
        (State::UpToDate, _) => return None,
        (State::NotOurs, _) if skill.differences.is_empty() => return None,
        (State::Outdated, true) => (&flags, "updates it"),
        (State::Outdated, false) => (&flags, "removes it (no longer carried)"),
        (State::Missing, true) => (&flags, "installs it"),
        (State::Missing, false) => (&flags, "forgets it (no longer carried)"),
        (State::Modified, true) => (
            &forced,
            "replaces it with this version (the changes are lost)",
        ),
        (State::Modified, false) => (&forced, "removes it (the changes are lost)"),
        (State::NotOurs, _) => (
            &forced,
            "replaces it with this version (what is there is lost)",
        ),
    };
    Some(Remedy {
        command: installer.install_hint(name, flags),
        does,
    })
}

impl Installer<'_> {
    /// The command that resolves `skill`'s state in `status` (`None` when
    /// there is nothing to do, or nothing this tool would do: a copy it did
    /// not install that holds what is embedded is left alone). The same
    /// command the status's text and JSON name.
    ///
    /// ```
    /// use skills_install::{Environment, Installer, Scope, Target};
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// # let root = std::env::temp_dir().join(format!("doc-remedy-{}", std::process::id()));
    /// # std::fs::create_dir_all(root.join(".git")).unwrap();
    /// let installer = Installer::new(&SKILLS).tool_name("mytool").environment(Environment::new(&root));
    /// let status = installer.status(&Target::new(Scope::Project))?;
    /// let (_, skill, _) = status.differences().next().expect("nothing installed yet");
    /// assert_eq!(
    ///     installer.resolving_command(&status, skill).as_deref(),
    ///     Some(format!("mytool skill install {}", skill.name).as_str())
    /// );
    /// # std::fs::remove_dir_all(&root).unwrap();
    /// # Ok::<(), skills_install::InstallError>(())
    /// ```
    pub fn resolving_command(&self, status: &Status, skill: &SkillStatus) -> Option<String> {
        remedy(self, status, skill).map(|remedy| remedy.command)
    }
}
