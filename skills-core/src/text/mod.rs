//! Text as Python 3.12 treats it, reproduced from fixed tables so the
//! runtime gives agentskills-core's bytes without Python:
//! `str.isspace`/`strip`, `casefold`, `splitlines`, code-point lengths and
//! `mimetypes.guess_type` ([`pytext`]), over tables generated from CPython
//! 3.12 itself (`pytables`); and `difflib.get_close_matches` ([`difflib`]),
//! for naming close skills and click's suggestions.
//!
//! (The `skills-pycompat` crate is another thing: the reference
//! validator's Python 3.11 behaviour, strictyaml and all, which only the
//! compiler needs.)

pub mod difflib;
mod pytables;
pub mod pytext;
