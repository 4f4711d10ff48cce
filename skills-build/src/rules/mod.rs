//! The judge: every rule a skill and a catalog are held to, run from one
//! place, with one [`Policy`].
//!
//! Discovery resolves sources, reads, walks and names skills; it hands
//! each skill as read to [`judge_skill`] once, and each listed skill to
//! the [`Catalog`] judge, whose verdict comes when the last one is in.
//! The rule books are the modules here:
//!
//! - [`reference`]: the reference validator's rules (skills-ref 0.1.1, its
//!   order and wording), then the specification's and the extension
//!   fields' rules it does not check;
//! - [`hosts`]: the fields, sidecar and budgets of the hosts a project
//!   targets, one profile row per host;
//! - [`content`]: the audit and the lints, over every file of a skill;
//! - [`limits`]: the MCP Skills extension's per-skill limits, which the
//!   compiler checks before it encodes a skill the rules above passed.
//!
//! Where each rule runs is a column of the rule table
//! ([`Code::stage`](crate::problem::Code::stage)).
//!
//! ```
//! use skills_build::unstable::rules::Policy;
//! let policy = Policy::default();
//! assert!(policy.allowed.is_empty() && policy.hosts.is_empty() && !policy.deny_warnings);
//! ```

pub mod content;
pub mod hosts;
pub(crate) mod limits;
pub mod reference;

use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Problem, Rule, Severity};

/// The largest file, in bytes, that may be embedded, unless raised.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// The deepest directory nesting inside a skill that is walked.
pub const DEFAULT_MAX_DEPTH: usize = 32;

/// The most files and directories walked in one skill.
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
    pub hosts: hosts::Hosts,
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

/// One skill as discovery read it, for the judge: where it is, its skill
/// file's bytes and document (when it parsed), and its other files.
pub(crate) struct SkillInput<'a> {
    /// The skill's folder name, which `name` must equal.
    pub(crate) dir: &'a str,
    /// The skill file's name (`SKILL.md` or `skill.md`).
    pub(crate) skill_file: &'a str,
    /// The skill file's location, as problems name files.
    pub(crate) file_location: &'a str,
    /// The skill folder's location.
    pub(crate) folder_location: &'a str,
    /// The Codex sidecar's location.
    pub(crate) sidecar_location: &'a str,
    /// The skill file's bytes.
    pub(crate) bytes: &'a [u8],
    /// The skill file read, when it parsed.
    pub(crate) document: Option<&'a SkillDocument>,
    /// The skill's other files, sorted by path.
    pub(crate) files: &'a [content::File<'a>],
}

impl hosts::sidecar::SkillFiles for &[content::File<'_>] {
    fn bytes_of(&self, path: &str) -> Option<&[u8]> {
        self.binary_search_by(|file| file.path.as_bytes().cmp(path.as_bytes()))
            .ok()
            .map(|at| self[at].bytes)
    }
}

/// Every rule of one skill, in rule-book order: the reference's and the
/// specification's (with the chosen hosts' fields), the fence lines, the
/// hosts' files, then the audit and the lints not allowed. The problems
/// not kept by the policy are left out.
pub(crate) fn judge_skill(skill: &SkillInput<'_>, policy: &Policy) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(doc) = skill.document {
        for problem in reference::validate_with(doc, skill.dir, policy) {
            problems.push(problem.with_file(skill.file_location));
        }
        if let Err(problem) = crate::fence::parts(doc) {
            problems.push(problem.with_file(skill.file_location));
        }
    }
    problems.extend(hosts::sidecar::check(
        &skill.files,
        policy.hosts,
        skill.sidecar_location,
    ));
    problems.extend(content::check(
        &content::Skill {
            skill_file: skill.skill_file,
            file_location: skill.file_location,
            folder_location: skill.folder_location,
            bytes: skill.bytes,
            document: skill.document,
            files: skill.files,
        },
        &policy.allowed,
    ));
    problems.retain(|problem| policy.keeps(problem));
    problems
}

/// The rules over the catalog as a whole (the hosts' listing budgets):
/// each listed skill added as it is named, the verdict at the end.
#[derive(Debug)]
pub(crate) struct Catalog(hosts::budget::Catalog);

impl Catalog {
    /// A catalog judge for `policy`'s hosts.
    pub(crate) fn new(policy: &Policy) -> Self {
        Catalog(hosts::budget::Catalog::new(policy.hosts))
    }

    /// Adds one listed skill.
    pub(crate) fn add(&mut self, name: &str, description: &str) {
        self.0.add(name, description);
    }

    /// The catalog's problems, once every skill is in.
    pub(crate) fn finish(self, policy: &Policy) -> Option<Problem> {
        self.0.finish().filter(|problem| policy.keeps(problem))
    }
}
