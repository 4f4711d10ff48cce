//! The integration tests of `ship-skills`, built as one binary (as ripgrep's
//! are): one module per former test file, and the support they share.

mod cli;
mod support;
mod upgrade;
