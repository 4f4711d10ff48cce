//! The integration tests of `skills-mcp-server`, built as one binary (as ripgrep's
//! are): one module per former test file, and the support they share.

#[cfg(feature = "http")]
mod http;
mod listings;
mod replay;
mod stdio;
mod support;
mod vocabulary;
