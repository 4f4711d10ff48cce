//! Agent Skills compiled into your binary, for the [rig] agent framework:
//! the `skill` tool as a rig tool ([`SkillTool`]) served from a
//! [`skills_runtime::Catalog`], and the skills' system prompt in the
//! agent's preamble ([`SkillsAgentExt::skills`]).
//!
//! ```no_run
//! use rig_agent::AgentBuilder;
//! use rig_core::providers::openai::OpenAIConfig;
//! use skills_rig::{SkillTool, SkillsAgentExt};
//!
//! // Validated at compile time and embedded: no IO at run time.
//! static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("doc-skills");
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let model = OpenAIConfig::from_env()?.client().chat("gpt-5-mini");
//! let agent = AgentBuilder::new(model)
//!     .preamble("You are a helpful assistant.")
//!     .skills(SkillTool::from_embedded(&SKILLS)?) // the tool, and <available_skills> in the preamble
//!     .default_max_turns(16)
//!     .build();
//! let answer = agent.prompt("Fill in the form in form.pdf").await?;
//! println!("{}", answer.output());
//! # Ok(())
//! # }
//! ```
//!
//! With the `rig` facade crate these are the same types: `rig::AgentBuilder`,
//! `rig::tool::Tool`, `rig::providers::openai`.
//!
//! The model reads a skill's instructions with `{"name": "pdf-forms"}` and a
//! file with `{"name": "pdf-forms", "path": "reference.md"}`; every call is
//! one model turn, so give the agent a turn budget
//! (`default_max_turns`, or `max_turns` per prompt) that leaves room for
//! them. A refusal (an unknown skill, a bad path) is the tool's text for
//! the model and the loop goes on; see [`SkillTool`] for what each reply
//! becomes and [`SkillRead`] for the record the host gets of each read.
//!
//! A program that talks to a provider's HTTP API without a framework uses
//! `skills_runtime::providers` instead (feature `json`).
//!
//! This crate brings no HTTP client: the application chooses rig's (its
//! `reqwest` feature) or its own.
//!
//! [rig]: https://crates.io/crates/rig-core
// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(feature = "document-features", doc = "# Features")]
#![cfg_attr(feature = "document-features", doc = "")]
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "agent")]
mod agent;
mod read;
mod tool;

#[cfg(feature = "agent")]
pub use agent::SkillsAgentExt;
pub use read::SkillRead;
pub use tool::SkillTool;
