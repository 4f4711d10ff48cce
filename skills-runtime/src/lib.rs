//! Serve Agent Skills that were compiled into the binary.
//!
//! This crate is filled in by the bundle work; for now it only holds the
//! HTML escaping and the `<available_skills>` prompt renderer shared with
//! the `skills` CLI.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

pub mod prompt;
