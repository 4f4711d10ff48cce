//! What a refresh says on stderr about one scope: nothing when nothing
//! changed; one line for the skills it updated or removed; one line per
//! skill it left as the user changed it (or moved aside), the first time
//! only; one line for a problem.

use std::fmt::Write as _;

use crate::error::InstallError;
use crate::installer::Installer;
use crate::plan::{Change, Plan, State};
use crate::refresh::{Kept, Refreshed};
use crate::report::text::where_;
use crate::target::Scope;

/// The lines a refresh of `scope` says, for its outcome.
pub(crate) fn refresh_lines(
    installer: &Installer<'_>,
    scope: Scope,
    outcome: &Result<Refreshed, InstallError>,
) -> String {
    let who = match installer.version_text() {
        "" => installer.tool().to_string(),
        version => format!("{} {version}", installer.tool()),
    };
    let mut out = String::new();
    match outcome {
        Ok(Refreshed::Applied { plan, kept }) => {
            changed_line(&mut out, &who, plan);
            let place = where_(&plan.base, plan.scope);
            for kept in kept.iter().filter(|kept| kept.told) {
                let (what, fix) = kept_words(installer, scope, kept);
                let _ = writeln!(
                    out,
                    "{who}: {}/{} {place} {what}: {fix}",
                    kept.dir, kept.name
                );
            }
        }
        Ok(_) => {}
        Err(error) => {
            let where_ = match scope {
                Scope::Project => "in the project",
                Scope::User => "for the user",
                Scope::Folder => "in its folder",
            };
            let _ = writeln!(
                out,
                "{who}: the skills it installed {where_} were not refreshed: {error}"
            );
        }
    }
    out
}

/// The line for the skills a refresh updated or removed (none when it
/// changed nothing).
fn changed_line(out: &mut String, who: &str, plan: &Plan) {
    let mut updated: Vec<&str> = Vec::new();
    let mut removed: Vec<&str> = Vec::new();
    let mut folders: Vec<&str> = Vec::new();
    for dir in &plan.dirs {
        for skill in dir.skills.iter().filter(|skill| skill.change.writes()) {
            let list = match skill.change {
                Change::Remove => &mut removed,
                _ => &mut updated,
            };
            if !list.contains(&skill.name.as_str()) {
                list.push(&skill.name);
            }
            if !folders.contains(&dir.shown.as_str()) {
                folders.push(&dir.shown);
            }
        }
    }
    if folders.is_empty() {
        return;
    }
    let mut parts = Vec::new();
    if !updated.is_empty() {
        parts.push(format!("updated {}", updated.join(", ")));
    }
    if !removed.is_empty() {
        parts.push(format!(
            "removed {} (no longer carried)",
            removed.join(", ")
        ));
    }
    let _ = writeln!(
        out,
        "{who}: refreshed the skills it installed {}: {} (in {})",
        where_(&plan.base, plan.scope),
        parts.join("; "),
        folders.join(", ")
    );
}

/// What happened to a skill a refresh left (or moved aside), and the
/// command that resolves it.
fn kept_words(installer: &Installer<'_>, scope: Scope, kept: &Kept) -> (String, String) {
    let tool = installer.tool();
    let scope_flag: &[&str] = match scope {
        Scope::Project | Scope::Folder => &[],
        Scope::User => &["--scope", "user"],
    };
    let force: Vec<&str> = [scope_flag, &["--force"]].concat();
    let name = Some(kept.name.as_str());
    let status = format!(
        "{tool} skill status{}",
        scope_flag
            .iter()
            .fold(String::new(), |line, flag| line + " " + flag)
    );
    if let Some(aside) = &kept.aside {
        return (
            format!("was changed since it was installed, so the changed copy was moved to {aside}"),
            "this version was written in its place".to_string(),
        );
    }
    match (kept.state, kept.embedded) {
        (State::Missing, _) => (
            "was removed since it was installed, so it was not put back".to_string(),
            format!(
                "`{}` puts it back",
                installer.install_hint(name, scope_flag)
            ),
        ),
        (_, false) => (
            format!(
                "was changed since it was installed, so it was not removed ({tool} no longer carries it)"
            ),
            format!("`{status}` shows how"),
        ),
        (State::NotOurs, true) => (
            "is no longer what was installed (something else stands there), so it was not updated"
                .to_string(),
            format!("`{}` replaces it", installer.install_hint(name, &force)),
        ),
        (_, true) => (
            "was changed since it was installed, so it was not updated".to_string(),
            format!(
                "`{status}` shows how; `{}` replaces it with this version",
                installer.install_hint(name, &force)
            ),
        ),
    }
}
