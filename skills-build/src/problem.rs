//! Problems found in skills: what, how bad, and where.

use std::fmt;

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The skill is invalid; a build that embeds it fails.
    Error,
    /// The skill works, but breaks a recommendation of the specification.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`, as diagnostics print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which rule book a problem comes from.
///
/// `Reference` problems are the ones skills-ref 0.1.1 reports, with its
/// wording; `Specification` problems are rules of the Agent Skills
/// specification that the reference does not check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Reported, with the same text, by the reference validator.
    Reference,
    /// A specification rule the reference validator misses.
    Specification,
}

/// A position in a file: 1-based line and column, columns in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, counted in Unicode scalar values.
    pub column: u32,
}

/// One problem with a skill.
///
/// ```
/// use skills_build::problem::{Position, Problem, Severity};
/// let p = Problem::error("Skill name 'PDF' must be lowercase")
///     .with_field("name")
///     .with_file("skills/PDF/SKILL.md")
///     .at(Position { line: 2, column: 7 });
/// assert_eq!(p.severity, Severity::Error);
/// assert_eq!(p.to_string(), "skills/PDF/SKILL.md:2:7: error: Skill name 'PDF' must be lowercase");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Problem {
    /// How serious it is.
    pub severity: Severity,
    /// Which rule book reports it.
    pub rule: Rule,
    /// The frontmatter field concerned, if any.
    pub field: Option<String>,
    /// What is wrong, in one sentence (reference wording for reference rules).
    pub message: String,
    /// A suggestion for fixing it, when one helps.
    pub hint: Option<String>,
    /// The file the problem is in, as the user would type it.
    pub file: Option<String>,
    /// Where in the file, when known.
    pub position: Option<Position>,
}

impl Problem {
    fn new(severity: Severity, rule: Rule, message: impl Into<String>) -> Self {
        Problem {
            severity,
            rule,
            field: None,
            message: message.into(),
            hint: None,
            file: None,
            position: None,
        }
    }

    /// An error of a rule the reference validator also checks.
    pub fn error(message: impl Into<String>) -> Self {
        Problem::new(Severity::Error, Rule::Reference, message)
    }

    /// An error of a specification rule the reference validator misses.
    pub fn spec_error(message: impl Into<String>) -> Self {
        Problem::new(Severity::Error, Rule::Specification, message)
    }

    /// A warning of a specification recommendation.
    pub fn warning(message: impl Into<String>) -> Self {
        Problem::new(Severity::Warning, Rule::Specification, message)
    }

    /// Names the frontmatter field concerned.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Adds a suggestion for fixing the problem.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Names the file the problem is in.
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Sets the position in the file.
    pub fn at(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }

    /// Sets the position in the file when one is known.
    pub fn at_opt(mut self, position: Option<Position>) -> Self {
        self.position = position;
        self
    }

    /// `true` for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col` (or as much of it as is known), for diagnostics.
    pub fn location(&self) -> Option<String> {
        let file = self.file.as_deref()?;
        Some(match self.position {
            Some(p) => format!("{file}:{}:{}", p.line, p.column),
            None => file.to_string(),
        })
    }

    /// Orders problems by file, then line and column, then severity.
    pub fn sort(problems: &mut [Problem]) {
        problems.sort_by(|a, b| {
            (&a.file, a.position.is_some(), a.position, a.severity).cmp(&(
                &b.file,
                b.position.is_some(),
                b.position,
                b.severity,
            ))
        });
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = self.location() {
            write!(f, "{location}: ")?;
        }
        write!(f, "{}: {}", self.severity, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_by_file_then_position() {
        let at = |line| Position { line, column: 1 };
        let mut problems = vec![
            Problem::error("c").with_file("b/SKILL.md").at(at(1)),
            Problem::error("b").with_file("a/SKILL.md").at(at(9)),
            Problem::warning("a").with_file("a/SKILL.md").at(at(2)),
            Problem::error("d").with_file("a/SKILL.md"),
        ];
        Problem::sort(&mut problems);
        let order: Vec<_> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(order, ["d", "a", "b", "c"]);
    }

    #[test]
    fn displays_without_a_location() {
        assert_eq!(Problem::warning("long").to_string(), "warning: long");
    }
}
