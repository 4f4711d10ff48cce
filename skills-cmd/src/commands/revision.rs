//! `revision SRC...`: each skill's content revision, as agentskills-core
//! computes it; a source is read as every command reads it (a skill
//! folder, a folder of skills or an archive).

use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "revision",
    summary: "Print the content revision of skills.",
    about: "Each SRC is a skill folder (it holds SKILL.md), a folder of skill folders, or a .skill/.zip archive, read as `check` and `build` read it (junk left out with a note; a source with no skill is an error). For each skill, prints `<revision>  <DIR>`: the SHA-256 revision over the skill's files as read (paths, sizes, digests), as agentskills-core's content_revision computes it and as a bundle built from the same source records it. agentskills-core hashes junk and evals/ too: give --keep-junk and --keep-evals to match it on a folder that holds some.",
    exit_codes: &[
        (0, "Success"),
        (1, "A source holds no skill, or a skill could not be read"),
    ],
    args: &[gate::SOURCES],
    options: &[gate::EXCLUDE_GROUP, gate::READ_ONLY],
    run,
};

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let skills = match gate::read(call) {
        Ok(Ok(skills)) => skills,
        Ok(Err(code)) => return code,
        Err(message) => return COMMAND.usage_error(&message),
    };
    let out: String = skills
        .iter()
        .map(|skill| format!("{}  {}\n", skill.revision(), gate::skill_path(skill)))
        .collect();
    write(Stream::Out, &out);
    0
}
