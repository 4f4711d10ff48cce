//! The Python reference validator's behaviour, reproduced byte for byte.
//!
//! The reference validator for Agent Skills (skills-ref 0.1.1, the
//! `agentskills` command) is a Python program: its verdicts and messages
//! come from strictyaml's reader, CPython 3.11's Unicode tables and string
//! methods, `repr()` and `pathlib`. skills-build promises the same verdicts
//! in the same words without Python, so this crate follows those
//! implementations step by step. It is emulation and nothing else: the
//! rules a skill must follow live in skills-build, which calls into it.
//!
//! - [`yaml`]: strictyaml 1.7.3 over ruamel.yaml's reader, scanner, parser
//!   and composer, with their error texts;
//! - [`unicode`]: CPython 3.11's `str.isalnum`, `str.isprintable`,
//!   `str.lower` and `unicodedata.normalize("NFKC")` over Unicode 14.0;
//! - [`repr`]: `repr()` of a `str`;
//! - [`pathlib`]: how `pathlib.Path` prints and names paths.
//!
//! ```
//! use skills_pycompat::{repr::repr_str, unicode::nfkc, yaml};
//! let doc = yaml::parse("name: ' ﬁle '\n").unwrap();
//! let yaml::Value::Map(entries) = &doc.value else { unreachable!() };
//! let yaml::Value::Str(name) = &entries[0].value.value else { unreachable!() };
//! assert_eq!(repr_str(&nfkc(name)), "' file '");
//! ```
//!
//! Every module is checked against outputs recorded from the Python tools
//! themselves (the workspace's `testdata/yaml/`, written by
//! `scripts/record/yaml.py`, and this crate's `testdata/unicode/`, written by
//! `scripts/gen/pyunicode.py`).
// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod pathlib;
pub mod repr;
pub mod unicode;
pub mod yaml;
