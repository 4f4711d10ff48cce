//! `check SRC...`: every problem of every skill, through the same pipeline
//! as `build`, a build script's `Builder` and `include_skills!`, as
//! diagnostics, JSON, GitHub workflow commands or SARIF.

use crate::gate;
use crate::python::click::{CommandSpec, Invocation, Param, concat};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "check",
    short_help: "Report every problem of skills, as diagnostics.",
    help: "  Report every problem of skills, as diagnostics.\n\n  Each SRC is a skill folder (it holds SKILL.md) or a folder of skill\n  folders; a source with no skill is an error. Sources are searched in order\n  as `build` searches them (QUALIFIER=DIR lists a taken name as\n  QUALIFIER:NAME). Prints the reference validator's problems, the\n  specification's rules it does not check and the build's own, each with its\n  rule code, file, line and column, then a summary. The verdict is the one\n  `build`, the Builder and include_skills! give for the same options.\n\n  Exit codes:\n    0  No errors (warnings and notes allowed)\n    1  Errors found, or warnings with --deny-warnings\n    2  Usage error",
    options_help: &gate::OPTIONS_HELP,
    params: &concat::<Param, 12>(&[
        &[Param::Arg {
            metavar: "SRC...",
            many: true,
            must_exist: false,
        }],
        &gate::PARAMS,
    ]),
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
