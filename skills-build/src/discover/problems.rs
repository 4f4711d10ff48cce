//! The problems of sources and files as discovery names them: a source
//! that holds no skill (with a hint when the skills sit elsewhere), one
//! that cannot be opened or listed, a file over the size limit.

use std::path::Path;

use super::model::{Root, join_location, skill_file_in};
use crate::filter::junk;
use crate::problem::{Code, Problem};
use crate::source::EntryKind;
use crate::source::SourceError;

/// The error for a source that holds no skill.
pub fn no_skill_problem(root: Root<'_>, entries: &[crate::source::DirEntry]) -> Problem {
    let location = root.source.location();
    let problem = Problem::new(
        Code::NoSkills,
        format!(
            "no skill found in {location}: neither {} nor {} exists",
            join_location(location, "SKILL.md"),
            join_location(location, "*/SKILL.md"),
        ),
    )
    .with_file(location);
    match no_skill_hint(root, entries) {
        Some(hint) => problem.with_hint(hint),
        None => problem
            .with_hint("give a skill folder (it holds SKILL.md) or a folder of skill folders"),
    }
}

/// Where the skills might be when a source holds none: one level deeper
/// (the source is a skills folder's parent), or around it (the source is a
/// folder inside a skill).
fn no_skill_hint(root: Root<'_>, entries: &[crate::source::DirEntry]) -> Option<String> {
    let location = root.source.location();
    let mut deeper = Vec::new();
    for entry in entries.iter().filter(|e| e.kind == EntryKind::Dir) {
        if junk(&entry.name, true).is_some() {
            continue;
        }
        let Ok(children) = root.source.list(&entry.name) else {
            continue;
        };
        let holds_skills = children.iter().any(|child| {
            child.kind == EntryKind::Dir
                && root
                    .source
                    .list(&format!("{}/{}", entry.name, child.name))
                    .is_ok_and(|listing| skill_file_in(&listing).is_some())
        });
        if holds_skills {
            deeper.push(join_location(location, &entry.name));
        }
    }
    if !deeper.is_empty() {
        return Some(format!(
            "skills sit one level deeper, in {}: give {} instead",
            deeper.join(", "),
            if deeper.len() == 1 {
                "that folder"
            } else {
                "those folders"
            }
        ));
    }
    let path = root.path?;
    let real = crate::real_path::canonicalize(path).ok()?;
    let skill = real.ancestors().skip(1).find(|dir| {
        crate::skill_file::SKILL_FILE_NAMES
            .iter()
            .any(|name| dir.join(name).is_file())
    })?;
    let depth = real.ancestors().position(|dir| dir == skill)?;
    // Name the skill the way the user named the source when that works.
    let lexical = Path::new(location)
        .ancestors()
        .nth(depth)
        .filter(|p| !p.as_os_str().is_empty())
        .filter(|p| crate::real_path::canonicalize(p).ok().as_deref() == Some(skill));
    let shown = lexical.map_or_else(|| skill.display().to_string(), |p| p.display().to_string());
    Some(format!(
        "{location} is inside the skill {shown}; give the skill folder {shown} instead"
    ))
}

/// The problem of a file over the size limit; `size` is `None` when the
/// file grew past the limit while it was read.
pub(super) fn size_problem(size: Option<u64>, max: u64) -> Problem {
    let message = match size {
        Some(size) => format!("the file is {size} bytes, over the {max}-byte limit for one file"),
        None => format!("the file holds more than the {max}-byte limit for one file"),
    };
    Problem::new(Code::FileTooLarge, message)
        .with_hint("exclude it, make it smaller, or raise the limit (max_file_size)")
}

/// A source that could not list or read a path: `message` (which quotes
/// `error`), with the error's help line when it has one (a link leaving the
/// source: copy its target in).
pub fn unreadable(code: Code, message: String, error: &SourceError) -> Problem {
    let problem = Problem::new(code, message);
    match error.hint() {
        Some(hint) => problem.with_hint(hint),
        None => problem,
    }
}

/// The problem for a source directory that could not be opened: missing,
/// not a directory (a skill file given for its folder is hinted), or
/// unreadable.
pub fn open_problem(dir: &Path, error: &crate::source::SourceError) -> Problem {
    use crate::source::SourceError;
    let shown = dir.display().to_string();
    let problem = match error {
        SourceError::NotFound(_) => Problem::new(
            Code::SourceNotFound,
            format!("the source {shown} does not exist"),
        ),
        SourceError::Io { error, .. } if error.kind() == std::io::ErrorKind::NotADirectory => {
            let problem = Problem::new(
                Code::SourceNotDirectory,
                format!("the source {shown} is not a directory"),
            );
            match dir.parent() {
                Some(parent)
                    if crate::skill_file::SKILL_FILE_NAMES
                        .iter()
                        .any(|name| dir.file_name() == Some(std::ffi::OsStr::new(name))) =>
                {
                    let parent = match parent.as_os_str().is_empty() {
                        true => ".".to_string(),
                        false => parent.display().to_string(),
                    };
                    problem.with_hint(format!("give the skill folder {parent} instead"))
                }
                _ => problem.with_hint("give a skill folder or a folder of skills"),
            }
        }
        other => Problem::new(
            Code::SourceUnreadable,
            format!("cannot open the source {shown}: {other}"),
        ),
    };
    problem.with_file(shown)
}
