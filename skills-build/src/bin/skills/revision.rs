//! `revision DIR...`: each skill directory's content revision, as
//! agentskills-core computes it.

use std::path::Path;

use skills_build::signing::snapshot_dir;

use crate::args::{CommandSpec, Invocation, Param};
use crate::output::{Stream, write};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "revision",
    short_help: "Print the content revision of skill directories.",
    help: "  Print the content revision of skill directories.\n\n  For each DIR, prints `<revision>  <DIR>`: the SHA-256 revision over every\n  file of the skill (paths, sizes, digests), exactly as agentskills-core's\n  content_revision computes it, and as a bundle records it.\n\n  Exit codes:     0: Success     1: A directory could not be read",
    options_help: &[],
    params: &[Param::Arg {
        metavar: "DIR...",
        many: true,
        must_exist: true,
    }],
};

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let mut out = String::new();
    let mut code = 0;
    for dir in &call.args {
        match snapshot_dir(Path::new(dir)) {
            Ok(snapshot) => out.push_str(&format!("{}  {dir}\n", snapshot.revision)),
            Err(error) => {
                write(Stream::Err, &format!("error: {error}\n"));
                code = 1;
            }
        }
    }
    write(Stream::Out, &out);
    code
}
