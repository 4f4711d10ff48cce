//! [`SkillsAgentExt`]: the skills on rig's classic agent builder (feature
//! `agent`).

use rig_agent::AgentBuilder;
use rig_agent::agent::{NoToolConfig, WithBuilderTools};
use skills_runtime::Catalog;

use crate::SkillTool;

/// Skills on a rig [`AgentBuilder`]: the `skill` tool, and the system
/// prompt that lists the skills (`<available_skills>`) and says how to use
/// the tool.
///
/// The prompt is appended with rig's own
/// [`append_preamble`](AgentBuilder::append_preamble): after a preamble set
/// before it, on the next line. An agent built over a shared tool server
/// (`tool_server_handle`) registers [`SkillTool`] on that server and takes
/// the prompt with `append_preamble(&catalog.system_prompt())`.
///
/// ```
/// use rig_agent::AgentBuilder;
/// use rig_core::{DynModel, operation::Completion};
/// use skills_rig::{SkillTool, SkillsAgentExt};
///
/// static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
///
/// fn agent(model: DynModel<Completion>) -> Result<rig_agent::Agent, skills_runtime::DecodeError> {
///     Ok(AgentBuilder::new(model)
///         .preamble("You are a helpful assistant.")
///         .skills(SkillTool::from_embedded(&SKILLS)?)
///         .default_max_turns(16) // every call of `skill` is a turn
///         .build())
/// }
/// ```
pub trait SkillsAgentExt: Sized {
    /// The builder once it has tools.
    type WithTools;

    /// Adds `tool` to the agent and appends its catalog's system prompt to
    /// the preamble.
    fn skills(self, tool: SkillTool) -> Self::WithTools;

    /// Appends `catalog`'s system prompt to the preamble, for an agent that
    /// gets the tool some other way.
    fn skills_preamble(self, catalog: &Catalog<'_>) -> Self;
}

impl SkillsAgentExt for AgentBuilder<NoToolConfig> {
    type WithTools = AgentBuilder<WithBuilderTools>;

    fn skills(self, tool: SkillTool) -> Self::WithTools {
        self.skills_preamble(tool.catalog()).tool(tool)
    }

    fn skills_preamble(self, catalog: &Catalog<'_>) -> Self {
        self.append_preamble(&catalog.system_prompt())
    }
}

impl SkillsAgentExt for AgentBuilder<WithBuilderTools> {
    type WithTools = Self;

    fn skills(self, tool: SkillTool) -> Self::WithTools {
        self.skills_preamble(tool.catalog()).tool(tool)
    }

    fn skills_preamble(self, catalog: &Catalog<'_>) -> Self {
        self.append_preamble(&catalog.system_prompt())
    }
}
