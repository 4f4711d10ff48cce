//! The `skills` command-line tool.
//!
//! `validate`, `read-properties` and `to-prompt` behave exactly like the
//! reference command line (`agentskills` from skills-ref 0.1.1); invoked
//! under the name `agentskills`, the tool is a drop-in replacement for it,
//! down to its help texts and version line. The other commands are ours.

mod atomic;
mod audit;
mod build;
mod bundle_file;
mod canonical;
mod catalog;
mod check;
mod extract;
mod fmt;
mod gate;
mod inspect;
mod install;
mod keygen;
mod mcp;
mod new;
mod output;
mod pack;
mod packing;
mod progress;
mod properties;
mod python;
mod reference;
mod report;
mod revision;
mod sections;
mod sign;
mod skill_dir;
mod targets;
mod verify;

use python::click::{CommandSpec, GroupSpec, Param};
use skills_install::Action;

const SKILL_PATH: Param = Param::Arg {
    metavar: "SKILL_PATH",
    many: false,
    must_exist: true,
};

const REFERENCE_COMMANDS: [CommandSpec; 3] = [
    CommandSpec {
        name: "validate",
        short_help: "Validate a skill directory.",
        help: "  Validate a skill directory.\n\n  Checks that the skill has a valid SKILL.md with proper frontmatter, correct\n  naming conventions, and required fields.\n\n  Exit codes:     0: Valid skill     1: Validation errors found",
        options_help: &[],
        params: &[SKILL_PATH],
    },
    CommandSpec {
        name: "read-properties",
        short_help: "Read and print skill properties as JSON.",
        help: "  Read and print skill properties as JSON.\n\n  Parses the YAML frontmatter from SKILL.md and outputs the properties as\n  JSON.\n\n  Exit codes:     0: Success     1: Parse error",
        options_help: &[],
        params: &[SKILL_PATH],
    },
    CommandSpec {
        name: "to-prompt",
        short_help: "Generate <available_skills> XML for agent prompts.",
        help: "  Generate <available_skills> XML for agent prompts.\n\n  Accepts one or more skill directories.\n\n  Exit codes:     0: Success     1: Error",
        options_help: &[],
        params: &[Param::Arg {
            metavar: "SKILL_PATHS...",
            many: true,
            must_exist: true,
        }],
    },
];

/// Name under which the tool stands in for the reference command line.
const DROP_IN_NAME: &str = "agentskills";

fn program_name() -> String {
    std::env::args_os()
        .next()
        .map(|arg0| {
            std::path::Path::new(&arg0)
                .file_name()
                .unwrap_or(&arg0)
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_else(|| "skills".to_string())
}

fn group(prog: String) -> GroupSpec {
    if prog == DROP_IN_NAME {
        return GroupSpec {
            prog,
            version_line: "agentskills, version 0.1.1".to_string(),
            description: "Reference library for Agent Skills.",
            commands: REFERENCE_COMMANDS.to_vec(),
            manners: false,
        };
    }
    let mut commands = REFERENCE_COMMANDS.to_vec();
    commands.push(check::COMMAND);
    commands.push(audit::COMMAND);
    commands.push(build::COMMAND);
    commands.push(inspect::COMMAND);
    commands.push(catalog::COMMAND);
    commands.push(catalog::OUTLINE);
    commands.push(keygen::COMMAND);
    commands.push(sign::COMMAND);
    commands.push(verify::COMMAND);
    commands.push(revision::COMMAND);
    commands.push(mcp::COMMAND);
    commands.push(pack::COMMAND);
    commands.push(fmt::COMMAND);
    commands.push(new::COMMAND);
    commands.push(install::INSTALL);
    commands.push(install::STATUS);
    commands.push(install::UNINSTALL);
    commands.push(extract::COMMAND);
    GroupSpec {
        version_line: format!("{prog}, version {}", env!("CARGO_PKG_VERSION")),
        prog,
        description: "Validate, inspect and compile Agent Skills.",
        commands,
        manners: true,
    }
}

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let spec = group(program_name());
    let code = match spec.parse(&args) {
        Err(exit) => exit.emit(),
        Ok(call) => match (call.command, call.args.as_slice()) {
            ("validate", [path]) => reference::validate(path),
            ("read-properties", [path]) => reference::read_properties(path),
            ("to-prompt", paths) => reference::to_prompt(paths),
            ("check", _) => check::run(&call),
            ("audit", _) => audit::run(&call),
            ("build", _) => build::run(&call),
            ("inspect", _) => inspect::run(&call),
            ("catalog", _) => catalog::run(&call),
            ("outline", _) => catalog::run_outline(&call),
            ("keygen", _) => keygen::run(&call),
            ("sign", _) => sign::run(&call),
            ("verify", _) => verify::run(&call),
            ("revision", _) => revision::run(&call),
            ("mcp", _) => mcp::run(&call),
            ("pack", _) => pack::run(&call),
            ("fmt", _) => fmt::run(&call),
            ("new", _) => new::run(&call),
            ("install", _) => install::run(&call, Action::Install),
            ("status", _) => install::run(&call, Action::Status),
            ("uninstall", _) => install::run(&call, Action::Uninstall),
            ("extract", _) => extract::run(&call),
            (command, _) => {
                // The parser only accepts declared commands with their arity.
                output::echo(
                    output::Stream::Err,
                    &format!("Error: command {command} is not available"),
                );
                2
            }
        },
    };
    std::process::exit(code);
}
