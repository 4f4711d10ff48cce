//! (being written) Python 3.11 string semantics pinned to Unicode 14.0.

/// `str.isalnum()` for one character.
pub fn is_alnum(c: char) -> bool {
    c.is_alphanumeric()
}

/// `s != s.lower()`.
pub fn changes_when_lowercased(s: &str) -> bool {
    s != s.to_lowercase()
}

/// `str.isspace()` for one character.
pub fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// `str.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `unicodedata.normalize("NFKC", s)`.
pub fn nfkc(s: &str) -> String {
    s.to_string()
}
