//! agentskills-core's catalog features, over a decoded bundle: the catalog
//! renderer ([`render`]: the default `<available_skills>` prompt, and with
//! options other shapes, filters and truncation) and that block for a plain
//! list ([`prompt`]); with the `agentskills` feature also outlines and
//! sections (`outline`), the single-skill fast path that puts a small body
//! in the prompt (`fastpath`), the MCP Skills extension's manifest
//! (`manifest`), resources listed by kind (`resources`) and the tool
//! vocabulary its texts name (`core_tools`).

#[cfg(feature = "agentskills")]
pub mod core_tools;
#[cfg(feature = "agentskills")]
pub mod fastpath;
#[cfg(feature = "agentskills")]
pub mod manifest;
#[cfg(feature = "agentskills")]
pub mod outline;
pub mod prompt;
pub mod render;
#[cfg(feature = "agentskills")]
pub mod resources;
