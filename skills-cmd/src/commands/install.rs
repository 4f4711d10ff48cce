//! `install`, `status` and `uninstall SRC...`: skills from folders (read and
//! validated as `build` reads them) or a bundle file, installed where
//! coding agents read them by the same engine a program's `skill`
//! subcommand uses (`skills_install`), as the tool `skills`.

use skills_build::problem::{Code, Problem};
use skills_build::{Host, SourceReport, diagnostic};
use skills_core::Catalog;
use skills_core::encoding::json::Style;
use skills_install::agents::AGENTS;
use skills_install::{
    Action, Agents, DifferenceKind, Installer, Layout, Request, Scope, Status, Target,
};
use skills_pycompat::yaml::{self, Value};

use crate::gate::{self, Format};
use crate::output::{Stream, write, write_stdout};
use crate::python::click::{CommandSpec, Invocation, Opt};
use crate::report;

/// The name the record is kept under (`.agents/.skills-install/skills.project.json`).
const TOOL: &str = "skills";

/// `--bundle`, `--agent`, `--scope`, `--project-dir`: where from and
/// where to, for all three commands.
const WHERE: &[Opt] = &[
    Opt::flag(
        "--bundle",
        "Each SRC is a bundle file written by `skills build`.",
    ),
    Opt::value(
        "--agent",
        "ID",
        "An agent (repeatable, comma-separated, or `all`). Default: claude-code and codex (.claude/skills and .agents/skills, read by eight agents), plus every folder installed to before.",
    ),
    Opt::choice(
        "--scope",
        &["project", "user"],
        "The project's folders (default: the nearest folder above with .git) or the user's (the home directory; CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME honoured).",
    ),
    Opt::value(
        "--project-dir",
        "DIR",
        "The project root, instead of finding it.",
    ),
    Opt::value(
        "--into",
        "DIR",
        "A plain folder instead of agents' folders: each skill at DIR/<name>/, the installer's state in DIR/.skills-install (no agent, scope or home consulted); --force moves a conflicting copy aside to DIR/<name>.user-N.",
    ),
];

/// `--dry-run`.
const DRY_RUN: Opt = Opt::flag(
    "--dry-run",
    "Show what would be written or removed, per skill and folder (with --json, every file); write nothing.",
);

/// `--force`.
const FORCE: Opt = Opt::flag(
    "--force",
    "Overwrite conflicts: files this tool did not write, or that changed since it wrote them.",
);

/// `--json`.
const JSON: Opt = Opt::flag("--json", "Print one JSON document instead of text.");

/// What reads the sources, as `build` reads them.
const READ: &[Opt] = &[gate::EXTENSIONS, gate::EXCLUDE];

/// What every one of the three commands says of its sources.
macro_rules! sources_help {
    () => {
        "Each SRC is a skill folder, a folder of skills or an archive, read and validated as `build` reads it (a skill with errors stops it; junk is left out with a note), or with --bundle a bundle file."
    };
}

/// `install SRC...`.
pub const INSTALL: CommandSpec = CommandSpec {
    name: "install",
    summary: "Install skills where coding agents read them.",
    about: concat!(
        sources_help!(),
        "\n\nWrites each skill into every selected agent's folder (or, with --into, a plain folder), byte for byte, and records what it wrote. A file it did not write, or one changed since, is a conflict: that skill is kept as it is and listed, every other one written (exit 1); --force overwrites conflicts (with --into, moves them aside), --all-or-nothing writes nothing when there is one. An update replaces only the files written before and carries the user's own files over. Skills installed before from other sources stay."
    ),
    exit_codes: &[
        (0, "Installed (or, with --dry-run, shown)"),
        (
            1,
            "Conflicts (those skills kept as they are; with --all-or-nothing, nothing written) or problems; or the sources have errors",
        ),
    ],
    args: &[gate::SOURCES],
    options: &[
        WHERE,
        &[
            DRY_RUN,
            FORCE,
            Opt::flag(
                "--link",
                "One copy in .agents/skills, links to it elsewhere.",
            ),
            Opt::flag("--copy", "A copy in every folder (undoes --link)."),
            Opt::flag(
                "--all-or-nothing",
                "Refuse the whole run when any skill has a conflict (for CI): write nothing. By default every other skill is written and the ones with conflicts are kept as they are and listed (exit 1).",
            ),
            JSON,
        ],
        READ,
        gate::READ,
    ],
    run: |call| run(call, Action::Install),
};

/// `status SRC...`: no option that writes.
pub const STATUS: CommandSpec = CommandSpec {
    name: "status",
    summary: "Say whether installed skills are up to date.",
    about: concat!(
        sources_help!(),
        "\n\nPrints, per agent folder and skill: up to date, outdated, modified by the user, missing, or not installed by this tool, and the command that resolves it. With --check, every way an installed copy differs from its source, file by file (for CI, where a repository commits .claude/skills)."
    ),
    exit_codes: &[
        (0, "Every skill is installed and up to date (--check: exactly its files)"),
        (1, "A skill is not (--check: a copy differs), or the sources have errors"),
    ],
    args: &[gate::SOURCES],
    options: &[
        WHERE,
        &[JSON],
        READ,
        gate::READ,
        &[
            Opt::flag(
                "--check",
                "Exit 1 when any installed copy is not exactly the skill's files: stale, edited, missing, holding files that are not part of it, or something else in its place; each difference is listed. For CI, where copies are committed.",
            ),
            gate::FORMAT.help(
                "With --check: the status for people (default), or every difference as a problem with its rule code (installed-stale, ...) in JSON, GitHub Actions workflow commands or SARIF 2.1.0, like `check`.",
            ),
        ],
    ],
    run: |call| run(call, Action::Status),
};

/// `uninstall SRC...`.
pub const UNINSTALL: CommandSpec = CommandSpec {
    name: "uninstall",
    summary: "Remove installed skills (only the files written).",
    about: concat!(
        sources_help!(),
        "\n\nRemoves the files install recorded writing for these skills, and the folders left empty; other skills, the user's own files and files that merely hold the same bytes stay. A file changed since it was written is a conflict, removed only with --force. An agent folder that is, holds or lies inside a source folder is refused."
    ),
    exit_codes: &[
        (0, "Removed (or, with --dry-run, shown)"),
        (
            1,
            "Conflicts or problems: nothing removed; or the sources have errors",
        ),
    ],
    args: &[gate::SOURCES],
    options: &[WHERE, &[DRY_RUN, FORCE, JSON], READ, gate::READ],
    run: |call| run(call, Action::Uninstall),
};

/// What a build of the sources reported, for `status --check`'s report in
/// a machine format.
#[derive(Default)]
struct Built {
    problems: Vec<Problem>,
    sources: Vec<SourceReport>,
    skills: usize,
}

/// The bundle the sources make (and what the build reported), or the exit
/// code after saying why not: for people on stderr, or with `--format` in
/// that format.
fn bundle(call: &Invocation, command: &CommandSpec) -> Result<(Vec<u8>, Built), i32> {
    if call.flag("--bundle") {
        let [file] = call.args.as_slice() else {
            return Err(command.usage_error("--bundle takes exactly one SRC: the bundle file."));
        };
        return crate::targets::read_file(file, 1).map(|bytes| (bytes, Built::default()));
    }
    let builder = gate::builder(call).map_err(|message| command.usage_error(&message))?;
    let outcome = builder.run();
    let failed = outcome.failed(false);
    let verb = match command.name {
        "install" => "installed",
        "uninstall" => "removed",
        _ => "checked",
    };
    if gate::format(call) != Format::Human {
        if failed {
            let last = format!(
                "error: nothing {verb}: {}\n",
                diagnostic::count(outcome.problems())
            );
            gate::print(command.name, call, &outcome, failed, &last, Vec::new());
            return Err(1);
        }
        let built = Built {
            problems: outcome.problems().to_vec(),
            sources: outcome.sources.clone(),
            skills: outcome.skills,
        };
        return match outcome.result {
            Ok(compiled) => Ok((compiled.bytes, built)),
            Err(_) => Err(1),
        };
    }
    let mut text = String::new();
    if gate::verbose(call) {
        text.push_str(&gate::layout_lines(&outcome.sources));
    }
    text.push_str(&match failed {
        true => diagnostic::failure(outcome.problems(), &format!("nothing {verb}")),
        false => diagnostic::render_all(outcome.problems()),
    });
    write(Stream::Err, &text);
    match (outcome.result, failed) {
        (Ok(compiled), false) => Ok((compiled.bytes, Built::default())),
        _ => Err(1),
    }
}

/// Where the options point.
fn target(call: &Invocation) -> Result<Target, String> {
    if let Some(dir) = call.option("--into") {
        let others = ["--scope", "--project-dir", "--agent"];
        if let Some(other) = others.iter().find(|o| call.option(o).is_some()) {
            return Err(format!("--into and {other} exclude each other."));
        }
        if call.flag("--link") || call.flag("--copy") {
            return Err(
                "--into installs copies: --link and --copy are for agents' folders.".to_string(),
            );
        }
        return Ok(Target::folder(dir).force(call.flag("--force")));
    }
    let agents = Agents::parse(call.values("--agent")).map_err(|error| error.to_string())?;
    let scope = match call.option("--scope") {
        Some(scope) => scope.parse::<Scope>()?,
        None => Scope::Project,
    };
    let mut target = Target::new(scope)
        .agents(agents)
        .force(call.flag("--force"))
        .layout(match (call.flag("--link"), call.flag("--copy")) {
            (true, true) => return Err("--link and --copy exclude each other.".to_string()),
            (true, false) => Layout::Link,
            (false, true) => Layout::Copy,
            (false, false) => Layout::AsRecorded,
        });
    if let Some(dir) = call.option("--project-dir") {
        if scope == Scope::User {
            return Err("--project-dir is for --scope project.".to_string());
        }
        target = target.project_dir(dir);
    }
    Ok(target)
}

/// Runs `install`, `status` or `uninstall`.
fn run(call: &Invocation, action: Action) -> i32 {
    let command = match action {
        Action::Install => &INSTALL,
        Action::Status => &STATUS,
        _ => &UNINSTALL,
    };
    let target = match target(call) {
        Ok(target) => target,
        Err(message) => return command.usage_error(&message),
    };
    let check = call.flag("--check");
    let format = gate::format(call);
    match (check, format, call.flag("--json")) {
        (_, Format::Human, _) => {}
        (false, _, _) => {
            return command.usage_error(
                "--format is for --check (without it, --json prints the status as JSON).",
            );
        }
        (true, _, true) => return command.usage_error("--json and --format exclude each other."),
        (true, _, false) => {}
    }
    let (bytes, built) = match bundle(call, command) {
        Ok(built) => built,
        Err(code) => return code,
    };
    let catalog = match crate::targets::decode(&bytes, "the bundle", 1) {
        Ok(catalog) => catalog,
        Err(code) => return code,
    };
    // The skills of these sources, by name: others installed before from
    // other sources are neither removed nor reported. An agent's folder
    // that is, holds or lies inside a source folder is refused: its skills
    // are the sources, not copies to update or remove.
    let sources = match call.flag("--bundle") {
        true => Vec::new(),
        false => call
            .args
            .iter()
            .filter(|arg| std::path::Path::new(arg).is_dir())
            .cloned()
            .collect(),
    };
    let target = target
        .skills(catalog.names())
        .sources(sources)
        .keep_conflicts(matches!(action, Action::Install) && !call.flag("--all-or-nothing"));
    if let (Action::Install, Scope::Folder, Some(dir)) = (action, target.scope, &target.project_dir)
        && !call.flag("--dry-run")
        && let Err(error) = std::fs::create_dir_all(dir)
    {
        write(
            Stream::Err,
            &format!("Error: cannot create {}: {error}\n", dir.display()),
        );
        return 1;
    }
    // What status names to run: this command's install, from the same
    // sources.
    let mut again = vec!["skills".to_string(), "install".to_string()];
    for flag in ["--bundle", "--extensions", "--keep-junk"] {
        if call.flag(flag) {
            again.push(flag.to_string());
        }
    }
    for option in ["--exclude", "--max-file-size"] {
        for value in call.values(option) {
            again.extend([option.to_string(), value.to_string()]);
        }
    }
    again.extend(call.args.iter().cloned());
    let mut installer = Installer::new(&catalog)
        .tool_name(TOOL)
        .version(env!("CARGO_PKG_VERSION"))
        .install_command(again);
    for (skill, agent, text) in host_notes(&catalog) {
        installer = installer.note(skill, agent, text);
    }
    if check && format != Format::Human {
        return check_report(&installer, &target, built, format);
    }
    let request = Request::new(action, target)
        .dry_run(call.flag("--dry-run"))
        .json(call.flag("--json"))
        .check(check);
    let stderr = std::io::stderr();
    installer.run_request(
        &request,
        &mut crate::output::Stdout::lock(),
        &mut stderr.lock(),
    )
}

/// `status --check` in a machine format: the build's own problems and
/// every difference of every installed copy as a problem with its rule
/// code and the command that resolves it, in JSON, GitHub workflow
/// commands or SARIF, through the report `check` prints.
fn check_report(installer: &Installer<'_>, target: &Target, built: Built, format: Format) -> i32 {
    let status = match installer.status(target) {
        Ok(status) => status,
        Err(error) => {
            write(Stream::Err, &format!("Error: {error}\n"));
            return 1;
        }
    };
    let mut problems = built.problems;
    problems.extend(differences(installer, &status));
    let failed = !status.in_sync();
    let mut text = String::new();
    for problem in &status.problems {
        // What stands in the way of the folders themselves has no rule code.
        text.push_str(&format!("error: {problem}\n"));
    }
    write(Stream::Err, &text);
    let last = match failed {
        false => "ok: every installed copy is exactly the skill's files\n".to_string(),
        true => format!(
            "error: installed copies differ from their source: {}\n",
            diagnostic::count(&problems)
        ),
    };
    match format {
        Format::Json => {
            let json = report::json_of(
                "status",
                &problems,
                &built.sources,
                built.skills,
                failed,
                Vec::new(),
            );
            write_stdout(&(json.to_text(Style::indented(2)) + "\n"));
        }
        Format::Github => {
            write_stdout(&(report::github(&problems) + &last));
            report::write_step_summary("status", &problems, &last);
        }
        Format::Sarif => {
            write_stdout(&(report::sarif(&problems).to_text(Style::indented(2)) + "\n"))
        }
        Format::Human => write(Stream::Err, &last),
    }
    i32::from(failed)
}

/// Every difference of every installed copy, as a problem: its rule code,
/// the file (as the status shows its folder, relative to the project), and
/// the command that resolves it as the hint.
fn differences(installer: &Installer<'_>, status: &Status) -> Vec<Problem> {
    status
        .differences()
        .map(|(dir, skill, difference)| {
            let code = match difference.kind {
                DifferenceKind::Stale => Code::InstalledStale,
                DifferenceKind::Edited => Code::InstalledEdited,
                DifferenceKind::Missing => Code::InstalledMissing,
                DifferenceKind::Extra => Code::InstalledExtra,
                _ => Code::InstalledForeign,
            };
            let file = match difference.path.as_str() {
                "" => format!("{}/{}", dir.shown, skill.name),
                path => format!("{}/{}/{path}", dir.shown, skill.name),
            };
            let message = format!("{} in {}: {difference}", skill.name, dir.shown);
            let problem = Problem::new(code, message).with_file(file);
            match installer.resolving_command(status, skill) {
                Some(command) => problem.with_hint(format!("run `{command}`")),
                None => problem,
            }
        })
        .collect()
}

/// For each skill, and each agent whose host has a profile: the host
/// fields of its frontmatter that host does not read, as the plan notes
/// them (`Codex: ignores model`, `GitHub Copilot: warns on model...`).
/// SKILL.md is installed byte for byte all the same.
fn host_notes<'c>(catalog: &Catalog<'c>) -> Vec<(&'c str, &'static str, String)> {
    let mut notes = Vec::new();
    for skill in catalog.skills() {
        let Ok(node) = yaml::parse(skill.frontmatter) else {
            continue;
        };
        let Value::Map(entries) = node.value else {
            continue;
        };
        let keys: Vec<&str> = entries
            .iter()
            .map(|entry| entry.key.as_str())
            .filter(|key| Host::is_host_field(key))
            .collect();
        for agent in &AGENTS {
            let Some(host) = agent.host.and_then(|id| id.parse::<Host>().ok()) else {
                continue;
            };
            let unread: Vec<&str> = keys
                .iter()
                .copied()
                .filter(|key| !host.reads(key))
                .collect();
            if unread.is_empty() {
                continue;
            }
            let list = unread.join(", ");
            let fields = match unread.len() {
                1 => "a field",
                _ => "fields",
            };
            let text = match host.warns_on_unread() {
                true => format!("{} warns on {list}, {fields} it does not read", host.name()),
                false => format!("ignores {list}"),
            };
            notes.push((skill.name, agent.id, text));
        }
    }
    notes
}

#[cfg(test)]
mod tests {

    #[test]
    fn each_host_profile_is_the_host_of_an_agent() {
        // The installer's agent table names the compiler's host ids: each
        // one a profile, and every profile some agent's.
        use super::{AGENTS, Host};
        let hosts: Vec<Host> = AGENTS
            .iter()
            .filter_map(|agent| agent.host)
            .map(|id| id.parse::<Host>().unwrap())
            .collect();
        for host in Host::ALL {
            assert!(hosts.contains(&host), "{host} is no agent's host");
        }
        assert_eq!(hosts.len(), Host::ALL.len());
    }
    #[test]
    fn the_help_names_the_sources() {
        for help in [
            super::INSTALL.about,
            super::STATUS.about,
            super::UNINSTALL.about,
        ] {
            assert!(help.contains(sources_help!()), "{help}");
        }
    }
}
