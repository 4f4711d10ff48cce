//! The policy the rules hold a build to, built once from the `Builder`:
//! the rules allowed by name, the hosts targeted, the extension fields,
//! whether a warning fails, and the limits of a skill's walk.

use crate::problem::{Code, Problem, Rule, Severity};

/// The default largest file embedded: 16 MiB, the MCP Skills extension's
/// limit for a whole skill, so no single file exceeds what a host must
/// accept.
///
/// ```
/// assert_eq!(skills_build::DEFAULT_MAX_FILE_SIZE, 16 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// The default deepest directory nesting inside a skill; deeper is taken
/// for a symbolic-link loop.
pub const DEFAULT_MAX_DEPTH: usize = 32;

/// The default most entries (files and directories) walked in one skill.
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;

/// How far a skill's tree is read: bounds decided before the walk.
///
/// ```
/// let limits = skills_build::unstable::rules::Limits::default();
/// assert_eq!(limits.max_file_size, skills_build::DEFAULT_MAX_FILE_SIZE);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest file, in bytes, that may be embedded.
    pub max_file_size: u64,
    /// The deepest directory nesting inside a skill.
    pub max_depth: usize,
    /// The most files and directories walked in one skill.
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            max_depth: DEFAULT_MAX_DEPTH,
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }
}

/// What the rules are asked to hold a build to: built once, from the
/// [`Builder`](crate::Builder), and read by every stage that judges.
///
/// ```
/// use skills_build::problem::{Code, Problem};
/// use skills_build::unstable::rules::Policy;
/// let policy = Policy { allowed: vec![Code::JunkSkipped], ..Policy::default() };
/// assert!(!policy.keeps(&Problem::new(Code::JunkSkipped, "left out")));
/// assert!(policy.keeps(&Problem::new(Code::BodyTooLong, "long")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Policy {
    /// The rules allowed by name: an audit or lint rule allowed does not
    /// run, and any allowed warning or note is not reported (see
    /// `docs/audit.md` and `docs/lints.md`).
    pub allowed: Vec<Code>,
    /// The hosts targeted: their fields are checked with their rules, and
    /// their budgets and files too (see the `hosts` rule book).
    pub hosts: crate::rules::hosts::Hosts,
    /// Accept agentskills-core's extension fields (`version`,
    /// `when_to_use`, `when_not_to_use`, a `metadata.tags` list) with its
    /// rules; off by default, when the reference rejects them as unknown
    /// keys (see the compiler's `extension_fields` module).
    pub extensions: bool,
    /// A warning fails the build, as an error does (notes never fail).
    pub deny_warnings: bool,
    /// Report a shadowed skill as an error instead of a warning (for the
    /// macro, which has no way to show a warning).
    pub deny_shadowing: bool,
    /// How far a skill's tree is read.
    pub limits: Limits,
}

impl Policy {
    /// Whether `problem` is reported: not an allowed warning or note, nor
    /// an error of an allowed audit or lint rule (the errors of the other
    /// books cannot be allowed).
    pub fn keeps(&self, problem: &Problem) -> bool {
        !(self.allowed.contains(&problem.code)
            && (!problem.is_error() || matches!(problem.rule(), Rule::Audit | Rule::Lint)))
    }

    /// Whether, with [`deny_warnings`](Self::deny_warnings), a warning
    /// among `problems` refuses the bundle (the errors of the skills a
    /// `keep_going` build left out do not: those leave their skill out).
    pub fn denies(&self, problems: &[Problem]) -> bool {
        self.deny_warnings
            && problems
                .iter()
                .any(|problem| problem.severity == Severity::Warning)
    }
}
