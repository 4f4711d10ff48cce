//! The body's token budget: the specification advises keeping a skill's
//! instructions under about 5,000 tokens (and 500 lines, which
//! `body-too-long` checks), since the whole body enters the context when
//! a skill is picked.
//!
//! Tokens are estimated, not counted with a model's tokenizer (which
//! differs between models, and would add megabytes of vocabulary to every
//! build): [`estimate_tokens`] splits text the way BPE tokenizers
//! pre-split it and prices each piece. `docs/lints.md` gives its measured
//! error against real tokenizers on the recorded skills.

use super::{Findings, Located, Skill};
use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Problem};

/// The budget, in estimated tokens.
pub const BODY_TOKENS: usize = 5_000;

/// An estimate of how many tokens a BPE tokenizer makes of `text`:
///
/// - a run of ASCII letters: one token per 6 letters, rounded up (common
///   words are one token, long ones two or three);
/// - a run of digits: one token per 3 digits, rounded up;
/// - a run of other ASCII symbols: one token per 2, rounded up;
/// - a run of spaces or tabs: free after a line break or before a word, one
///   token per 4 columns of indentation otherwise; line breaks: one token
///   per run;
/// - any other character (accented letters, CJK, emoji): one token each.
///
/// The same text gives the same number everywhere, so a user can
/// reproduce the figure with these rules.
///
/// ```
/// use skills_build::content::estimate_tokens;
/// assert_eq!(estimate_tokens("Fill the form."), 4);
/// assert_eq!(estimate_tokens("2024-05-01"), 6);
/// ```
pub fn estimate_tokens(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut tokens = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let run = |class: fn(u8) -> bool| bytes[i..].iter().take_while(|b| class(**b)).count();
        let (len, cost) = if b.is_ascii_alphabetic() {
            let n = run(|b| b.is_ascii_alphabetic());
            (n, n.div_ceil(6))
        } else if b.is_ascii_digit() {
            let n = run(|b| b.is_ascii_digit());
            (n, n.div_ceil(3))
        } else if b == b' ' || b == b'\t' {
            let n = run(|b| b == b' ' || b == b'\t');
            let indent = i > 0 && bytes[i - 1] == b'\n';
            let before_word = bytes.get(i + n).is_some_and(|b| b.is_ascii_alphanumeric());
            (n, if n == 1 || (before_word && !indent) { 0 } else { n.div_ceil(4) })
        } else if b == b'\n' || b == b'\r' {
            (run(|b| b == b'\n' || b == b'\r'), 1)
        } else if b.is_ascii() {
            let n = run(|b| b.is_ascii_punctuation());
            let n = n.max(1);
            (n, n.div_ceil(2))
        } else {
            let c = text[i..].chars().next().map_or(1, char::len_utf8);
            (c, 1)
        };
        tokens += cost;
        i += len;
    }
    tokens
}

/// The body over [`BODY_TOKENS`] estimated tokens.
pub(super) fn body_tokens(skill: &Skill<'_>, document: &SkillDocument, body: &Located<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::BodyTooManyTokens) {
        return;
    }
    // Cheap bound first: no token is shorter than a byte... but most are
    // longer than one; a body under the budget in bytes is under it in
    // tokens.
    if document.rest.len() <= BODY_TOKENS {
        return;
    }
    let tokens = estimate_tokens(document.body());
    if tokens <= BODY_TOKENS {
        return;
    }
    findings.push(
        Problem::new(
            Code::BodyTooManyTokens,
            format!(
                "the body is about {tokens} tokens (estimated), over the {BODY_TOKENS} the specification advises: all of it enters the context when the skill is picked"
            ),
        )
        .with_hint("move details into reference files that SKILL.md links, read only when needed"),
        skill.file_location.to_string(),
        Some(body.base),
    );
}

#[cfg(test)]
mod tests {
    use super::estimate_tokens;
    use crate::content::tests::{codes, skill_md};

    #[test]
    fn estimates() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("hello world"), 2);
        assert_eq!(estimate_tokens("internationalization"), 4);
        assert_eq!(estimate_tokens("日本語"), 3);
    }

    #[test]
    fn long_bodies_are_warned() {
        let long = "Read the form, fill each field, and check the totals twice. ".repeat(600);
        assert_eq!(codes(&skill_md(&long), &[]), ["body-too-many-tokens"]);
        assert!(codes(&skill_md(&long[..6000]), &[]).is_empty());
    }
}
