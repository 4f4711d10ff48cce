//! Python's behaviour, reproduced byte for byte where the reference tools'
//! output depends on it.
//!
//! The reference validator (skills-ref 0.1.1) is a Python program: its
//! verdicts and messages come from strictyaml's reader, CPython 3.11's
//! Unicode tables and string methods, and `repr()`. To give the same
//! answers without Python, the modules here follow those implementations
//! step by step; they are emulation, kept apart from the product's own rules
//! (which live beside this folder and call into it):
//!
//! - [`yaml`]: strictyaml 1.7.3 over ruamel.yaml's reader, scanner, parser
//!   and composer, with their error texts;
//! - [`unicode`]: CPython 3.11's `isalnum`, `isprintable`, `lower` and NFKC
//!   (Unicode 14.0), and `isspace`/`strip` (the same in 3.12, from
//!   skills-core);
//! - [`repr`]: `repr()` of a string;
//! - [`pathlib`]: how `pathlib` prints and names paths.
//!
//! ```
//! use skills_build::python::{repr::repr_str, unicode::strip, yaml};
//! let doc = yaml::parse("name: ' it''s '\n").unwrap();
//! let yaml::Value::Map(entries) = &doc.value else { unreachable!() };
//! let yaml::Value::Str(name) = &entries[0].value.value else { unreachable!() };
//! assert_eq!(repr_str(strip(name)), "\"it's\"");
//! ```

pub mod pathlib;
pub mod repr;
pub mod unicode;
pub mod yaml;
