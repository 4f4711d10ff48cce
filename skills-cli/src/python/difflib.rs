//! `difflib.get_close_matches`, which click uses for its "Did you mean"
//! suggestions.

/// The best (at most three) `candidates` whose similarity ratio to `word`
/// is at least 0.6, best first (ties: later in byte order first).
pub fn close_matches<'a>(word: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let b: Vec<char> = word.chars().collect();
    let mut scored: Vec<(f64, &str)> = candidates
        .iter()
        .map(|candidate| {
            let a: Vec<char> = candidate.chars().collect();
            (ratio(&a, &b), *candidate)
        })
        .filter(|(score, _)| *score >= 0.6)
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| y.1.cmp(x.1)));
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// `SequenceMatcher(None, a, b).ratio()`: twice the matched characters over
/// the total length.
fn ratio(a: &[char], b: &[char]) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        return 1.0;
    }
    let mut matched = 0;
    let mut queue = vec![(0, a.len(), 0, b.len())];
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
    2.0 * matched as f64 / total as f64
}

/// The longest common run, earliest in `a`, then earliest in `b`.
fn longest_match(
    a: &[char],
    b: &[char],
    alo: usize,
    ahi: usize,
    blo: usize,
    bhi: usize,
) -> (usize, usize, usize) {
    let (mut best_i, mut best_j, mut best) = (alo, blo, 0);
    let mut run = vec![0usize; b.len() + 1];
    for (i, ca) in a.iter().enumerate().take(ahi).skip(alo) {
        let mut next = vec![0usize; b.len() + 1];
        for (j, cb) in b.iter().enumerate().take(bhi).skip(blo) {
            if ca == cb {
                let k = if j > 0 { run[j - 1] } else { 0 } + 1;
                next[j] = k;
                if k > best {
                    (best_i, best_j, best) = (i + 1 - k, j + 1 - k, k);
                }
            }
        }
        run = next;
    }
    (best_i, best_j, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_like_click() {
        let commands = ["read-properties", "to-prompt", "validate"];
        assert_eq!(close_matches("valid", &commands), ["validate"]);
        assert_eq!(close_matches("Validate", &commands), ["validate"]);
        assert!(close_matches("bogus", &commands).is_empty());
        assert_eq!(
            close_matches("--vers", &["--version", "--help"]),
            ["--version"]
        );
        assert!(close_matches("-h", &["--version", "--help"]).is_empty());
        assert_eq!(close_matches("--he", &["--help"]), ["--help"]);
    }
}
