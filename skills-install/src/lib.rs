//! Installing the skills a program embeds where coding agents read them.
//! Programs reach it through the runtime, as `skills_runtime::install`
//! (feature `install`); the `skills` CLI uses it directly.
//!
//! Coding agents (Claude Code, Codex, Cursor, Gemini CLI, GitHub Copilot,
//! OpenCode and 33 more: [`agents::AGENTS`]) read skills from
//! `<dir>/<name>/SKILL.md`, in a project folder and a user folder each. An
//! [`Installer`] writes the skills a program embeds into those folders,
//! byte for byte, keeps a record of what it wrote, and on the next run
//! tells an outdated copy (replaced) from one the user edited (a conflict:
//! never overwritten without `force`).
//!
//! # In one line: `mytool skill ...`
//!
//! ```no_run
//! # static SKILLS: skills_core::Embedded = skills_core::Embedded::new(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/skills.bin")));
//! // static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("skills");
//!
//! fn main() {
//!     // `mytool skill install|status|uninstall|list ...` is handled here
//!     // (and exits); any other command line goes on.
//!     skills_install::Installer::new(&SKILLS)
//!         .tool_name("mytool")
//!         .version(env!("CARGO_PKG_VERSION"))
//!         .refresh_on_start(true)
//!         .intercept();
//!     // ... the rest of mytool
//! }
//! ```
//!
//! `mytool skill install` then installs for the default agents (Claude Code
//! and Codex, whose project folders `.claude/skills` and `.agents/skills`
//! reach eight agents) in the project (the nearest folder above with
//! `.git`); `--agent ID` (repeatable, or `all`), `--scope user`,
//! `--dry-run`, `--force`, `--link`, `--json`; `mytool skill --help` says
//! it all. Exit codes: 0 done, 1 conflicts or problems, 2 usage.
//! `mytool skill status` names, per skill, the command that resolves its
//! state; `--check` exits 1 when an installed copy is not exactly the
//! skill's files (for CI, where copies are committed).
//!
//! # Refresh on upgrade
//!
//! With [`refresh_on_start`](Installer::refresh_on_start), any other
//! command line first runs [`Installer::refresh`]: where this tool
//! installed skills, each copy whose recorded revision is not the embedded
//! one and that no one changed is updated through the same plan and apply
//! as an install; an edited one is kept and said so once per version. When
//! nothing changed it reads one record per scope and no installed file.
//!
//! # With clap
//!
//! With the `clap` feature, [`SkillCommand`] is the same subcommand as a
//! `clap::Subcommand`:
//!
//! ```ignore
//! #[derive(clap::Parser)]
//! enum Cli {
//!     /// Install this tool's skills into coding agents.
//!     #[command(subcommand)]
//!     Skill(skills_install::SkillCommand),
//!     Run { file: String },
//! }
//!
//! match <Cli as clap::Parser>::parse() {
//!     Cli::Skill(command) => std::process::exit(installer.run_command(&command)),
//!     Cli::Run { file } => run(file),
//! }
//! ```
//!
//! # As a library
//!
//! [`Installer::plan`] says what would happen (per folder and skill: the
//! state, the files added, replaced and removed, every conflict) and
//! writes nothing; [`Installer::apply`] carries a plan out;
//! [`Installer::status`], [`Installer::uninstall`] and
//! [`Installer::refresh`] do the rest. See
//! [`Installer`] for an example, and `docs/install.md` for the guide.
// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod agents;
mod apply;
mod aside;
#[cfg(feature = "clap")]
mod clap_command;
mod command;
mod dir;
mod env;
mod error;
mod faults;
mod folder;
mod installer;
mod journal;
mod lock;
mod names;
mod ops;
mod owned;
mod payload;
mod place;
mod plan;
pub mod record;
mod refresh;
mod report;
mod runs;
mod scope;
mod state;
mod status;
mod target;
mod told;
mod tree;

#[cfg(feature = "clap")]
pub use clap_command::SkillCommand;
pub use command::{Action, ParseOutcome, Request};
pub use env::{Environment, VARIABLES};
pub use error::{InstallError, Problem};
#[cfg(feature = "test-faults")]
#[doc(hidden)]
pub use faults::{Fault, Swap};
pub use folder::{Folder, FolderPolicy};
pub use installer::{Installer, Skills};
pub use payload::is_executable;
pub use plan::{
    Change, Conflict, ConflictKind, DirPlan, FileAction, FileChange, Operation, Plan, SkillPlan,
    State,
};
pub use refresh::{Kept, Refreshed};
pub use scope::Scope;
pub use status::{Difference, DifferenceKind, DirStatus, SkillStatus, Status};
pub use target::{Agents, Layout, Target, UnknownAgent, project_root};
