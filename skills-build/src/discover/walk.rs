//! Walking a skill's folder: every file under it collected, junk and
//! evaluations left out with a note, names a bundle cannot hold refused,
//! and the walk bounded by the policy's limits.

use skills_core::wire::bundle::{MAX_SKILL_BYTES, SkillFileName};
use skills_core::wire::path::names_skill_file;

use super::model::{Options, ResourceFile, join_location};
use super::problems::{size_problem, unreadable};
use crate::filter::junk;
use crate::printable::{has_control, printable};
use crate::problem::{Code, Problem};
use crate::source::{EntryKind, Source, SourceError, join};

/// The folder of a skill that holds its evaluations (agentskills.io's
/// evaluation guide: `evals/evals.json`, trigger queries), left out of
/// bundles unless [`Options::keep_evals`].
pub const EVALS: &str = "evals";

/// The walk over one skill directory.
pub(super) struct Walk<'w> {
    pub(super) source: &'w dyn Source,
    pub(super) dir: &'w str,
    pub(super) skill_file: SkillFileName,
    pub(super) options: &'w Options,
    pub(super) location: &'w str,
    pub(super) entries: usize,
    /// Bytes read so far, the skill file's included: reading stops past
    /// the per-skill limit, so a skill of many large files cannot take
    /// memory without bound.
    pub(super) bytes: u64,
    pub(super) files: Vec<ResourceFile>,
    pub(super) problems: &'w mut Vec<Problem>,
}

impl Walk<'_> {
    fn full(&self, rel: &str) -> String {
        if rel.is_empty() {
            self.dir.to_string()
        } else {
            join(self.dir, rel)
        }
    }

    fn problem(&mut self, rel: &str, problem: Problem) {
        let file = join_location(self.location, &self.full(rel));
        self.problems.push(problem.with_file(file));
    }

    /// Walks `rel` (relative to the skill directory); returns `false` once
    /// a limit stops the walk.
    pub(super) fn walk(&mut self, rel: &str, depth: usize) -> bool {
        if depth > self.options.policy.limits.max_depth {
            let max = self.options.policy.limits.max_depth;
            self.problem(
                rel,
                Problem::new(Code::TreeTooDeep, format!(
                    "directories nest deeper than {max} levels here; is a symbolic link pointing back up the tree?"
                ))
                .with_hint("remove the link, or exclude the directory"),
            );
            return false;
        }
        let listing = match self.source.list(&self.full(rel)) {
            Ok(listing) => listing,
            Err(error) => {
                self.problem(
                    rel,
                    unreadable(
                        Code::SourceUnreadable,
                        format!("cannot list the directory: {error}"),
                        &error,
                    ),
                );
                return true;
            }
        };
        for entry in listing {
            self.entries += 1;
            if self.entries > self.options.policy.limits.max_entries {
                let max = self.options.policy.limits.max_entries;
                self.problem(
                    rel,
                    Problem::new(Code::TreeTooManyEntries, format!(
                        "the skill holds more than {max} files and directories; is a symbolic link looping?"
                    ))
                    .with_hint("exclude generated or vendored directories"),
                );
                return false;
            }
            let path = if rel.is_empty() {
                entry.name.clone()
            } else {
                format!("{rel}/{}", entry.name)
            };
            if rel.is_empty() && entry.name == self.skill_file.as_str() {
                continue;
            }
            if self.options.excluded(&path) {
                continue;
            }
            if !self.options.keep_junk
                && let Some(kind) = junk(&entry.name, entry.kind == EntryKind::Dir)
            {
                let what = if entry.kind == EntryKind::Dir {
                    "directory"
                } else {
                    "file"
                };
                self.problem(
                    &path,
                    Problem::new(
                        Code::JunkSkipped,
                        format!("left out {path}: {kind}, not part of the skill"),
                    )
                    .with_hint(format!(
                        "delete the {what}, or embed it anyway with keep_junk (skills: --keep-junk)"
                    )),
                );
                continue;
            }
            if rel.is_empty()
                && entry.name == EVALS
                && entry.kind == EntryKind::Dir
                && !self.options.keep_evals
            {
                self.problem(
                    &path,
                    Problem::new(
                        Code::EvalsSkipped,
                        format!("left out {path}/: evaluations, authoring material a shipped skill does not need"),
                    )
                    .with_hint("embed it anyway with keep_evals = true (skills: --keep-evals)"),
                );
                continue;
            }
            if entry.name.contains('\\') {
                self.problem(
                    &path,
                    Problem::new(
                        Code::FileNameBackslash,
                        "the name holds a backslash, which the skill tool refuses in paths",
                    )
                    .with_hint("rename it, or exclude it"),
                );
                continue;
            }
            if has_control(&entry.name) {
                self.problem(
                    &printable(&path),
                    Problem::new(Code::FileNameControl, format!(
                        "the name {:?} holds a control character, a bidirectional control or a tag character, which would forge or hide text in the file list a model reads",
                        entry.name
                    ))
                    .with_hint("rename it, or exclude it"),
                );
                continue;
            }
            match entry.kind {
                EntryKind::Dir => {
                    if !self.walk(&path, depth + 1) {
                        return false;
                    }
                }
                EntryKind::File => {
                    if !self.file(&path) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Reads one file; returns `false` once the skill's byte limit stops
    /// the walk.
    fn file(&mut self, path: &str) -> bool {
        if names_skill_file(path) {
            let used = self.skill_file.as_str();
            self.problem(
                path,
                Problem::new(Code::SkillFileDuplicate, format!(
                    "{path} sits beside {used}; a read of it would serve the instructions of {used}"
                ))
                .with_hint("merge the two files into one"),
            );
            return true;
        }
        match self
            .source
            .read_limited(&self.full(path), self.options.policy.limits.max_file_size)
        {
            Ok(bytes) => {
                self.bytes += bytes.len() as u64;
                self.files.push(ResourceFile {
                    path: path.to_string(),
                    bytes,
                    executable: self.source.executable(&self.full(path)),
                });
                if self.bytes > MAX_SKILL_BYTES {
                    self.problem(
                        path,
                        Problem::new(Code::SkillTooLarge, format!(
                            "the skill's files add up to more than {MAX_SKILL_BYTES} bytes (16 MiB) here, over the MCP Skills extension's limit per skill; the rest are not read"
                        ))
                        .with_hint("move large files out of the skill, or split it in two"),
                    );
                    return false;
                }
            }
            Err(SourceError::TooLarge { size, limit, .. }) => {
                self.problem(path, size_problem(size, limit));
            }
            Err(error) => self.problem(
                path,
                unreadable(
                    Code::FileUnreadable,
                    format!("cannot read the file: {error}"),
                    &error,
                ),
            ),
        }
        true
    }
}
