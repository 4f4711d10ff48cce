//! Python 3.11 string semantics, pinned to Unicode 14.0.0.
//!
//! The reference validator (skills-ref 0.1.1) runs on CPython 3.11, whose `unicodedata` and
//! `str` methods use Unicode 14.0.0. It normalises a skill name with NFKC, then checks
//! `n != n.lower()`, `c.isalnum()` per character and uses `str.strip()`. Rust's `char` methods
//! follow a newer Unicode and other definitions (`char::is_alphanumeric` is the Alphabetic
//! property, `char::is_whitespace` leaves out U+001C..U+001F), so this module reimplements the
//! Python functions over tables generated from CPython 3.11.7 itself by
//! `scripts/gen/pyunicode.py` (see `tables.rs`). `str.isspace()` and
//! `str.strip()`, the same 29 code points in Python 3.11 and 3.12, are not
//! here but in `skills_core::text::pytext`, which the runtime needs too; this
//! module's tests check that one against every code point Python 3.11
//! recorded.
//!
//! Every function is exact to CPython 3.11.7 for every code point and string; the tests check
//! this against files recorded from Python under this crate's `testdata/unicode/`.

mod tables;
#[cfg(test)]
mod tests;

use std::cmp::Ordering;

/// Python's `c.isalnum()` for one character: its general category is L* or N* in Unicode 14.0.
///
/// ```
/// use skills_pycompat::unicode::is_alnum;
/// assert!(is_alnum('ß') && is_alnum('٣') && is_alnum('中'));
/// assert!(!is_alnum('\u{345}') && !is_alnum('Ⓐ') && !is_alnum('-'));
/// ```
pub fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    in_ranges(tables::ALNUM, c)
}

/// Python's `c.isprintable()` for one character, which `repr()` uses to decide what to
/// escape: false for categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than U+0020.
///
/// ```
/// use skills_pycompat::unicode::is_printable;
/// assert!(is_printable(' ') && is_printable('é') && is_printable('\u{301}'));
/// assert!(!is_printable('\n') && !is_printable('\u{a0}') && !is_printable('\u{200b}'));
/// ```
pub fn is_printable(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, ' '..='~');
    }
    in_ranges(tables::PRINTABLE, c)
}

/// Python's `s != s.lower()`: whether full lowercasing (with special casing such as
/// U+0130 `İ` → `i̇`, and final sigma) changes `s`.
///
/// ```
/// use skills_pycompat::unicode::changes_when_lowercased;
/// assert!(changes_when_lowercased("My-skill") && changes_when_lowercased("\u{130}"));
/// assert!(!changes_when_lowercased("straße-٣") && !changes_when_lowercased("ς"));
/// ```
pub fn changes_when_lowercased(s: &str) -> bool {
    // Python lowercases character by character; only U+03A3 looks at its context (final
    // sigma), and it becomes σ or ς, both different from Σ. So `s.lower()` is the concatenation
    // of per-character lowercasings, each either the character itself or a nonempty string
    // that does not start with it (the generator asserts this for every code point and also
    // checks `s != s.lower()` against this predicate with context around each character).
    // If any character changes, the first one that does makes the two strings differ at its
    // position; if none does, `s.lower() == s`. Hence the per-character test is exact.
    s.chars().any(|c| {
        if c.is_ascii() {
            c.is_ascii_uppercase()
        } else {
            lower_changes(c)
        }
    })
}

/// `unicodedata.combining(c)`: the canonical combining class of `c`, 0 for a starter (a
/// letter, a digit, a space) and nonzero for a mark that attaches to the character before it.
///
/// ```
/// use skills_pycompat::unicode::combining;
/// assert_eq!(combining('a'), 0);
/// assert_eq!(combining('\u{301}'), 230);
/// assert_eq!(combining('\u{307}'), 230);
/// ```
pub fn combining(c: char) -> u8 {
    ccc(c)
}

/// `unicodedata.normalize("NFKC", s)` with Unicode 14.0.0 data, as CPython 3.11 computes it.
///
/// Full compatibility decomposition (Hangul syllables algorithmically), canonical ordering
/// by combining class, then canonical composition (primary composites only, Hangul
/// algorithmically).
///
/// ```
/// use skills_pycompat::unicode::nfkc;
/// assert_eq!(nfkc("\u{fb03}x"), "ffix");
/// assert_eq!(nfkc("\u{2126}"), "\u{3a9}");
/// assert_eq!(nfkc("Ｓｋｉｌｌ"), "Skill");
/// assert_eq!(nfkc("e\u{301}"), "é");
/// assert_eq!(nfkc("\u{1100}\u{1161}\u{11a8}"), "각");
/// ```
pub fn nfkc(s: &str) -> String {
    if s.is_ascii() {
        return s.to_owned();
    }
    let mut buf: Vec<(char, u8)> = Vec::with_capacity(s.len());
    for c in s.chars() {
        decompose(c, &mut buf);
    }
    canonical_order(&mut buf);
    compose(&buf)
}

const S_BASE: u32 = 0xAC00;
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const L_COUNT: u32 = 19;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;
const N_COUNT: u32 = V_COUNT * T_COUNT;
const S_COUNT: u32 = L_COUNT * N_COUNT;

/// Whether `c` lies in one of the sorted, disjoint inclusive `ranges`.
fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    find_range(ranges, u32::from(c), |&(start, end)| (start, end)).is_some()
}

/// The entry of the sorted, disjoint inclusive `ranges` (whose bounds
/// `bounds` gives) that holds `cp`.
fn find_range<T>(ranges: &[T], cp: u32, bounds: impl Fn(&T) -> (u32, u32)) -> Option<&T> {
    let at = ranges
        .binary_search_by(|entry| {
            let (start, end) = bounds(entry);
            if end < cp {
                Ordering::Less
            } else if start > cp {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .ok()?;
    ranges.get(at)
}

/// Whether `c.lower() != c` in Python.
fn lower_changes(c: char) -> bool {
    let cp = u32::from(c);
    // The last run starting at or before `cp`.
    let n = tables::LOWER_CHANGES.partition_point(|&(start, _, _)| start <= cp);
    match n.checked_sub(1).and_then(|i| tables::LOWER_CHANGES.get(i)) {
        Some(&(start, end, step)) => cp <= end && (cp - start) % u32::from(step.max(1)) == 0,
        None => false,
    }
}

/// The canonical combining class of `c` (`unicodedata.combining`).
fn ccc(c: char) -> u8 {
    let cp = u32::from(c);
    if cp < 0x300 {
        return 0;
    }
    find_range(tables::CCC, cp, |&(start, end, _)| (start, end)).map_or(0, |&(_, _, class)| class)
}

/// Appends the full compatibility decomposition of `c`, with combining classes, to `out`.
fn decompose(c: char, out: &mut Vec<(char, u8)>) {
    let cp = u32::from(c);
    if c.is_ascii() {
        out.push((c, 0));
        return;
    }
    if let Some(s_index) = cp.checked_sub(S_BASE).filter(|&i| i < S_COUNT) {
        let l = L_BASE + s_index / N_COUNT;
        let v = V_BASE + (s_index % N_COUNT) / T_COUNT;
        let t = T_BASE + s_index % T_COUNT;
        for jamo in [l, v] {
            out.extend(char::from_u32(jamo).map(|j| (j, 0)));
        }
        if t != T_BASE {
            out.extend(char::from_u32(t).map(|j| (j, 0)));
        }
        return;
    }
    match tables::DECOMP.binary_search_by_key(&cp, |&(key, _)| key) {
        Ok(i) => {
            if let Some(&(_, d)) = tables::DECOMP.get(i) {
                out.extend(d.chars().map(|d| (d, ccc(d))));
            }
        }
        Err(_) => out.push((c, ccc(c))),
    }
}

/// Sorts each run of non-starters by combining class, stably (the canonical ordering
/// algorithm).
fn canonical_order(buf: &mut [(char, u8)]) {
    let mut i = 0;
    while i < buf.len() {
        if buf.get(i).is_some_and(|&(_, class)| class != 0) {
            let run = buf.get(i..).map_or(0, |rest| {
                rest.iter().take_while(|&&(_, class)| class != 0).count()
            });
            if let Some(slice) = buf.get_mut(i..i + run) {
                slice.sort_by_key(|&(_, class)| class);
            }
            i += run.max(1);
        } else {
            i += 1;
        }
    }
}

/// The canonical composition algorithm over a canonically ordered decomposition.
fn compose(buf: &[(char, u8)]) -> String {
    let mut out: Vec<char> = Vec::with_capacity(buf.len());
    // Index in `out` of the last starter, if a composition with it is still possible.
    let mut starter: Option<usize> = None;
    // Combining class of the last character kept after the starter; `None` when the starter is
    // the last character of `out`. A character is blocked from the starter iff this is
    // `Some(class)` with `class >= ` its own class (so a starter is blocked by anything).
    let mut last_class: Option<u8> = None;
    for &(c, class) in buf {
        if let Some(slot) = starter.and_then(|i| out.get_mut(i)) {
            let blocked = last_class.is_some_and(|last| last >= class);
            if !blocked && let Some(composite) = compose_pair(*slot, c) {
                *slot = composite;
                continue;
            }
        }
        if class == 0 {
            starter = Some(out.len());
            last_class = None;
        } else {
            last_class = Some(class);
        }
        out.push(c);
    }
    out.into_iter().collect()
}

/// The primary composite of `first` and `second`, if there is one.
fn compose_pair(first: char, second: char) -> Option<char> {
    let (a, b) = (u32::from(first), u32::from(second));
    if let (Some(l), Some(v)) = (
        a.checked_sub(L_BASE).filter(|&l| l < L_COUNT),
        b.checked_sub(V_BASE).filter(|&v| v < V_COUNT),
    ) {
        return char::from_u32(S_BASE + (l * V_COUNT + v) * T_COUNT);
    }
    if let (Some(s), Some(t)) = (
        a.checked_sub(S_BASE)
            .filter(|&s| s < S_COUNT && s % T_COUNT == 0),
        b.checked_sub(T_BASE).filter(|&t| t > 0 && t < T_COUNT),
    ) {
        return char::from_u32(S_BASE + s + t);
    }
    let i = tables::COMPOSE
        .binary_search_by(|&(x, y, _)| (x, y).cmp(&(a, b)))
        .ok()?;
    tables::COMPOSE
        .get(i)
        .and_then(|&(_, _, composite)| char::from_u32(composite))
}
