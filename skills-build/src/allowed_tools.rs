//! The `allowed-tools` field: a space-separated list of tool rules.
//!
//! A rule is `Tool` or `Tool(specifier)`. Whitespace inside parentheses
//! does not separate rules, nested balanced parentheses are kept as written
//! (`Edit(./Finance (2024)/**)`), and only ASCII whitespace separates
//! (a no-break space belongs to the token).

use std::fmt;

/// One parsed rule: a tool name and an optional specifier.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ToolRule {
    /// The tool the rule allows.
    pub tool: String,
    /// What inside the tool is allowed, when restricted.
    pub spec: Option<String>,
}

/// What is wrong with one token of `allowed-tools`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleErrorKind {
    /// A `(` without its `)`, or a `)` without its `(`.
    UnmatchedParenthesis,
    /// The token starts with `(`.
    MissingToolName,
    /// `Tool()`.
    EmptySpecifier,
    /// `Tool(!)`: a carve-out that excludes nothing.
    EmptyCarveOut,
    /// Something follows the closing `)`.
    TextAfterSpecifier,
}

impl RuleErrorKind {
    /// What is wrong, in a few words (`"empty specifier"`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            RuleErrorKind::UnmatchedParenthesis => "unmatched parenthesis",
            RuleErrorKind::MissingToolName => "missing tool name",
            RuleErrorKind::EmptySpecifier => "empty specifier",
            RuleErrorKind::EmptyCarveOut => "empty carve-out",
            RuleErrorKind::TextAfterSpecifier => "text after the specifier",
        }
    }
}

/// A token of `allowed-tools` that is not a rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RuleError {
    /// The offending token, as written.
    pub token: String,
    /// What is wrong with it.
    pub kind: RuleErrorKind,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "allowed-tools token \"{}\": {}",
            self.token,
            self.kind.as_str()
        )
    }
}

impl std::error::Error for RuleError {}

fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}')
}

/// Parses the whole field; the first bad token fails it.
pub fn parse(text: &str) -> Result<Vec<ToolRule>, RuleError> {
    tokens(text)?.into_iter().map(parse_token).collect()
}

/// Splits at separators outside parentheses.
fn tokens(text: &str) -> Result<Vec<&str>, RuleError> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if depth == 0 && is_separator(c) {
            if let Some(s) = start.take() {
                out.push(&text[s..i]);
            }
            continue;
        }
        let s = *start.get_or_insert(i);
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                let end = text[i..].find(is_separator).map_or(text.len(), |n| i + n);
                return Err(unmatched(&text[s..end]));
            }
            ')' => depth -= 1,
            _ => {}
        }
    }
    if let Some(s) = start {
        if depth > 0 {
            return Err(unmatched(&text[s..]));
        }
        out.push(&text[s..]);
    }
    Ok(out)
}

fn unmatched(token: &str) -> RuleError {
    RuleError {
        token: token.to_string(),
        kind: RuleErrorKind::UnmatchedParenthesis,
    }
}

/// Parses one balanced token.
fn parse_token(token: &str) -> Result<ToolRule, RuleError> {
    let fail = |kind| RuleError {
        token: token.to_string(),
        kind,
    };
    let Some(open) = token.find('(') else {
        return Ok(ToolRule {
            tool: token.to_string(),
            spec: None,
        });
    };
    if open == 0 {
        return Err(fail(RuleErrorKind::MissingToolName));
    }
    let mut depth = 0usize;
    let mut close = None;
    for (i, c) in token[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close.ok_or_else(|| fail(RuleErrorKind::UnmatchedParenthesis))?;
    if close + 1 != token.len() {
        return Err(fail(RuleErrorKind::TextAfterSpecifier));
    }
    let spec = &token[open + 1..close];
    match spec {
        "" => Err(fail(RuleErrorKind::EmptySpecifier)),
        "!" => Err(fail(RuleErrorKind::EmptyCarveOut)),
        _ => Ok(ToolRule {
            tool: token[..open].to_string(),
            spec: Some(spec.to_string()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> RuleErrorKind {
        parse(text).unwrap_err().kind
    }

    #[test]
    fn keeps_nested_parentheses_and_inner_spaces() {
        let rules = parse("  Edit(./Finance (2024)/**)\tRead\n").unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].spec.as_deref(), Some("./Finance (2024)/**"));
        assert_eq!(rules[1].tool, "Read");
        assert_eq!(parse("").unwrap(), vec![]);
    }

    #[test]
    fn only_ascii_whitespace_separates() {
        let rules = parse("Read\u{a0}Edit").unwrap();
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].tool, "Read\u{a0}Edit");
    }

    #[test]
    fn reports_each_kind_of_bad_token() {
        assert_eq!(kind("Bash(git"), RuleErrorKind::UnmatchedParenthesis);
        assert_eq!(kind("Bash) Read"), RuleErrorKind::UnmatchedParenthesis);
        assert_eq!(kind("(git:*)"), RuleErrorKind::MissingToolName);
        assert_eq!(kind("Bash()"), RuleErrorKind::EmptySpecifier);
        assert_eq!(kind("Read(!)"), RuleErrorKind::EmptyCarveOut);
        assert_eq!(kind("Bash(git)x"), RuleErrorKind::TextAfterSpecifier);
        assert_eq!(kind("Bash(a)(b)"), RuleErrorKind::TextAfterSpecifier);
        assert_eq!(parse("Read(!x)").unwrap()[0].spec.as_deref(), Some("!x"));
    }

    #[test]
    fn names_the_whole_token() {
        let err = parse("Read Bash(git x").unwrap_err();
        assert_eq!(err.token, "Bash(git x");
        let err = parse("a) b").unwrap_err();
        assert_eq!(err.token, "a)");
    }

    #[test]
    fn a_rule_is_a_tool_and_its_specifier() {
        use crate::allowed_tools::{ToolRule, parse};
        let rules = parse("Read Bash(git commit:*)").unwrap();
        assert_eq!(
            rules[1],
            ToolRule {
                tool: "Bash".into(),
                spec: Some("git commit:*".into())
            }
        );
    }

    #[test]
    fn an_error_names_the_token() {
        let err = crate::allowed_tools::parse("Read Bash()").unwrap_err();
        assert_eq!(
            err.to_string(),
            "allowed-tools token \"Bash()\": empty specifier"
        );
    }
}
