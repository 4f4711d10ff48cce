//! `skills plugin build SRC -o DIR`: an Agent Plugins 1.0.0 plugin made
//! from skills and a manifest given as options, in memory first (every
//! file's bytes canonical and sorted), then written or, with `--check`,
//! compared with what DIR holds.
//!
//! A skill that passes the Agent Skills specification's verdict goes to
//! `skills/NAME/`, where every conforming client reads it. One that fails
//! it but passes a host's profile (`--host`) goes to that host's extension
//! folder (`com.anthropic.claude-code/skills/NAME/`, `com.openai.codex/
//! skills/NAME/`), which only that host's adapter names, so no conforming
//! client skips it silently. One that no profile accepts is refused.

use std::path::Path;

use serde_json::{Map, Value};
use skills_build::Host;
use skills_build::problem::{Code, Problem};
use skills_build::unstable::discover::DiscoveredSkill;

use super::check::{skip_message, verdict};
use super::{PLUGIN_SCHEMA, adapter, canonical};

/// The manifest's fields, as the options give them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    /// `name` (required).
    pub name: String,
    /// `version`, `description`, `homepage`, `repository`, `license`.
    pub strings: Vec<(&'static str, String)>,
    /// `author`'s `name`, `email`, `url`.
    pub author: Vec<(&'static str, String)>,
    /// `keywords`, in the order given.
    pub keywords: Vec<String>,
}

impl Manifest {
    /// The fields every manifest (the root one and the adapters') carries.
    fn common(&self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("name".into(), Value::String(self.name.clone()));
        for (key, value) in &self.strings {
            map.insert((*key).into(), Value::String(value.clone()));
        }
        if !self.author.is_empty() {
            let author: Map<String, Value> = self
                .author
                .iter()
                .map(|(k, v)| ((*k).to_string(), Value::String(v.clone())))
                .collect();
            map.insert("author".into(), Value::Object(author));
        }
        if !self.keywords.is_empty() {
            let keywords = self.keywords.iter().cloned().map(Value::String).collect();
            map.insert("keywords".into(), Value::Array(keywords));
        }
        map
    }
}

/// What to build.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The manifest.
    pub manifest: Manifest,
    /// The hosts whose adapters to write.
    pub adapters: Vec<Host>,
    /// The host profiles given (`--host`): a skill the specification's
    /// verdict skips goes to the folder of the first of these whose
    /// adapter is written and whose profile accepts it.
    pub hosts: Vec<Host>,
    /// Whether to write `.claude-plugin/marketplace.json`.
    pub marketplace: bool,
    /// The `mcp.json` to carry: its location and text.
    pub mcp: Option<(String, String)>,
}

/// Where a skill goes: the portable folder or a host's.
fn place(skill: &DiscoveredSkill, plan: &Plan) -> Result<Option<Host>, Problem> {
    let dir = crate::gate::skill_path(skill);
    let name = skill.listing.name().unwrap_or(&skill.dir).to_string();
    let folder = Path::new(&dir);
    if !folder.is_dir() {
        return Err(Problem::new(
            Code::PluginInvalid,
            format!("{dir}: a plugin is built from skill folders on disk, not archives"),
        )
        .with_file(dir.clone()));
    }
    let reasons = verdict(folder, None);
    if reasons.is_empty() {
        return Ok(None);
    }
    for &host in plan.adapters.iter().filter(|h| plan.hosts.contains(h)) {
        if verdict(folder, Some(host)).is_empty() {
            return Ok(Some(host));
        }
    }
    let hint = match plan.adapters.is_empty() {
        true => "make it conform, or give --host ID --adapter ID for a host whose profile accepts it, to carry it in that host's adapter only".to_string(),
        false => format!(
            "no adapter's host ({}) accepts it either: make it conform",
            plan.adapters.iter().map(|h| h.id()).collect::<Vec<_>>().join(", ")
        ),
    };
    Err(
        Problem::new(Code::PluginSkillSkipped, skip_message(&name, &reasons))
            .with_file(reasons[0].file.clone().unwrap_or(dir))
            .at_opt(reasons[0].position)
            .with_hint(hint),
    )
}

/// Every file of the plugin, `(path, bytes)` sorted by path, or the
/// problems that stop it.
pub fn files(
    skills: &[DiscoveredSkill],
    plan: &Plan,
) -> Result<Vec<(String, Vec<u8>)>, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut host_only: Vec<(Host, String)> = Vec::new();
    for skill in skills {
        let name = skill.listing.name().unwrap_or(&skill.dir).to_string();
        let placed = match place(skill, plan) {
            Ok(placed) => placed,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        let folder = match placed {
            None => format!("skills/{name}"),
            Some(host) => {
                let (_, extension) = adapter(host).unwrap_or(("", "host"));
                host_only.push((host, name.clone()));
                format!("{extension}/skills/{name}")
            }
        };
        out.push((format!("{folder}/SKILL.md"), skill.skill_file_bytes.clone()));
        for file in &skill.files {
            out.push((format!("{folder}/{}", file.path), file.bytes.clone()));
        }
    }
    let common = plan.manifest.common();
    let mut root = common.clone();
    root.insert("$schema".into(), Value::String(PLUGIN_SCHEMA.into()));
    let root_text = canonical(&Value::Object(root));
    let (manifest_problems, _) = super::check::manifest(
        Path::new("plugin.json"),
        &String::from_utf8_lossy(&root_text),
    );
    problems.extend(manifest_problems);
    out.push(("plugin.json".into(), root_text));
    if let Some((location, text)) = &plan.mcp {
        let found = super::mcp::check(location, text);
        if found.is_empty() {
            // Checked just above: it parses.
            let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            out.push(("mcp.json".into(), canonical(&value)));
            if !plan.adapters.is_empty() {
                out.push((
                    ".mcp.json".into(),
                    canonical(&super::mcp::adapter_config(&value)),
                ));
            }
        }
        problems.extend(found);
    }
    for &host in &plan.adapters {
        let Some((manifest, extension)) = adapter(host) else {
            continue;
        };
        let mut map = common.clone();
        let mine: Vec<String> = host_only
            .iter()
            .filter(|(h, _)| *h == host)
            .map(|(_, name)| format!("./{extension}/skills/{name}"))
            .collect();
        match host {
            Host::Codex => {
                // Codex names one skills folder: its copies, when it has
                // any, sit in its own folder beside copies of the rest.
                let path = match mine.is_empty() {
                    true => "./skills/".to_string(),
                    false => format!("./{extension}/skills/"),
                };
                map.insert("skills".into(), Value::String(path));
            }
            _ if !mine.is_empty() => {
                map.insert(
                    "skills".into(),
                    Value::Array(mine.into_iter().map(Value::String).collect()),
                );
            }
            _ => {}
        }
        if plan.mcp.is_some() {
            map.insert("mcpServers".into(), Value::String("./.mcp.json".into()));
        }
        out.push((manifest.to_string(), canonical(&Value::Object(map))));
    }
    // Codex's own folder, when it is used, holds every skill it reads.
    if plan.adapters.contains(&Host::Codex) && host_only.iter().any(|(h, _)| *h == Host::Codex) {
        let portable: Vec<(String, Vec<u8>)> = out
            .iter()
            .filter_map(|(path, bytes)| {
                path.strip_prefix("skills/")
                    .map(|rest| (format!("com.openai.codex/skills/{rest}"), bytes.clone()))
            })
            .collect();
        out.extend(portable);
    }
    if plan.marketplace {
        let mut entry = Map::new();
        entry.insert("name".into(), Value::String(plan.manifest.name.clone()));
        entry.insert("source".into(), Value::String("./".into()));
        for (key, value) in &plan.manifest.strings {
            if matches!(*key, "description" | "version") {
                entry.insert((*key).into(), Value::String(value.clone()));
            }
        }
        let owner = plan
            .manifest
            .author
            .iter()
            .find(|(k, _)| *k == "name")
            .map_or(plan.manifest.name.clone(), |(_, v)| v.clone());
        let mut owner_map = Map::new();
        owner_map.insert("name".into(), Value::String(owner));
        let mut market = Map::new();
        market.insert("name".into(), Value::String(plan.manifest.name.clone()));
        market.insert("owner".into(), Value::Object(owner_map));
        market.insert("plugins".into(), Value::Array(vec![Value::Object(entry)]));
        if plan.adapters.contains(&Host::Codex) {
            out.push((
                ".agents/plugins/marketplace.json".into(),
                canonical(&codex_marketplace(&plan.manifest.name)),
            ));
        }
        out.push((
            ".claude-plugin/marketplace.json".into(),
            canonical(&Value::Object(market)),
        ));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    if let Some(pair) = out.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(vec![Problem::new(
            Code::PluginInvalid,
            format!("two skills would both be written as {}", pair[0].0),
        )]);
    }
    Ok(out)
}

/// Codex's marketplace file (`.agents/plugins/marketplace.json`) listing
/// the plugin at the marketplace's root, available to install.
fn codex_marketplace(name: &str) -> Value {
    serde_json::json!({
        "name": name,
        "plugins": [{
            "name": name,
            "source": {"source": "local", "path": "./"},
            "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"},
        }],
    })
}

/// What differs between `files` and what `dir` holds: files missing or
/// with other bytes, and files in the folders this build writes that it
/// would not write (left over from an earlier build).
pub fn drift(dir: &Path, files: &[(String, Vec<u8>)]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in files {
        match std::fs::read(dir.join(path)) {
            Ok(found) if &found == bytes => {}
            Ok(_) => out.push(format!("{path}: differs from what the build writes")),
            Err(_) => out.push(format!("{path}: missing")),
        }
    }
    let written: std::collections::BTreeSet<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    let mut pending: Vec<String> = ["skills", "com.anthropic.claude-code", "com.openai.codex"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    while let Some(rel) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let child = format!("{rel}/{}", entry.file_name().to_string_lossy());
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => pending.push(child),
                _ if !written.contains(child.as_str()) => {
                    out.push(format!("{child}: not part of this build"));
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// The paths of `built` whose source file has an execute bit (a skill's
/// scripts): written with mode 0755, as the folder had them.
pub fn executables(skills: &[DiscoveredSkill], built: &[(String, Vec<u8>)]) -> Vec<String> {
    let mut out = Vec::new();
    for skill in skills {
        let name = skill.listing.name().unwrap_or(&skill.dir);
        let source = std::path::PathBuf::from(crate::gate::skill_path(skill));
        for (path, _) in built {
            let rel = [
                "skills",
                "com.anthropic.claude-code/skills",
                "com.openai.codex/skills",
            ]
            .iter()
            .find_map(|folder| path.strip_prefix(&format!("{folder}/{name}/")));
            let from = match rel {
                Some("SKILL.md") => source.join(skill.skill_file.as_str()),
                Some(rel) => source.join(rel),
                None => continue,
            };
            if crate::packing::executable(&from) {
                out.push(path.clone());
            }
        }
    }
    out
}
