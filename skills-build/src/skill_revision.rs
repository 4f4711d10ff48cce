//! What a compiled skill records of its skill file, and its content
//! revision (agentskills-core's, over the skill file and every other file),
//! which signatures are made over and verification checks.

use skills_core::sha256::digest as sha256;
use skills_core::trust::revision::recorded_revision;
use skills_core::wire::bundle::{Bytes, Skill};

/// Records a compiled skill's skill file and content revision: its size and
/// SHA-256, its exact bytes when the frontmatter and body do not rebuild
/// them, and the content revision over it and the skill's files. Call it
/// after the skill's frontmatter, instructions and files are filled.
pub fn record_skill_file<'a>(skill: &mut Skill<'a>, raw: &'a [u8]) {
    let recorded = (raw.len() as u64, sha256(raw));
    (skill.skill_file_size, skill.skill_file_sha256) = recorded;
    skill.skill_file_bytes = None;
    // The pieces put together are the file, or the file is stored: a
    // comparison, not a second hash of the same bytes.
    let pieces = skills_core::trust::revision::skill_file_pieces(skill);
    let mut rest = raw;
    let same = pieces.iter().all(|piece| match rest.strip_prefix(*piece) {
        Some(after) => {
            rest = after;
            true
        }
        None => false,
    }) && rest.is_empty();
    if !same {
        skill.skill_file_bytes = Some(Bytes(raw));
    }
    skill.revision = recorded_revision(skill).0;
}

#[cfg(test)]
mod tests {

    #[test]
    fn records_the_skill_file_and_the_revision() {
        use skills_core::wire::bundle::Skill;
        let raw = b"---\nname: a\n---\nGo";
        let mut skill = Skill {
            frontmatter: "name: a\n",
            body_len: 2,
            instructions: "Go\n\nfiles: none\n",
            ..Skill::default()
        };
        crate::skill_revision::record_skill_file(&mut skill, raw);
        assert_eq!(skill.skill_file_bytes, None); // rebuilt from the frontmatter and body
        let crlf = b"---\r\nname: a\r\n---\r\nGo";
        crate::skill_revision::record_skill_file(&mut skill, crlf);
        assert_eq!(skill.skill_file_bytes.map(|b| b.0), Some(&crlf[..]));
        assert_eq!(skill.skill_file_size, crlf.len() as u64);
    }
}
