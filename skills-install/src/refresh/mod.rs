//! Refreshing installed copies when the program is upgraded: on every
//! start, [`Installer::refresh`] compares each installed skill's recorded
//! revision with the embedded one and, where they differ and the copy is
//! exactly what was written, updates it through the same plan and apply
//! as an install (atomic, under the scope's lock); a copy the user changed
//! is left, and said so once per new version.
//!
//! What it costs when nothing changed: per scope, finding the scope's
//! folder and one read of the record; no installed file is read. Only a
//! skill recorded at another revision is looked at on disk.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::Path;

use skills_core::trust::revision::Revision;
use skills_core::wire::bundle::Bundle;

use crate::dir::Dir;
use crate::env::Environment;
use crate::error::InstallError;
use crate::installer::Installer;
use crate::lock;
use crate::payload::{folder_name, skill_revision};
use crate::place::Place;
use crate::plan::{self, Change, Plan};
use crate::record::{Glance, RecordError, stale};
use crate::scope::Scope;
use crate::state::StateDir;
use crate::target::Target;
use crate::told::{self, Left};

pub(crate) mod lines;
pub(crate) mod outcome;

pub use outcome::{Kept, Refreshed};

impl Installer<'_> {
    /// Refreshes the installed copies of the embedded skills, in the
    /// project (found from the working directory) and for the user, and
    /// says on stderr what it did: see [`refresh_to`](Self::refresh_to).
    /// Call it on every start of the program (or let
    /// [`intercept`](Self::intercept) do it: [`refresh_on_start`](Self::refresh_on_start)).
    ///
    /// ```no_run
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// fn main() {
    ///     let installer = skills_install::Installer::new(&SKILLS)
    ///         .tool_name("mytool")
    ///         .version(env!("CARGO_PKG_VERSION"));
    ///     installer.refresh(); // never fails: a problem is one line on stderr
    ///     // ... the rest of mytool
    /// }
    /// ```
    pub fn refresh(&self) -> Vec<(Scope, Result<Refreshed, InstallError>)> {
        let stderr = io::stderr();
        self.refresh_to(&mut stderr.lock())
    }

    /// [`refresh`](Self::refresh), saying what it did on `err`. In each
    /// scope where this tool installed skills (where its record is),
    /// every installed skill whose recorded revision is not the embedded
    /// one is looked at: a copy that is exactly what was written is
    /// updated through the same plan and apply as an install (atomic,
    /// locked), a skill the program no longer carries is removed, and a
    /// copy the user changed is left as it is, with one line saying so the
    /// first time (once per new version: what was said is kept in the
    /// user's state folder). No folder or agent is installed to that was
    /// not before, and no skill is added. A scope whose record a newer
    /// version of the tool wrote is left alone.
    ///
    /// It never fails and never panics out: a problem is one line on
    /// `err`, and the scopes' outcomes are returned.
    ///
    /// ```
    /// use skills_install::{Environment, Installer, Refreshed, Scope, Target};
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// # let root = std::env::temp_dir().join(format!("doc-refresh-{}", std::process::id()));
    /// # std::fs::create_dir_all(root.join("project/.git")).unwrap();
    /// # std::fs::create_dir_all(root.join("home")).unwrap();
    /// let env = Environment::new(root.join("project")).var("HOME", root.join("home"));
    /// let installer = Installer::new(&SKILLS).tool_name("mytool").environment(env);
    ///
    /// let mut err = Vec::new();
    /// let outcomes = installer.refresh_to(&mut err);
    /// assert!(outcomes.iter().all(|(_, outcome)| matches!(outcome, Ok(Refreshed::NotInstalled))));
    ///
    /// installer.install(&Target::new(Scope::Project))?;
    /// let outcomes = installer.refresh_to(&mut err);
    /// assert!(matches!(outcomes[0], (Scope::Project, Ok(Refreshed::Current))));
    /// assert!(err.is_empty(), "nothing to say");
    /// # std::fs::remove_dir_all(&root).unwrap();
    /// # Ok::<(), skills_install::InstallError>(())
    /// ```
    pub fn refresh_to(&self, err: &mut dyn Write) -> Vec<(Scope, Result<Refreshed, InstallError>)> {
        let mut outcomes = Vec::new();
        for scope in [Scope::Project, Scope::User] {
            // The installer does not panic; if it ever did, the host goes on.
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.refresh_scope(scope)
            }))
            .unwrap_or_else(|_| {
                Err(InstallError::io(
                    "refresh",
                    scope.as_str(),
                    io::Error::other("the refresh stopped on a bug"),
                ))
            });
            let text = lines::refresh_lines(self, scope, &outcome);
            let _ = err.write_all(text.as_bytes());
            outcomes.push((scope, outcome));
        }
        outcomes
    }

    /// Refreshes one scope and returns what it found and did, saying
    /// nothing (see [`refresh_to`](Self::refresh_to)). A run of this
    /// tool that was stopped half way in the scope (a journal left) is
    /// finished or undone first.
    pub fn refresh_scope(&self, scope: Scope) -> Result<Refreshed, InstallError> {
        let target = Target {
            refresh: true,
            ..Target::new(scope)
        };
        let env = self.env()?;
        let Some(base) = installed_base(&env, &target)? else {
            return Ok(Refreshed::NotInstalled);
        };
        let Some(record) = glance(&base, scope, self.tool())? else {
            return Ok(Refreshed::NotInstalled);
        };
        if newer(&record.version, self.version_text()) {
            return Ok(Refreshed::Newer {
                version: record.version,
            });
        }
        let embedded = embedded_revisions(self.bundle()?);
        let stale = stale_skills(&record, &embedded);
        let recovered = self.finish_stopped(&env, &base, &target)?;
        if stale.is_empty() && !recovered {
            return Ok(Refreshed::Current);
        }
        let told_name = told::file_name(self.tool(), scope);
        let told_before = match StateDir::found(&env, &base, scope)? {
            Some(state) => told::read(state.dir(), &told_name),
            None => BTreeSet::new(),
        };
        if stale.is_subset(&told_before) && !recovered {
            // Each was left before, as the user changed it, at this revision.
            return Ok(Refreshed::Current);
        }
        let plan = self.plan_refresh(&target)?;
        self.apply_refresh(plan, &env, &base, &embedded)
    }

    /// Applies a refresh's plan (one with a problem is refused, the
    /// problem said in its own words) and tells of the skills it left.
    pub(crate) fn apply_refresh(
        &self,
        plan: Plan,
        env: &Environment,
        base: &Path,
        embedded: &BTreeMap<&str, Revision>,
    ) -> Result<Refreshed, InstallError> {
        if let Some(problem) = plan.problems.first() {
            return Err(InstallError::io(
                "refresh the skills in",
                &plan.base,
                io::Error::other(problem.to_string()),
            ));
        }
        let plan = self.apply(plan)?;
        let left = left_in(&plan, embedded);
        let kept = self.tell_once(env, base, plan.scope, left)?;
        Ok(Refreshed::Applied {
            plan: Box::new(plan),
            kept,
        })
    }

    /// Marks each copy left as told, under the scope's lock (so two starts
    /// at once do not both say it): a copy is told (`Kept::told`) only the
    /// first time it is left at this revision.
    pub(crate) fn tell_once(
        &self,
        env: &Environment,
        base: &Path,
        scope: Scope,
        left: Vec<(Left, Kept)>,
    ) -> Result<Vec<Kept>, InstallError> {
        let told_name = told::file_name(self.tool(), scope);
        let told_file = StateDir::found(env, base, scope)?.is_some_and(|state| {
            state
                .dir()
                .stat(OsStr::new(&told_name))
                .ok()
                .flatten()
                .is_some()
        });
        if left.is_empty() && !told_file {
            // Nothing to tell, nothing told: no state made (an upgrade that
            // removed every skill leaves nothing of the installer behind).
            return Ok(Vec::new());
        }
        let state = StateDir::create(env, base, scope)?;
        let _lock = lock::exclusive(&state)?;
        let before = told::read(state.dir(), &told_name);
        let now: BTreeSet<Left> = left.iter().map(|(left, _)| left.clone()).collect();
        if now != before {
            told::write(state.dir(), &told_name, &now)
                .map_err(|error| InstallError::io("write", state.dir().join(&told_name), error))?;
        }
        Ok(left
            .into_iter()
            .map(|(left, kept)| Kept {
                told: !before.contains(&left),
                ..kept
            })
            .collect())
    }

    /// Whether `intercept` refreshes the installed copies (see
    /// [`refresh`](Self::refresh)) before it lets any command line but
    /// `skill ...` go on; off by default. The `skill` subcommand itself
    /// never refreshes first: `skill status --check` reports the copies as
    /// they are.
    ///
    /// ```no_run
    /// # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
    /// fn main() {
    ///     skills_install::Installer::new(&SKILLS)
    ///         .tool_name("mytool")
    ///         .version(env!("CARGO_PKG_VERSION"))
    ///         .refresh_on_start(true)
    ///         .intercept();
    ///     // ... the rest of mytool, its installed skills up to date
    /// }
    /// ```
    pub fn refresh_on_start(mut self, on: bool) -> Self {
        self.refresh_on_start = on;
        self
    }
}

/// The record's glance in the scope whose base is `base` (`None` when
/// there is no record). A record that is no glance is read whole, to say
/// what is wrong with it.
pub(crate) fn glance(
    base: &Path,
    scope: Scope,
    tool: &str,
) -> Result<Option<Glance>, InstallError> {
    let base_dir = Dir::open(base).map_err(|e| InstallError::io("open", base, e))?;
    let place = Place::find(&base_dir, scope, tool)?;
    let Some(bytes) = place.read_bytes()? else {
        return Ok(None);
    };
    match Glance::from_json(&bytes) {
        Some(record) => Ok(Some(record)),
        None => {
            place.read()?;
            Err(InstallError::Record {
                path: place.path.clone(),
                error: RecordError("it changed while it was read".to_string()),
            })
        }
    }
}

/// Each embedded skill's revision, by folder name.
pub(crate) fn embedded_revisions<'b>(bundle: &'b Bundle<'b>) -> BTreeMap<&'b str, Revision> {
    bundle
        .skills
        .iter()
        .map(|skill| (folder_name(skill.name), skill_revision(skill)))
        .collect()
}

/// The recorded skills at another revision than the embedded one (or no
/// longer embedded), as told-of entries.
fn stale_skills(record: &Glance, embedded: &BTreeMap<&str, Revision>) -> BTreeSet<Left> {
    record
        .dirs
        .iter()
        .flat_map(|(key, dir)| {
            let skills = dir
                .skills
                .iter()
                .map(|(name, was)| (name, was.revision.as_str()));
            let found = stale(skills, |name| embedded.get(name).map(|r| (*r, *r)));
            found.into_iter().map(|(name, revision)| Left {
                path: key.clone(),
                skill: name.to_string(),
                revision: revision.map(|r| r.to_string()).unwrap_or_default(),
            })
        })
        .collect()
}

/// The skills a carried-out plan left as they are, as told-of entries and
/// as reported.
pub(crate) fn left_in(plan: &Plan, embedded: &BTreeMap<&str, Revision>) -> Vec<(Left, Kept)> {
    let mut left = Vec::new();
    for dir in &plan.dirs {
        for skill in dir.skills.iter().filter(|s| s.change == Change::Leave) {
            let revision = embedded.get(skill.name.as_str());
            let told = Left {
                path: dir.shown.clone(),
                skill: skill.name.clone(),
                revision: revision.map(|r| r.to_string()).unwrap_or_default(),
            };
            let kept = Kept {
                dir: dir.shown.clone(),
                name: skill.name.clone(),
                state: skill.state,
                embedded: revision.is_some(),
                told: false,
                aside: None,
            };
            left.push((told, kept));
        }
    }
    left
}

/// The scope's base, links followed, or `None` where there is none to
/// hold a record (no home known, no such folder).
fn installed_base(
    env: &Environment,
    target: &Target,
) -> Result<Option<std::path::PathBuf>, InstallError> {
    match plan::real_base(env, target) {
        Ok(base) => Ok(Some(base)),
        Err(InstallError::NoHome) => Ok(None),
        Err(InstallError::Io { error, .. }) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// Whether `recorded` is a later version than `ours` (both semantic
/// versions; anything else is not known to be later).
pub(crate) fn newer(recorded: &str, ours: &str) -> bool {
    match (
        semver::Version::parse(recorded),
        semver::Version::parse(ours),
    ) {
        (Ok(recorded), Ok(ours)) => recorded.cmp_precedence(&ours).is_gt(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::newer;

    #[test]
    fn only_a_known_later_version_is_newer() {
        assert!(newer("2.0.0", "1.9.9"));
        assert!(newer("1.0.0", "1.0.0-rc.1"));
        assert!(!newer("1.0.0", "1.0.0"));
        assert!(!newer("1.0.0+build.2", "1.0.0+build.1"));
        assert!(!newer("1.0.0", "2.0.0"));
        assert!(!newer("", "1.0.0"));
        assert!(!newer("2.0", "1.0.0"));
    }
}
