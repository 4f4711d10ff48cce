//! `metadata` keys under `io.modelcontextprotocol/`: the MCP Skills
//! extension (SEP-2640) reserves that prefix of `metadata` for the
//! protocol's own use, so an author's key there may mean something else
//! to a host tomorrow.

use skills_pycompat::yaml::Value;

use super::findings::Findings;
use super::skill::Skill;
use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Problem};

/// The prefix SEP-2640 reserves.
const RESERVED: &str = "io.modelcontextprotocol/";

/// One finding per `metadata` key under [`RESERVED`].
pub(super) fn metadata_keys(
    skill: &Skill<'_>,
    document: &SkillDocument,
    findings: &mut Findings<'_>,
) {
    if !findings.wants(Code::MetadataReservedPrefix) {
        return;
    }
    let Some(Value::Map(entries)) = document.frontmatter.get("metadata").map(|e| &e.value.value)
    else {
        return;
    };
    for entry in entries.iter().filter(|e| e.key.starts_with(RESERVED)) {
        findings.push(
            Problem::new(
                Code::MetadataReservedPrefix,
                format!(
                    "metadata key {:?} is under {RESERVED}, which the MCP Skills extension reserves",
                    entry.key
                ),
            )
            .with_field("metadata")
            .with_hint("name it without the prefix, or under a prefix of your own (`com.example/...`)"),
            skill.file_location.to_string(),
            Some(SkillDocument::position(entry.key_mark)),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::content::tests::codes;

    #[test]
    fn keys_under_the_reserved_prefix_are_refused() {
        let md = "---\nname: x\ndescription: Does x. Use when testing.\nmetadata:\n  io.modelcontextprotocol/skills: yes\n  io.modelcontextprotocol.other: ok\n  owner: me\n---\nBody.\n";
        assert_eq!(codes(md, &[]), ["metadata-reserved-prefix"]);
        let fine = "---\nname: x\ndescription: Does x. Use when testing.\nmetadata:\n  com.example/skills: yes\n---\nBody.\n";
        assert!(codes(fine, &[]).is_empty());
    }
}
