//! `plugin build SRC -o DIR [--check]` and `plugin check DIR`: Agent
//! Plugins 1.0.0 plugins made from skills, and judged.

use std::path::Path;

use skills_build::Host;
use skills_build::problem::Problem;

use crate::gate;
use crate::output::{Stream, write};
use crate::plugin::build::{Manifest, Plan, drift, executables, files};
use crate::plugin::check::check;
use crate::python::click::{Arg, CommandSpec, Invocation, Opt};
use crate::report::Counted;

/// The manifest's string fields and their options.
const STRINGS: [(&str, &str); 5] = [
    ("version", "--version"),
    ("description", "--description"),
    ("homepage", "--homepage"),
    ("repository", "--repository"),
    ("license", "--license"),
];

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "plugin",
    summary: "Build or check an Agent Plugins 1.0.0 plugin.",
    about: "`plugin build SRC -o DIR` writes a plugin from the skills in SRC (as `check` reads them): plugin.json (the closed 1.0.0 manifest, from --name and the options beside it), skills/NAME/ for each skill that passes the Agent Skills specification's verdict, and mcp.json from --mcp. --adapter claude-code|codex also writes that host's manifest (.claude-plugin/plugin.json, .codex-plugin/plugin.json, and .mcp.json in its format), from the same fields; --marketplace writes .claude-plugin/marketplace.json (and, with the codex adapter, .agents/plugins/marketplace.json). A skill that fails the specification (a conforming client skips it, §7.1) but passes the profile of a --host whose --adapter is written goes to that host's folder (com.anthropic.claude-code/skills/NAME/, com.openai.codex/skills/NAME/), named only by its adapter; any other is refused and nothing is written. Every file is canonical JSON or the skill's bytes, so the same input gives the same bytes; --check writes nothing and fails when DIR differs (a file missing, changed, or left from an earlier build). `plugin check DIR` judges a plugin folder: the manifest's keys and $schema, the components' places and containment, mcp.json's transport union (one-token commands, HTTPS unless loopback, no secret in env or headers, by the audit's rules), each skill under the specification's verdict (\"a conforming client will skip this skill because of ...\"; with --host, which adapter copy should carry it instead), the adapters' manifests in step with plugin.json, and their copies under their host. Problems are located, in every --format.",
    exit_codes: &[
        (
            0,
            "Built (or, with --check, up to date); the plugin conforms",
        ),
        (
            1,
            "Problems found, DIR differs with --check, or DIR could not be written",
        ),
        (2, "Usage error"),
    ],
    args: &[
        Arg {
            metavar: "ACTION",
            many: false,
            must_exist: false,
        },
        Arg {
            metavar: "PATH",
            many: false,
            must_exist: false,
        },
    ],
    options: &[
        &[
            Opt::value(
                "--output",
                "DIR",
                "build: the plugin folder to write (required).",
            )
            .short("-o"),
            Opt::flag(
                "--check",
                "build: write nothing; fail when DIR differs from what the build writes.",
            ),
            Opt::value(
                "--name",
                "NAME",
                "build: the plugin's name (required; a-z, 0-9, `-`, `.`).",
            ),
            Opt::value("--version", "VERSION", "build: the plugin's version."),
            Opt::value("--description", "TEXT", "build: what the plugin does."),
            Opt::value("--author", "NAME", "build: the author's name."),
            Opt::value("--author-email", "EMAIL", "build: the author's email."),
            Opt::value("--author-url", "URL", "build: the author's URL."),
            Opt::value("--homepage", "URL", "build: the documentation's URL."),
            Opt::value("--repository", "URL", "build: the source repository's URL."),
            Opt::value("--license", "SPDX", "build: the license."),
            Opt::value(
                "--keyword",
                "WORD",
                "build: a search keyword (repeatable, kept in order).",
            ),
            Opt::value(
                "--mcp",
                "FILE",
                "build: an Agent Plugins mcp.json to check and carry.",
            ),
            Opt::choice(
                "--adapter",
                &["claude-code", "codex"],
                "build: also write this host's adapter (repeatable).",
            ),
            Opt::flag(
                "--marketplace",
                "build: also write the marketplace files listing the plugin.",
            ),
            gate::FORMAT,
        ],
        gate::READ,
    ],
    run,
};

fn usage_error(message: &str) -> i32 {
    COMMAND.usage_error(message)
}

fn hosts(call: &Invocation) -> Result<Vec<Host>, String> {
    call.values("--host")
        .into_iter()
        .map(|id| {
            id.parse::<Host>()
                .map_err(|error| format!("Invalid value for '--host': {error}."))
        })
        .collect()
}

fn report(call: &Invocation, problems: &mut Vec<Problem>, skills: usize, last: &str) -> i32 {
    Problem::sort(problems);
    let failed = problems.iter().any(Problem::is_error);
    let counted = Counted {
        problems,
        sources: &[],
        skills,
    };
    let last = match failed {
        true => gate::summary_of("checked", problems, skills, true, false),
        false => last.to_string(),
    };
    gate::print_counted("plugin", call, &counted, failed, &last, Vec::new());
    i32::from(failed)
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let (Some(action), Some(path)) = (call.args.first(), call.args.get(1)) else {
        return usage_error(
            "Expected ACTION PATH: `plugin build SRC -o DIR` or `plugin check DIR`.",
        );
    };
    let hosts = match hosts(call) {
        Ok(hosts) => hosts,
        Err(message) => return usage_error(&message),
    };
    match action.as_str() {
        "check" => {
            let mut checked = check(Path::new(path), &hosts);
            let last = format!(
                "ok: {path} conforms to Agent Plugins 1.0.0: {} skill{}\n",
                checked.skills,
                if checked.skills == 1 { "" } else { "s" }
            );
            report(call, &mut checked.problems, checked.skills, &last)
        }
        "build" => build(call, path, hosts),
        other => usage_error(&format!(
            "Invalid value for 'ACTION': {other:?} is not one of 'build', 'check'."
        )),
    }
}

fn build(call: &Invocation, src: &str, hosts: Vec<Host>) -> i32 {
    let Some(out) = call.option("--output") else {
        return usage_error("Missing option '--output' (the plugin folder to write).");
    };
    let Some(name) = call.option("--name") else {
        return usage_error("Missing option '--name' (the plugin's name).");
    };
    let mut adapters = Vec::new();
    for id in call.values("--adapter") {
        if let Ok(host) = id.parse::<Host>()
            && !adapters.contains(&host)
        {
            adapters.push(host);
        }
    }
    let mcp = match call.option("--mcp") {
        None => None,
        Some(file) => {
            match crate::targets::read_text_limited(std::path::Path::new(file), 1 << 20) {
                Ok(text) => Some((file.to_string(), text)),
                Err(error) => {
                    return usage_error(&format!(
                        "Invalid value for '--mcp': cannot read {file}: {error}"
                    ));
                }
            }
        }
    };
    let plan = Plan {
        manifest: Manifest {
            name: name.to_string(),
            strings: STRINGS
                .iter()
                .filter_map(|(key, opt)| call.option(opt).map(|v| (*key, v.to_string())))
                .collect(),
            author: [
                ("name", "--author"),
                ("email", "--author-email"),
                ("url", "--author-url"),
            ]
            .iter()
            .filter_map(|(key, opt)| call.option(opt).map(|v| (*key, v.to_string())))
            .collect(),
            keywords: call
                .values("--keyword")
                .into_iter()
                .map(str::to_string)
                .collect(),
        },
        adapters,
        hosts,
        marketplace: call.flag("--marketplace"),
        mcp,
    };
    let source_call = Invocation {
        args: vec![src.to_string()],
        ..call.clone()
    };
    let skills = match gate::read(&source_call) {
        Ok(Ok(skills)) => skills,
        Ok(Err(code)) => return code,
        Err(message) => return usage_error(&message),
    };
    let built = match files(&skills, &plan) {
        Ok(built) => built,
        Err(mut problems) => return report(call, &mut problems, skills.len(), ""),
    };
    let dir = Path::new(out);
    if call.flag("--check") {
        let differs = drift(dir, &built);
        if differs.is_empty() {
            write(
                Stream::Err,
                &format!("ok: {out} is up to date ({} files)\n", built.len()),
            );
            return 0;
        }
        let text: String = differs
            .iter()
            .map(|line| format!("{out}/{line}\n"))
            .collect();
        write(
            Stream::Err,
            &format!(
                "{text}error: {out} differs from what `skills plugin build` writes ({} files); run it without --check\n",
                differs.len()
            ),
        );
        return 1;
    }
    if let Err(message) = crate::well_known::publish::write_tree(dir, &built) {
        write(Stream::Err, &format!("error: {message}\n"));
        return 1;
    }
    for path in executables(&skills, &built) {
        if let Err(error) = make_executable(&dir.join(&path)) {
            write(
                Stream::Err,
                &format!("error: cannot make {out}/{path} executable: {error}\n"),
            );
            return 1;
        }
    }
    let leftover = drift(dir, &built);
    let mut text: String = leftover
        .iter()
        .map(|line| format!("note: {out}/{line}; left as it is\n"))
        .collect();
    text.push_str(&format!(
        "ok: built plugin {name} in {out}: {} skill{}, {} files\n",
        skills.len(),
        if skills.len() == 1 { "" } else { "s" },
        built.len()
    ));
    write(Stream::Err, &text);
    0
}

/// Gives the file at `path` (just written by this command) mode 0755,
/// through a handle that is checked to be the regular file at `path`
/// itself (not one a link put there since the write points to), so
/// nothing outside the plugin changes.
#[cfg(unix)]
fn make_executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let file = std::fs::File::open(path)?;
    let opened = file.metadata()?;
    let here = std::fs::symlink_metadata(path)?;
    if !here.file_type().is_file() || (here.dev(), here.ino()) != (opened.dev(), opened.ino()) {
        return Err(std::io::Error::other(
            "it is no longer the regular file just written",
        ));
    }
    file.set_permissions(std::fs::Permissions::from_mode(0o755))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> std::io::Result<()> {
    Ok(())
}
