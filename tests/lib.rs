//! Cross-crate tests for the skills workspace; the tests are in `ui.rs`.
