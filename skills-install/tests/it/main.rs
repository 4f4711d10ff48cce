//! The integration tests of `skills-install`, built as one binary (as ripgrep's
//! are): one module per former test file, and the support they share.

mod install;
mod install_agents;
mod install_races;
mod install_refresh;
mod install_review;
mod install_status;
mod install_support;
mod install_trust;
