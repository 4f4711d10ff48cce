//! [`SkillRead`]: what a call of the tool read, as host-only result
//! metadata on rig's tool context.

use rig_core::tool::ContextValue;
use serde::{Deserialize, Serialize};
use skills_runtime::ReadRecord;

/// What a successful call of [`SkillTool`](crate::SkillTool) read: the
/// skill, the file (empty for its instructions), how many bytes and their
/// SHA-256. The tool puts it in the call's result metadata
/// ([`ToolContext::insert_result`](rig_core::tool::ToolContext::insert_result)),
/// where the host's hooks read it (`context.result::<SkillRead>()`) to log
/// or audit exactly what the model saw; the model does not see it. It
/// serializes as the runtime's [`ReadRecord`] does (feature `serde`).
///
/// ```
/// use rig_core::tool::{Tool, ToolContext};
/// use skills_rig::{SkillRead, SkillTool};
///
/// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let tool = SkillTool::from_embedded(&SKILLS)?;
/// let mut context = ToolContext::new();
/// let args = serde_json::json!({"name": "pdf-forms", "path": "reference.md"});
/// tool.call(&mut context, args).await?;
/// let read: SkillRead = context.require_result()?;
/// assert_eq!((read.name.as_str(), read.path.as_str()), ("pdf-forms", "reference.md"));
/// assert_eq!(read.sha256.len(), 64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillRead {
    /// The skill's listed name.
    pub name: String,
    /// Where the skill lives, as the system prompt lists it.
    pub location: String,
    /// The file read, or empty for the skill's instructions.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// How many bytes were served.
    pub bytes: usize,
    /// The SHA-256 of the served bytes, in lowercase hex.
    pub sha256: String,
    /// The SHA-256 of the skill's frontmatter, in lowercase hex.
    pub frontmatter_sha256: String,
}

impl ContextValue for SkillRead {
    const KEY: &'static str = "skills.read";
}

impl From<ReadRecord<'_>> for SkillRead {
    fn from(read: ReadRecord<'_>) -> Self {
        SkillRead {
            name: read.name.into(),
            location: read.location.into(),
            path: read.path.into(),
            bytes: read.bytes,
            sha256: read.sha256.to_string(),
            frontmatter_sha256: read.frontmatter_sha256.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");

    #[test]
    fn serializes_as_the_runtimes_read_record() {
        let catalog = SKILLS.catalog().unwrap();
        for (name, path) in [("pdf-forms", None), ("pdf-forms", Some("assets/logo.png"))] {
            let read = catalog.call(name, path).unwrap().read;
            let ours = serde_json::to_value(SkillRead::from(read)).unwrap();
            assert_eq!(ours, serde_json::to_value(read).unwrap());
            let back: SkillRead = serde_json::from_value(ours).unwrap();
            assert_eq!(back, SkillRead::from(read));
        }
    }
}
