//! The reference command line's Python behaviour, reproduced so that
//! `agentskills validate | read-properties | to-prompt` answer byte for byte
//! as the reference does: click's parsing, usage errors and "Did you mean"
//! suggestions ([`click`], [`difflib`]), and the JSON Python writes of loaded YAML
//! ([`json`]). The Python emulation the library
//! needs (YAML, Unicode, `repr()`, `pathlib`) is `skills_build::python`; JSON text is
//! `skills_core::encoding::json`'s.

pub mod click;
pub mod difflib;
pub mod formatter;
pub mod json;
