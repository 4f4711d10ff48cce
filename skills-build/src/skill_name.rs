//! What makes a skill name valid, and the valid name nearest an invalid one.
//!
//! The specification's name rule, as the reference validator checks it on
//! the NFKC form of the name: at most [`MAX_NAME_CHARS`] characters, no
//! character that Python's `str.lower()` changes, letters and digits
//! (Python's `str.isalnum()`) and hyphens only, no hyphen at either end and
//! no two in a row. [`flaws`] lists the ways a name breaks it, in the
//! reference's order; [`suggestion`] is the name a help line offers, which
//! passes every one of these checks or is not offered at all.

use skills_pycompat::unicode;

/// Longest name, in characters after NFKC.
pub const MAX_NAME_CHARS: usize = 64;

/// One way a (NFKC-normalised) name breaks the rule, in the order the
/// reference validator checks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flaw {
    /// Longer than [`MAX_NAME_CHARS`]: this many characters.
    TooLong(usize),
    /// Python's `str.lower()` would change it.
    NotLowercase,
    /// Starts or ends with a hyphen.
    HyphenAtEdge,
    /// Holds `--`.
    ConsecutiveHyphens,
    /// Holds a character that is neither a letter, a digit nor a hyphen.
    InvalidCharacters,
}

/// Every flaw of `name`, already NFKC-normalised and stripped, in the
/// reference's order; none for a valid name.
pub(crate) fn flaws(name: &str) -> Vec<Flaw> {
    let mut found = Vec::new();
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        found.push(Flaw::TooLong(chars));
    }
    if unicode::changes_when_lowercased(name) {
        found.push(Flaw::NotLowercase);
    }
    if name.starts_with('-') || name.ends_with('-') {
        found.push(Flaw::HyphenAtEdge);
    }
    if name.contains("--") {
        found.push(Flaw::ConsecutiveHyphens);
    }
    if !name.chars().all(|c| c == '-' || unicode::is_alnum(c)) {
        found.push(Flaw::InvalidCharacters);
    }
    found
}

/// The valid name nearest `name`, for a help line: lowercased, each run of
/// characters a name cannot hold turned into one hyphen, no hyphen at
/// either end, cut to [`MAX_NAME_CHARS`] characters. A combining mark left
/// over after lowercasing (the dot of `İ`, which lowercases to `i` and
/// U+0307) is dropped with the letter kept, not turned into a hyphen.
///
/// `None` when nothing valid is left (`"!!!"`, `"___"`), or in the unlikely
/// case that the result would still fail the rule (it is checked with
/// [`flaws`], the validator's own checks, after NFKC): a hint never offers a
/// name the gate would refuse.
pub(crate) fn suggestion(name: &str) -> Option<String> {
    let lower = unicode::nfkc(&name.to_lowercase());
    let mut out = String::with_capacity(lower.len());
    let mut kept = 0usize;
    let mut gap = false;
    for c in lower.chars() {
        if kept == MAX_NAME_CHARS {
            break;
        }
        if c != '-'
            && unicode::is_alnum(c)
            && !unicode::changes_when_lowercased(c.encode_utf8(&mut [0; 4]))
        {
            if gap && kept > 0 {
                out.push('-');
                kept += 1;
                if kept == MAX_NAME_CHARS {
                    break;
                }
            }
            gap = false;
            out.push(c);
            kept += 1;
        } else if unicode::combining(c) == 0 {
            gap = true;
        }
    }
    let out = out.trim_end_matches('-');
    (!out.is_empty() && unicode::nfkc(out) == out && flaws(out).is_empty()).then(|| out.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suggest(name: &str) -> Option<String> {
        suggestion(&unicode::nfkc(name))
    }

    #[test]
    fn spaces_and_underscores_become_one_hyphen() {
        assert_eq!(suggest("Invoice Check").as_deref(), Some("invoice-check"));
        assert_eq!(suggest("Invoice_Check").as_deref(), Some("invoice-check"));
        assert_eq!(suggest("invoice_check").as_deref(), Some("invoice-check"));
        assert_eq!(suggest("My  Big__Skill").as_deref(), Some("my-big-skill"));
        assert_eq!(suggest("a - b").as_deref(), Some("a-b"));
        assert_eq!(suggest("PDF").as_deref(), Some("pdf"));
    }

    #[test]
    fn no_hyphen_at_the_edges_or_doubled() {
        assert_eq!(suggest("-Bad--Name_").as_deref(), Some("bad-name"));
        assert_eq!(suggest("--x--").as_deref(), Some("x"));
        assert_eq!(
            suggest("  .hidden.skill.  ").as_deref(),
            Some("hidden-skill")
        );
        assert_eq!(suggest("a/b\\c:d").as_deref(), Some("a-b-c-d"));
    }

    #[test]
    fn digits_and_other_scripts_are_kept() {
        assert_eq!(suggest("2024 Report").as_deref(), Some("2024-report"));
        assert_eq!(suggest("123").as_deref(), Some("123"));
        assert_eq!(suggest("Straße Prüfen").as_deref(), Some("straße-prüfen"));
        assert_eq!(suggest("ΣΟΦΙΑ").as_deref(), Some("σοφια"));
        assert_eq!(suggest("日本語 スキル").as_deref(), Some("日本語-スキル"));
        assert_eq!(suggest("Ｓｋｉｌｌ　Ｏｎｅ").as_deref(), Some("skill-one"));
        assert_eq!(suggest("٣ Arabic").as_deref(), Some("٣-arabic"));
    }

    #[test]
    fn a_combining_mark_left_by_lowercasing_is_dropped() {
        // `İ` lowercases to `i` and U+0307, which no name may hold.
        assert_eq!(suggest("SKİLL").as_deref(), Some("skill"));
        // A mark with no precomposed form stays out without splitting the word.
        assert_eq!(suggest("Ka\u{334}t").as_deref(), Some("kat"));
        // An enclosing mark is a starter (combining class 0): a separator.
        assert_eq!(suggest("Ka\u{20DD}t").as_deref(), Some("ka-t"));
    }

    #[test]
    fn nothing_valid_left_gives_no_hint() {
        for name in ["!!!", "___", "-", " ", "\u{301}", "🙂🙂", "★·†"] {
            assert_eq!(suggest(name), None, "{name:?}");
        }
    }

    #[test]
    fn capped_at_the_longest_name_with_no_trailing_hyphen() {
        let long = "Word ".repeat(40);
        let hint = suggest(&long).unwrap();
        assert!(hint.chars().count() <= MAX_NAME_CHARS, "{hint}");
        assert!(!hint.ends_with('-'), "{hint}");
        assert!(flaws(&hint).is_empty());
        // A hyphen that would land in the last place is left out.
        let name = format!("{} b", "a".repeat(MAX_NAME_CHARS - 1));
        assert_eq!(suggest(&name).unwrap(), "a".repeat(MAX_NAME_CHARS - 1));
        let name = format!("{}_b", "A".repeat(MAX_NAME_CHARS - 2));
        assert_eq!(
            suggest(&name).unwrap(),
            format!("{}-b", "a".repeat(MAX_NAME_CHARS - 2))
        );
    }

    #[test]
    fn every_hint_is_a_valid_name() {
        let names = [
            "Invoice Check",
            "ǅungla",
            "ﬃx File",
            "Ωmega",
            "\u{130}\u{130}",
            "x\u{345}y",
            "a\u{200b}b",
            "tab\there",
            "e\u{301}TE",
            "ß-SS",
            "ᾼ Greek",
        ];
        for name in names {
            let Some(hint) = suggest(name) else { continue };
            assert_eq!(unicode::nfkc(&hint), hint, "{name:?}");
            assert!(flaws(&hint).is_empty(), "{name:?} -> {hint:?}");
        }
    }

    #[test]
    fn flaws_come_in_the_reference_order() {
        assert_eq!(flaws("pdf-tools"), []);
        assert_eq!(
            flaws("-Bad--Name_"),
            [
                Flaw::NotLowercase,
                Flaw::HyphenAtEdge,
                Flaw::ConsecutiveHyphens,
                Flaw::InvalidCharacters
            ]
        );
        assert_eq!(flaws(&"a".repeat(65)), [Flaw::TooLong(65)]);
    }
}
