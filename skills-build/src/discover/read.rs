//! Reading one skill: its skill file read and parsed, its folder walked,
//! and the skill judged once, by the rules (see [`crate::rules`]).

use skills_core::wire::bundle::SkillFileName;

use super::model::{DiscoveredSkill, Listing, Options, join_location};
use super::problems::{size_problem, unreadable};
use super::walk::Walk;
use crate::findings_cache::FindingsCache;
use crate::frontmatter::{self, SkillDocument};
use crate::problem::{Code, Problem};
use crate::rules;
use crate::source::{Source, SourceError, join};

/// Reads the skill named `name` at `path` in the source, walks its
/// folder and has it judged (see [`rules::judge_skill`]); the problems met
/// go to `problems`, but those the policy does not keep.
pub(super) fn read_skill(
    index: usize,
    source: &dyn Source,
    (name, path): (&str, &str),
    skill_file: SkillFileName,
    (options, findings): (&Options, &FindingsCache),
    problems: &mut Vec<Problem>,
) -> DiscoveredSkill {
    let before = problems.len();
    let location = source.location();
    let file_location = join_location(location, &join(path, skill_file.as_str()));
    let mut skill_file_bytes = Vec::new();
    let document = read_document(
        source,
        path,
        skill_file,
        &file_location,
        options,
        problems,
        &mut skill_file_bytes,
    );
    let mut walk = Walk {
        source,
        dir: path,
        skill_file,
        options,
        location,
        entries: 0,
        bytes: skill_file_bytes.len() as u64,
        files: Vec::new(),
        problems,
    };
    walk.walk("", 0);
    let mut files = walk.files;
    files.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
    let policy = &options.policy;
    let kept: Vec<Problem> = problems
        .drain(before..)
        .filter(|problem| policy.keeps(problem))
        .collect();
    problems.extend(kept);
    let views: Vec<rules::content::File<'_>> = files
        .iter()
        .map(|file| rules::content::File {
            path: &file.path,
            bytes: &file.bytes,
        })
        .collect();
    problems.extend(rules::judge_skill(
        &rules::SkillInput {
            dir: name,
            skill_file: skill_file.as_str(),
            file_location: &file_location,
            folder_location: &join_location(location, path),
            sidecar_location: &join_location(location, &join(path, rules::hosts::sidecar::SIDECAR)),
            bytes: &skill_file_bytes,
            document: document.as_ref(),
            files: &views,
        },
        policy,
        findings,
    ));
    DiscoveredSkill {
        source: index,
        source_location: location.to_string(),
        dir: name.to_string(),
        path: path.to_string(),
        skill_file,
        file_location,
        document,
        skill_file_bytes,
        files,
        listing: Listing::Unlisted(String::new()),
    }
}

/// Reads and parses the skill file (the judge reads the document later).
fn read_document(
    source: &dyn Source,
    path: &str,
    skill_file: SkillFileName,
    file_location: &str,
    options: &Options,
    problems: &mut Vec<Problem>,
    raw: &mut Vec<u8>,
) -> Option<SkillDocument> {
    let max = options.policy.limits.max_file_size;
    let bytes = match source.read_limited(&join(path, skill_file.as_str()), max) {
        Ok(bytes) => bytes,
        Err(SourceError::TooLarge { size, limit, .. }) => {
            problems.push(size_problem(size, limit).with_file(file_location));
            return None;
        }
        Err(error) => {
            problems.push(
                unreadable(
                    Code::SkillFileUnreadable,
                    format!("cannot read the skill file: {error}"),
                    &error,
                )
                .with_file(file_location),
            );
            return None;
        }
    };
    let parsed = frontmatter::parse(&bytes);
    *raw = bytes;
    match parsed {
        Ok(doc) => Some(doc),
        Err(error) => {
            problems.push(error.to_problem_in(file_location));
            None
        }
    }
}
