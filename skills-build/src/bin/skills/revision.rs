//! `revision SRC...`: each skill's content revision, as agentskills-core
//! computes it; a source is a skill folder or a folder of skills.

use std::path::Path;

use skills_build::diagnostic;
use skills_build::discover::skill_folders;
use skills_build::signing::snapshot_dir;

use crate::args::{CommandSpec, Invocation, Param};
use crate::output::{Stream, write};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "revision",
    short_help: "Print the content revision of skills.",
    help: "  Print the content revision of skills.\n\n  Each SRC is a skill folder (it holds SKILL.md) or a folder of skill\n  folders. For each skill, prints `<revision>  <DIR>`: the SHA-256 revision\n  over every file of the skill folder (paths, sizes, digests), exactly as\n  agentskills-core's content_revision computes it (a bundle records the\n  revision of the files it embeds).\n\n  Exit codes:\n    0  Success\n    1  A source holds no skill, or a skill could not be read\n    2  Usage error",
    options_help: &[],
    params: &[Param::Arg {
        metavar: "SRC...",
        many: true,
        must_exist: false,
    }],
};

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let mut out = String::new();
    let mut code = 0;
    for arg in &call.args {
        let folders = match skill_folders(Path::new(arg)) {
            Ok((_, folders)) => folders,
            Err(problem) => {
                write(Stream::Err, &diagnostic::render(&problem));
                code = 1;
                continue;
            }
        };
        for dir in folders {
            match snapshot_dir(&dir) {
                Ok(snapshot) => {
                    out.push_str(&format!("{}  {}\n", snapshot.revision, dir.display()))
                }
                Err(error) => {
                    write(Stream::Err, &format!("error: {error}\n"));
                    code = 1;
                }
            }
        }
    }
    write(Stream::Out, &out);
    code
}
