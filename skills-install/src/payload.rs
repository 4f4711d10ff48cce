//! The embedded skills as what gets written: per skill its folder name and
//! every file's path, bytes and executable bit.

use std::borrow::Cow;

use skills_core::trust::revision::{
    Revision, bundle_revision, recorded_revision, skill_file_pieces,
};
use skills_core::wire::bundle::{Bundle, Skill};

use crate::record::{RecordFile, RecordSkill};

/// The name agents read a skill's instructions from.
pub const SKILL_FILE: &str = "SKILL.md";

/// One skill, ready to write.
#[derive(Debug, Clone)]
pub struct Payload<'c> {
    /// The listed name (`qualifier:name` for a qualified source).
    pub listed: &'c str,
    /// The folder it goes in: the name without its qualifier.
    pub folder: &'c str,
    /// Its content revision.
    pub revision: Revision,
    /// Every file, the skill file first, then in path order.
    pub files: Vec<PayloadFile<'c>>,
}

/// One file of a [`Payload`].
#[derive(Debug, Clone)]
pub struct PayloadFile<'c> {
    /// The `/`-separated path inside the skill folder.
    pub path: &'c str,
    /// The bytes.
    pub bytes: Cow<'c, [u8]>,
    /// Whether it is written executable: as the source's mode was, where
    /// the bundle carries modes ([`Skill::executables`]); else a script
    /// (under `scripts/`) or a file starting with `#!`.
    pub exec: bool,
}

impl<'c> Payload<'c> {
    /// The files of `skill`, its skill file named `skill_file` (agents read
    /// `SKILL.md`; `extract` gives back the spelling it was read from).
    pub fn new(skill: &Skill<'c>, skill_file: &'c str) -> Self {
        let main: Vec<u8> = skill_file_pieces(skill).concat();
        let files = core::iter::once(PayloadFile {
            path: skill_file,
            exec: false,
            bytes: Cow::Owned(main),
        })
        .chain(skill.files.iter().map(|file| PayloadFile {
            path: file.path,
            // The source's mode where the bundle carries it (format 9);
            // the path rule only where it does not.
            exec: match &skill.executables {
                Some(paths) => paths.binary_search(&file.path).is_ok(),
                None => is_executable(file.path, file.bytes()),
            },
            bytes: Cow::Borrowed(file.bytes()),
        }))
        .collect();
        Payload {
            listed: skill.name,
            folder: folder_name(skill.name),
            revision: skill_revision(skill),
            files,
        }
    }

    /// The file at `path`.
    pub fn file(&self, path: &str) -> Option<&PayloadFile<'c>> {
        self.files.iter().find(|file| file.path == path)
    }

    /// The record entry of a copy of it: its revision, and every file's
    /// size and SHA-256.
    pub(crate) fn copy_record(&self) -> RecordSkill {
        RecordSkill {
            revision: self.revision.to_string(),
            link: None,
            files: self
                .files
                .iter()
                .map(|file| {
                    let record = RecordFile {
                        size: file.bytes.len() as u64,
                        sha256: skills_core::sha256::digest(&file.bytes),
                    };
                    (file.path.to_string(), record)
                })
                .collect(),
        }
    }
}

/// Whether a skill's file is written executable when the bundle carries
/// no file modes (a source without them: a folder off Unix, an archive
/// made elsewhere, a format-8 bundle): a script under `scripts/`, or a
/// file starting with `#!`.
///
/// ```
/// use skills_install::is_executable;
/// assert!(is_executable("scripts/fill.py", b"import sys"));
/// assert!(is_executable("tool", b"#!/bin/sh\n"));
/// assert!(!is_executable("reference.md", b"# Notes"));
/// ```
pub fn is_executable(path: &str, bytes: &[u8]) -> bool {
    path.starts_with("scripts/") || bytes.starts_with(b"#!")
}

/// The folder a listed name installs into: the name after its qualifier.
pub fn folder_name(listed: &str) -> &str {
    listed.rsplit(':').next().unwrap_or(listed)
}

/// A skill's content revision: the one the bundle holds (the compiler
/// writes it), computed when it holds none.
pub(crate) fn skill_revision(skill: &Skill<'_>) -> Revision {
    match Revision(skill.revision) {
        unset if unset.is_unset() => recorded_revision(skill),
        revision => revision,
    }
}

/// The bundle revision, computed when the bundle does not hold it.
pub fn revision_of(bundle: &Bundle<'_>) -> Revision {
    match Revision(bundle.revision) {
        unset if unset.is_unset() => bundle_revision(bundle),
        revision => revision,
    }
}
