//! Host profiles: the SKILL.md fields coding-agent hosts read beyond the
//! specification's six, for a project that says which hosts it targets.
//!
//! The reference verdict stays the default: without a profile, a key the
//! specification does not define is an unknown key, as skills-ref 0.1.1
//! says (only its help line names the host that reads it, when one does).
//! A project that targets hosts says so (`hosts = ["claude-code"]` in
//! `include_skills!`, [`Builder::host`](crate::Builder::host), `--host
//! claude-code`); then:
//!
//! - every field a chosen host documents is accepted **and type-checked**
//!   ([`fields`]): a bool that is `maybe`, `effort: extreme`, a `hooks`
//!   that is not the settings schema, `paths` that are not globs, tools
//!   that are not permission rules are located errors;
//! - a key no chosen host documents stays an unknown key, with "did you
//!   mean" for a near miss ([`advice`]);
//! - with several hosts, a note names the chosen hosts that ignore (or
//!   warn on) a field another one reads;
//! - under `codex`, the sidecar `agents/openai.yaml` is read and checked
//!   ([`sidecar`]), and `metadata.short-description`'s length;
//! - listing budgets warn with their numbers ([`budget`]).
//!
//! The facts per host, with their sources, are in `docs/hosts.md`.
//!
//! ```
//! use skills_build::Host;
//! let hosts: Vec<Host> = ["claude-code", "vscode"].iter().map(|id| id.parse().unwrap()).collect();
//! assert_eq!(hosts, [Host::ClaudeCode, Host::Vscode]);
//! assert!(Host::ClaudeCode.reads("model") && !Host::Vscode.reads("model"));
//! ```

pub mod advice;
pub mod budget;
pub mod fields;
mod profile;
pub mod sidecar;
mod values;

pub(crate) use profile::names;
pub use profile::{Host, Hosts, UnknownHost};
