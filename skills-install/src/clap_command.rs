//! [`SkillCommand`]: the `skill` subcommand as a `clap::Subcommand` (feature
//! `clap`), to nest in a clap CLI; it builds the same [`Request`] the
//! hand-written parser builds and runs through the same code.

use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Command, FromArgMatches, Subcommand};

use crate::command::{Action, Request};
use crate::installer::Installer;
use crate::scope::Scope;
use crate::target::{Agents, Layout, Target};

/// `install`, `status`, `uninstall` or `list`, with their options, as a
/// `clap::Subcommand`. Nest it under a command of your CLI and hand it to
/// [`Installer::run_command`]:
///
/// ```
/// use clap::{FromArgMatches, Subcommand};
/// use skills_install::{Action, SkillCommand};
///
/// // What `#[command(subcommand)] Skill(SkillCommand)` does in a derived CLI.
/// let cli = SkillCommand::augment_subcommands(clap::Command::new("skill"));
/// let matches = cli.try_get_matches_from(["skill", "install", "--agent", "cursor", "--dry-run"])?;
/// let command = SkillCommand::from_arg_matches(&matches)?;
/// assert_eq!(command.request().action, Action::Install);
/// assert!(command.request().dry_run);
/// # Ok::<(), clap::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillCommand(Request);

impl SkillCommand {
    /// The request it stands for.
    pub fn request(&self) -> &Request {
        &self.0
    }
}

const ACTIONS: [(Action, &str); 4] = [
    (
        Action::Install,
        "Install or update the skills (conflicts are listed, and refused without --force)",
    ),
    (
        Action::Status,
        "Say per agent and skill: up to date, outdated, modified, missing, not installed by this tool, and the command that resolves it",
    ),
    (
        Action::Uninstall,
        "Remove the installed skills (only the files this tool wrote)",
    ),
    (Action::List, "List the skills this tool carries"),
];

fn subcommand(action: Action, about: &'static str) -> Command {
    let command = Command::new(action.name()).about(about).arg(
        Arg::new("json")
            .long("json")
            .action(ArgAction::SetTrue)
            .help("Print one JSON document instead of text"),
    );
    if action == Action::List {
        return command;
    }
    let command = match action {
        Action::Status => command.arg(
            Arg::new("check")
                .long("check")
                .action(ArgAction::SetTrue)
                .help("Exit 1 when any installed copy is not exactly the skill's files (stale, edited, missing, extra files, something else in its place), listing each difference"),
        ),
        _ => command,
    };
    command
        .arg(
            Arg::new("skills")
                .value_name("SKILL")
                .num_args(0..)
                .help("Only these skills (default: all)"),
        )
        .arg(
            Arg::new("agent")
                .long("agent")
                .value_name("ID")
                .action(ArgAction::Append)
                // Checked here, not after parsing, so clap's error names
                // this subcommand's usage line, not the program's.
                .value_parser(|value: &str| {
                    Agents::parse([value])
                        .map(|_| value.to_string())
                        .map_err(|error| error.to_string())
                })
                .help("An agent (repeatable, comma-separated, or `all`; default: claude-code and codex, plus every folder installed to before)"),
        )
        .arg(
            Arg::new("scope")
                .long("scope")
                .value_parser(["project", "user"])
                .default_value("project")
                .help("The project's folders or the user's"),
        )
        .arg(
            Arg::new("project-dir")
                .long("project-dir")
                .value_name("DIR")
                .value_parser(clap::value_parser!(PathBuf))
                .help("The project root (default: the nearest folder above with .git)"),
        )
        .arg(
            Arg::new("dry-run")
                .long("dry-run")
                .action(ArgAction::SetTrue)
                .help("Show what would change per skill (each file with --json); write nothing"),
        )
        .arg(
            Arg::new("force")
                .long("force")
                .action(ArgAction::SetTrue)
                .help("Overwrite conflicts (files this tool did not write, or changed since)"),
        )
        .arg(
            Arg::new("link")
                .long("link")
                .action(ArgAction::SetTrue)
                .conflicts_with("copy")
                .help("One copy in .agents/skills, links to it elsewhere"),
        )
        .arg(
            Arg::new("copy")
                .long("copy")
                .action(ArgAction::SetTrue)
                .help("A copy in every folder"),
        )
}

fn flag(matches: &ArgMatches, id: &str) -> bool {
    matches
        .try_get_one::<bool>(id)
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false)
}

impl FromArgMatches for SkillCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, sub)) = matches.subcommand() else {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::MissingSubcommand,
                "a command is missing: install, status, uninstall or list\n",
            ));
        };
        let Some((action, _)) = ACTIONS.iter().find(|(action, _)| action.name() == name) else {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::InvalidSubcommand,
                format!("unknown command {name:?}\n"),
            ));
        };
        let mut target = Target::new(Scope::Project);
        if *action != Action::List {
            let ids: Vec<&String> = sub
                .get_many::<String>("agent")
                .map(Iterator::collect)
                .unwrap_or_default();
            target.agents = Agents::parse(ids).map_err(|e| {
                clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n"))
            })?;
            if let Some(scope) = sub.get_one::<String>("scope") {
                target.scope = scope.parse().map_err(|e: String| {
                    clap::Error::raw(clap::error::ErrorKind::InvalidValue, e + "\n")
                })?;
            }
            target.project_dir = sub.get_one::<PathBuf>("project-dir").cloned();
            target.skills = sub
                .get_many::<String>("skills")
                .map(|names| names.cloned().collect())
                .unwrap_or_default();
            target.force = flag(sub, "force");
            target.layout = match (flag(sub, "link"), flag(sub, "copy")) {
                (true, _) => Layout::Link,
                (_, true) => Layout::Copy,
                _ => Layout::AsRecorded,
            };
        }
        Ok(SkillCommand(
            Request::new(*action, target)
                .dry_run(flag(sub, "dry-run"))
                .json(flag(sub, "json"))
                .check(flag(sub, "check")),
        ))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = SkillCommand::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for SkillCommand {
    fn augment_subcommands(command: Command) -> Command {
        ACTIONS
            .iter()
            .fold(command, |command, (action, about)| {
                command.subcommand(subcommand(*action, about))
            })
            .subcommand_required(true)
    }

    fn augment_subcommands_for_update(command: Command) -> Command {
        SkillCommand::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        ACTIONS.iter().any(|(action, _)| action.name() == name)
    }
}

impl Installer<'_> {
    /// Runs a [`SkillCommand`] parsed by clap, printing to stdout and
    /// stderr; returns the exit code (0 done, 1 conflicts or problems).
    pub fn run_command(&self, command: &SkillCommand) -> i32 {
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        self.run_request(&command.0, &mut stdout.lock(), &mut stderr.lock())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program() -> Command {
        Command::new("mytool").subcommand(SkillCommand::augment_subcommands(Command::new("skill")))
    }

    #[test]
    fn a_bad_value_is_clap_s_error_about_that_option() {
        let error = program()
            .try_get_matches_from(["mytool", "skill", "install", "--agent", "vim"])
            .unwrap_err();
        let text = error.render().to_string();
        assert!(text.contains("unknown agent \"vim\""), "{text}");
        // About the option of `skill install`, never the program's usage
        // (`Usage: mytool <COMMAND>`, as an error raised after parsing was).
        assert!(
            text.contains("invalid value 'vim' for '--agent <ID>'"),
            "{text}"
        );
        assert!(!text.contains("Usage: mytool <COMMAND>"), "{text}");
        assert_eq!(error.exit_code(), 2);
        let matches = program()
            .try_get_matches_from(["mytool", "skill", "install", "--agent", "cursor,codex"])
            .unwrap();
        let (_, skill) = matches.subcommand().unwrap();
        let command = SkillCommand::from_arg_matches(skill).unwrap();
        assert!(
            matches!(&command.request().target.agents, Agents::Only(agents) if agents.len() == 2)
        );
    }
}
