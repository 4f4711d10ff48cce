//! What the rules found in one skill, and which rules are left out.

use super::position::Located;
use super::skill::Skill;
use crate::problem::{Code, Position, Problem};

/// The problems of one skill, and which rules to leave out.
pub(crate) struct Findings<'a> {
    allowed: &'a [Code],
    pub(crate) problems: Vec<Problem>,
}

impl<'a> Findings<'a> {
    pub(crate) fn new(allowed: &'a [Code]) -> Self {
        Findings {
            allowed,
            problems: Vec::new(),
        }
    }

    /// Whether the rule runs (it is not allowed by name).
    pub(super) fn wants(&self, code: Code) -> bool {
        !self.allowed.contains(&code)
    }

    /// Whether any of the rules runs.
    pub(super) fn wants_any(&self, codes: &[Code]) -> bool {
        codes.iter().any(|code| self.wants(*code))
    }

    /// Records a finding of `code` in the file at `location`.
    pub(super) fn push(&mut self, problem: Problem, location: String, position: Option<Position>) {
        if self.wants(problem.code) {
            self.problems
                .push(problem.with_file(location).at_opt(position));
        }
    }
}

/// What one rule found in one text: how many places, and the first (its
/// byte offset and what the message says of it). A rule reports one
/// problem per file, at its first place.
pub(super) struct Tally<T> {
    count: usize,
    pub(super) first: Option<(usize, T)>,
}

impl<T> Tally<T> {
    pub(super) fn new() -> Self {
        Tally {
            count: 0,
            first: None,
        }
    }

    /// A place found at byte `at`; `what` is kept for the first one.
    pub(super) fn add(&mut self, at: usize, what: impl FnOnce() -> T) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some((at, what()));
        }
    }

    /// The problem of `code` at the first place, if one was found, in the
    /// file at `path` whose text is `text`: `message` says what is there,
    /// and how many more places there are follows it.
    pub(super) fn report(
        self,
        findings: &mut Findings<'_>,
        (skill, path, text): (&Skill<'_>, &str, &Located<'_>),
        (code, hint): (Code, &str),
        message: impl FnOnce(T) -> String,
    ) {
        if let Some((at, what)) = self.first {
            findings.push(
                Problem::new(code, format!("{}{}", message(what), more(self.count)))
                    .with_hint(hint),
                skill.location_of(path),
                Some(text.position(at)),
            );
        }
    }
}

/// `count` findings of one rule in one file, in words: ` (and 3 more in
/// this file)`, or nothing for one.
fn more(count: usize) -> String {
    match count {
        0 | 1 => String::new(),
        2 => " (and 1 more in this file)".to_string(),
        n => format!(" (and {} more in this file)", n - 1),
    }
}
