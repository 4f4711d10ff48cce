//! Command-line parsing with click's behaviour and messages, so that the
//! reference commands fail exactly as the reference does (usage errors exit
//! with status 2 and name the command's usage line).
//!
//! Under its own name the tool also has the manners people expect of a
//! command line ([`GroupSpec::manners`]): `-h` beside `--help`, `-V` beside
//! `--version`, `help [COMMAND]`, and exit codes as lines in every
//! command's help. Invoked as `agentskills` it has exactly the reference's.

use skills_pycompat::repr::repr_str;

use super::difflib::close_matches;
use crate::output::{Stream, echo};

/// A positional argument or an option of a command.
#[derive(Debug, Clone, Copy)]
pub enum Param {
    /// A positional argument; `many` takes one or more.
    Arg {
        /// Shown in usage lines, e.g. `SKILL_PATH`.
        metavar: &'static str,
        /// One or more values instead of exactly one.
        many: bool,
        /// Each value must be an existing path.
        must_exist: bool,
    },
    /// An option with a value, e.g. `--format json` or `--format=json`.
    Opt {
        /// The long name, with its dashes.
        long: &'static str,
        /// The allowed values, if restricted.
        choices: &'static [&'static str],
    },
    /// A boolean flag without a value, e.g. `--no-hints`; given, it is
    /// recorded with an empty value.
    Flag {
        /// The long name, with its dashes.
        long: &'static str,
    },
}

/// A subcommand: its name, help and parameters.
#[derive(Debug, Clone, Copy)]
pub struct CommandSpec {
    /// The subcommand's name.
    pub name: &'static str,
    /// One line for the group's command list.
    pub short_help: &'static str,
    /// The help text between the usage line and the options, as printed.
    pub help: &'static str,
    /// Lines for the options section, before `--help`.
    pub options_help: &'static [&'static str],
    /// Parameters in declaration order.
    pub params: &'static [Param],
}

/// The parts one after another as one array: how a command puts the
/// parameters or help lines it shares with others beside its own, in a
/// `const`. `N` is the parts' total length (a wrong one fails the build).
pub const fn concat<T: Copy, const N: usize>(parts: &[&[T]]) -> [T; N] {
    let mut out = [parts[0][0]; N];
    let mut at = 0;
    let mut part = 0;
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() {
            out[at] = parts[part][i];
            at += 1;
            i += 1;
        }
        part += 1;
    }
    assert!(at == N, "concat: N is not the parts' total length");
    out
}

impl CommandSpec {
    /// `Usage: PROG NAME [OPTIONS] ARGS...`, the first line of the help.
    fn usage_line(&self, prog: &str) -> String {
        let mut line = format!("Usage: {prog} {} [OPTIONS]", self.name);
        for param in self.params {
            if let Param::Arg { metavar, .. } = param {
                line.push(' ');
                line.push_str(metavar);
            }
        }
        line
    }

    /// Prints a usage error found after parsing (a missing or conflicting
    /// option), laid out as the parser lays out its own, and gives the
    /// usage exit status, 2. For our own commands, which the drop-in name
    /// never offers, so the program is `skills`.
    pub fn usage_error(&self, message: &str) -> i32 {
        let text = format!(
            "{}\nTry 'skills {} --help' for help.\n\nError: {message}\n",
            self.usage_line("skills"),
            self.name
        );
        crate::output::write(Stream::Err, &text);
        2
    }
}

/// The program: how it introduces itself and its subcommands.
#[derive(Debug, Clone)]
pub struct GroupSpec {
    /// The program name as invoked.
    pub prog: String,
    /// What `--version` prints.
    pub version_line: String,
    /// The group's help paragraph.
    pub description: &'static str,
    /// The subcommands, in any order (help lists them sorted).
    pub commands: Vec<CommandSpec>,
    /// `-h`, `-V`, `help [COMMAND]` and exit codes as lines (the `skills`
    /// name); off for the byte-identical drop-in (`agentskills`).
    pub manners: bool,
}

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The subcommand.
    pub command: &'static str,
    /// The positional values, in order.
    pub args: Vec<String>,
    /// The option values given, by long name (the last one wins).
    pub options: Vec<(&'static str, String)>,
}

impl Invocation {
    /// Whether flag `long` was given.
    pub fn flag(&self, long: &str) -> bool {
        self.options.iter().any(|(name, _)| *name == long)
    }

    /// Every value of option `long`, in order.
    pub fn values(&self, long: &str) -> Vec<&str> {
        self.options
            .iter()
            .filter(|(name, _)| *name == long)
            .map(|(_, value)| value.as_str())
            .collect()
    }

    /// The value of option `long`, if given.
    pub fn option(&self, long: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(name, _)| *name == long)
            .map(|(_, value)| value.as_str())
    }
}

/// Parsing stopped: print this and exit with `code`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    /// The exit status.
    pub code: i32,
    /// Text for stdout (help, version).
    pub stdout: Option<String>,
    /// Text for stderr (usage errors).
    pub stderr: Option<String>,
}

impl Exit {
    /// Prints the texts (each followed by a newline) and gives the status.
    pub fn emit(self) -> i32 {
        if let Some(text) = self.stdout {
            echo(Stream::Out, &text);
        }
        if let Some(text) = self.stderr {
            echo(Stream::Err, &text);
        }
        self.code
    }
}

const HELP_TEXT: &str = "Show this message and exit.";

/// The pseudo-command that prints help (under the tool's own name).
const HELP_COMMAND: &str = "help";

/// What [`HELP_COMMAND`] does, in the command list and its own help.
const HELP_COMMAND_TEXT: &str = "Show the help of the tool or of COMMAND.";

/// A help text whose exit codes are written as one reflowed paragraph
/// (`  Exit codes:     0: Valid skill     1: Errors`, as the reference's
/// click help prints them) with one line per code instead, and the usage
/// error's status added; other texts unchanged (see the unit test).
fn exit_code_lines(help: &str) -> String {
    let mut out = Vec::new();
    for line in help.split('\n') {
        let Some(rest) = line.strip_prefix("  Exit codes:") else {
            out.push(line.to_string());
            continue;
        };
        if rest.trim().is_empty() {
            out.push(line.to_string());
            continue;
        }
        out.push("  Exit codes:".to_string());
        let mut codes = Vec::new();
        for item in rest.split("  ").map(str::trim).filter(|s| !s.is_empty()) {
            match item.split_once(": ") {
                Some((code, what)) => {
                    codes.push(code.to_string());
                    out.push(format!("    {code}  {what}"));
                }
                None => out.push(format!("    {item}")),
            }
        }
        if !codes.iter().any(|code| code == "2") {
            out.push("    2  Usage error".to_string());
        }
    }
    out.join("\n")
}

/// The column where option descriptions start in pre-formatted option
/// lines (`  --flag VALUE    Description`), so `--help` lines up with them
/// as click aligns its option list.
fn description_column(lines: &[&str]) -> Option<usize> {
    lines
        .iter()
        .flat_map(|entry| entry.split('\n'))
        .filter(|line| line.starts_with("  -"))
        .find_map(|line| {
            let start = line.get(2..)?.find("  ")? + 2;
            let rest = line.get(start..)?;
            Some(start + rest.len() - rest.trim_start().len())
        })
}

impl GroupSpec {
    fn usage(&self) -> String {
        format!("Usage: {} [OPTIONS] COMMAND [ARGS]...", self.prog)
    }

    /// The group's full help text.
    pub fn help(&self) -> String {
        let mut commands: Vec<(&str, &str)> = self
            .commands
            .iter()
            .map(|c| (c.name, c.short_help))
            .collect();
        if self.manners {
            commands.push((HELP_COMMAND, HELP_COMMAND_TEXT));
        }
        commands.sort_by_key(|(name, _)| *name);
        let width = commands
            .iter()
            .map(|(name, _)| name.len())
            .max()
            .unwrap_or(0);
        let options = if self.manners {
            "  -V, --version  Show the version and exit.\n  -h, --help     Show this message and exit."
        } else {
            "  --version  Show the version and exit.\n  --help     Show this message and exit."
        };
        let mut text = format!(
            "{}\n\n  {}\n\nOptions:\n{options}\n\nCommands:",
            self.usage(),
            self.description
        );
        for (name, short_help) in &commands {
            text.push_str(&format!("\n  {name:<width$}  {short_help}"));
        }
        if self.manners {
            text.push_str(
                "\n\nExit codes:\n  0  Success\n  1  The command failed (each command's help says how)\n  2  Usage error",
            );
        }
        text
    }

    fn is_help(&self, name: &str) -> bool {
        name == "--help" || (self.manners && name == "-h")
    }

    fn is_version(&self, name: &str) -> bool {
        name == "--version" || (self.manners && name == "-V")
    }

    fn group_options(&self) -> &'static [&'static str] {
        if self.manners {
            &["--version", "--help", "-V", "-h"]
        } else {
            &["--version", "--help"]
        }
    }

    /// `help`, `help COMMAND`: the help asked for, or a usage error.
    fn help_command(&self, args: &[String]) -> Exit {
        // `help --help` (or `-h`, anywhere after `help`): its own help.
        if args.iter().any(|arg| self.is_help(arg)) {
            return self.stdout_exit(format!(
                "Usage: {prog} {HELP_COMMAND} [COMMAND]\n\n  {HELP_COMMAND_TEXT}\n\n  Without COMMAND, the help of {prog} (as `{prog} --help`); with one,\n  that command's (as `{prog} COMMAND --help`).\n\nOptions:\n  -h, --help  {HELP_TEXT}\n",
                prog = self.prog
            ));
        }
        match args {
            [] => self.stdout_exit(self.help()),
            [name] => match self.commands.iter().find(|c| c.name == name) {
                Some(command) => self.stdout_exit(self.command_help(command)),
                None => {
                    let mut names: Vec<&str> = self.commands.iter().map(|c| c.name).collect();
                    names.sort_unstable();
                    let message = format!("No such command {}.", repr_str(name));
                    self.usage_error(&with_suggestions(message, name, &names))
                }
            },
            [_, extra @ ..] => self.usage_error(&format!(
                "Got unexpected extra argument{} ({})",
                if extra.len() == 1 { "" } else { "s" },
                extra.join(" ")
            )),
        }
    }

    fn usage_error(&self, message: &str) -> Exit {
        Exit {
            code: 2,
            stdout: None,
            stderr: Some(format!(
                "{}\nTry '{} --help' for help.\n\nError: {message}",
                self.usage(),
                self.prog
            )),
        }
    }

    fn command_usage(&self, command: &CommandSpec) -> String {
        command.usage_line(&self.prog)
    }

    /// A subcommand's full help text.
    pub fn command_help(&self, command: &CommandSpec) -> String {
        let help = if self.manners {
            exit_code_lines(command.help)
        } else {
            command.help.to_string()
        };
        let mut text = format!("{}\n\n{help}\n\nOptions:\n", self.command_usage(command),);
        for line in command.options_help {
            text.push_str(line);
            text.push('\n');
        }
        let column = description_column(command.options_help).unwrap_or(10);
        let help_option = if self.manners { "-h, --help" } else { "--help" };
        text.push_str(&format!(
            "  {help_option:<width$}{HELP_TEXT}",
            width = column.saturating_sub(2).max(help_option.len() + 2)
        ));
        text
    }

    fn command_error(&self, command: &CommandSpec, message: &str) -> Exit {
        Exit {
            code: 2,
            stdout: None,
            stderr: Some(format!(
                "{}\nTry '{} {} --help' for help.\n\nError: {message}",
                self.command_usage(command),
                self.prog,
                command.name
            )),
        }
    }

    /// Parses the arguments after the program name.
    pub fn parse(&self, args: &[String]) -> Result<Invocation, Exit> {
        if args.is_empty() {
            return Err(Exit {
                code: 2,
                stdout: None,
                stderr: Some(self.help()),
            });
        }
        let mut rest = args;
        let mut eager: Option<&str> = None;
        while let Some((arg, tail)) = rest.split_first() {
            if arg == "--" {
                rest = tail;
                break;
            }
            if !is_option(arg) {
                break;
            }
            let (name, value) = split_value(arg);
            let (help, version) = (self.is_help(name), self.is_version(name));
            if (help || version) && value.is_some() {
                return Err(bad_option_usage(name));
            }
            if help || version {
                eager.get_or_insert(if help { "help" } else { "version" });
            } else {
                return Err(self.usage_error(&no_such_option(arg, self.group_options())));
            }
            rest = tail;
        }
        match eager {
            Some("help") => return Err(self.stdout_exit(self.help())),
            Some(_) => return Err(self.stdout_exit(self.version_line.clone())),
            None => {}
        }
        let Some((name, tail)) = rest.split_first() else {
            return Err(self.usage_error("Missing command."));
        };
        if self.manners && name == HELP_COMMAND {
            return Err(self.help_command(tail));
        }
        let Some(command) = self.commands.iter().find(|c| c.name == name) else {
            if is_option(name) {
                return Err(self.usage_error(&no_such_option(name, self.group_options())));
            }
            let mut names: Vec<&str> = self.commands.iter().map(|c| c.name).collect();
            if self.manners {
                names.push(HELP_COMMAND);
            }
            names.sort_unstable();
            let message = format!("No such command {}.", repr_str(name));
            return Err(self.usage_error(&with_suggestions(message, name, &names)));
        };
        self.parse_command(command, tail)
    }

    fn stdout_exit(&self, text: String) -> Exit {
        Exit {
            code: 0,
            stdout: Some(text),
            stderr: None,
        }
    }

    fn parse_command(&self, command: &CommandSpec, args: &[String]) -> Result<Invocation, Exit> {
        let mut positional = Vec::new();
        let mut options = Vec::new();
        let mut help = false;
        let longs: Vec<&str> = command
            .params
            .iter()
            .filter_map(|p| match p {
                Param::Opt { long, .. } | Param::Flag { long } => Some(*long),
                Param::Arg { .. } => None,
            })
            .chain(["--help"])
            .chain(self.manners.then_some("-h"))
            .collect();
        let mut queue = args.iter();
        while let Some(arg) = queue.next() {
            if arg == "--" {
                positional.extend(queue.by_ref().cloned());
                break;
            }
            if !is_option(arg) {
                positional.push(arg.clone());
                continue;
            }
            let (name, value) = split_value(arg);
            if self.is_help(name) {
                if value.is_some() {
                    return Err(bad_option_usage(name));
                }
                help = true;
                continue;
            }
            let Some(long) = longs.iter().find(|l| **l == name) else {
                return Err(self.command_error(command, &no_such_option(arg, &longs)));
            };
            let is_flag = command
                .params
                .iter()
                .any(|p| matches!(p, Param::Flag { long: flag } if flag == long));
            if is_flag {
                if value.is_some() {
                    return Err(bad_option_usage(name));
                }
                options.push((*long, String::new()));
                continue;
            }
            let value = match value {
                Some(v) => v.to_string(),
                None => match queue.next() {
                    Some(v) => v.clone(),
                    None => {
                        return Err(bad_option_usage_text(format!(
                            "Option {} requires an argument.",
                            repr_str(name)
                        )));
                    }
                },
            };
            options.push((*long, value));
        }
        if help {
            return Err(self.stdout_exit(self.command_help(command)));
        }
        for param in command.params {
            if let Param::Opt { long, choices } = param {
                for (_, value) in options.iter().filter(|(name, _)| name == long) {
                    if !choices.is_empty() && !choices.contains(&value.as_str()) {
                        let quoted: Vec<String> = choices.iter().map(|c| repr_str(c)).collect();
                        return Err(self.command_error(
                            command,
                            &format!(
                                "Invalid value for '{long}': {} is not one of {}.",
                                repr_str(value),
                                quoted.join(", ")
                            ),
                        ));
                    }
                }
            }
        }
        let mut taken = 0;
        for param in command.params {
            let Param::Arg {
                metavar,
                many,
                must_exist,
            } = *param
            else {
                continue;
            };
            let wanted = if many {
                positional.len().saturating_sub(taken)
            } else {
                1.min(positional.len().saturating_sub(taken))
            };
            if wanted == 0 {
                return Err(self.command_error(command, &format!("Missing argument '{metavar}'.")));
            }
            if must_exist {
                for value in &positional[taken..taken + wanted] {
                    if std::fs::metadata(value).is_err() {
                        return Err(self.command_error(
                            command,
                            &format!(
                                "Invalid value for '{metavar}': Path {} does not exist.",
                                repr_str(value)
                            ),
                        ));
                    }
                }
            }
            taken += wanted;
        }
        let extra = &positional[taken..];
        if !extra.is_empty() {
            let noun = if extra.len() == 1 {
                "argument"
            } else {
                "arguments"
            };
            return Err(self.command_error(
                command,
                &format!("Got unexpected extra {noun} ({})", extra.join(" ")),
            ));
        }
        Ok(Invocation {
            command: command.name,
            args: positional,
            options,
        })
    }
}

fn is_option(arg: &str) -> bool {
    arg.starts_with('-') && arg.len() > 1
}

fn split_value(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((name, value)) => (name, Some(value)),
        None => (arg, None),
    }
}

/// click's message for an unknown option: a `--long` name is compared with
/// the known ones; a `-x` form is reported by its first letter.
fn no_such_option(arg: &str, longs: &[&str]) -> String {
    let (name, _) = split_value(arg);
    if name.starts_with("--") {
        with_suggestions(format!("No such option {}.", repr_str(name)), name, longs)
    } else {
        let first: String = arg.chars().take(2).collect();
        format!("No such option {}.", repr_str(&first))
    }
}

fn with_suggestions(message: String, word: &str, candidates: &[&str]) -> String {
    let mut matches = close_matches(word, candidates);
    matches.sort_unstable();
    let quoted: Vec<String> = matches.iter().map(|m| repr_str(m)).collect();
    match quoted.len() {
        0 => message,
        1 => format!("{message} Did you mean {}?", quoted[0]),
        _ => format!("{message} (Did you mean one of: {}?)", quoted.join(", ")),
    }
}

fn bad_option_usage(name: &str) -> Exit {
    bad_option_usage_text(format!("Option {} does not take a value.", repr_str(name)))
}

fn bad_option_usage_text(message: String) -> Exit {
    Exit {
        code: 2,
        stdout: None,
        stderr: Some(format!("Error: {message}")),
    }
}

#[cfg(test)]
mod tests {
    use super::exit_code_lines;

    #[test]
    fn reflowed_exit_codes_become_lines() {
        assert_eq!(
            exit_code_lines("  Text.\n\n  Exit codes:     0: Valid skill     1: Errors found"),
            "  Text.\n\n  Exit codes:\n    0  Valid skill\n    1  Errors found\n    2  Usage error"
        );
        let lines = "  Exit codes:\n    0  Fine\n    2  Usage error";
        assert_eq!(exit_code_lines(lines), lines);
    }
}
