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

/// A message as a compile error says it: the reference validator's
/// Python turns of phrase in plain words. `skills validate` keeps the
/// reference's exact text; a compiler error is read by someone fixing a
/// file, so a YAML error loses its `in "<unicode string>", line L, column
/// C:` line and the `(line: L)` after its caret (the location says where),
/// and a Python list (`['name', 'description']`) becomes a plain one
/// (`name, description`).
///
/// ```
/// use skills_build::diagnostic::plain;
/// assert_eq!(
///     plain("Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"<unicode string>\", line 3, column 24:\n    description: Uses {flow: style}\n                           ^ (line: 3)"),
///     "Invalid YAML in frontmatter: mapping values are not allowed here\n    description: Uses {flow: style}\n                           ^",
/// );
/// assert_eq!(
///     plain("Unexpected fields in frontmatter: author. Only ['name', 'description'] are allowed."),
///     "Unexpected fields in frontmatter: author. Only name, description are allowed.",
/// );
/// ```
pub fn plain(message: &str) -> String {
    let mut lines = Vec::new();
    for line in message.split('\n') {
        if is_mark_line(line) {
            continue;
        }
        lines.push(strip_line_mark(line));
    }
    plain_lists(&lines.join("\n"))
}

/// A YAML error's mark line, `  in "<input>", line L, column C:` or
/// `  in "<input>", position P`, whatever the input is named (the
/// reference's `<unicode string>`, or the file the gate names).
fn is_mark_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("  in \"") else {
        return false;
    };
    let Some(at) = rest.rfind("\", ") else {
        return false;
    };
    let tail = &rest[at + 3..];
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if let Some(position) = tail.strip_prefix("position ") {
        return digits(position);
    }
    let Some(place) = tail.strip_prefix("line ").and_then(|t| t.strip_suffix(':')) else {
        return false;
    };
    match place.split_once(", column ") {
        Some((line, column)) => digits(line) && digits(column),
        None => false,
    }
}

/// A caret line without its trailing ` (line: N)`.
fn strip_line_mark(line: &str) -> &str {
    if let Some(at) = line.rfind(" (line: ")
        && line.ends_with(')')
        && line[at + 8..line.len() - 1]
            .bytes()
            .all(|b| b.is_ascii_digit())
        && line[..at].trim() == "^"
    {
        return &line[..at];
    }
    line
}

/// Python list literals of strings (`['a', 'b']`) written as `a, b`.
fn plain_lists(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("['") {
        let Some(len) = rest[start..].find("']") else {
            break;
        };
        let inner = &rest[start + 2..start + len];
        out.push_str(&rest[..start]);
        out.push_str(&inner.replace("', '", ", "));
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

/// Every problem as a `cargo::error=` line (warnings and notes as
/// `cargo::warning=` lines), for a build script.
///
/// ```
/// use skills_build::problem::{Code, Position, Problem};
/// let problem = Problem::new(Code::NameLowercase, "Skill name 'PDF' must be lowercase")
///     .with_file("skills/PDF/SKILL.md")
///     .at(Position { line: 2, column: 7 })
///     .with_hint("write it as 'pdf'");
/// assert_eq!(
///     skills_build::diagnostic::cargo_lines(&[problem]),
///     "cargo::error=skills/PDF/SKILL.md:2:7: Skill name 'PDF' must be lowercase [name-lowercase] (help: write it as 'pdf')\n",
/// );
/// ```
pub fn cargo_lines(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|problem| match problem.severity {
            Severity::Error => cargo_line("error", problem),
            _ => cargo_line("warning", problem),
        })
        .map(|line| line + "\n")
        .collect()
}

/// One problem as one `cargo::KIND=` line: where, the message's first line
/// in plain words (Cargo says "warning:" or "error:" itself, so the
/// message does not), the rule, and the hint. A directive is one line, so
/// a YAML error's snippet is left out; the location points at it.
pub(crate) fn cargo_line(kind: &str, problem: &Problem) -> String {
    let message = plain(&problem.message);
    let first = message.lines().next().unwrap_or_default();
    let mut line = format!("cargo::{kind}=");
    if let Some(location) = problem.location() {
        line.push_str(&location);
        line.push_str(": ");
    }
    line.push_str(first);
    line.push_str(&format!(" [{}]", problem.code));
    if let Some(hint) = &problem.hint {
        line.push_str(&format!(" (help: {hint})"));
    }
    crate::printable::printable(&line).into_owned()
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

/// `n` with a comma between groups of three digits, as counts and sizes
/// read in messages.
///
/// ```
/// use skills_build::diagnostic::thousands;
/// assert_eq!((thousands(999), thousands(1_536), thousands(1_234_567)), ("999".into(), "1,536".into(), "1,234,567".into()));
/// ```
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{Code, Position};

    /// A mark line goes whatever it names, the reference's input or the
    /// file the gate names; a snippet line that looks like one stays.
    #[test]
    fn plain_drops_mark_lines_naming_any_input() {
        let message = "Invalid YAML in frontmatter: bad\n  in \"skills/a b/SKILL.md\", line 3, column 24:\n    x: 1\n    ^ (line: 3)";
        assert_eq!(
            plain(message),
            "Invalid YAML in frontmatter: bad\n    x: 1\n    ^"
        );
        let message = "unacceptable character #x007f: special characters are not allowed\n  in \"<unicode string>\", position 26";
        assert_eq!(
            plain(message),
            "unacceptable character #x007f: special characters are not allowed"
        );
        for kept in [
            "    in \"x\", line 1, column 2:",
            "  in \"x\", line one, column 2:",
            "  in \"x\", position",
            "  in x, line 1, column 2:",
        ] {
            assert!(!is_mark_line(kept), "{kept}");
        }
    }

    /// Issue 20, finding 9: the build script's lines are Cargo directives,
    /// a warning says "warning:" once (Cargo's own), a YAML error is one
    /// line in plain words with the help for an unquoted `: `.
    #[test]
    fn cargo_lines_say_each_problem_once_in_plain_words() {
        let warning = Problem::new(Code::BodyTooLong, "The body is 612 lines long")
            .with_file("skills/notes/SKILL.md")
            .at(Position { line: 5, column: 1 });
        let line = cargo_line("warning", &warning);
        assert_eq!(
            line,
            "cargo::warning=skills/notes/SKILL.md:5:1: The body is 612 lines long [body-too-long]"
        );
        assert_eq!(line.matches("warning").count(), 1, "{line}");
        let error =
            crate::frontmatter::parse_text("---\nname: notes\ndescription: Use when: asked\n---\n")
                .unwrap_err()
                .to_problem()
                .with_file("skills/notes/SKILL.md");
        let lines = cargo_lines(&[error, warning]);
        assert_eq!(
            lines,
            "cargo::error=skills/notes/SKILL.md:3:22: Invalid YAML in frontmatter: mapping values are not allowed here [yaml-syntax] (help: quote the value: a plain value cannot hold `: `, so write it as key: \"...\")\ncargo::warning=skills/notes/SKILL.md:5:1: The body is 612 lines long [body-too-long]\n"
        );
        assert!(!lines.contains("<unicode string>"));
    }
}
