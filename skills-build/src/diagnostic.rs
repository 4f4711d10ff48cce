//! Problems printed the way rustc prints its diagnostics.

use crate::printable::printable;
use crate::problem::Problem;

/// One problem in the compiler's layout: severity and field, the message,
/// the file position, and the hint. Ends with an empty line.
///
/// ```
/// use skills_build::problem::{Position, Problem};
/// let problem = Problem::error("Skill name 'PDF' must be lowercase")
///     .with_field("name")
///     .with_file("skills/PDF/SKILL.md")
///     .at(Position { line: 2, column: 7 })
///     .with_hint("write it as 'pdf'");
/// assert_eq!(
///     skills_build::diagnostic::render(&problem),
///     "error[name]: Skill name 'PDF' must be lowercase\n  --> skills/PDF/SKILL.md:2:7\n   = help: write it as 'pdf'\n\n",
/// );
/// ```
pub fn render(problem: &Problem) -> String {
    let mut text = match &problem.field {
        Some(field) => format!("{}[{field}]: ", problem.severity),
        None => format!("{}: ", problem.severity),
    };
    let mut lines = problem.message.lines();
    // Messages quote names and values from skills: escape what could drive
    // a terminal or forge a line.
    text.push_str(&printable(lines.next().unwrap_or("")));
    text.push('\n');
    if let Some(location) = problem.location() {
        text.push_str("  --> ");
        text.push_str(&printable(&location));
        text.push('\n');
    }
    for line in lines {
        text.push_str("   | ");
        text.push_str(&printable(line));
        text.push('\n');
    }
    if let Some(hint) = &problem.hint {
        text.push_str("   = help: ");
        text.push_str(&printable(hint));
        text.push('\n');
    }
    text.push('\n');
    text
}

/// `N errors, M warnings` (or `no problems`), for summary lines.
///
/// ```
/// use skills_build::problem::Problem;
/// let problems = [Problem::error("a"), Problem::warning("b"), Problem::warning("c")];
/// assert_eq!(skills_build::diagnostic::count(&problems), "1 error, 2 warnings");
/// ```
pub fn count(problems: &[Problem]) -> String {
    let errors = problems.iter().filter(|p| p.is_error()).count();
    let warnings = problems.len() - errors;
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    match (errors, warnings) {
        (0, 0) => "no problems".to_string(),
        (0, w) => plural(w, "warning"),
        (e, 0) => plural(e, "error"),
        (e, w) => format!("{}, {}", plural(e, "error"), plural(w, "warning")),
    }
}
