//! The Python 3.12 behaviour agentskills-core's texts depend on, reproduced
//! from fixed tables so the runtime gives its bytes without Python:
//! `str.isspace`/`strip`, `casefold`, `splitlines`, code-point lengths and
//! `mimetypes.guess_type` ([`pytext`]), over tables generated from CPython
//! 3.12 itself (`pytables`).

mod pytables;
pub mod pytext;
