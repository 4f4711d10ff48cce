//! Read, validate and compile Agent Skills at build time.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod allowed_tools;
pub mod frontmatter;
pub mod problem;
pub mod properties;
pub mod pyrepr;
pub mod pyunicode;
pub mod skill_dir;
pub mod skill_file;
pub mod source;
pub mod validate;
pub mod yaml;
