//! The MCP Skills extension's per-skill limits: at most 512 files and
//! 16 MiB, the skill file included.
//!
//! The compiler checks them before it hashes or encodes a skill that the
//! other rule books passed (so a skill with errors is not also reported
//! for its size, and a skill over the limits is never encoded); the walk
//! already stops reading a skill whose files pass 16 MiB.

use skills_core::wire::bundle::{MAX_SKILL_BYTES, MAX_SKILL_FILES};

use crate::problem::{Code, Problem};

/// The problem of a skill of `files` files (its skill file counted) and
/// `bytes` bytes over the limits, if it is.
pub(crate) fn check(files: usize, bytes: u64) -> Result<(), Problem> {
    if files > MAX_SKILL_FILES {
        return Err(Problem::new(Code::SkillTooManyFiles, format!(
            "the skill has {files} files counting its skill file, over the MCP Skills extension's limit of {MAX_SKILL_FILES} files per skill"
        ))
        .with_hint("move files out of the skill, or split it in two"));
    }
    if bytes > MAX_SKILL_BYTES {
        return Err(Problem::new(Code::SkillTooLarge, format!(
            "the skill's files add up to {bytes} bytes counting its skill file, over the MCP Skills extension's limit of {MAX_SKILL_BYTES} bytes (16 MiB) per skill"
        ))
        .with_hint("move large files out of the skill, or split it in two"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_are_inclusive() {
        assert!(check(MAX_SKILL_FILES, MAX_SKILL_BYTES).is_ok());
        let files = check(MAX_SKILL_FILES + 1, 0).unwrap_err();
        assert_eq!(files.code, Code::SkillTooManyFiles);
        let bytes = check(1, MAX_SKILL_BYTES + 1).unwrap_err();
        assert_eq!(bytes.code, Code::SkillTooLarge);
    }
}
