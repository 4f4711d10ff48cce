//! `check SRC...`: every problem of every skill, through the same pipeline
//! as `build`, a build script's `Builder` and `include_skills!`, as
//! diagnostics, JSON, GitHub workflow commands or SARIF.

use crate::gate;
use crate::gate::SOURCES;
use crate::python::click::{CommandSpec, Invocation};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "check",
    summary: "Report every problem of skills, as diagnostics.",
    about: "Each SRC is a skill folder (it holds SKILL.md), a folder of skill folders, or a .skill/.zip archive of either; a source with no skill is an error. Sources are searched in order as `build` searches them (QUALIFIER=DIR lists a taken name as QUALIFIER:NAME). Prints the reference validator's problems, the specification's rules it does not check and the build's own, each with its rule code, file, line and column, then a summary, on stdout (in every format: the report is the command's result; progress goes to stderr). The verdict is the one `build`, the Builder and include_skills! give for the same options.",
    exit_codes: &[
        (0, "No errors (warnings and notes allowed)"),
        (1, "Errors found, or warnings with --deny-warnings"),
    ],
    args: &[SOURCES],
    options: &[gate::REPORT, &[gate::EXTENSIONS, gate::EXCLUDE], gate::READ],
    run,
};

fn usage_error(message: &str) -> i32 {
    COMMAND.usage_error(message)
}

/// Runs the command; the exit status is 1 when any error was found (or a
/// warning, with `--deny-warnings`).
pub fn run(call: &Invocation) -> i32 {
    let builder = match gate::builder(call) {
        Ok(builder) => builder,
        Err(message) => return usage_error(&message),
    };
    let deny = call.flag("--deny-warnings");
    let mut progress = crate::progress::Progress::on_stderr();
    let outcome = builder.run_with_progress(&mut |read| progress.update(read));
    progress.finish();
    let failed = outcome.failed(deny);
    let summary = gate::summary("checked", &outcome, failed, deny);
    gate::print("check", call, &outcome, failed, &summary, Vec::new());
    i32::from(failed)
}
