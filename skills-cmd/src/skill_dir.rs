//! One skill directory on the local file system, read the reference's way.
//!
//! These functions back the `skills validate`, `read-properties` and
//! `to-prompt` commands, which must behave exactly like the reference
//! command line: they follow symlinks, and look for `SKILL.md`, then
//! `skill.md`.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use skills_build::DEFAULT_MAX_FILE_SIZE;
use skills_build::problem::{Code, Problem};
use skills_build::unstable::frontmatter::{self, ParseError, SkillDocument};
use skills_build::unstable::read_limit::read_limited;
use skills_build::unstable::skill_file::SKILL_FILE_NAMES;
use skills_build::unstable::validate;

/// The skill file of `dir`: `SKILL.md` if it exists, else `skill.md`.
///
/// A broken symlink counts as absent; a directory of that name counts as
/// present (and then fails to read).
pub fn find_skill_file(dir: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|path| path.exists())
}

/// Why a skill directory could not be read.
#[derive(Debug)]
pub enum LoadError {
    /// Nothing exists at the path.
    NotFound(PathBuf),
    /// The path is not a directory.
    NotADirectory(PathBuf),
    /// Neither `SKILL.md` nor `skill.md` exists in the directory.
    MissingSkillFile,
    /// The skill file exists but cannot be read.
    Unreadable {
        /// The skill file.
        file: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The skill file was read but is not a valid skill file.
    Parse {
        /// The skill file.
        file: PathBuf,
        /// What is wrong.
        error: ParseError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound(dir) => write!(f, "Path does not exist: {}", dir.display()),
            LoadError::NotADirectory(dir) => write!(f, "Not a directory: {}", dir.display()),
            LoadError::MissingSkillFile => f.write_str("Missing required file: SKILL.md"),
            LoadError::Unreadable { file, error } => {
                let name = file.file_name().map(Path::new).unwrap_or(file);
                if file.is_dir() {
                    write!(
                        f,
                        "cannot read {}: it is a directory, not a file",
                        name.display()
                    )
                } else {
                    write!(f, "cannot read {}: {error}", name.display())
                }
            }
            LoadError::Parse { error, .. } => error.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    /// This error as a problem naming the skill file when there is one.
    pub fn to_problem(&self) -> Problem {
        let code = match self {
            LoadError::NotFound(_) => Code::SourceNotFound,
            LoadError::NotADirectory(_) => Code::SourceNotDirectory,
            LoadError::MissingSkillFile => Code::SkillFileMissing,
            LoadError::Unreadable { .. } => Code::SkillFileUnreadable,
            LoadError::Parse { error, .. } => error.code(),
        };
        let problem = Problem::new(code, self.to_string());
        match self {
            LoadError::Unreadable { file, .. } => problem.with_file(file.display().to_string()),
            LoadError::Parse { file, error } => problem
                .with_file(file.display().to_string())
                .at_opt(error.position()),
            _ => problem,
        }
    }
}

/// A skill directory's file, read and parsed.
#[derive(Debug, Clone)]
pub struct LoadedSkill {
    /// The skill file that was read (`dir/SKILL.md` or `dir/skill.md`).
    pub file: PathBuf,
    /// Its contents.
    pub document: SkillDocument,
}

/// The bytes of a skill file, read without trusting it: a named pipe or a
/// device (even through a link) is refused before it is opened, and a file
/// over [`DEFAULT_MAX_FILE_SIZE`] bytes is refused without reading more
/// than that. (The reference reads whatever it is given; see the README's
/// list of where we differ.)
pub fn read_skill_file(file: &Path) -> Result<Vec<u8>, LoadError> {
    read_limited(file, DEFAULT_MAX_FILE_SIZE).map_err(|error| LoadError::Unreadable {
        file: file.to_path_buf(),
        error: error.into(),
    })
}

/// Finds and parses the skill file of `dir`, without validating it.
pub fn load(dir: &Path) -> Result<LoadedSkill, LoadError> {
    if !dir.exists() {
        return Err(LoadError::NotFound(dir.to_path_buf()));
    }
    if !dir.is_dir() {
        return Err(LoadError::NotADirectory(dir.to_path_buf()));
    }
    let file = find_skill_file(dir).ok_or(LoadError::MissingSkillFile)?;
    let bytes = read_skill_file(&file)?;
    match frontmatter::parse(&bytes) {
        Ok(document) => Ok(LoadedSkill { file, document }),
        Err(error) => Err(LoadError::Parse { file, error }),
    }
}

/// Validates the skill in `dir`: every problem, the reference's first,
/// each naming the skill file.
pub fn validate_dir(dir: &Path) -> Vec<Problem> {
    match load(dir) {
        Err(error) => vec![error.to_problem()],
        Ok(skill) => {
            let file = skill.file.display().to_string();
            validate::validate(&skill.document, &skills_pycompat::pathlib::dir_name(dir))
                .into_iter()
                .map(|p| p.with_file(file.clone()))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_refused_by_name() {
        let error = read_skill_file("/dev/zero".as_ref()).unwrap_err();
        assert!(error.to_string().contains("character device"), "{error}");
    }
}
