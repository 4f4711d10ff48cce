//! The fence lines of a skill file: the frontmatter the digest covers and
//! the body the tool serves.
//!
//! The reference reader cuts a skill file at its first two `---`
//! substrings, wherever they are; the `skill` tool serves the body that
//! follows the closing `---` *line*. The two agree when both markers are
//! lines of their own, which this module checks, so a skill cannot mean
//! one thing to the validator and another to the model.

use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Position, Problem};

/// A skill file cut at its fence lines (after newline normalisation).
///
/// ```
/// use skills_build::unstable::{fence, frontmatter::parse};
/// let doc = parse(b"---\nname: pdf\n---\n# PDF\n").unwrap();
/// let parts = fence::parts(&doc).unwrap();
/// assert_eq!(parts.frontmatter, "name: pdf\n");
/// assert_eq!(parts.body, "# PDF\n");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts<'a> {
    /// The lines between the opening and the closing `---` lines, each
    /// with its newline.
    pub frontmatter: &'a str,
    /// Everything after the closing `---` line, verbatim.
    pub body: &'a str,
}

/// Finds the fence lines, or the problem that they are not lines of their
/// own.
///
/// ```
/// use skills_build::unstable::{fence, frontmatter::parse};
/// let doc = parse(b"---\nname: pdf\ndescription: a --- b\n---\n").unwrap();
/// let problem = fence::parts(&doc).unwrap_err();
/// assert_eq!(problem.position.unwrap().line, 3);
/// ```
pub fn parts(doc: &SkillDocument) -> Result<Parts<'_>, Problem> {
    let closing_line = doc.frontmatter_text.matches('\n').count() + 1;
    let at = |line: usize| Position {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: 1,
    };
    let Some(frontmatter) = doc.frontmatter_text.strip_prefix('\n') else {
        return Err(Problem::new(
            Code::FrontmatterFence,
            "the opening `---` of the frontmatter must be a line of its own",
        )
        .at(at(1))
        .with_hint("start the file with a line holding only `---`"));
    };
    if !frontmatter.is_empty() && !frontmatter.ends_with('\n') {
        return Err(Problem::new(
            Code::FrontmatterFence,
            "the frontmatter ends at a `---` inside a line; the closing `---` must be a line of its own",
        )
        .at(at(closing_line))
        .with_hint("quote the value that holds `---`, or write it another way"));
    }
    let body = if doc.rest.is_empty() {
        ""
    } else if let Some(body) = doc.rest.strip_prefix('\n') {
        body
    } else {
        return Err(Problem::new(
            Code::FrontmatterFence,
            "text follows the closing `---` on its line; the closing `---` must be a line of its own",
        )
        .at(at(closing_line))
        .with_hint("put the text on the next line"));
    };
    Ok(Parts { frontmatter, body })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::parse;

    #[test]
    fn empty_and_crlf() {
        let doc = parse(b"---\r\nname: a\r\n---").unwrap();
        let parts = parts(&doc).unwrap();
        assert_eq!((parts.frontmatter, parts.body), ("name: a\n", ""));
        let doc = parse(b"---\na: b\n---\n\nbody").unwrap();
        assert_eq!(super::parts(&doc).unwrap().body, "\nbody");
    }

    #[test]
    fn refuses_text_after_fences() {
        let doc = parse(b"---\nname: a\n----\nbody").unwrap();
        assert_eq!(parts(&doc).unwrap_err().position.unwrap().line, 3);
    }
}
