//! The integration tests of `skills-build`, built as one binary (as ripgrep's
//! are): one module per former test file, and the support they share.

mod archive;
mod bundle;
mod discovery;
mod hosts_recorded;
mod postcard_mirror;
mod reuse;
mod rule_codes;
mod signing;
mod support;
mod wire_format;
