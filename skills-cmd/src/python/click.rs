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
use super::formatter;
use crate::output::{Stream, echo};

/// A positional argument of a command.
#[derive(Debug, Clone, Copy)]
pub struct Arg {
    /// Shown in usage lines, e.g. `SKILL_PATH`.
    pub metavar: &'static str,
    /// One or more values instead of exactly one.
    pub many: bool,
    /// Each value must be an existing path.
    pub must_exist: bool,
}

/// What an option takes after its name.
#[derive(Debug, Clone, Copy)]
pub enum Takes {
    /// Nothing: a flag (`--check`); given, it is recorded with an empty value.
    Nothing,
    /// A value, shown in help as this metavar (`--output FILE`).
    Value(&'static str),
    /// One of these values (`--format [human|json]`).
    Choice(&'static [&'static str]),
}

/// An option, declared once: what the parser accepts and the line its
/// command's help (and `docs/cli.md`) shows for it.
///
/// ```ignore
/// const OUTPUT: Opt = Opt::value("--output", "FILE", "Where to write.").short("-o");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// The short name, with its dash (`-o`), if any.
    pub short: Option<&'static str>,
    /// The long name, with its dashes; the name values are recorded under.
    pub long: &'static str,
    /// What follows the name.
    pub takes: Takes,
    /// What it does, one paragraph (wrapped by code).
    pub help: &'static str,
}

impl Opt {
    /// A flag without a value.
    pub const fn flag(long: &'static str, help: &'static str) -> Opt {
        Opt {
            short: None,
            long,
            takes: Takes::Nothing,
            help,
        }
    }

    /// An option with a value shown as `metavar`.
    pub const fn value(long: &'static str, metavar: &'static str, help: &'static str) -> Opt {
        Opt {
            short: None,
            long,
            takes: Takes::Value(metavar),
            help,
        }
    }

    /// An option whose value is one of `choices`.
    pub const fn choice(
        long: &'static str,
        choices: &'static [&'static str],
        help: &'static str,
    ) -> Opt {
        Opt {
            short: None,
            long,
            takes: Takes::Choice(choices),
            help,
        }
    }

    /// The same option, also reachable as `short`.
    pub const fn short(self, short: &'static str) -> Opt {
        Opt {
            short: Some(short),
            ..self
        }
    }

    /// The same option with another help text (where a command gives it
    /// another meaning, as `catalog`'s `--exclude`).
    pub const fn help(self, help: &'static str) -> Opt {
        Opt { help, ..self }
    }

    /// The term in the options list: `-o, --output FILE`, `--format [a|b]`.
    pub fn term(&self) -> String {
        let mut term = match self.short {
            Some(short) => format!("{short}, {}", self.long),
            None => self.long.to_string(),
        };
        match self.takes {
            Takes::Nothing => {}
            Takes::Value(metavar) => {
                term.push(' ');
                term.push_str(metavar);
            }
            Takes::Choice(choices) => {
                term.push_str(" [");
                term.push_str(&choices.join("|"));
                term.push(']');
            }
        }
        term
    }

    fn is_named(&self, name: &str) -> bool {
        self.long == name || self.short == Some(name)
    }
}

/// A subcommand: its name, help, arguments, options and what runs it.
#[derive(Debug, Clone, Copy)]
pub struct CommandSpec {
    /// The subcommand's name.
    pub name: &'static str,
    /// One sentence: the group's command list and the help's first line.
    pub summary: &'static str,
    /// The help's further paragraphs (blank-line separated, filled by
    /// code; a paragraph whose lines start with a space is kept as written).
    pub about: &'static str,
    /// The exit statuses and what each means; 2 (usage error) is added
    /// when missing.
    pub exit_codes: &'static [(u8, &'static str)],
    /// Positional arguments in order.
    pub args: &'static [Arg],
    /// The options, in groups (a command's own, and groups it shares with
    /// others), in the order help lists them.
    pub options: &'static [&'static [Opt]],
    /// Runs the command on what was parsed, giving the exit status.
    pub run: fn(&Invocation) -> i32,
}

impl CommandSpec {
    /// `Usage: PROG NAME [OPTIONS] ARGS...`, the first line of the help.
    pub fn usage_line(&self, prog: &str) -> String {
        let mut line = format!("Usage: {prog} {} [OPTIONS]", self.name);
        for arg in self.args {
            line.push(' ');
            line.push_str(arg.metavar);
        }
        line
    }

    /// Every option, in the order help lists them.
    pub fn all_options(&self) -> impl Iterator<Item = &'static Opt> {
        self.options.iter().flat_map(|group| group.iter())
    }

    /// The exit statuses, 2 (usage error) among them, in order.
    pub fn exit_code_rows(&self) -> Vec<(u8, &'static str)> {
        let mut rows = self.exit_codes.to_vec();
        if !rows.iter().any(|(code, _)| *code == 2) {
            rows.push((2, "Usage error"));
        }
        rows.sort_by_key(|(code, _)| *code);
        rows
    }

    /// Prints a usage error found after parsing (a missing or conflicting
    /// option), laid out as the parser lays out its own, and gives the
    /// usage exit status, 2. For our own commands, which the drop-in name
    /// never offers, so the program is `skills`.
    pub fn usage_error(&self, message: &str) -> i32 {
        echo(Stream::Err, &self.error_text("skills", message));
        2
    }

    /// A usage error's text under program `prog`: the usage line, where to
    /// find help, and `message`.
    fn error_text(&self, prog: &str, message: &str) -> String {
        format!(
            "{}\nTry '{prog} {} --help' for help.\n\nError: {message}",
            self.usage_line(prog),
            self.name
        )
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

impl GroupSpec {
    fn usage(&self) -> String {
        format!("Usage: {} [OPTIONS] COMMAND [ARGS]...", self.prog)
    }

    /// The group's full help text.
    pub fn help(&self) -> String {
        let mut commands: Vec<(String, String)> = self
            .commands
            .iter()
            .map(|c| (c.name.to_string(), c.summary.to_string()))
            .collect();
        if self.manners {
            commands.push((HELP_COMMAND.to_string(), HELP_COMMAND_TEXT.to_string()));
        }
        commands.sort();
        let (version, help) = if self.manners {
            ("-V, --version", "-h, --help")
        } else {
            ("--version", "--help")
        };
        let options = [
            (
                version.to_string(),
                "Show the version and exit.".to_string(),
            ),
            (help.to_string(), HELP_TEXT.to_string()),
        ];
        let mut text = format!(
            "{}\n\n{}\n\nOptions:\n{}\nCommands:\n{}",
            self.usage(),
            formatter::paragraphs(self.description, 2),
            formatter::definitions(&options, 2),
            formatter::definitions(&commands, 2),
        );
        if self.manners {
            let codes = [
                ("0", "Success"),
                ("1", "The command failed (each command's help says how)"),
                ("2", "Usage error"),
            ]
            .map(|(code, what)| (code.to_string(), what.to_string()));
            text.push_str("\nExit codes:\n");
            text.push_str(&formatter::definitions(&codes, 2));
        }
        text.truncate(text.trim_end().len());
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
            let about = format!(
                "Without COMMAND, the help of {prog} (as `{prog} --help`); with one, that command's (as `{prog} COMMAND --help`).",
                prog = self.prog
            );
            let options = [("-h, --help".to_string(), HELP_TEXT.to_string())];
            return self.stdout_exit(format!(
                "Usage: {} {HELP_COMMAND} [COMMAND]\n\n{}\n\n{}\n\nOptions:\n{}",
                self.prog,
                formatter::paragraphs(HELP_COMMAND_TEXT, 2),
                formatter::paragraphs(&about, 2),
                formatter::definitions(&options, 2).trim_end(),
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

    /// A subcommand's full help text: usage line, summary, paragraphs,
    /// exit codes and options, laid out by [`formatter`].
    ///
    /// Under the drop-in name the exit codes are one paragraph, as the
    /// reference's click reflows its `Exit codes:` block; under the tool's
    /// own name they are a list, with the usage error's status.
    pub fn command_help(&self, command: &CommandSpec) -> String {
        let mut text = format!(
            "{}\n\n{}",
            command.usage_line(&self.prog),
            formatter::paragraphs(command.summary, 2)
        );
        if !command.about.is_empty() {
            text.push_str("\n\n");
            text.push_str(&formatter::paragraphs(command.about, 2));
        }
        if self.manners {
            let rows: Vec<(String, String)> = command
                .exit_code_rows()
                .into_iter()
                .map(|(code, what)| (code.to_string(), what.to_string()))
                .collect();
            text.push_str("\n\n  Exit codes:\n");
            text.push_str(&formatter::definitions(&rows, 4));
            text.push('\n');
        } else if !command.exit_codes.is_empty() {
            let mut line = "Exit codes:".to_string();
            for (code, what) in command.exit_codes {
                line.push_str(&format!("     {code}: {what}"));
            }
            text.push_str(&format!("\n\n  {line}\n\n"));
        } else {
            text.push_str("\n\n");
        }
        let mut rows: Vec<(String, String)> = command
            .all_options()
            .map(|opt| (opt.term(), opt.help.to_string()))
            .collect();
        let help_option = if self.manners { "-h, --help" } else { "--help" };
        rows.push((help_option.to_string(), HELP_TEXT.to_string()));
        text.push_str("Options:\n");
        text.push_str(&formatter::definitions(&rows, 2));
        text.truncate(text.trim_end().len());
        text
    }

    fn command_error(&self, command: &CommandSpec, message: &str) -> Exit {
        Exit {
            code: 2,
            stdout: None,
            stderr: Some(command.error_text(&self.prog, message)),
        }
    }

    /// Runs the command `call` names (one of [`Self::commands`], as
    /// [`Self::parse`] gives it).
    pub fn run(&self, call: &Invocation) -> i32 {
        match self.commands.iter().find(|c| c.name == call.command) {
            Some(command) => (command.run)(call),
            // The parser gives only declared commands.
            None => {
                echo(
                    Stream::Err,
                    &format!("Error: command {} is not available", call.command),
                );
                2
            }
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
        let names: Vec<&str> = command
            .all_options()
            .flat_map(|opt| [opt.long].into_iter().chain(opt.short))
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
            let Some(opt) = command.all_options().find(|opt| opt.is_named(name)) else {
                return Err(self.command_error(command, &no_such_option(arg, &names)));
            };
            if let Takes::Nothing = opt.takes {
                if value.is_some() {
                    return Err(bad_option_usage(name));
                }
                options.push((opt.long, String::new()));
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
            options.push((opt.long, value));
        }
        if help {
            return Err(self.stdout_exit(self.command_help(command)));
        }
        for opt in command.all_options() {
            let Takes::Choice(choices) = opt.takes else {
                continue;
            };
            for (_, value) in options.iter().filter(|(name, _)| *name == opt.long) {
                if !choices.contains(&value.as_str()) {
                    let quoted: Vec<String> = choices.iter().map(|c| repr_str(c)).collect();
                    return Err(self.command_error(
                        command,
                        &format!(
                            "Invalid value for '{}': {} is not one of {}.",
                            opt.long,
                            repr_str(value),
                            quoted.join(", ")
                        ),
                    ));
                }
            }
        }
        let mut taken = 0;
        for &Arg {
            metavar,
            many,
            must_exist,
        } in command.args
        {
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
                    // The empty path names nothing (`stat("")` fails), though
                    // WASI's C library reads it as the working directory.
                    if value.is_empty() || std::fs::metadata(value).is_err() {
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
    use super::*;

    fn nothing(_: &Invocation) -> i32 {
        0
    }

    const COMMAND: CommandSpec = CommandSpec {
        name: "x",
        summary: "Do x.",
        about: "",
        exit_codes: &[(0, "Done"), (1, "Failed")],
        args: &[],
        options: &[&[Opt::value("--out", "FILE", "Where.").short("-o")]],
        run: nothing,
    };

    fn group(manners: bool) -> GroupSpec {
        GroupSpec {
            prog: "p".to_string(),
            version_line: String::new(),
            description: "P.",
            commands: vec![COMMAND],
            manners,
        }
    }

    #[test]
    fn exit_codes_are_lines_under_our_name_and_a_paragraph_under_the_drop_in() {
        assert_eq!(
            group(true).command_help(&COMMAND),
            "Usage: p x [OPTIONS]\n\n  Do x.\n\n  Exit codes:\n    0  Done\n    1  Failed\n    2  Usage error\n\nOptions:\n  -o, --out FILE  Where.\n  -h, --help      Show this message and exit."
        );
        assert_eq!(
            group(false).command_help(&COMMAND),
            "Usage: p x [OPTIONS]\n\n  Do x.\n\n  Exit codes:     0: Done     1: Failed\n\nOptions:\n  -o, --out FILE  Where.\n  --help          Show this message and exit."
        );
    }

    #[test]
    fn a_short_name_is_recorded_under_the_long_one() {
        let args = ["x", "-o", "a", "--out=b"].map(String::from);
        let call = group(true).parse(&args).unwrap();
        assert_eq!(call.values("--out"), ["a", "b"]);
        assert_eq!(call.option("--out"), Some("b"));
    }
}
