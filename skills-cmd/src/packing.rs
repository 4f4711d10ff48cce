//! Packing one skill folder into a `.skill` archive, the way the Claude
//! packager does: entries `<folder>/<path>`, deflated, without
//! `__pycache__`, `node_modules`, `*.pyc` and `.DS_Store`; and, unlike it,
//! with entries sorted and timestamps fixed, so the same folder gives the
//! same bytes on any machine.
//!
//! The folder is read through the door every command reads a source by
//! (`skills_build::unstable::read`), exactly as a build reads it, and
//! refused when the reading finds an error: what goes into the archive is
//! what a build of the folder embeds, so a build from the archive gives
//! the bundle the folder gives.

pub(crate) mod tar;
pub(crate) mod untar;
pub(crate) mod zip;

use std::path::Path;

use skills_build::problem::{Code, Problem};
use skills_build::{Builder, CompileError, Layout};
use zip::{PackEntry, write};

/// What the Claude packager leaves out, as exclude rules.
pub const EXCLUDES: [&str; 4] = ["__pycache__", "node_modules", "*.pyc", ".DS_Store"];

/// A packed skill folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// The folder's name: the first segment of every entry.
    pub folder: String,
    /// The archive's bytes.
    pub bytes: Vec<u8>,
    /// Paths (inside the folder) of the files packed, sorted.
    pub files: Vec<String>,
    /// Warnings discovery reported (packing goes ahead).
    pub warnings: Vec<Problem>,
}

/// The refusal of a folder of skills: `pack` makes one skill's archive.
fn several(dir: &Path, folders: &[std::path::PathBuf]) -> CompileError {
    let shown: Vec<String> = folders
        .iter()
        .take(3)
        .map(|folder| folder.display().to_string())
        .collect();
    let more = match folders.len() {
        n if n > 3 => format!(" and {} more", n - 3),
        _ => String::new(),
    };
    let problem = Problem::new(
        Code::SkillFileMissing,
        format!(
            "{} is a folder of {} skills, not a skill folder: a .skill archive holds one skill",
            dir.display(),
            folders.len()
        ),
    )
    .with_file(dir.display().to_string())
    .with_hint(format!(
        "pack each skill folder on its own: {}{more}",
        shown
            .iter()
            .map(|folder| format!("skills pack {folder}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    CompileError {
        problems: vec![problem],
    }
}

fn refuse(code: Code, message: String, dir: &Path) -> CompileError {
    CompileError {
        problems: vec![Problem::new(code, message).with_file(dir.display().to_string())],
    }
}

/// Packs the skill folder `dir`.
///
/// # Errors
///
/// Every problem that makes the folder fail a check (nothing is packed
/// then), or why it could not be read.
pub fn pack(dir: &Path) -> Result<Packed, CompileError> {
    let real = skills_build::unstable::real_path::canonicalize(dir).map_err(|error| {
        refuse(
            Code::SourceNotFound,
            format!("cannot open {}: {error}", dir.display()),
            dir,
        )
    })?;
    if !real.is_dir() {
        return Err(refuse(
            Code::SourceNotDirectory,
            format!("{} is not a directory", dir.display()),
            dir,
        ));
    }
    let folder = real
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or_else(|| {
            refuse(
                Code::SourceUnreadable,
                format!("{}: the folder's name is not UTF-8", dir.display()),
                dir,
            )
        })?
        .to_string();
    // Read as every command reads a source, with the packager's excludes.
    let builder = EXCLUDES
        .iter()
        .fold(Builder::new().source(dir), |builder, pattern| {
            builder.exclude(*pattern)
        });
    let found = skills_build::unstable::read(&builder).discovery;
    // A folder of skills is refused by name: `pack` makes one skill's archive.
    if found.sources.first().and_then(|source| source.layout) == Some(Layout::Collection) {
        let folders: Vec<_> = found
            .skills
            .iter()
            .map(|skill| dir.join(&skill.path))
            .collect();
        return Err(several(dir, &folders));
    }
    if found.problems.iter().any(Problem::is_error) {
        return Err(CompileError {
            problems: found.problems,
        });
    }
    let Some(skill) = found.skills.first() else {
        return Err(refuse(
            Code::SkillFileMissing,
            format!("{} holds no SKILL.md", dir.display()),
            dir,
        ));
    };
    let mut entries = vec![PackEntry {
        name: format!("{folder}/{}", skill.skill_file.as_str()),
        bytes: skill.skill_file_bytes.clone(),
        executable: executable(&real.join(skill.skill_file.as_str())),
    }];
    for file in &skill.files {
        entries.push(PackEntry {
            name: format!("{folder}/{}", file.path),
            bytes: file.bytes.clone(),
            executable: executable(&real.join(&file.path)),
        });
    }
    entries.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let bytes = write(&entries).map_err(|message| refuse(Code::OutputUnwritable, message, dir))?;
    let prefix = format!("{folder}/");
    Ok(Packed {
        files: entries
            .iter()
            .map(|e| e.name.strip_prefix(&prefix).unwrap_or(&e.name).to_string())
            .collect(),
        folder,
        bytes,
        warnings: found.problems,
    })
}

/// Whether the file at `path` has an execute bit (always `false` off Unix).
#[cfg(unix)]
pub(crate) fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
pub(crate) fn executable(_: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_claude_packager_leaves_out_is_left_out() {
        use skills_test_support::{testdata, tree};
        let tmp = tree::scratch("packing", "junk");
        let folder = tmp.join("report-writer");
        tree::copy_tree(&testdata("archive/skills/report-writer"), &folder);
        let clean = pack(&folder).unwrap();
        for junk in [
            "scripts/__pycache__/render.cpython-312.pyc",
            "node_modules/left-pad/index.js",
            "stale.pyc",
            ".DS_Store",
            "references/.DS_Store",
        ] {
            tree::write(&folder, junk, "junk");
        }
        let packed = pack(&folder).unwrap();
        assert_eq!(packed.bytes, clean.bytes);
        assert_eq!(
            packed.files,
            [
                "SKILL.md",
                "assets/template.md",
                "references/résumé.md",
                "references/style.md",
                "scripts/render.py"
            ]
        );
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
