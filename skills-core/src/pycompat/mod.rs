//! The Python 3.12 behaviour agentskills-core's texts depend on, reproduced
//! from fixed tables so the runtime gives its bytes without Python:
//! `str.isspace`/`strip`, `casefold`, `splitlines`, code-point lengths and
//! `mimetypes.guess_type` ([`pytext`]), over tables generated from CPython
//! 3.12 itself (`pytables`); and `difflib.get_close_matches` ([`difflib`]),
//! for naming close skills and click's suggestions.

pub mod difflib;
mod pytables;
pub mod pytext;
