//! The body's token budget: the specification advises keeping a skill's
//! instructions under about 5,000 tokens (and 500 lines, which
//! `body-too-long` checks), since the whole body enters the context when
//! a skill is picked.
//!
//! Tokens are estimated as agentskills-core estimates them, and as the
//! outlines of a bundle do: one token per four characters (Unicode scalar
//! values), rounded up. Anyone can reproduce the figure; measured against
//! real tokenizers on 425 real skill bodies (`docs/lints.md`), it is off by
//! 0.5 % on average from Claude's (6.5 % for the median body), and counts
//! about 10 % more than OpenAI's `cl100k_base` and `o200k_base`. A
//! tokenizer crate would add its vocabulary (megabytes) to every build that
//! embeds skills, and each model counts differently anyway. So the
//! warning says how far real tokenizers may be from the estimate (see
//! [`range`]).

use super::findings::Findings;
use super::position::Located;
use super::skill::Skill;
use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Problem};

/// The budget, in estimated tokens.
pub const BODY_TOKENS: usize = 5_000;

/// The estimated tokens of `text`: its characters over four, rounded up
/// (agentskills-core's `estimate_tokens`: `skills_core::text`'s, the one a
/// bundle's outlines count with).
///
/// ```
/// use skills_build::unstable::content::estimate_tokens;
/// assert_eq!(estimate_tokens("Fill the form."), 4);
/// assert_eq!(estimate_tokens("日本語"), 1);
/// ```
pub fn estimate_tokens(text: &str) -> usize {
    usize::try_from(skills_core::text::estimate_tokens(text)).unwrap_or(usize::MAX)
}

/// How far the estimate may be from a real tokenizer's count, as a
/// fraction of that count: for 9 bodies in 10 of the 425 measured, it is
/// within a quarter of each of Claude's, `cl100k_base` and `o200k_base`
/// (`docs/lints.md`, from `scripts/bench/token-estimate.py`; the 90th
/// percentiles of the error are 16 %, 23 % and 23 %).
const ERROR: (usize, usize) = (1, 4);

/// The range of real counts a body of `estimate` estimated tokens has, bar
/// 1 body in 10: the estimate over 1 + [`ERROR`] to over 1 − [`ERROR`].
fn range(estimate: usize) -> (usize, usize) {
    let (part, whole) = ERROR;
    (
        (estimate * whole).div_ceil(whole + part),
        estimate * whole / (whole - part),
    )
}

/// The body over [`BODY_TOKENS`] estimated tokens. The estimate is a
/// character count, and the warning says how far real tokenizers may be
/// from it ([`range`]): over the budget when even the low end is, else
/// probably over (a body estimated at 5,394 was 4,584 by `o200k_base`;
/// but of 11 real bodies estimated between 5,000 and 6,250, 10 were over
/// 5,000 by Claude's tokenizer, so the threshold stays the estimate's).
pub(super) fn body_tokens(
    skill: &Skill<'_>,
    document: &SkillDocument,
    body: &Located<'_>,
    findings: &mut Findings<'_>,
) {
    if !findings.wants(Code::BodyTooManyTokens) {
        return;
    }
    // Four bytes hold at least one character: a body under four times the
    // budget in bytes is under it in tokens.
    if document.rest.len() <= 4 * BODY_TOKENS {
        return;
    }
    let tokens = estimate_tokens(document.body());
    if tokens <= BODY_TOKENS {
        return;
    }
    let (low, high) = range(tokens);
    let over = match low > BODY_TOKENS {
        true => format!("at least {low}), over"),
        false => format!("{low} to {high}), so probably over"),
    };
    findings.push(
        Problem::new(
            Code::BodyTooManyTokens,
            format!(
                "the body is about {tokens} tokens (characters / 4; Claude's and OpenAI's tokenizers count within a quarter of that for 9 bodies in 10: {over} the {BODY_TOKENS} the specification advises: all of it enters the context when the skill is picked"
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
    use crate::rules::content::tests::{codes, skill_md};

    #[test]
    fn estimates() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("hello world"), 3);
        assert_eq!(estimate_tokens("é"), 1);
    }

    #[test]
    fn long_bodies_are_warned() {
        let long = "Read the form, fill each field, and check the totals twice. ".repeat(500);
        assert_eq!(codes(&skill_md(&long), &[]), ["body-too-many-tokens"]);
        assert!(codes(&skill_md(&long[..19_000]), &[]).is_empty());
        // Issue 39, item 16: the warning says how far real tokenizers may
        // be from the estimate. A body estimated at 5,394 (a real one was
        // 4,584 by o200k_base) is probably over; one whose low end is over
        // the budget is over.
        let near = crate::rules::content::tests::problems(&skill_md(&long[..4 * 5_394]), &[]);
        assert_eq!(near.len(), 1);
        assert!(
            near[0].message.contains("about 5394 tokens"),
            "{}",
            near[0].message
        );
        assert!(
            near[0]
                .message
                .contains("4316 to 7192), so probably over the 5000"),
            "{}",
            near[0].message
        );
        let over = crate::rules::content::tests::problems(&skill_md(&long[..4 * 6_300]), &[]);
        assert_eq!(over.len(), 1);
        assert!(
            over[0].message.contains("at least 5040), over the 5000"),
            "{}",
            over[0].message
        );
    }
}
