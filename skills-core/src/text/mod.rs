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

/// The estimated token cost of `text`: one token per four code points,
/// rounded up (agentskills-core's `estimate_tokens`): what an outline's
/// sections cost, and what the compiler's token budget lint counts.
///
/// ```
/// use skills_core::text::estimate_tokens;
/// assert_eq!([estimate_tokens(""), estimate_tokens("a"), estimate_tokens("abcd"), estimate_tokens("abcde")], [0, 1, 1, 2]);
/// assert_eq!(estimate_tokens("é"), 1);
/// ```
pub fn estimate_tokens(text: &str) -> u64 {
    (pytext::char_len(text) as u64).div_ceil(4)
}
