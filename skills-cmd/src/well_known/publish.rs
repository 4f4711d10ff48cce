//! Publishing skills as a well-known tree: the 0.2.0 index with its
//! artifacts (and the 0.1 layout on request), made in memory, sorted, so
//! the same skills give the same bytes whatever order their files were
//! listed in, then written under a folder without following a link.

use std::path::{Component, Path};

use skills_build::unstable::discover::DiscoveredSkill;

use super::{Entry, INDEX_DIR, INDEX_FILE, Kind, LEGACY_DIR, MAX_DESCRIPTION, digest};
use super::{index_json, is_index_name};
use crate::packing::zip::PackEntry;
use crate::packing::{executable, tar, zip};
use skills_core::encoding::json::{Json, Style};

/// Which archive the skills of more than one file are published as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFormat {
    /// `NAME.tar.gz` (the default).
    TarGz,
    /// `NAME.zip`.
    Zip,
}

/// One skill to publish: its name, description and files, the skill file
/// first as `SKILL.md`, the rest sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// The name the index lists.
    pub name: String,
    /// The description it lists.
    pub description: String,
    /// The files, at the skill's root.
    pub files: Vec<PackEntry>,
}

impl Skill {
    /// The skill as discovery read it, or why the index cannot list it.
    pub fn of(found: &DiscoveredSkill) -> Result<Skill, String> {
        let shown = crate::gate::skill_path(found);
        let name = found.listing.name().unwrap_or_default().to_string();
        if !is_index_name(&name) {
            return Err(format!(
                "{shown}: the index cannot list {name:?}: a name is 1 to 64 of a-z, 0-9 and single hyphens (a qualified name's colon is not one)"
            ));
        }
        let description = found.description().unwrap_or_default().to_string();
        if description.is_empty() || description.chars().count() > MAX_DESCRIPTION {
            return Err(format!(
                "{shown}: the index lists a description of 1 to {MAX_DESCRIPTION} characters"
            ));
        }
        // A folder on disk keeps its execute bits; an archive's are not read.
        let folder = Path::new(&shown);
        let on_disk = folder.is_dir();
        let mode = |path: &str| on_disk && executable(&folder.join(path));
        let mut files = vec![PackEntry {
            name: "SKILL.md".to_string(),
            bytes: found.skill_file_bytes.clone(),
            executable: mode(found.skill_file.as_str()),
        }];
        let mut rest: Vec<PackEntry> = found
            .files
            .iter()
            .map(|file| PackEntry {
                name: file.path.clone(),
                bytes: file.bytes.clone(),
                executable: mode(&file.path),
            })
            .collect();
        rest.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        files.extend(rest);
        Ok(Skill {
            name,
            description,
            files,
        })
    }
}

/// A published tree: every file's path under the output folder and bytes,
/// sorted by path, and the index's entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// `(path, bytes)`, paths `/`-separated under the output folder.
    pub files: Vec<(String, Vec<u8>)>,
    /// The 0.2.0 index's entries, by name.
    pub entries: Vec<Entry>,
}

/// The tree of `skills`: sorted by name, each a `skill-md` entry when it is
/// one file and an archive in `format` otherwise, and with `legacy` the 0.1
/// layout too.
///
/// # Errors
///
/// Two skills of one name, or a path no tar archive can hold.
pub fn tree(skills: &[Skill], format: ArchiveFormat, legacy: bool) -> Result<Tree, String> {
    let mut skills: Vec<&Skill> = skills.iter().collect();
    skills.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(pair) = skills.windows(2).find(|pair| pair[0].name == pair[1].name) {
        return Err(format!(
            "two skills are named {:?}; an index lists a name once",
            pair[0].name
        ));
    }
    let mut files = Vec::new();
    let mut entries = Vec::new();
    let mut legacy_entries = Vec::new();
    for skill in skills {
        let (kind, url, bytes) = match skill.files.as_slice() {
            [only] => (
                Kind::SkillMd,
                format!("{}/SKILL.md", skill.name),
                only.bytes.clone(),
            ),
            all => match format {
                ArchiveFormat::TarGz => (
                    Kind::Archive,
                    format!("{}.tar.gz", skill.name),
                    tar::tar_gz(all)?,
                ),
                ArchiveFormat::Zip => (
                    Kind::Archive,
                    format!("{}.zip", skill.name),
                    zip::write(all)?,
                ),
            },
        };
        entries.push(Entry {
            name: skill.name.clone(),
            description: skill.description.clone(),
            kind,
            digest: digest(&bytes),
            url: url.clone(),
        });
        files.push((format!("{INDEX_DIR}/{url}"), bytes));
        if legacy {
            for file in &skill.files {
                files.push((
                    format!("{LEGACY_DIR}/{}/{}", skill.name, file.name),
                    file.bytes.clone(),
                ));
            }
            legacy_entries.push(Json::Object(vec![
                ("description".into(), Json::Str(skill.description.clone())),
                (
                    "files".into(),
                    Json::Array(
                        skill
                            .files
                            .iter()
                            .map(|f| Json::Str(f.name.clone()))
                            .collect(),
                    ),
                ),
                ("name".into(), Json::Str(skill.name.clone())),
            ]));
        }
    }
    files.push((format!("{INDEX_DIR}/{INDEX_FILE}"), index_json(&entries)));
    if legacy {
        let index = Json::Object(vec![("skills".into(), Json::Array(legacy_entries))]);
        let text = index.to_text(Style::indented(2).with_ascii(false)) + "\n";
        files.push((format!("{LEGACY_DIR}/{INDEX_FILE}"), text.into_bytes()));
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(Tree { files, entries })
}

/// Creates `dir/rel`'s folders, refusing any of them (or `dir` itself when
/// it exists) that is a symbolic link or not a folder: nothing is written
/// outside `dir`.
pub fn make_dirs(dir: &Path, rel: &Path) -> Result<(), String> {
    let mut at = dir.to_path_buf();
    let check = |path: &Path| -> Result<(), String> {
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => Err(format!(
                "{} is a symbolic link; nothing is written through it",
                path.display()
            )),
            Ok(meta) if !meta.is_dir() => Err(format!("{} is not a folder", path.display())),
            Ok(_) => Ok(()),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir(path)
                .map_err(|error| format!("cannot create {}: {error}", path.display())),
            Err(error) => Err(format!("cannot open {}: {error}", path.display())),
        }
    };
    check(&at)?;
    for part in rel.components() {
        let Component::Normal(part) = part else {
            return Err(format!("{} is not a plain relative path", rel.display()));
        };
        at.push(part);
        check(&at)?;
    }
    Ok(())
}

/// Writes every file of `files` under `dir` with the atomic writer,
/// creating folders as needed; a path whose folder is a link is refused,
/// and so is a file's place holding anything but nothing or a regular
/// file (a link, a FIFO or a device is not written through: a tree is
/// written, not a stream). Files already there and not in `files` are left
/// as they are.
pub fn write_tree(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    use crate::atomic::Found;
    for (path, bytes) in files {
        let rel = Path::new(path);
        make_dirs(dir, rel.parent().unwrap_or(Path::new("")))?;
        let target = dir.join(rel);
        match Found::at(&target).map_err(|error| format!("{}: {error}", target.display()))? {
            Found::Nothing | Found::File => {}
            found => {
                return Err(format!(
                    "{} is {}; only a regular file there is replaced",
                    target.display(),
                    found.describe()
                ));
            }
        }
        crate::atomic::write(&target, bytes)
            .map_err(|error| format!("cannot write {}: {error}", target.display()))?;
    }
    Ok(())
}
