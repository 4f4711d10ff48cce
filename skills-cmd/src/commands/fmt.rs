//! `fmt [--check] SRC...`: skill files written back in their canonical
//! form (see `crate::canonical`).

use std::path::{Path, PathBuf};

use crate::canonical::{FormatError, format};
use crate::skill_dir::find_skill_file;
use skills_build::problem::{Code, Problem};
use skills_build::source::{DirSource, EntryKind, Source};
use skills_build::unstable::discover::{
    Root, no_skill_problem, open_problem, skill_file_in, unreadable,
};
use skills_build::{Layout, SourceReport, diagnostic};

use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{Arg, CommandSpec, Invocation, Opt};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "fmt",
    summary: "Write skill files in their canonical form.",
    about: "Each SRC is a SKILL.md, a skill directory, or a directory whose subdirectories are skills. The frontmatter is written back with the specification's keys first, in its order (name, description, license, compatibility, metadata, allowed-tools), the other keys after them sorted, and values quoted only where YAML needs it (for this reader, for YAML 1.1 readers such as PyYAML, and for YAML 1.2 readers); the body is kept byte for byte. A file that does not parse, or whose frontmatter holds a comment, is reported and left as it is. Files are replaced atomically, through a symbolic link to the file it names; a file with several hard links, or one edited while fmt ran, is reported and left as it is.",
    exit_codes: &[
        (0, "Every file canonical (or now written so)"),
        (
            1,
            "With --check, files would change; or a file could not be formatted",
        ),
    ],
    args: &[Arg {
        metavar: "SRC...",
        many: true,
        must_exist: true,
    }],
    options: &[&[
        Opt::flag(
            "--check",
            "Change nothing; list the files that would change, and exit 1 if any.",
        ),
        gate::VERBOSE.help("Say how each source was read: one skill or a folder of skills."),
    ]],
    run,
};

/// The largest skill file read (the build's default limit for one file).
const MAX_BYTES: u64 = skills_build::DEFAULT_MAX_FILE_SIZE;

/// The skill files one argument names: a skill file itself, or those of
/// the skill folders it names (a skill folder or a folder of skills, as
/// every command reads a source).
/// With how the source was read (`None` for a skill file itself).
fn skill_files(arg: &Path) -> Result<(Vec<PathBuf>, Option<SourceReport>), Problem> {
    if skills_build::unstable::archive::is_archive(arg) && arg.is_file() {
        return Err(Problem::new(
            Code::FmtUnsupported,
            "fmt rewrites skill files in folders, not inside archives; format the folder, then pack it again",
        )
        .with_file(arg.display().to_string()));
    }
    if arg.is_file() {
        return Ok((vec![arg.to_path_buf()], None));
    }
    let (layout, folders) = skill_folders(arg)?;
    let report = SourceReport {
        location: arg.display().to_string(),
        layout: Some(layout),
        skills: folders.len(),
    };
    Ok((
        folders
            .iter()
            .filter_map(|dir| find_skill_file(dir))
            .collect(),
        Some(report),
    ))
}

/// A skill file's bytes, read as every command reads a file a user names:
/// special files refused before opening, at most [`MAX_BYTES`].
fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    skills_build::unstable::read_limit::read_limited(path, MAX_BYTES)
        .map_err(|error| error.to_string())
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let check = call.flag("--check");
    let mut problems = Vec::new();
    let mut files = Vec::new();
    let mut reports = Vec::new();
    for arg in &call.args {
        match skill_files(Path::new(arg)) {
            Ok((found, report)) => {
                files.extend(found);
                reports.extend(report);
            }
            Err(problem) => problems.push(problem),
        }
    }
    gate::say_layouts(call, &reports);
    let (mut changed, mut unchanged) = (Vec::new(), 0usize);
    for file in &files {
        let shown = file.display().to_string();
        let bytes = match read_bounded(file) {
            Ok(bytes) => bytes,
            Err(error) => {
                problems.push(
                    Problem::new(Code::FileUnreadable, format!("cannot read it: {error}"))
                        .with_file(shown),
                );
                continue;
            }
        };
        let canonical = match format(&bytes) {
            Ok(canonical) => canonical,
            Err(error) => {
                // A YAML error names the file, as the gate's do.
                let message = match &error {
                    FormatError::Parse(parse) => parse.to_problem_in(&shown).message,
                    other => other.to_string(),
                };
                problems.push(
                    Problem::new(Code::FmtUnsupported, format!("not formatted: {message}"))
                        .with_file(shown)
                        .at_opt(error.position()),
                );
                continue;
            }
        };
        if canonical == bytes {
            unchanged += 1;
            continue;
        }
        if !check && let Err(error) = crate::atomic::replace(file, &bytes, &canonical) {
            let code = match error {
                crate::atomic::ReplaceError::Io(_) => Code::OutputUnwritable,
                _ => Code::FmtUnsupported,
            };
            problems.push(Problem::new(code, format!("not formatted: {error}")).with_file(shown));
            continue;
        }
        changed.push(shown);
    }
    let mut listing = String::new();
    for file in &changed {
        listing.push_str(file);
        listing.push('\n');
    }
    write(Stream::Out, &listing);
    let mut text = diagnostic::render_all(&problems);
    let verb = if check {
        "would reformat"
    } else {
        "reformatted"
    };
    let plural = |n: usize| if n == 1 { "file" } else { "files" };
    let unformatted = if problems.is_empty() {
        String::new()
    } else {
        format!(", {} not formatted", problems.len())
    };
    text.push_str(&format!(
        "{verb} {} {}, {unchanged} {} already canonical{unformatted}\n",
        changed.len(),
        plural(changed.len()),
        plural(unchanged),
    ));
    write(Stream::Err, &text);
    i32::from(!problems.is_empty() || (check && !changed.is_empty()))
}

/// The skill folders a directory on disk stands for, by the rule every
/// route follows: the directory itself when it holds a skill file, else
/// its direct subdirectories that hold one (in name order, as paths under
/// `dir`). For `fmt`, which rewrites skill files in place; the commands
/// that read skills go through `skills_build::unstable::read` or
/// `Builder::run` instead, which also read archives.
///
/// A path that does not exist, is not a directory, or holds no skill is
/// the same problem the pipeline reports (`no-skills` and so on).
fn skill_folders(dir: &Path) -> Result<(Layout, Vec<std::path::PathBuf>), Problem> {
    let source = DirSource::new(dir).map_err(|error| open_problem(dir, &error))?;
    let root = Root::new(&source).on_disk(dir);
    let location = source.location();
    let entries = source.list("").map_err(|error| {
        unreadable(
            Code::SourceUnreadable,
            format!("cannot list the source {location}: {error}"),
            &error,
        )
        .with_file(location)
    })?;
    if skill_file_in(&entries).is_some() {
        return Ok((Layout::Skill, vec![dir.to_path_buf()]));
    }
    let folders: Vec<_> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Dir)
        .filter(|e| {
            source
                .list(&e.name)
                .is_ok_and(|listing| skill_file_in(&listing).is_some())
        })
        .map(|e| dir.join(&e.name))
        .collect();
    if folders.is_empty() {
        return Err(no_skill_problem(root, &entries));
    }
    Ok((Layout::Collection, folders))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_folders_follow_the_pipelines_rule() {
        let skills = skills_test_support::workspace().join("skills-build/doc-skills");
        let (layout, folders) = super::skill_folders(&skills).unwrap();
        assert_eq!(layout, Layout::Collection);
        assert!(folders.iter().any(|f| f.ends_with("git-rebase")));
        let (layout, folders) = super::skill_folders(&folders[0]).unwrap();
        assert_eq!((layout, folders.len()), (Layout::Skill, 1));
        let missing = super::skill_folders("no/such".as_ref()).unwrap_err();
        assert_eq!(missing.code, Code::SourceNotFound);
    }
}
