//! What a refresh says on stderr about one scope: nothing when nothing
//! changed; one line for the skills it updated or removed; one line per
//! skill it left as the user changed it (or moved aside), the first time
//! only; one line for a problem.

use std::fmt::Write as _;

use crate::error::InstallError;
use crate::installer::Installer;
use crate::plan::{Change, Plan, State};
use crate::refresh::outcome::{Kept, Refreshed};
use crate::report::text::where_;
use crate::scope::Scope;

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
                let shown = match kept.dir.as_str() {
                    "." => kept.name.clone(),
                    dir => format!("{dir}/{}", kept.name),
                };
                let _ = writeln!(out, "{who}: {shown} {place} {what}: {fix}");
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
    let mut added: Vec<&str> = Vec::new();
    let mut updated: Vec<&str> = Vec::new();
    let mut removed: Vec<&str> = Vec::new();
    let mut folders: Vec<&str> = Vec::new();
    for dir in &plan.dirs {
        for skill in dir.skills.iter().filter(|skill| skill.change.writes()) {
            let list = match (skill.change, skill.state) {
                (Change::Remove, _) => &mut removed,
                (_, State::Missing) if plan.scope == Scope::Folder => &mut added,
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
    if !added.is_empty() {
        parts.push(format!("wrote {}", added.join(", ")));
    }
    if !updated.is_empty() {
        parts.push(format!("updated {}", updated.join(", ")));
    }
    if !removed.is_empty() {
        parts.push(format!(
            "removed {} (no longer carried)",
            removed.join(", ")
        ));
    }
    let folders = match plan.scope {
        Scope::Folder => String::new(),
        _ => format!(" (in {})", folders.join(", ")),
    };
    let _ = writeln!(
        out,
        "{who}: refreshed the skills it installed {}: {}{folders}",
        where_(&plan.base, plan.scope),
        parts.join("; "),
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
    if scope == Scope::Folder {
        return folder_words(kept);
    }
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

/// What happened to a skill a start left (or moved aside) in a plain
/// folder, which no command of the program installs into: what stays, and
/// what brings this version.
fn folder_words(kept: &Kept) -> (String, String) {
    let what = match (&kept.aside, kept.state, kept.embedded) {
        (Some(aside), _, _) => {
            return (
                format!(
                    "was changed since it was written, so the changed copy was moved to {aside}"
                ),
                "this version was written in its place".to_string(),
            );
        }
        (None, State::NotOurs, _) => {
            "is not what this program wrote (something else stands there), so it was not updated"
        }
        (None, _, false) => {
            "was changed since it was written, so it was not removed (no longer carried)"
        }
        (None, _, true) => "was changed since it was written, so it was not updated",
    };
    (
        what.to_string(),
        "it is kept as it is; removing it brings this version at the next upgrade, and the replace policy moves such a copy aside instead".to_string(),
    )
}
