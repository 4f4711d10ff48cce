//! What an [`Installer`] does with its skills: plan an install, refresh
//! or uninstall, apply a plan under the scope's lock (recovering an
//! interrupted run first), tell each skill's state, and extract the skills
//! into a folder.

use std::path::{Path, PathBuf};

use crate::apply::{self, Stamp};
use crate::dir::Dir;
use crate::env::Environment;
use crate::error::InstallError;
use crate::installer::Installer;
use crate::journal;
use crate::lock;
use crate::names::is_safe_folder;
use crate::ops::Ops;
use crate::payload::{Payload, SKILL_FILE, revision_of};
use crate::place::Place;
use crate::plan::{self, Context, Operation, Plan};
use crate::scope::Scope;
use crate::state::StateDir;
use crate::state::transaction_prefix;
use crate::status::Status;
use crate::target::{Layout, Target};
use crate::told;
use crate::tree;

impl<'c> Installer<'c> {
    /// Each embedded skill as the files an install writes.
    fn payloads(&self) -> Result<Vec<Payload<'c>>, InstallError> {
        let bundle = self.bundle()?;
        Ok(bundle
            .skills
            .iter()
            .map(|skill| Payload::new(skill, SKILL_FILE))
            .collect())
    }

    pub(crate) fn make_plan(
        &self,
        target: &Target,
        operation: Operation,
        recorded_only: bool,
    ) -> Result<Plan, InstallError> {
        let env = self.env()?;
        let payloads = self.payloads()?;
        let mut target = target.clone();
        target.sources.extend(self.sources.iter().cloned());
        let target = &target;
        let base = plan::real_base(&env, target)?;
        // Reading takes the lock only where there is one to take, and
        // makes no state folder.
        let state = match StateDir::find(&env, &base, target.scope) {
            Ok(state) => state,
            Err(InstallError::RelativeHome { .. } | InstallError::NoHome) => None,
            Err(error) => return Err(error),
        };
        let _lock = lock::shared(state.as_ref())?;
        let ctx = Context {
            payloads: &payloads,
            tool: &self.tool,
            env: &env,
            state: state.as_ref(),
        };
        plan::plan(&ctx, target, base, operation, recorded_only).map(|(plan, _)| plan)
    }

    /// What an install to `target` would do: per folder and skill, the
    /// state, the files written, replaced and removed, and every conflict.
    /// Reads only.
    pub fn plan(&self, target: &Target) -> Result<Plan, InstallError> {
        self.make_plan(target, Operation::Install, false)
            .map(|plan| self.noted(plan))
    }

    /// What a refresh would do. Reads only.
    pub(crate) fn plan_refresh(&self, target: &Target) -> Result<Plan, InstallError> {
        self.make_plan(target, Operation::Install, true)
    }

    /// What an uninstall from `target` would do. Reads only.
    pub fn plan_uninstall(&self, target: &Target) -> Result<Plan, InstallError> {
        self.make_plan(target, Operation::Uninstall, false)
    }

    /// The state of every skill in `target`'s folders (by default, every
    /// folder the record names).
    ///
    /// A run of this tool that was stopped half way in the scope (a
    /// journal left) is finished or undone first, so the status is of
    /// whole skills.
    pub fn status(&self, target: &Target) -> Result<Status, InstallError> {
        let target = target.clone().force(false).layout(Layout::AsRecorded);
        let env = self.env()?;
        if let Ok(base) = plan::real_base(&env, &target) {
            self.finish_stopped(&env, &base, &target)?;
        }
        self.make_plan(&target, Operation::Install, true)
            .map(Status::from)
    }

    /// Carries out a plan, under the scope's lock: first finishes or undoes
    /// what a stopped run left, then reads the folders again and refuses
    /// if they now hold a conflict the plan did not show
    /// ([`InstallError::Changed`]). A plan with problems, or with conflicts
    /// and no `force`, is refused whole: nothing is written. Every skill
    /// ends wholly old or wholly new. Returns the plan as carried out.
    pub fn apply(&self, plan: Plan) -> Result<Plan, InstallError> {
        Ok(self.apply_plan(&plan)?.unwrap_or(plan))
    }

    /// [`apply`](Self::apply) without taking the plan: the plan as carried
    /// out, or `None` when there was nothing to do (the plan stands).
    ///
    /// What the plan says is only what the caller asks for: the scope's
    /// base, its state folder and the record's place are worked out again
    /// here from the environment and the plan's target, never taken from
    /// the plan's fields, and the folders are read again under the lock.
    pub(crate) fn apply_plan(&self, plan: &Plan) -> Result<Option<Plan>, InstallError> {
        if !plan.problems.is_empty() {
            return Err(InstallError::Problems {
                count: plan.problems.len(),
            });
        }
        let conflicts = plan.conflicts().count();
        if conflicts > 0 && !plan.force && !plan.unfinished {
            return Err(self.refusal(plan, conflicts)?);
        }
        if conflicts > 0 && plan.force && plan.target.scope == Scope::Folder {
            // In a plain folder, `force` moves what is in the way aside.
            return self.apply_aside(plan);
        }
        let bundle = self.bundle()?;
        let stamp = Stamp {
            tool: &self.tool,
            version: &self.version,
            bundle_revision: revision_of(bundle).to_string(),
        };
        let env = self.env()?;
        let target = &plan.target;
        let base = plan::real_base(&env, target)?;
        let prefix = transaction_prefix(&self.tool, target.scope);
        let found = StateDir::find(&env, &base, target.scope)?;
        if !apply::needs_write(plan, &stamp) && !journal::pending(found.as_ref(), &prefix) {
            return Ok(None);
        }
        drop(found);
        let state = StateDir::create(&env, &base, target.scope)?;
        let payloads = self.payloads()?;
        let ctx = Context {
            payloads: &payloads,
            tool: &self.tool,
            env: &env,
            state: Some(&state),
        };
        let lock = lock::exclusive(&state)?;
        let ops = Ops::new(&self.injected);
        self.recover_locked(&env, &base, target, &state, &ops)?;
        let (fresh, mut opened) = plan::plan(&ctx, target, base, plan.operation, false)?;
        if !fresh.problems.is_empty() {
            return Err(InstallError::Problems {
                count: fresh.problems.len(),
            });
        }
        // A plan made before a stopped run was undone saw its half-done
        // state: the folders as they are now decide.
        let conflicts = fresh.conflicts().count();
        if plan.unfinished && conflicts > 0 && !fresh.force {
            return Err(InstallError::Conflicts { count: conflicts });
        }
        if !plan.unfinished && !fresh.conflict_set().is_subset(&plan.conflict_set()) {
            return Err(InstallError::Changed);
        }
        if apply::needs_write(&fresh, &stamp) {
            let record = apply::execute(&fresh, &mut opened, &payloads, &stamp, &ops, &state)?;
            if record.is_empty() {
                // Nothing installed: nothing left to tell of, nothing owned.
                let told = told::file_name(&self.tool, target.scope);
                let _ = told::write(state.dir(), &told, &Default::default());
                if !journal::pending(Some(&state), "") {
                    lock.remove(&state);
                }
            }
        }
        Ok(Some(self.noted(fresh)))
    }

    /// Why a plan that shows `count` conflicts, without `force`, is refused.
    /// The plan was read without the scope's lock when no run held it yet,
    /// so what it calls conflicts may be another run's files written since
    /// and not yet recorded: when the scope's state folder is there (a run
    /// of ours makes it before it writes), the folders are read again under
    /// the shared lock, which waits for that run. The same conflicts refuse
    /// the plan as [`InstallError::Conflicts`]; others, or none, as
    /// [`InstallError::Changed`]. Nothing is written either way.
    fn refusal(&self, plan: &Plan, count: usize) -> Result<InstallError, InstallError> {
        let env = self.env()?;
        let base = plan::real_base(&env, &plan.target)?;
        let Some(state) = StateDir::find(&env, &base, plan.target.scope)? else {
            return Ok(InstallError::Conflicts { count });
        };
        let payloads = self.payloads()?;
        let ctx = Context {
            payloads: &payloads,
            tool: &self.tool,
            env: &env,
            state: Some(&state),
        };
        let _lock = lock::shared(Some(&state))?;
        let (fresh, _) = plan::plan(&ctx, &plan.target, base, plan.operation, false)?;
        Ok(if fresh.conflict_set() == plan.conflict_set() {
            InstallError::Conflicts { count }
        } else {
            InstallError::Changed
        })
    }

    /// A forced plan into a plain folder: every conflicting copy moved
    /// aside (`<name>.user-<n>`), then the plan made again without force
    /// and carried out.
    fn apply_aside(&self, plan: &Plan) -> Result<Option<Plan>, InstallError> {
        let env = self.env()?;
        let base = plan::real_base(&env, &plan.target)?;
        crate::aside::move_aside(&env, &base, plan, false)?;
        let again = self.make_plan(&plan.target.clone().force(false), plan.operation, false)?;
        self.apply_plan(&again)
    }

    /// Finishes or undoes, under the scope's exclusive lock, what a
    /// stopped run of this tool left in `target`'s scope (a journal in its
    /// state folder). Returns whether there was anything.
    pub(crate) fn finish_stopped(
        &self,
        env: &Environment,
        base: &Path,
        target: &Target,
    ) -> Result<bool, InstallError> {
        let prefix = transaction_prefix(&self.tool, target.scope);
        let Some(state) = StateDir::found(env, base, target.scope)? else {
            return Ok(false);
        };
        if !journal::pending(Some(&state), &prefix) {
            return Ok(false);
        }
        let _lock = lock::exclusive(&state)?;
        let ops = Ops::new(&self.injected);
        self.recover_locked(env, base, target, &state, &ops)?;
        Ok(true)
    }

    /// [`journal::recover`] for this tool in `target`'s scope, the lock
    /// held: the record says which transaction completed.
    fn recover_locked(
        &self,
        env: &Environment,
        base: &Path,
        target: &Target,
        state: &StateDir,
        ops: &Ops,
    ) -> Result<(), InstallError> {
        let prefix = transaction_prefix(&self.tool, target.scope);
        let base_dir = Dir::open(base).map_err(|e| InstallError::io("open", base, e))?;
        let place = Place::find(&base_dir, target.scope, &self.tool)?;
        let committed = place
            .read()?
            .map(|record| record.transaction)
            .unwrap_or_default();
        let folders = plan::agent_folders(env, base, target.scope);
        let staging = journal::staging(target.scope);
        journal::recover(state, staging, &prefix, &committed, &folders, ops)?;
        place.remove_temporaries(&prefix);
        Ok(())
    }

    /// Plans and applies an install in one call.
    pub fn install(&self, target: &Target) -> Result<Plan, InstallError> {
        self.apply(self.plan(target)?)
    }

    /// Plans and applies an uninstall in one call: removes only our files
    /// (and the folders left empty); the user's files and other skills stay.
    pub fn uninstall(&self, target: &Target) -> Result<Plan, InstallError> {
        self.apply(self.plan_uninstall(target)?)
    }

    /// Writes every skill back as a folder under `dir` (created when
    /// missing), byte for byte, the skill file under the name it was read
    /// from and scripts executable. Refuses (before writing anything) when
    /// a skill's folder is already there. Returns the folders written.
    ///
    /// ```
    /// use skills_install::Installer;
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// # let dir = std::env::temp_dir().join(format!("doc-extract-{}", std::process::id()));
    /// let written = Installer::new(&SKILLS).extract(&dir)?;
    /// assert_eq!(written.len(), 3);
    /// assert!(dir.join("pdf-forms/assets/logo.png").is_file());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), skills_install::InstallError>(())
    /// ```
    pub fn extract(&self, dir: &Path) -> Result<Vec<PathBuf>, InstallError> {
        let bundle = self.bundle()?;
        let payloads: Vec<Payload<'_>> = bundle
            .skills
            .iter()
            .map(|skill| Payload::new(skill, skill.skill_file.as_str()))
            .collect();
        let mut folders = Vec::new();
        for payload in &payloads {
            if !is_safe_folder(payload.folder) {
                return Err(InstallError::io(
                    "extract",
                    dir.join(payload.listed),
                    std::io::Error::other("the skill's name is not a plain folder name"),
                ));
            }
            let folder = dir.join(payload.folder);
            if folder.symlink_metadata().is_ok() || folders.contains(&folder) {
                return Err(InstallError::io(
                    "extract to",
                    &folder,
                    std::io::Error::other("it already exists; nothing was written"),
                ));
            }
            folders.push(folder);
        }
        std::fs::create_dir_all(dir).map_err(|e| InstallError::io("create", dir, e))?;
        // The folder named is followed where it leads; below it, nothing is.
        let opened = std::fs::canonicalize(dir)
            .and_then(|real| Dir::open(&real))
            .map_err(|e| InstallError::io("open", dir, e))?;
        let ops = Ops::default();
        for (payload, folder) in payloads.iter().zip(&folders) {
            let name = std::ffi::OsStr::new(payload.folder);
            ops.create_dir(&opened, name)
                .map_err(|e| InstallError::io("create", folder, e))?;
            let skill = opened
                .open_dir(name)
                .map_err(|e| InstallError::io("open", folder, e))?;
            for file in &payload.files {
                let path = tree::relative(file.path);
                let mut at = skill
                    .try_clone()
                    .map_err(|e| InstallError::io("open", folder, e))?;
                let parent = path.parent().unwrap_or(Path::new(""));
                for part in parent.iter() {
                    at = ops
                        .ensure_dir(&at, part)
                        .map_err(|e| InstallError::io("create", at.join(part), e))?
                        .0;
                }
                let last = path.file_name().unwrap_or_default();
                ops.write_new(&at, last, &file.bytes, file.exec)
                    .map_err(|e| InstallError::io("write", folder.join(&path), e))?;
            }
        }
        Ok(folders)
    }
}
