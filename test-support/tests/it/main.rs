//! The integration tests of `test-support`, built as one binary (as ripgrep's
//! are): one module per former test file, and the support they share.

mod doc_bundles;
mod doc_skills;
