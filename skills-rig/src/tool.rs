//! [`SkillTool`]: the `skill` tool as a rig tool, served from a catalog.

use rig_core::message::{ImageMediaType, MimeType, ToolResultContent};
use rig_core::tool::{Tool, ToolContext, ToolErrorKind, ToolExecutionError, ToolOutput};
use skills_runtime::{Catalog, DecodeError, Embedded, Reply, Served, ToolError};

use crate::read::SkillRead;

/// The `skill` tool for rig: the model calls it with a skill's name (and a
/// path for one of its files), and it answers from a [`Catalog`] of skills
/// compiled into the binary, with no IO.
///
/// - The instructions and text files are text.
/// - An image file is an image block ([`ToolResultContent::Image`]), which
///   rig passes on in each provider's own form; an image of a media type
///   rig does not know is a text saying what was served.
/// - A refusal (an unknown skill, a path outside the skill or not in it, a
///   file that is neither text nor an image, arguments that are not the
///   tool's) is the tool's text for the model, [`ToolError`]'s wording: rig
///   sends it as a failed tool result (`is_error` where the provider has
///   one) and the agent's loop goes on, so the model can correct itself.
/// - What was read ([`SkillRead`]: skill, file, size, SHA-256) is put in
///   the call's result metadata for the host's hooks; the model does not
///   see it.
///
/// ```
/// use rig_core::tool::{Tool, ToolContext};
/// use skills_rig::SkillTool;
///
/// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let tool = SkillTool::from_embedded(&SKILLS)?;
/// assert_eq!(<SkillTool as Tool>::NAME, "skill");
/// let mut context = ToolContext::new();
/// let output = tool.call(&mut context, serde_json::json!({"name": "git-rebase"})).await?;
/// assert_eq!(output.as_text(), tool.catalog().call("git-rebase", None)?.reply.as_text());
/// let refusal = tool.call(&mut context, serde_json::json!({"name": "nope"})).await.unwrap_err();
/// assert!(refusal.to_string().starts_with(r#"unknown skill "nope""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SkillTool {
    catalog: &'static Catalog<'static>,
}

impl SkillTool {
    /// The tool over `catalog`. A catalog of embedded skills is `'static`
    /// ([`Embedded::catalog`]); one over bytes read at run time needs bytes
    /// and catalog that live as long as the agent (leaked, or in a
    /// `static` `OnceLock`).
    ///
    /// ```
    /// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
    /// let tool = skills_rig::SkillTool::new(SKILLS.catalog()?);
    /// assert_eq!(tool.catalog().len(), 3);
    /// # Ok::<(), skills_runtime::DecodeError>(())
    /// ```
    pub fn new(catalog: &'static Catalog<'static>) -> Self {
        SkillTool { catalog }
    }

    /// The tool over the skills `include_skills!` (or `include_bundle!`)
    /// embedded; an error if their bundle does not decode.
    ///
    /// ```
    /// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
    /// let tool = skills_rig::SkillTool::from_embedded(&SKILLS)?;
    /// assert!(tool.catalog().lookup("pdf-forms").is_some());
    /// # Ok::<(), skills_runtime::DecodeError>(())
    /// ```
    pub fn from_embedded(skills: &'static Embedded) -> Result<Self, DecodeError> {
        Ok(SkillTool::new(skills.catalog()?))
    }

    /// The catalog the tool serves, for the system prompt
    /// ([`Catalog::system_prompt`]) and the host's own lookups.
    ///
    /// ```
    /// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
    /// let tool = skills_rig::SkillTool::from_embedded(&SKILLS)?;
    /// assert!(tool.catalog().system_prompt().starts_with("<available_skills>"));
    /// # Ok::<(), skills_runtime::DecodeError>(())
    /// ```
    pub fn catalog(&self) -> &'static Catalog<'static> {
        self.catalog
    }
}

impl Tool for SkillTool {
    const NAME: &'static str = skills_core::TOOL_NAME;
    /// The model's arguments, `{"name": ..., "path": ...}`, read by the
    /// catalog's own parser (`Catalog::call_json`), with its verdicts and
    /// wording.
    type Args = serde_json::Value;
    type Output = ToolOutput;
    type Error = ToolError;

    /// The bundle's tool description.
    fn description(&self) -> String {
        self.catalog.tool_definition().description.into()
    }

    /// The bundle's schema ([`skills_runtime::ToolDefinition::schema`]).
    fn parameters(&self) -> serde_json::Value {
        self.catalog.tool_definition().schema()
    }

    /// The refusal's text for the model (what it repeats of the call
    /// capped, [`ToolError::with_echo_capped`]), with a kind for the host's
    /// policy and telemetry: arguments and paths are `InvalidArgs`, an
    /// unknown skill or file `NotFound`, anything else `Other`; none is
    /// worth retrying as it was.
    fn map_error(&self, error: ToolError) -> ToolExecutionError {
        let kind = match error {
            ToolError::InvalidArguments { .. } | ToolError::InvalidPath { .. } => {
                ToolErrorKind::InvalidArgs
            }
            ToolError::UnknownSkill { .. } | ToolError::NoSuchFile { .. } => {
                ToolErrorKind::NotFound
            }
            _ => ToolErrorKind::Other,
        };
        // What the text repeats of the call (a name, a path) is capped, as
        // the providers' results and the MCP server cap it.
        let error = error.with_echo_capped();
        ToolExecutionError::new(kind, error.to_string())
            .with_retryable(false)
            .with_source(error)
    }

    async fn call(
        &self,
        context: &mut ToolContext,
        args: serde_json::Value,
    ) -> Result<ToolOutput, ToolError> {
        let served = self.catalog.call_json(&args.to_string())?;
        // Metadata that does not encode is only a record the host misses,
        // never a reason to keep the reply from the model.
        let _ = context.insert_result(SkillRead::from(served.read));
        Ok(output(&served))
    }
}

/// What the model gets for a successful call.
fn output(served: &Served<'_>) -> ToolOutput {
    match served.reply {
        Reply::Text(text) => ToolOutput::text(text),
        Reply::Image(image) => match ImageMediaType::from_mime_type(image.media_type) {
            Some(media_type) => ToolOutput::one(ToolResultContent::image_base64(
                image.base64(),
                Some(media_type),
                None,
            )),
            None => ToolOutput::text(format!(
                "file {:?} is an image ({}, {} bytes), which this agent cannot pass on",
                served.read.path,
                image.media_type,
                image.bytes.len()
            )),
        },
        // A reply of a kind added after this crate was written.
        _ => ToolOutput::text(format!(
            "file {:?} was served in a form this agent cannot pass on",
            served.read.path
        )),
    }
}
