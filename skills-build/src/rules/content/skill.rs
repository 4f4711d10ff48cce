//! A skill as the rules see it: its skill file, its files (borrowed, from
//! a folder as read or from a compiled bundle), and where each is located.

use super::position::Located;
use super::scan::Marks;
use crate::frontmatter::SkillDocument;

/// One file of a skill other than its skill file.
#[derive(Debug, Clone, Copy)]
pub struct File<'a> {
    /// Its path in the skill, `/`-separated.
    pub path: &'a str,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// A skill as read, seen by the rules.
#[derive(Debug)]
pub struct Skill<'a> {
    /// The skill file's name inside the skill (`SKILL.md`).
    pub skill_file: &'a str,
    /// The skill file's location, as problems name it.
    pub file_location: &'a str,
    /// Prefix of every other file's location (the skill folder's), with
    /// no trailing `/`; empty when the skill folder is the current one.
    pub folder_location: &'a str,
    /// The skill file's exact bytes.
    pub bytes: &'a [u8],
    /// The parsed skill file, when it parsed.
    pub document: Option<&'a SkillDocument>,
    /// Every other file, sorted by path.
    pub files: &'a [File<'a>],
}

impl Skill<'_> {
    /// The location of the file at `path` in the skill (`""` or the skill
    /// file's name for the skill file).
    pub(super) fn location_of(&self, path: &str) -> String {
        if path.is_empty() || path == self.skill_file {
            return self.file_location.to_string();
        }
        match self.folder_location {
            "" => path.to_string(),
            folder => format!("{folder}/{path}"),
        }
    }
}

/// A text file of the skill, for the rules that read text.
pub(crate) struct TextFile<'a> {
    /// Its path in the skill.
    pub path: &'a str,
    /// Its text, with positions.
    pub text: Located<'a>,
    /// Whether it is the skill file.
    pub skill_file: bool,
    /// Where the rules' patterns may start in it.
    pub marks: Marks,
}
