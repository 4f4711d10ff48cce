//! The integration tests of `skills-cmd`, built as one binary (as ripgrep's
//! are): one module per former test file, and the support they share.

mod cli_audit;
mod cli_authoring;
mod cli_commands;
mod cli_manners;
mod cli_mcp;
mod cli_new_user;
mod core_recorded;
mod default_verdicts;
mod hostile;
mod install;
mod long_builds;
mod one_gate;
mod pack;
mod reference_cli;
mod sarif;
mod scale;
mod served_bundle;
mod signature_records;
mod support;
