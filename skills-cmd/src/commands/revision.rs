//! `revision SRC...`: each skill's content revision, as agentskills-core
//! computes it; a source is read as every command reads it (a skill
//! folder, a folder of skills or an archive).

use skills_build::unstable::discover::DiscoveredSkill;
use skills_core::trust::revision::{Revision, content_revision};

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
        .map(|skill| format!("{}  {}\n", of(skill), gate::skill_path(skill)))
        .collect();
    write(Stream::Out, &out);
    0
}

/// The content revision over the skill file and every file read with it,
/// as agentskills-core's `content_revision` computes it: the one a bundle
/// compiled from this skill records, what this command prints and what
/// `skills sign` signs and `skills verify` checks.
pub fn of(skill: &DiscoveredSkill) -> Revision {
    let skill_file = (
        skill.skill_file.as_str(),
        skill.skill_file_bytes.len() as u64,
        skills_core::sha256::digest(&skill.skill_file_bytes),
    );
    content_revision(
        core::iter::once(skill_file).chain(skill.files.iter().map(|file| {
            (
                file.path.as_str(),
                file.bytes.len() as u64,
                skills_core::sha256::digest(&file.bytes),
            )
        })),
    )
}

/// The frontmatter `version`, if the skill file parsed and it is text
/// (what a signature covers, as agentskills-core reads it).
pub fn version(skill: &DiscoveredSkill) -> Option<&str> {
    skill.document.as_ref()?.frontmatter.text("version")
}

#[cfg(test)]
mod tests {
    use skills_build::source::MemorySource;
    use skills_build::unstable::discover::{Options, Root, discover};
    use skills_core::sha256::digest as sha256;
    use skills_core::trust::revision::content_revision;

    #[test]
    fn the_revision_covers_every_file_read() {
        let md = "---\nname: pdf\ndescription: Forms.\nversion: \"1.0.0\"\n---\n";
        let source = MemorySource::new("pdf")
            .with_file("SKILL.md", md)
            .with_file("a.md", "a");
        let found = discover(&[Root::new(&source)], &Options::default());
        let expected = content_revision([
            ("SKILL.md", md.len() as u64, sha256(md.as_bytes())),
            ("a.md", 1, sha256(b"a")),
        ]);
        assert_eq!(super::of(&found.skills[0]), expected);
        assert_eq!(super::version(&found.skills[0]), Some("1.0.0"));
    }
}
