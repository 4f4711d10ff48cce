//! `difflib.get_close_matches`, which click uses for its "Did you mean"
//! suggestions: skills-core's [`skills_core::text::difflib`], the one
//! implementation the `skill` tool's suggestions use too.

/// The best (at most three) `candidates` whose similarity ratio to `word`
/// is at least 0.6, best first (ties: later in byte order first).
pub fn close_matches<'a>(word: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    skills_core::text::difflib::close_matches(word, candidates.iter().copied(), 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_like_click() {
        let commands = ["read-properties", "to-prompt", "validate"];
        assert_eq!(close_matches("valid", &commands), ["validate"]);
        assert!(close_matches("bogus", &commands).is_empty());
    }
}
