//! `skills plugin check DIR`: an Agent Plugins 1.0.0 folder judged as the
//! specification reads it: the manifest's closed keys and `$schema`
//! (§5), the components where §6.1 puts them and inside the plugin
//! (§4.1), `mcp.json`'s closed transport union (§7.2), and each skill
//! under the Agent Skills specification's verdict (the reference's, no
//! host profile), which §7.1 makes every conforming client apply: a skill
//! that fails it is skipped. With host profiles, a skill that fails it but
//! passes a host's is named with the adapter copy that host should read
//! instead; the copies the adapters already carry are judged under their
//! host.

use std::path::{Path, PathBuf};

use serde_json::Value;
use skills_build::problem::{Code, Problem, Rule};
use skills_build::{Builder, Host};

use super::{ADAPTERS, MANIFEST_KEYS, PLUGIN_SCHEMA, adapter, is_plugin_name, locate};

/// What a check found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Every problem, located.
    pub problems: Vec<Problem>,
    /// How many skills were judged.
    pub skills: usize,
}

/// Whether `problem` makes a skill fail the Agent Skills specification
/// (or, under a host, that host's profile): the reference's, the
/// specification's, a host's and the reading's own errors; the audit's and
/// lints' are the plugin author's business, not a client's reason to skip.
pub fn disqualifies(problem: &Problem) -> bool {
    problem.is_error()
        && matches!(
            problem.code.rule(),
            Rule::Reference | Rule::Specification | Rule::Host | Rule::Build
        )
}

/// The errors that make the skill folder `dir` fail, under `host` or
/// (with `None`) the specification's default verdict.
pub fn verdict(dir: &Path, host: Option<Host>) -> Vec<Problem> {
    let mut builder = Builder::new().source(dir);
    if let Some(host) = host {
        builder = builder.host(host);
    }
    builder
        .run()
        .problems()
        .iter()
        .filter(|p| disqualifies(p))
        .cloned()
        .collect()
}

/// "a conforming client will skip this skill because of ..." for
/// `reasons` (not empty).
pub fn skip_message(name: &str, reasons: &[Problem]) -> String {
    let first = &reasons[0];
    let more = match reasons.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    format!(
        "{name}: a conforming client will skip this skill because of {} [{}]{more}",
        first.message,
        first.code.as_str()
    )
}

/// What a host profile says of a skill the default verdict skips: which
/// adapter copy should carry it, or that none of the hosts accepts it.
pub fn host_hint(dir: &Path, name: &str, hosts: &[Host]) -> Option<String> {
    if hosts.is_empty() {
        return None;
    }
    let mut accepted = Vec::new();
    for &host in hosts {
        if verdict(dir, Some(host)).is_empty() {
            accepted.push(match adapter(host) {
                Some((manifest, folder)) => format!(
                    "{} accepts it: its adapter ({manifest}) should carry it as {folder}/skills/{name} instead of skills/{name} (`skills plugin build --host {} --adapter {}` does)",
                    host.name(),
                    host.id(),
                    host.id()
                ),
                None => format!(
                    "{} accepts it, but has no adapter here; keep it out of skills/",
                    host.name()
                ),
            });
        }
    }
    Some(match accepted.is_empty() {
        true => format!(
            "no host profile given ({}) accepts it either",
            hosts.iter().map(|h| h.id()).collect::<Vec<_>>().join(", ")
        ),
        false => accepted.join("; "),
    })
}

fn invalid(file: &Path, message: impl Into<String>) -> Problem {
    Problem::new(Code::PluginInvalid, message).with_file(file.display().to_string())
}

/// `path`, when it stays inside `root` once links are resolved.
fn inside(root: &Path, path: &Path) -> Result<Option<PathBuf>, String> {
    match skills_build::unstable::real_path::canonicalize(path) {
        Ok(real) if real.starts_with(root) => Ok(Some(real)),
        Ok(real) => Err(format!(
            "{} resolves to {}, outside the plugin: a client rejects it",
            path.display(),
            real.display()
        )),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("cannot open {}: {error}", path.display())),
    }
}

/// Checks the manifest text at `file`; returns its problems and the value.
pub fn manifest(file: &Path, text: &str) -> (Vec<Problem>, Option<Value>) {
    let at = |key: &str, message: String| invalid(file, message).at(locate(text, key));
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => {
            return (
                vec![
                    invalid(file, format!("plugin.json is not JSON: {error}"))
                        .at(super::error_at(&error)),
                ],
                None,
            );
        }
    };
    let Some(map) = value.as_object() else {
        return (
            vec![at("", "plugin.json must hold one JSON object".into())],
            None,
        );
    };
    let mut problems = Vec::new();
    for key in map.keys().filter(|k| !MANIFEST_KEYS.contains(&k.as_str())) {
        problems.push(at(key, format!(
            "`{key}` is not a key of the Agent Plugins manifest (its keys are {}); client data goes under `extensions`",
            MANIFEST_KEYS.join(", ")
        )));
    }
    if map.get("$schema").and_then(Value::as_str) != Some(PLUGIN_SCHEMA) {
        problems.push(at("$schema", format!("`$schema` must be {PLUGIN_SCHEMA:?}: a client rejects a plugin without a version it supports")));
    }
    match map.get("name").and_then(Value::as_str) {
        Some(name) if is_plugin_name(name) => {}
        Some(name) => problems.push(at("name", format!("`name` {name:?} is not 1 to 64 of a-z, 0-9, `-` and `.`, alphanumeric at both ends, without `--` or `..`"))),
        None => problems.push(at("name", "`name` is required, a string".into())),
    }
    for key in [
        "version",
        "description",
        "homepage",
        "repository",
        "license",
    ] {
        if map.get(key).is_some_and(|v| !v.is_string()) {
            problems.push(at(key, format!("`{key}` must be a string")));
        }
    }
    if let Some(author) = map.get("author") {
        let ok = author.as_object().is_some_and(|a| {
            a.iter()
                .all(|(k, v)| matches!(k.as_str(), "name" | "email" | "url") && v.is_string())
        });
        if !ok {
            problems.push(at(
                "author",
                "`author` must be an object of the strings `name`, `email` and `url` only".into(),
            ));
        }
    }
    if map
        .get("keywords")
        .is_some_and(|k| !k.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
    {
        problems.push(at(
            "keywords",
            "`keywords` must be an array of strings".into(),
        ));
    }
    if let Some(extensions) = map.get("extensions") {
        match extensions.as_object() {
            Some(all) => {
                for (namespace, data) in all {
                    if !data.is_object() {
                        problems.push(at(
                            namespace,
                            format!("extension {namespace:?} must be an object"),
                        ));
                    }
                }
            }
            None => problems.push(at(
                "extensions",
                "`extensions` must be an object (a client ignores it otherwise)".into(),
            )),
        }
    }
    (problems, Some(value))
}

/// The skill folders directly under `skills`: `(name, path)`, sorted, and
/// the problems of entries that are no skill a client finds.
fn children(root: &Path, skills: &Path, problems: &mut Vec<Problem>) -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(skills) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !path.is_dir() {
            continue;
        }
        match inside(root, &path) {
            Ok(Some(_)) => {}
            Ok(None) => continue,
            Err(message) => {
                problems.push(invalid(&path, message));
                continue;
            }
        }
        let skill_file = path.join("SKILL.md");
        let exact = std::fs::read_dir(&path)
            .map(|entries| entries.flatten().any(|e| e.file_name() == "SKILL.md"))
            .unwrap_or(false);
        if !exact || !skill_file.is_file() {
            if std::fs::read_dir(&path).is_ok_and(|mut e| {
                e.any(|e| e.is_ok_and(|e| e.file_name().eq_ignore_ascii_case("SKILL.md")))
            }) {
                problems.push(
                    Problem::new(
                        Code::PluginSkillSkipped,
                        format!("{name}: a conforming client finds no skill here: the file must be named exactly SKILL.md"),
                    )
                    .with_file(path.display().to_string()),
                );
            }
            continue;
        }
        if let Err(message) = inside(root, &skill_file) {
            problems.push(invalid(&skill_file, message));
            continue;
        }
        found.push((name, path));
    }
    found.sort();
    found
}

/// Checks the plugin folder `dir`; `hosts` are the host profiles asked for.
pub fn check(dir: &Path, hosts: &[Host]) -> Checked {
    let mut out = Checked::default();
    let root = match skills_build::unstable::real_path::canonicalize(dir) {
        Ok(root) if root.is_dir() => root,
        _ => {
            out.problems
                .push(invalid(dir, format!("{} is not a folder", dir.display())));
            return out;
        }
    };
    let manifest_path = dir.join("plugin.json");
    let mut root_manifest = None;
    match inside(&root, &manifest_path) {
        Ok(Some(real)) if real.is_file() => match read_manifest(&manifest_path) {
            Ok(text) => {
                let (problems, value) = manifest(&manifest_path, &text);
                out.problems.extend(problems);
                root_manifest = value;
            }
            Err(error) => out
                .problems
                .push(invalid(&manifest_path, format!("cannot read: {error}"))),
        },
        Ok(_) => out.problems.push(invalid(
            &manifest_path,
            "a plugin has plugin.json at its root (§4.1); without it no client loads the plugin"
                .to_string(),
        )),
        Err(message) => out.problems.push(invalid(&manifest_path, message)),
    }
    let mcp_path = dir.join("mcp.json");
    match inside(&root, &mcp_path) {
        Ok(Some(real)) if real.is_file() => match read_manifest(&mcp_path) {
            Ok(text) => out
                .problems
                .extend(super::mcp::check(&mcp_path.display().to_string(), &text)),
            Err(error) => out
                .problems
                .push(invalid(&mcp_path, format!("cannot read: {error}"))),
        },
        Ok(Some(_)) => out.problems.push(invalid(
            &mcp_path,
            "mcp.json must be a regular file; clients disable MCP for this plugin",
        )),
        Ok(None) => {}
        Err(message) => out.problems.push(invalid(&mcp_path, message)),
    }
    let skills_path = dir.join("skills");
    match inside(&root, &skills_path) {
        Ok(Some(real)) if real.is_dir() => {
            for (name, path) in children(&root, &skills_path, &mut out.problems) {
                out.skills += 1;
                let reasons = verdict(&path, None);
                if reasons.is_empty() {
                    continue;
                }
                let mut problem =
                    Problem::new(Code::PluginSkillSkipped, skip_message(&name, &reasons))
                        .with_file(
                            reasons[0]
                                .file
                                .clone()
                                .unwrap_or_else(|| path.display().to_string()),
                        )
                        .at_opt(reasons[0].position);
                if let Some(hint) = host_hint(&path, &name, hosts) {
                    problem = problem.with_hint(hint);
                }
                out.problems.push(problem);
            }
        }
        Ok(Some(_)) => out.problems.push(invalid(
            &skills_path,
            "skills must be a folder; clients load no skill from this plugin",
        )),
        Ok(None) => {}
        Err(message) => out.problems.push(invalid(&skills_path, message)),
    }
    for (host, manifest, folder) in ADAPTERS {
        adapter_copies(
            dir,
            &root,
            host,
            manifest,
            folder,
            root_manifest.as_ref(),
            &mut out,
        );
    }
    out
}

/// An adapter's manifest kept in step with the root one (the fields both
/// carry are equal), and the skill copies it carries judged under its host.
fn adapter_copies(
    dir: &Path,
    root: &Path,
    host: Host,
    manifest: &str,
    folder: &str,
    root_manifest: Option<&Value>,
    out: &mut Checked,
) {
    let path = dir.join(manifest);
    if let (Ok(text), Some(ours)) = (read_manifest(&path), root_manifest) {
        match serde_json::from_str::<Value>(&text) {
            Ok(theirs) => {
                for key in [
                    "name",
                    "version",
                    "description",
                    "license",
                    "homepage",
                    "repository",
                    "author",
                    "keywords",
                ] {
                    if theirs.get(key).is_some() && theirs.get(key) != ours.get(key) {
                        out.problems.push(
                            invalid(&path, format!("`{key}` differs from plugin.json's: the {} adapter is out of step (rebuild it with `skills plugin build`)", host.name()))
                                .at(locate(&text, key)),
                        );
                    }
                }
            }
            Err(error) => out
                .problems
                .push(invalid(&path, format!("not JSON: {error}"))),
        }
    }
    let copies = dir.join(folder).join("skills");
    if copies.is_dir() {
        for (name, path) in children(root, &copies, &mut out.problems) {
            out.skills += 1;
            let reasons = verdict(&path, Some(host));
            if !reasons.is_empty() {
                out.problems.push(
                    invalid(
                        &path,
                        format!(
                            "{name}: the {} copy fails under {}: {} [{}]",
                            host.name(),
                            host.id(),
                            reasons[0].message,
                            reasons[0].code.as_str()
                        ),
                    )
                    .at_opt(reasons[0].position),
                );
            }
        }
    }
}
/// The most bytes a manifest (`plugin.json`, `mcp.json`, an adapter's) of
/// a plugin folder is read to: far above any real one, and a bound on
/// what a stranger's folder can cost.
const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// A manifest's text: a regular file of at most [`MAX_MANIFEST_BYTES`],
/// opened without blocking, in UTF-8.
fn read_manifest(path: &Path) -> Result<String, String> {
    crate::targets::read_text_limited(path, MAX_MANIFEST_BYTES).map_err(|error| error.to_string())
}
