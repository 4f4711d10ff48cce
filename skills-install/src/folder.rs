//! A plain folder the calling program owns ([`Installer::into_folder`]):
//! the skills go directly under it (`<dir>/<name>/`), and everything the
//! installer keeps lives in its one hidden entry, `<dir>/.skills-install`
//! (the record, and `state/` with the lock, the journals and what was
//! told; transactions stage there too). Two folders never share state,
//! and deleting the folder forgets it. No agent, scope or home is
//! consulted.
//!
//! The hidden entry is input like a project's record: it is opened one
//! name at a time from the folder, no link followed, its state folder
//! must be the user's alone, and the record is checked whole when read.
//!
//! [`Folder::refresh`] is what a program calls on every start: new and
//! changed skills are written, skills no longer carried removed, a copy
//! the user changed kept (said once) or, with [`FolderPolicy::Replace`],
//! moved aside to `<name>.user-<n>` before the new one is written. A
//! start with nothing to do reads the record and compares the bundle's
//! revision: nothing is hashed.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::aside;
use crate::env::Environment;
use crate::error::InstallError;
use crate::installer::Installer;
use crate::journal;
use crate::payload::revision_of;
use crate::plan::{self, Plan};
use crate::refresh::{self, Refreshed};
use crate::scope::Scope;
use crate::state::StateDir;
use crate::state::transaction_prefix;
use crate::status::Status;
use crate::target::Target;

/// What a [`Folder`] does with a copy the user changed when the program
/// carries a new version of it.
///
/// ```
/// use skills_install::FolderPolicy;
/// assert_eq!(FolderPolicy::default(), FolderPolicy::Keep);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FolderPolicy {
    /// Keep the user's copy as it is, and say so once.
    #[default]
    Keep,
    /// Move the user's copy aside, beside it (`<name>.user-1`, the next
    /// free number), say so once, and write the new version: for a folder
    /// the program considers its own cache.
    Replace,
}

/// An [`Installer`] into a plain folder of the program's own: see
/// [`Installer::into_folder`].
#[derive(Debug, Clone)]
pub struct Folder<'c> {
    installer: Installer<'c>,
    dir: PathBuf,
    policy: FolderPolicy,
}

impl<'c> Installer<'c> {
    /// This installer, writing into the plain folder `dir` (relative to
    /// the working directory) instead of agents' folders: each skill at
    /// `dir/<name>/`, the installer's state in `dir/.skills-install`.
    ///
    /// ```
    /// use skills_install::{Installer, Refreshed, State};
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// # let home = std::env::temp_dir().join(format!("doc-folder-{}", std::process::id()));
    /// let dir = home.join("skills/.system");
    /// let folder = Installer::new(&SKILLS).tool_name("mytool").version("1.0.0").into_folder(&dir);
    ///
    /// folder.refresh()?; // on every start: the first one writes every skill
    /// assert!(dir.join("pdf-forms/SKILL.md").is_file());
    /// assert!(matches!(folder.refresh()?, Refreshed::Current));
    /// assert_eq!(folder.status()?.state(".", "pdf-forms"), Some(State::UpToDate));
    ///
    /// folder.uninstall()?;
    /// assert!(!dir.join(".skills-install").exists());
    /// # std::fs::remove_dir_all(&home).unwrap();
    /// # Ok::<(), skills_install::InstallError>(())
    /// ```
    pub fn into_folder(self, dir: impl Into<PathBuf>) -> Folder<'c> {
        Folder {
            installer: self,
            dir: dir.into(),
            policy: FolderPolicy::Keep,
        }
    }
}

impl<'c> Folder<'c> {
    /// What to do with a copy the user changed (default
    /// [`FolderPolicy::Keep`]).
    pub fn policy(mut self, policy: FolderPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The installer.
    pub fn installer(&self) -> &Installer<'c> {
        &self.installer
    }

    /// The folder, as given.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The target: every skill, in the folder.
    pub fn target(&self) -> Target {
        Target::folder(&self.dir)
    }

    /// The folder, made where missing, resolved against the environment's
    /// working directory.
    fn made(&self) -> Result<(Environment, PathBuf), InstallError> {
        let env = self.installer.env()?;
        let path = env.working_dir().join(&self.dir);
        if std::fs::symlink_metadata(&path).is_err() {
            std::fs::create_dir_all(&path).map_err(|e| InstallError::io("create", &path, e))?;
        }
        let base = plan::real_base(&env, &self.target())?;
        Ok((env, base))
    }

    /// What an install would do (the folder must exist). Reads only.
    pub fn plan(&self) -> Result<Plan, InstallError> {
        self.installer.plan(&self.target())
    }

    /// Installs every skill (making the folder where missing). A conflict
    /// (a copy the user changed, something else where a skill goes)
    /// refuses the whole run, as for agents' folders; with
    /// [`FolderPolicy::Replace`] it is moved aside first.
    pub fn install(&self) -> Result<Plan, InstallError> {
        let (env, base) = self.made()?;
        let target = self.target();
        let mut plan = self.installer.plan(&target)?;
        if self.policy == FolderPolicy::Replace && plan.conflicts().next().is_some() {
            aside::move_aside(&env, &base, &plan, false)?;
            plan = self.installer.plan(&target)?;
        }
        self.installer.apply(plan)
    }

    /// The state of every skill in the folder.
    pub fn status(&self) -> Result<Status, InstallError> {
        self.installer.status(&self.target())
    }

    /// Removes the skills this tool wrote (a copy the user changed is
    /// refused, as for agents' folders), and the hidden entry once
    /// nothing is left in it.
    pub fn uninstall(&self) -> Result<Plan, InstallError> {
        self.installer.uninstall(&self.target())
    }

    /// [`refresh`](Self::refresh), saying on `err` what it did: one line
    /// for what it updated or removed, one per copy kept or moved aside
    /// (the first time only), one for a problem.
    pub fn refresh_to(&self, err: &mut dyn Write) -> Result<Refreshed, InstallError> {
        let outcome = self.refresh();
        let text = refresh::lines::refresh_lines(&self.installer, Scope::Folder, &outcome);
        let _ = err.write_all(text.as_bytes());
        outcome
    }

    /// Brings the folder to the embedded skills, for a program's start:
    /// makes the folder where missing; finishes or undoes a run that was
    /// stopped half way; writes new and changed skills, removes the ones
    /// no longer carried, adopts a copy an earlier installer wrote that
    /// holds exactly what is embedded; keeps a copy the user changed (or,
    /// with [`FolderPolicy::Replace`], moves it aside) and updates every
    /// other. When the record names the embedded bundle's revision and no
    /// run was stopped, that is all it reads ([`Refreshed::Current`]).
    pub fn refresh(&self) -> Result<Refreshed, InstallError> {
        let (env, base) = self.made()?;
        let tool = self.installer.tool();
        let bundle = self.installer.bundle()?;
        if let Some(record) = refresh::glance(&base, Scope::Folder, tool)? {
            if refresh::newer(&record.version, self.installer.version_text()) {
                return Ok(Refreshed::Newer {
                    version: record.version,
                });
            }
            let prefix = transaction_prefix(tool, Scope::Folder);
            let state = StateDir::found(&env, &base, Scope::Folder)?;
            if record.bundle_revision == revision_of(bundle).to_string()
                && !journal::pending(state.as_ref(), &prefix)
            {
                return Ok(Refreshed::Current);
            }
        }
        let target = self.target().keep_conflicts(true);
        self.installer.finish_stopped(&env, &base, &target)?;
        let mut plan = self.installer.plan(&target)?;
        let aside = match self.policy {
            FolderPolicy::Replace => aside::move_aside(&env, &base, &plan, true)?,
            FolderPolicy::Keep => Vec::new(),
        };
        if !aside.is_empty() {
            plan = self.installer.plan(&target)?;
        }
        let embedded = refresh::embedded_revisions(bundle);
        let mut outcome = self.installer.apply_refresh(plan, &env, &base, &embedded)?;
        if let Refreshed::Applied { kept, .. } = &mut outcome {
            kept.extend(aside);
        }
        Ok(outcome)
    }
}
