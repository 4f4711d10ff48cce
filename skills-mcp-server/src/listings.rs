//! The listings, a page at a time: `skills/list`, `resources/list` and
//! `resources/directory/read` make only the page asked for, from the
//! bundle's listing order (the skills in the byte order of their
//! `skill://` URIs, which the compiler writes into the bundle), reading
//! each skill on the page for that page only. Nothing is made at start and
//! nothing is kept between requests, so a replica answers its first
//! request at once and walking every page holds no more than a page.
//!
//! A cursor says where its page starts, in terms of the bundle alone
//! (`skills-page-OFFSET`; `resources-page-POSITION-FILE`;
//! `directory-page-OFFSET`), so identical replicas of one bundle accept
//! each other's cursors, whatever their page size.

use skills_core::features::manifest::{
    ManifestError, ManifestFile, check_entry, manifest_entry, manifest_files, root_uri,
};
use skills_core::wire::bundle::Skill;
use skills_core::{Catalog, DecodeError};

use crate::resources::{Publication, TableError, Verdicts, file_uri, listed_entry};
use crate::uris::readings;
use crate::wire::{RpcError, capped, code};

/// One page of a listing: its entries (compact JSON) and the cursor of the
/// next page, if any.
#[derive(Debug)]
pub(crate) struct Page {
    pub(crate) entries: Vec<String>,
    pub(crate) next: Option<String>,
}

/// The cursor of the `skills/list` page starting at `offset`.
fn skills_cursor(offset: usize) -> String {
    format!("skills-page-{offset}")
}

/// The cursor of the `resources/list` page starting at file `file` of the
/// skill at listing position `position`.
fn resources_cursor(position: usize, file: usize) -> String {
    format!("resources-page-{position}-{file}")
}

/// The cursor of the `resources/directory/read` page starting at child
/// `offset`.
fn directory_cursor(offset: usize) -> String {
    format!("directory-page-{offset}")
}

/// The `N` numbers of a cursor (`prefix`, then the numbers joined by
/// `-`), read back: `None` unless `cursor` is written exactly so, in
/// decimal without leading zeros (so each position has one cursor).
fn numbers<const N: usize>(cursor: &str, prefix: &str) -> Option<[usize; N]> {
    let mut numbers = [0; N];
    let mut parts = cursor.strip_prefix(prefix)?.split('-');
    for number in &mut numbers {
        let part = parts.next()?;
        if part.is_empty() || (part.len() > 1 && part.starts_with('0')) {
            return None;
        }
        *number = part.parse().ok()?;
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    parts.next().is_none().then_some(numbers)
}

/// A request's `cursor`: absent (or null) for the first page, else a string.
pub(crate) fn cursor_param(params: Option<&serde_json::Value>) -> Result<Option<&str>, RpcError> {
    match params.and_then(|p| p.get("cursor")) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(cursor)) => Ok(Some(cursor)),
        Some(_) => Err(RpcError::invalid_params()),
    }
}

/// What listings are made over: the catalog, the page size, and what a
/// trust policy said of each skill (`None`: every skill unsigned).
pub(crate) struct Listings<'l, 'a> {
    pub(crate) catalog: &'l Catalog<'a>,
    pub(crate) page_size: usize,
    pub(crate) verdicts: Option<&'l Verdicts>,
}

impl<'l> Listings<'l, '_> {
    /// The publication record of the skill at `at` (decoded as `skill`).
    pub(crate) fn publication(&self, at: usize, skill: &Skill<'_>) -> Publication<'l> {
        match self.verdicts {
            Some(verdicts) => verdicts.publication(at),
            None => Publication::unsigned(skill),
        }
    }

    /// Calls `use_skill` with the skill at `at`, decoded for this request
    /// only (or as kept), and its publication record; a skill that cannot
    /// be read is an internal error naming it.
    fn with_listed<T>(
        &self,
        at: usize,
        use_skill: impl FnOnce(&Skill<'_>, &Publication<'_>) -> T,
    ) -> Result<T, RpcError> {
        self.catalog
            .with_skill(at, |skill| use_skill(skill, &self.publication(at, skill)))
            .map_err(|error| self.unreadable(at, error))
    }

    /// The internal error of the skill at `at`, which cannot be read.
    pub(crate) fn unreadable(&self, at: usize, error: DecodeError) -> RpcError {
        let skill = self.catalog.name_at(at).to_owned();
        RpcError::new(
            code::INTERNAL_ERROR,
            TableError::Unreadable { skill, error }.to_string(),
        )
    }

    /// The internal error of the skill at `at`, which cannot be listed.
    pub(crate) fn manifest_failure(&self, at: usize, error: ManifestError) -> RpcError {
        let skill = self.catalog.name_at(at).to_owned();
        RpcError::new(
            code::INTERNAL_ERROR,
            TableError::Manifest { skill, error }.to_string(),
        )
    }

    /// The `skills/list` page at `cursor`: the manifest entries of up to a
    /// page of skills in listing order.
    pub(crate) fn skills_page(&self, cursor: Option<&str>) -> Result<Page, RpcError> {
        let len = self.catalog.len();
        let offset = match cursor {
            None => 0,
            Some(cursor) => numbers::<1>(cursor, "skills-page-")
                .map(|[offset]| offset)
                .filter(|&offset| offset < len)
                .ok_or_else(|| RpcError::new(code::INVALID_PARAMS, "Invalid skills cursor"))?,
        };
        let end = offset.saturating_add(self.page_size).min(len);
        let mut entries = Vec::with_capacity(end - offset);
        for position in offset..end {
            let at = self.listed(position)?;
            let entry = self.with_listed(at, |skill, _| manifest_entry(skill, None))?;
            entries.push(entry.map_err(|error| self.manifest_failure(at, error))?);
        }
        Ok(Page {
            entries,
            next: (end < len).then(|| skills_cursor(end)),
        })
    }

    /// The catalog index at listing position `position`.
    fn listed(&self, position: usize) -> Result<usize, RpcError> {
        self.catalog.listed(position).ok_or_else(|| {
            RpcError::new(
                code::INTERNAL_ERROR,
                "the bundle's listing order is damaged: rebuild the bundle",
            )
        })
    }

    /// The `resources/list` page at `cursor`: up to a page of the files of
    /// the skills in listing order, each skill's in path order.
    pub(crate) fn resources_page(&self, cursor: Option<&str>) -> Result<Page, RpcError> {
        let len = self.catalog.len();
        let invalid = || RpcError::new(code::INVALID_PARAMS, "Invalid resources cursor");
        let (mut position, mut file) = match cursor {
            None => (0, 0),
            Some(cursor) => numbers::<2>(cursor, "resources-page-")
                .map(|[position, file]| (position, file))
                .filter(|&(position, _)| position < len)
                .ok_or_else(invalid)?,
        };
        let page_size = self.page_size;
        let mut entries = Vec::with_capacity(page_size.min(1024));
        let mut first = cursor.is_some();
        while position < len && entries.len() < page_size {
            let at = self.listed(position)?;
            let room = page_size - entries.len();
            let taken = self.with_listed(at, |skill, publication| {
                let files = manifest_files(skill);
                if first && file >= files.len() {
                    return Ok(None);
                }
                let root = root_uri(skill.name, None)?;
                let page: Vec<String> = files
                    .iter()
                    .skip(file)
                    .take(room)
                    .map(|listed| listed_entry(skill, &root, listed, publication, false))
                    .collect();
                Ok(Some((page, files.len())))
            })?;
            let Some((page, count)) = taken.map_err(|error| self.manifest_failure(at, error))?
            else {
                return Err(invalid());
            };
            first = false;
            file += page.len();
            entries.extend(page);
            if file >= count {
                position += 1;
                file = 0;
            }
        }
        Ok(Page {
            entries,
            next: (position < len).then(|| resources_cursor(position, file)),
        })
    }

    /// The `resources/directory/read` page of the directory at `uri`:
    /// its direct children (files, with their sizes and digests, and
    /// directories), sorted by name.
    pub(crate) fn directory_page(&self, uri: &str, cursor: Option<&str>) -> Result<Page, RpcError> {
        let mut not_a_directory = false;
        for reading in readings(self.catalog, uri) {
            let dir = reading.path.as_deref().unwrap_or_default();
            // A directory's URI has no trailing slash, and its path the
            // one encoding the server publishes.
            if reading.path.is_some() && (dir.is_empty() || file_uri(&reading.root, dir) != uri) {
                continue;
            }
            let listed = self.with_listed(reading.at, |skill, publication| {
                let files = manifest_files(skill);
                let children = children(&files, dir);
                if children.is_empty() && !dir.is_empty() {
                    not_a_directory |= files.iter().any(|file| file.path == dir);
                    return None;
                }
                let offset = match cursor {
                    None => 0,
                    Some(cursor) => match numbers::<1>(cursor, "directory-page-") {
                        Some([offset]) if offset < children.len() => offset,
                        _ => return Some(Err(())),
                    },
                };
                let end = offset.saturating_add(self.page_size).min(children.len());
                let entries = children[offset..end]
                    .iter()
                    .map(|child| match child {
                        Child::File(file) => {
                            listed_entry(skill, &reading.root, file, publication, true)
                        }
                        Child::Directory(path) => directory_entry(&reading.root, path),
                    })
                    .collect();
                Some(Ok(Page {
                    entries,
                    next: (end < children.len()).then(|| directory_cursor(end)),
                }))
            })?;
            match listed {
                Some(Ok(page)) => return Ok(page),
                Some(Err(())) => {
                    return Err(RpcError::new(
                        code::INVALID_PARAMS,
                        "Invalid directory cursor",
                    ));
                }
                None => {}
            }
        }
        Err(RpcError::new(
            code::INVALID_PARAMS,
            if not_a_directory {
                format!("{} is not a directory resource", capped(uri))
            } else {
                "Unknown skill directory".to_owned()
            },
        ))
    }

    /// Checks that every skill can be listed (its URI and the extension's
    /// limits) and that no two share a URI: what `Server::new` checks
    /// before serving. Reads each skill once, keeping none.
    pub(crate) fn check(&self) -> Result<(), TableError> {
        let mut previous: Option<String> = None;
        for position in 0..self.catalog.len() {
            let Some(at) = self.catalog.listed(position) else {
                continue;
            };
            let name = self.catalog.name_at(at);
            self.catalog
                .with_skill(at, |skill| check_entry(skill, None))
                .map_err(|error| TableError::Unreadable {
                    skill: name.to_owned(),
                    error,
                })?
                .map_err(|error| TableError::Manifest {
                    skill: name.to_owned(),
                    error,
                })?;
            let root = root_uri(name, None).map_err(|error| TableError::Manifest {
                skill: name.to_owned(),
                error,
            })?;
            if previous.as_ref() == Some(&root) {
                return Err(TableError::DuplicateUri {
                    uri: format!("{root}/SKILL.md"),
                });
            }
            previous = Some(root);
        }
        Ok(())
    }
}

/// A direct child of a directory of a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Child<'f, 's> {
    File(&'f ManifestFile<'s>),
    /// A directory, by its path inside the skill.
    Directory(&'s str),
}

impl Child<'_, '_> {
    /// The child's name: the last part of its path.
    fn name(&self) -> &str {
        let path = match self {
            Child::File(file) => file.path,
            Child::Directory(path) => path,
        };
        path.rsplit('/').next().unwrap_or(path)
    }
}

/// The direct children of the directory `dir` (`""`: the skill's root)
/// among a skill's files (sorted by path), sorted by name; empty when no
/// file lies inside `dir`.
fn children<'f, 's>(files: &'f [ManifestFile<'s>], dir: &str) -> Vec<Child<'f, 's>> {
    let prefix_len = if dir.is_empty() { 0 } else { dir.len() + 1 };
    let inside = |path: &str| {
        dir.is_empty()
            || (path.len() > prefix_len
                && path.starts_with(dir)
                && path.as_bytes()[dir.len()] == b'/')
    };
    let mut found: Vec<Child<'f, 's>> = Vec::new();
    for file in files.iter().filter(|file| inside(file.path)) {
        let rest = &file.path[prefix_len..];
        match rest.find('/') {
            None => found.push(Child::File(file)),
            Some(slash) => {
                // The files of one subdirectory are next to one another
                // in path order.
                let path = &file.path[..prefix_len + slash];
                if found.last() != Some(&Child::Directory(path)) {
                    found.push(Child::Directory(path));
                }
            }
        }
    }
    found.sort_by(|a, b| a.name().cmp(b.name()));
    found
}

/// A subdirectory's entry: its URI (no trailing slash), name and the
/// directory media type.
fn directory_entry(root: &str, path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    serde_json::json!({
        "uri": file_uri(root, path),
        "name": name,
        "mimeType": "inode/directory",
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_are_read_back_exactly() {
        assert_eq!(numbers::<1>("skills-page-100", "skills-page-"), Some([100]));
        assert_eq!(numbers::<1>(&skills_cursor(0), "skills-page-"), Some([0]));
        assert_eq!(
            numbers::<2>(&resources_cursor(7, 2), "resources-page-"),
            Some([7, 2])
        );
        assert_eq!(
            numbers::<1>(&directory_cursor(3), "directory-page-"),
            Some([3])
        );
        for bad in [
            "skills-page-",
            "skills-page-01",
            "skills-page-+1",
            "skills-page-1-2",
            "skills-page-x",
            "page-1",
            "skills-page-99999999999999999999999",
        ] {
            assert_eq!(numbers::<1>(bad, "skills-page-"), None, "{bad}");
        }
        assert_eq!(numbers::<2>("resources-page-1", "resources-page-"), None);
    }
}
