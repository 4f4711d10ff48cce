//! The tests' oracle for content revisions: a skill directory captured
//! the way agentskills-core's file-system provider captures it, every
//! file under the directory (hidden ones and nested directories included,
//! links refused), its id, its frontmatter `version` and its content
//! revision, computed apart from the compiler's own reading (which leaves
//! junk out; this one leaves nothing out, as the SDK does).

use std::fmt;

use skills_build::DEFAULT_MAX_FILE_SIZE;
use skills_build::unstable::frontmatter;
use skills_build::unstable::read_limit::{ReadLimitError, read_limited};
use skills_core::sha256::digest as sha256;
use skills_core::trust::revision::Revision;

/// The deepest directory nesting walked (as the compiler's discovery).
const MAX_DEPTH: usize = 32;

/// A skill directory as agentskills-core's file-system provider captures
/// it: every file under it (hidden ones and nested directories included),
/// its id (the directory's name), its frontmatter `version`, and its
/// content revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirSnapshot {
    /// The directory's name: the id the file-system provider registers.
    pub skill_id: String,
    /// Every file, as a `/`-separated path and its bytes, sorted by path.
    pub files: Vec<(String, Vec<u8>)>,
    /// The frontmatter `version`, when the skill file reads and has one.
    pub version: Option<String>,
    /// The content revision.
    pub revision: Revision,
}

/// Why a skill directory could not be captured.
#[derive(Debug)]
#[non_exhaustive]
pub enum SnapshotError {
    /// A file or directory could not be read.
    Io {
        /// The path.
        path: std::path::PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A symbolic link, which agentskills-core refuses to capture.
    Link {
        /// The path.
        path: std::path::PathBuf,
    },
    /// A name that is not Unicode.
    NotUnicode {
        /// The path.
        path: std::path::PathBuf,
    },
    /// No `SKILL.md` (or `skill.md`) in the directory.
    NoSkillFile {
        /// The directory.
        dir: std::path::PathBuf,
    },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            SnapshotError::Link { path } => write!(
                f,
                "{}: a symbolic link; a skill's files must be plain files inside it",
                path.display()
            ),
            SnapshotError::NotUnicode { path } => {
                write!(f, "{}: the name is not valid Unicode", path.display())
            }
            SnapshotError::NoSkillFile { dir } => {
                write!(f, "{}: no SKILL.md in this directory", dir.display())
            }
        }
    }
}

impl std::error::Error for SnapshotError {}

/// Captures a skill directory (see [`DirSnapshot`]).
pub fn snapshot_dir(dir: &std::path::Path) -> Result<DirSnapshot, SnapshotError> {
    let mut files = Vec::new();
    let mut budget = skills_core::wire::bundle::MAX_SKILL_BYTES;
    walk_dir(dir, "", &mut files, 0, &mut budget)?;
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let skill_file = files
        .iter()
        .find(|(path, _)| path == "SKILL.md")
        .or_else(|| files.iter().find(|(path, _)| path == "skill.md"))
        .ok_or_else(|| SnapshotError::NoSkillFile {
            dir: dir.to_path_buf(),
        })?;
    let version = frontmatter::parse(&skill_file.1)
        .ok()
        .and_then(|doc| doc.frontmatter.text("version").map(str::to_string));
    let revision = skills_core::trust::revision::content_revision(
        files
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.len() as u64, sha256(bytes))),
    );
    let skill_id = dir
        .canonicalize()
        .ok()
        .and_then(|dir| {
            dir.file_name()
                .map(|name| name.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| skills_pycompat::pathlib::dir_name(dir));
    Ok(DirSnapshot {
        skill_id,
        files,
        version,
        revision,
    })
}

fn walk_dir(
    root: &std::path::Path,
    rel: &str,
    files: &mut Vec<(String, Vec<u8>)>,
    depth: usize,
    budget: &mut u64,
) -> Result<(), SnapshotError> {
    let here = if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    };
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |error| SnapshotError::Io { path, error }
    };
    if depth > MAX_DEPTH {
        return Err(SnapshotError::Io {
            path: here,
            error: std::io::Error::other("directories nest too deep"),
        });
    }
    for entry in std::fs::read_dir(&here).map_err(io(&here))? {
        let entry = entry.map_err(io(&here))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            return Err(SnapshotError::NotUnicode { path });
        };
        let rel_path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let kind = entry.file_type().map_err(io(&path))?;
        if kind.is_symlink() {
            return Err(SnapshotError::Link { path });
        } else if kind.is_dir() {
            walk_dir(root, &rel_path, files, depth + 1, budget)?;
        } else {
            // Special files are refused before opening; nothing is read
            // past the compiler's per-file limit, nor past the per-skill
            // limit all files share (`budget`, the bytes still allowed).
            let limit = DEFAULT_MAX_FILE_SIZE.min(*budget);
            let bytes = read_limited(&path, limit).map_err(|error| {
                let error = match error {
                    // Under the per-file limit, but over what the skill's
                    // other files left.
                    ReadLimitError::TooLarge { size, .. }
                        if size.is_none_or(|size| size <= DEFAULT_MAX_FILE_SIZE) =>
                    {
                        std::io::Error::new(
                            std::io::ErrorKind::FileTooLarge,
                            "the skill's files add up to more than the 16 MiB limit per skill",
                        )
                    }
                    error => error.into(),
                };
                SnapshotError::Io {
                    path: path.clone(),
                    error,
                }
            })?;
            *budget -= bytes.len() as u64;
            files.push((rel_path, bytes));
        }
    }
    Ok(())
}
