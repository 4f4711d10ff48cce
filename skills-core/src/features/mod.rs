//! agentskills-core's catalog features, over a decoded bundle: the catalog
//! renderer ([`render`], the default `<available_skills>` prompt
//! included, and [`prompt`] for a plain list), outlines and sections
//! ([`outline`]), the single-skill fast path that puts a small body in
//! the prompt ([`fastpath`]), the MCP Skills extension's manifest
//! ([`manifest`]), resources listed by kind ([`resources`]) and the tool
//! vocabulary its texts name ([`core_tools`]).

pub mod core_tools;
pub mod fastpath;
pub mod manifest;
pub mod outline;
pub mod prompt;
pub mod render;
pub mod resources;
