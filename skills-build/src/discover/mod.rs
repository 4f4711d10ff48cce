//! Finding skills across an ordered list of sources.
//!
//! A source is either **one skill** or **a collection**, the same in the
//! CLI, the `Builder` and `include_skills!`:
//!
//! - a source whose own listing holds `SKILL.md` (else `skill.md`, names
//!   matched exactly) is one skill, named after the source's directory;
//! - otherwise each direct child directory holding a skill file is a skill;
//! - a source with neither is an error ([`Code::NoSkills`]) naming the path
//!   and what was looked for, with a hint when skills sit one level deeper
//!   (the path is a skills folder's parent) or when the path is inside a
//!   skill (a skill's child).
//!
//! Each skill's file is read, parsed and validated, and every other file
//! under it is collected, sorted by path in byte order. What operating
//! systems, editors, version control and caches leave behind
//! ([`crate::filter::junk`]) is left out and reported as a note, unless
//! [`Options::keep_junk`] asks to embed it. Names resolve the way `PATH`
//! resolves a command: the first source to offer a name wins it; a later
//! skill of that name is shadowed (a warning), unless its source has a
//! qualifier, in which case it is listed as `qualifier:name`.
//!
//! Every problem is collected; nothing stops at the first, nothing panics.

mod model;
mod names;
mod problems;
mod read;
#[cfg(test)]
mod tests;
mod walk;

use std::collections::BTreeSet;
use std::path::Path;

pub(crate) use model::join_location;
pub use model::skill_file_in;
pub use model::{
    DiscoveredSkill, Discovery, Layout, Listing, Options, ResourceFile, Root, SourceReport,
};
pub use problems::{no_skill_problem, open_problem, unreadable};

use crate::findings_cache::FindingsCache;
use crate::problem::{Code, Problem};
use crate::rules;
use crate::source::EntryKind;
use names::Names;
use read::read_skill;

fn check_qualifier(qualifier: &str) -> Option<&'static str> {
    if qualifier.is_empty() {
        Some("is empty")
    } else if qualifier
        .chars()
        .any(|c| c.is_whitespace() || c.is_control())
    {
        Some("holds whitespace or a control character")
    } else {
        None
    }
}

/// How many skill folders of a collection are read (on every core) before
/// they are named and handed on: large enough to keep every thread busy,
/// small beside a registry.
const WINDOW: usize = 256;

/// What is called with the discovery so far and the range of its skills
/// just read, validated and named (listed or not): a window of at most
/// [`WINDOW`] skills at a time, in search order.
pub(crate) type Each<'e> = dyn FnMut(&mut Discovery, std::ops::Range<usize>) + 'e;

/// [`discover`], handing each window of skills to `each` as soon as it is
/// read and named, so that a compiler can take them on (and drop what was
/// read of them) before the next window is read. The discovery that comes
/// out is the same as [`discover`]'s, but for what `each` changed.
///
/// The content rules' findings of a skill whose bytes are those `findings`
/// recorded are taken from it (see the `findings_cache` module).
pub(crate) fn discover_each(
    roots: &[Root<'_>],
    options: &Options,
    findings: &FindingsCache,
    each: &mut Each<'_>,
) -> Discovery {
    let mut found = Discovery::default();
    let mut names = Names::default();
    let mut catalog = rules::Catalog::new(&options.policy);
    let mut seen_locations = BTreeSet::new();
    for (index, root) in roots.iter().enumerate() {
        let location = root.source.location();
        let key = location.strip_suffix('/').unwrap_or(location).to_string();
        found.sources.push(SourceReport {
            location: location.to_string(),
            layout: None,
            skills: 0,
        });
        if !seen_locations.insert(key) {
            found.problems.push(
                Problem::new(
                    Code::SourceDuplicate,
                    format!("the source {location} is given twice; each source may appear once"),
                )
                .with_file(location),
            );
            continue;
        }
        if let Some(reason) = root.qualifier.and_then(check_qualifier) {
            found.problems.push(
                Problem::new(
                    Code::QualifierInvalid,
                    format!(
                        "the qualifier {:?} of source {location} {reason}",
                        root.qualifier.unwrap_or_default()
                    ),
                )
                .with_file(location)
                .with_hint("use a short word such as `team` or `vendor`"),
            );
            continue;
        }
        let before = found.skills.len();
        let mut named = |found: &mut Discovery, range: std::ops::Range<usize>| {
            names.assign(roots, options, found, range.clone());
            for skill in &found.skills[range.clone()] {
                if let (Some(_), Some(name), Some(description)) =
                    (skill.listing.name(), skill.name(), skill.description())
                {
                    catalog.add(name, description);
                }
            }
            each(found, range);
        };
        let layout = discover_source(index, *root, (options, findings), &mut found, &mut named);
        if let Some(report) = found.sources.last_mut() {
            report.layout = layout;
            report.skills = found.skills.len() - before;
        }
    }
    // The shadowing problems, after every other: the order they have
    // always had before sorting.
    let policy = &options.policy;
    found.problems.extend(
        names
            .problems
            .drain(..)
            .filter(|problem| policy.keeps(problem)),
    );
    found.problems.extend(catalog.finish(policy));
    Problem::sort(&mut found.problems);
    found
}

/// The name of the directory a source that is one skill reads: the last
/// segment of its location, or of its real path on disk when the location
/// has none (`.`, `..`).
fn folder_name(root: Root<'_>) -> String {
    let lexical = skills_pycompat::pathlib::dir_name(Path::new(root.source.location()));
    if !lexical.is_empty() && lexical != ".." {
        return lexical;
    }
    root.path
        .and_then(|path| crate::real_path::canonicalize(path).ok())
        .and_then(|real| real.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or(lexical)
}

/// Reads one source; returns what it turned out to be (`None` when it
/// could not be listed or held no skill, both reported).
fn discover_source(
    index: usize,
    root: Root<'_>,
    (options, findings): (&Options, &FindingsCache),
    found: &mut Discovery,
    named: &mut Each<'_>,
) -> Option<Layout> {
    let source = root.source;
    let location = source.location();
    let entries = match source.list("") {
        Ok(entries) => entries,
        Err(error) => {
            found.problems.push(
                unreadable(
                    Code::SourceUnreadable,
                    format!("cannot list the source {location}: {error}"),
                    &error,
                )
                .with_file(location),
            );
            return None;
        }
    };
    if let Some(skill_file) = skill_file_in(&entries) {
        let name = folder_name(root);
        let before = found.problems.len();
        let skill = read_skill(
            index,
            source,
            (&name, ""),
            skill_file,
            (options, findings),
            &mut found.problems,
        );
        let owner = found.skills.len();
        for problem in &mut found.problems[before..] {
            problem.set_skill(owner);
        }
        found.skills.push(skill);
        named(found, found.skills.len() - 1..found.skills.len());
        return Some(Layout::Skill);
    }
    let before = found.skills.len();
    // Each folder is listed, read and validated on its own, on every core;
    // the results are taken in folder order, as one thread would.
    let dirs: Vec<&str> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Dir)
        .map(|e| e.name.as_str())
        .collect();
    let read_window = |dirs: &[&str]| {
        crate::parallel::map(dirs, options.threads, |dir| {
            let mut problems = Vec::new();
            let listing = match source.list(dir) {
                Ok(listing) => listing,
                Err(error) => {
                    problems.push(
                        unreadable(
                            Code::SourceUnreadable,
                            format!("cannot list {dir}: {error}"),
                            &error,
                        )
                        .with_file(join_location(location, dir)),
                    );
                    return (problems, None);
                }
            };
            let skill = skill_file_in(&listing).map(|skill_file| {
                read_skill(
                    index,
                    source,
                    (dir, dir),
                    skill_file,
                    (options, findings),
                    &mut problems,
                )
            });
            (problems, skill)
        })
    };
    for window in dirs.chunks(WINDOW) {
        let start = found.skills.len();
        for (mut problems, skill) in read_window(window) {
            // A folder's problems belong to its skill, when it has one.
            if skill.is_some() {
                let owner = found.skills.len();
                for problem in &mut problems {
                    problem.set_skill(owner);
                }
            }
            found.problems.extend(problems);
            found.skills.extend(skill);
        }
        named(found, start..found.skills.len());
    }
    if found.skills.len() > before {
        return Some(Layout::Collection);
    }
    found.problems.push(no_skill_problem(root, &entries));
    None
}
