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
mod policy;
pub mod reference;

pub use policy::{DEFAULT_MAX_FILE_SIZE, Limits, Policy};

use crate::findings_cache::FindingsCache;
use crate::frontmatter::SkillDocument;
use crate::problem::Problem;

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
/// hosts' files, then the audit and the lints not allowed (taken from
/// `findings` when it recorded this skill's very bytes). The problems not
/// kept by the policy are left out.
pub(crate) fn judge_skill(
    skill: &SkillInput<'_>,
    policy: &Policy,
    findings: &FindingsCache,
) -> Vec<Problem> {
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
    let inputs: Vec<(&str, &[u8])> = skill
        .files
        .iter()
        .map(|file| (file.path, file.bytes))
        .collect();
    problems.extend(findings.findings(
        skill.file_location,
        skill.bytes,
        &inputs,
        &policy.allowed,
        || {
            content::check(
                &content::Skill {
                    skill_file: skill.skill_file,
                    file_location: skill.file_location,
                    folder_location: skill.folder_location,
                    bytes: skill.bytes,
                    document: skill.document,
                    files: skill.files,
                },
                &policy.allowed,
            )
        },
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
