//! Read, validate and compile Agent Skills at build time.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod pyunicode;
pub mod yaml;
