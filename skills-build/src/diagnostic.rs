//! Problems printed the way rustc prints its diagnostics.

use crate::printable::printable;
use crate::problem::{Problem, Severity};

/// One problem in the compiler's layout: severity and rule code, the
/// message, the file position, and the hint. Ends with an empty line.
///
/// ```
/// use skills_build::problem::{Code, Position, Problem};
/// let problem = Problem::new(Code::NameLowercase, "Skill name 'PDF' must be lowercase")
///     .with_field("name")
///     .with_file("skills/PDF/SKILL.md")
///     .at(Position { line: 2, column: 7 })
///     .with_hint("write it as 'pdf'");
/// assert_eq!(
///     skills_build::diagnostic::render(&problem),
///     "error[name-lowercase]: Skill name 'PDF' must be lowercase\n  --> skills/PDF/SKILL.md:2:7\n   = help: write it as 'pdf'\n\n",
/// );
/// ```
pub fn render(problem: &Problem) -> String {
    let mut text = format!("{}[{}]: ", problem.severity, problem.code);
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

/// Every problem [`render`]ed, in order.
///
/// ```
/// use skills_build::problem::{Code, Problem};
/// let problems = [Problem::new(Code::YamlSyntax, "a"), Problem::new(Code::BodyTooLong, "b")];
/// assert_eq!(
///     skills_build::diagnostic::render_all(&problems),
///     "error[yaml-syntax]: a\n\nwarning[body-too-long]: b\n\n",
/// );
/// ```
pub fn render_all<'p>(problems: impl IntoIterator<Item = &'p Problem>) -> String {
    problems.into_iter().map(render).collect()
}

/// Past this many problems, a person's report groups them by rule
/// ([`render_by_rule`]) instead of listing each one.
pub const LISTED_AT_MOST: usize = 50;

/// The problems grouped by rule, one line a rule: severity, code, how
/// many, and the first one's place and message as an example; errors
/// first, then the most frequent. What a long build prints instead of
/// every problem (`-v` and the JSON report list them all).
///
/// ```
/// use skills_build::problem::{Code, Problem};
/// let problems = [
///     Problem::new(Code::BodyTooLong, "long").with_file("a/SKILL.md"),
///     Problem::new(Code::BodyTooLong, "longer").with_file("b/SKILL.md"),
///     Problem::new(Code::YamlSyntax, "bad").with_file("c/SKILL.md"),
/// ];
/// assert_eq!(
///     skills_build::diagnostic::render_by_rule(&problems),
///     "error[yaml-syntax]: 1, e.g. c/SKILL.md: bad\n\
///      warning[body-too-long]: 2, e.g. a/SKILL.md: long\n",
/// );
/// ```
pub fn render_by_rule(problems: &[Problem]) -> String {
    let mut groups: Vec<(Severity, crate::problem::Code, usize, &Problem)> = Vec::new();
    for problem in problems {
        match groups
            .iter_mut()
            .find(|(severity, code, _, _)| *severity == problem.severity && *code == problem.code)
        {
            Some(group) => group.2 += 1,
            None => groups.push((problem.severity, problem.code, 1, problem)),
        }
    }
    let rank = |severity: Severity| match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        _ => 2,
    };
    groups.sort_by(|a, b| {
        (rank(a.0), std::cmp::Reverse(a.2), a.1.as_str()).cmp(&(
            rank(b.0),
            std::cmp::Reverse(b.2),
            b.1.as_str(),
        ))
    });
    let mut text = String::new();
    for (severity, code, count, first) in groups {
        let message = first.message.lines().next().unwrap_or("");
        let place = first
            .location()
            .map(|location| format!("{}: ", printable(&location)))
            .unwrap_or_default();
        text.push_str(&format!(
            "{severity}[{code}]: {count}, e.g. {place}{}\n",
            printable(message)
        ));
    }
    text
}

/// What a failed run prints: every problem, then `error: <what>: <count>`
/// (see [`count`]).
///
/// ```
/// use skills_build::problem::{Code, Problem};
/// let problems = [Problem::new(Code::YamlSyntax, "a")];
/// assert_eq!(
///     skills_build::diagnostic::failure(&problems, "nothing served"),
///     "error[yaml-syntax]: a\n\nerror: nothing served: 1 error\n",
/// );
/// ```
pub fn failure(problems: &[Problem], what: &str) -> String {
    let mut text = render_all(problems);
    text.push_str(&format!("error: {what}: {}\n", count(problems)));
    text
}

/// `N errors, M warnings, K notes` (or `no problems`), for summary lines;
/// counts of zero are left out.
///
/// ```
/// use skills_build::problem::{Code, Problem};
/// let problems = [
///     Problem::new(Code::YamlSyntax, "a"),
///     Problem::new(Code::BodyTooLong, "b"),
///     Problem::new(Code::BodyTooLong, "c"),
///     Problem::new(Code::JunkSkipped, "d"),
/// ];
/// assert_eq!(skills_build::diagnostic::count(&problems), "1 error, 2 warnings, 1 note");
/// assert_eq!(skills_build::diagnostic::count(&problems[3..]), "no problems, 1 note");
/// assert_eq!(skills_build::diagnostic::count(&[]), "no problems");
/// ```
pub fn count(problems: &[Problem]) -> String {
    let of = |severity: Severity| problems.iter().filter(|p| p.severity == severity).count();
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let mut parts = Vec::new();
    for (severity, word) in [(Severity::Error, "error"), (Severity::Warning, "warning")] {
        let n = of(severity);
        if n > 0 {
            parts.push(plural(n, word));
        }
    }
    if parts.is_empty() {
        parts.push("no problems".to_string());
    }
    let notes = of(Severity::Note);
    if notes > 0 {
        parts.push(plural(notes, "note"));
    }
    parts.join(", ")
}
