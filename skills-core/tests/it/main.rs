//! The integration tests of `skills-core`, built as one binary (as ripgrep's
//! are): one module per former test file, and the support they share.

mod decode;
mod robustness;
mod support;
mod tool;
mod verify;
