//! What a name the installer reads may be, wherever it comes from (a
//! bundle, a record, a journal): a skill's folder name, a file's path
//! inside a skill folder, a folder's key in the record. Each is checked
//! before it is joined to a folder, so no name reaches outside it.

use std::path::{Component, Path};

use skills_core::wire::path::is_valid_file_path;

/// Whether `name` is a folder name that stays where it is put: one
/// non-empty segment, not hidden, without separators, colons, NUL or other
/// control characters.
pub(crate) fn is_safe_folder(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.contains(['/', '\\', ':'])
        && !name.chars().any(char::is_control)
}

/// Whether `path` is a file path inside a skill folder that stays inside
/// it: relative, `/`-separated, no empty, `.` or `..` segment, no
/// backslash, NUL or other control character.
pub(crate) fn is_safe_path(path: &str) -> bool {
    is_valid_file_path(path) && !path.chars().any(char::is_control)
}

/// Whether `key` is a folder's key as the record writes it: a safe
/// relative path (inside the scope's base), or an absolute path made of
/// plain parts only (no `.` or `..`), without control characters.
pub(crate) fn is_safe_key(key: &str) -> bool {
    let path = Path::new(key);
    match path.is_absolute() {
        false => is_safe_path(key),
        true => {
            !key.chars().any(char::is_control)
                && path.components().all(|part| {
                    matches!(
                        part,
                        Component::Prefix(_) | Component::RootDir | Component::Normal(_)
                    )
                })
        }
    }
}

/// Whether `created` (a folder an install made) is `key` itself or one of
/// its ancestors, below the scope's base for a relative key: the only
/// folders an uninstall may remove again (when empty).
pub(crate) fn is_ancestor_key(created: &str, key: &str) -> bool {
    is_safe_key(created)
        && Path::new(created).is_absolute() == Path::new(key).is_absolute()
        && Path::new(key).starts_with(created)
}

/// `name` with every character outside `[A-Za-z0-9._-]` made `-`.
pub(crate) fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                true => c,
                false => '-',
            },
        )
        .collect();
    match safe.trim_start_matches('.') {
        "" => "skills".to_string(),
        rest => rest.to_string(),
    }
}

/// `name` quoted for a message, escaped, and cut at 200 characters (a
/// name read from disk may be of any length).
pub(crate) fn quoted(name: &str) -> String {
    const MOST: usize = 200;
    match name.char_indices().nth(MOST) {
        None => format!("{name:?}"),
        Some((cut, _)) => format!("{:?}…", &name[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_is_bounded() {
        assert_eq!(quoted("a\nb"), "\"a\\nb\"");
        assert_eq!(quoted(&"x".repeat(1000)).len(), 200 + 2 + "…".len());
    }

    #[test]
    fn folders() {
        assert!(is_safe_folder("pdf-forms"));
        for bad in [
            "",
            ".hidden",
            "../victim",
            "a/b",
            "a\\b",
            "team:pdf",
            "a\0b",
        ] {
            assert!(!is_safe_folder(bad), "{bad:?}");
        }
    }

    #[test]
    fn paths() {
        assert!(is_safe_path("scripts/fill.py"));
        for bad in ["", "/etc/passwd", "../x", "a/../b", "a//b", "a\0b", "a\nb"] {
            assert!(!is_safe_path(bad), "{bad:?}");
        }
    }

    #[test]
    fn keys() {
        assert!(is_safe_key(".claude/skills"));
        #[cfg(unix)]
        assert!(is_safe_key("/opt/codex/skills"));
        for bad in ["", "../outside", ".claude/../..", "/opt/../etc", "a\nb"] {
            assert!(!is_safe_key(bad), "{bad:?}");
        }
        assert!(is_ancestor_key(".claude", ".claude/skills"));
        assert!(is_ancestor_key(".claude/skills", ".claude/skills"));
        assert!(!is_ancestor_key(".cla", ".claude/skills"));
        assert!(!is_ancestor_key("../empty", ".claude/skills"));
        #[cfg(unix)]
        {
            assert!(!is_ancestor_key("/tmp", ".claude/skills"));
            assert!(is_ancestor_key("/opt/codex", "/opt/codex/skills"));
        }
    }
}
