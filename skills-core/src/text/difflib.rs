//! Which names are close to a mistyped one: Python's
//! `difflib.get_close_matches`, whose similarity (twice the matched
//! characters over both lengths, matching longest common runs first) and
//! cutoff (0.6) are what click's "Did you mean" and the `skill` tool's
//! suggestions for an unknown skill both use.
//!
//! The two cheap upper bounds difflib checks first (the lengths alone,
//! then the characters in common, in any order) rule out most candidates
//! before the exact ratio is computed, so a catalog of tens of thousands of
//! names is searched quickly.

use alloc::vec::Vec;

/// The least similarity a close name has (difflib's default cutoff).
pub const CUTOFF: f64 = 0.6;

/// The best (at most `n`) `candidates` whose similarity to `word` is at
/// least [`CUTOFF`], best first; ties go to the later name in byte order,
/// as difflib breaks them.
///
/// ```
/// use skills_core::text::difflib::close_matches;
/// let names = ["pdf-forms", "git-rebase", "pdf", "csv-report"];
/// assert_eq!(close_matches("pdf-form", names, 3), ["pdf-forms"]);
/// assert_eq!(close_matches("pdff", names, 3), ["pdf", "pdf-forms"]);
/// assert!(close_matches("zzz", names, 3).is_empty());
/// ```
pub fn close_matches<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    n: usize,
) -> Vec<&'a str> {
    let b: Vec<char> = word.chars().collect();
    let mut b_sorted = b.clone();
    b_sorted.sort_unstable();
    // Each candidate's cheap upper bound (lengths, then characters in
    // common); those that cannot reach the cutoff are left out.
    let mut a_sorted = Vec::new();
    let mut bounded: Vec<(f64, &str)> = Vec::new();
    for candidate in candidates {
        let length = candidate.chars().count();
        let total = length + b.len();
        if bound(length.min(b.len()), total) < CUTOFF {
            continue;
        }
        a_sorted.clear();
        a_sorted.extend(candidate.chars());
        a_sorted.sort_unstable();
        let upper = bound(common(&a_sorted, &b_sorted), total);
        if upper >= CUTOFF {
            bounded.push((upper, candidate));
        }
    }
    // The exact ratio, highest bound first, until no bound left can beat
    // the n-th best ratio found: the same names, in a catalog of tens of
    // thousands of similar names, at a fraction of the ratios.
    bounded.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut a = Vec::new();
    let mut scored: Vec<(f64, &str)> = Vec::new();
    for (upper, candidate) in bounded {
        if scored.len() >= n && n > 0 && upper < scored[n - 1].0 {
            break;
        }
        a.clear();
        a.extend(candidate.chars());
        let score = ratio(&a, &b);
        if score >= CUTOFF {
            let at = scored.partition_point(|kept| better(*kept, (score, candidate)));
            scored.insert(at, (score, candidate));
        }
    }
    scored.into_iter().take(n).map(|(_, name)| name).collect()
}

/// Whether `x` ranks before `y`: a higher ratio, or the same ratio and the
/// later name in byte order (difflib's order).
fn better(x: (f64, &str), y: (f64, &str)) -> bool {
    match x.0.total_cmp(&y.0) {
        core::cmp::Ordering::Greater => true,
        core::cmp::Ordering::Less => false,
        core::cmp::Ordering::Equal => x.1 > y.1,
    }
}

/// `2 * matched / total`, and 1 for two empty strings, as difflib says.
fn bound(matched: usize, total: usize) -> f64 {
    if total == 0 {
        1.0
    } else {
        2.0 * matched as f64 / total as f64
    }
}

/// How many characters two sorted sequences have in common (as multisets).
fn common(a: &[char], b: &[char]) -> usize {
    let (mut i, mut j, mut count) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            core::cmp::Ordering::Less => i += 1,
            core::cmp::Ordering::Greater => j += 1,
            core::cmp::Ordering::Equal => {
                count += 1;
                i += 1;
                j += 1;
            }
        }
    }
    count
}

/// `SequenceMatcher(None, a, b).ratio()`: twice the characters matched by
/// longest common runs (found recursively left and right of each) over the
/// total length.
fn ratio(a: &[char], b: &[char]) -> f64 {
    let mut matched = 0;
    let mut queue = Vec::from([(0, a.len(), 0, b.len())]);
    while let Some((alo, ahi, blo, bhi)) = queue.pop() {
        let (i, j, k) = longest_match(a, b, alo, ahi, blo, bhi);
        if k > 0 {
            matched += k;
            if alo < i && blo < j {
                queue.push((alo, i, blo, j));
            }
            if i + k < ahi && j + k < bhi {
                queue.push((i + k, ahi, j + k, bhi));
            }
        }
    }
    bound(matched, a.len() + b.len())
}

/// The longest common run of `a[alo..ahi]` and `b[blo..bhi]`, earliest in
/// `a`, then earliest in `b`: `(start in a, start in b, length)`.
fn longest_match(
    a: &[char],
    b: &[char],
    alo: usize,
    ahi: usize,
    blo: usize,
    bhi: usize,
) -> (usize, usize, usize) {
    let (mut best_i, mut best_j, mut best) = (alo, blo, 0);
    let mut run = alloc::vec![0usize; b.len() + 1];
    let mut next = alloc::vec![0usize; b.len() + 1];
    for (i, ca) in a.iter().enumerate().take(ahi).skip(alo) {
        next.fill(0);
        for (j, cb) in b.iter().enumerate().take(bhi).skip(blo) {
            if ca == cb {
                let k = if j > 0 { run[j - 1] } else { 0 } + 1;
                next[j] = k;
                if k > best {
                    (best_i, best_j, best) = (i + 1 - k, j + 1 - k, k);
                }
            }
        }
        core::mem::swap(&mut run, &mut next);
    }
    (best_i, best_j, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every candidate scored, as difflib does: what [`close_matches`]
    /// must agree with.
    fn all_scored<'a>(word: &str, candidates: &[&'a str], n: usize) -> Vec<&'a str> {
        let b: Vec<char> = word.chars().collect();
        let mut scored: Vec<(f64, &str)> = candidates
            .iter()
            .map(|c| (ratio(&c.chars().collect::<Vec<_>>(), &b), *c))
            .filter(|(score, _)| *score >= CUTOFF)
            .collect();
        scored.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| y.1.cmp(x.1)));
        scored.into_iter().take(n).map(|(_, c)| c).collect()
    }

    #[test]
    fn stopping_early_finds_what_scoring_all_finds() {
        let words = ["pdf", "forms", "git", "rebase", "report", "sheet", "slide"];
        let names: Vec<alloc::string::String> = (0..600)
            .map(|i| alloc::format!("{}-{}-{}", words[i % 7], words[(i / 7) % 7], i % 37))
            .collect();
        let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        for word in [
            "pdf-form-3",
            "git-rebas",
            "sheet-slide-1",
            "zz",
            "report",
            "x-y-z",
            "",
        ] {
            for n in [1, 3, 5] {
                assert_eq!(
                    close_matches(word, names.iter().copied(), n),
                    all_scored(word, &names, n),
                    "{word} {n}"
                );
            }
        }
    }

    #[test]
    fn suggests_as_difflib_does() {
        let commands = ["read-properties", "to-prompt", "validate"];
        assert_eq!(close_matches("valid", commands, 3), ["validate"]);
        assert_eq!(close_matches("Validate", commands, 3), ["validate"]);
        assert!(close_matches("bogus", commands, 3).is_empty());
        assert_eq!(
            close_matches("--vers", ["--version", "--help"], 3),
            ["--version"]
        );
        assert!(close_matches("-h", ["--version", "--help"], 3).is_empty());
        assert_eq!(close_matches("--he", ["--help"], 3), ["--help"]);
        // Ties: the later name in byte order first; at most n.
        assert_eq!(
            close_matches("abc", ["abd", "abf", "abe"], 2),
            ["abf", "abe"]
        );
        assert_eq!(close_matches("", [""], 1), [""]);
    }

    #[test]
    fn a_huge_word_is_ruled_out_by_length() {
        let word = "x".repeat(100_000);
        assert!(close_matches(&word, ["xx", "xxx"], 3).is_empty());
    }
}
