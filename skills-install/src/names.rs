//! What a name the installer reads may be, wherever it comes from (a
//! bundle, a record, a journal): a skill's folder name, a file's path
//! inside a skill folder, a folder's key in the record. Each is checked
//! before it is joined to a folder, so no name reaches outside it.

use std::borrow::Cow;
use std::path::{Component, Path};

use skills_core::wire::path::is_valid_file_path;

/// Whether `c` is a character a person cannot see, or that reorders what
/// is shown around it: zero-width characters and joiners, the byte-order
/// mark, soft hyphens, bidirectional marks, embeddings, overrides and
/// isolates, invisible operators, tags. A name holding one can look like
/// another name on screen.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fffb}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Whether `name` is a name Windows keeps for a device (`CON`, `NUL`,
/// `COM1`, ..., with or without an extension, in any case).
fn is_reserved_on_windows(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).to_ascii_uppercase();
    matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.as_bytes()[3].is_ascii_digit()
            && stem.as_bytes()[3] != b'0')
}

/// Whether `name` is a folder name that stays where it is put, and names
/// the folder it shows: one non-empty segment, not hidden, without
/// separators, colons, NUL or other control characters, without
/// characters a person cannot see ([`is_invisible`]), not ending in a dot
/// or a space (which Windows drops, so `pdf.` names `pdf` there), and on
/// Windows not a device's name.
pub(crate) fn is_safe_folder(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.ends_with(['.', ' '])
        && !name.contains(['/', '\\', ':'])
        && !name.chars().any(|c| c.is_control() || is_invisible(c))
        && !(cfg!(windows) && is_reserved_on_windows(name))
}

/// Whether `path` is a file path inside a skill folder that stays inside
/// it: relative, `/`-separated, no empty, `.` or `..` segment, no
/// backslash, NUL or other control character; on Windows no colon (`C:x`
/// would name another drive) and no device name.
pub(crate) fn is_safe_path(path: &str) -> bool {
    is_valid_file_path(path)
        && !path.chars().any(char::is_control)
        && !(cfg!(windows)
            && (path.contains(':')
                || path
                    .split('/')
                    .any(|part| is_reserved_on_windows(part) || part.ends_with(['.', ' ']))))
}

/// Whether `key` is a folder's key as the record writes it: a safe
/// relative path (inside the scope's base), or an absolute path made of
/// plain parts only (no `.` or `..`), without control characters; or `.`,
/// the base itself (a plain folder's only key).
pub(crate) fn is_safe_key(key: &str) -> bool {
    if key == "." {
        return true;
    }
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
    created != "."
        && is_safe_key(created)
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

/// `name` as shown to a person: every control character and every
/// character a person cannot see ([`is_invisible`]) written as a visible
/// escape (`\u{202e}`), so what is printed is what is there. A name
/// without one is returned as is.
pub(crate) fn shown(name: &str) -> Cow<'_, str> {
    if !name.chars().any(|c| c.is_control() || is_invisible(c)) {
        return Cow::Borrowed(name);
    }
    Cow::Owned(
        name.chars()
            .map(|c| match c.is_control() || is_invisible(c) {
                true => format!("\\u{{{:x}}}", u32::from(c)),
                false => c.to_string(),
            })
            .collect(),
    )
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
            "pdf\u{202e}forms",
            "pdf\u{200b}forms",
            "\u{feff}pdf",
            "pdf.",
            "pdf ",
        ] {
            assert!(!is_safe_folder(bad), "{bad:?}");
        }
        assert_eq!(is_safe_folder("con"), !cfg!(windows));
        assert!(is_reserved_on_windows("NUL.txt") && is_reserved_on_windows("com1"));
        assert!(!is_reserved_on_windows("com0") && !is_reserved_on_windows("console"));
        assert_eq!(shown("a\u{202e}b\n"), "a\\u{202e}b\\u{a}");
        assert_eq!(shown("pdf-forms"), "pdf-forms");
    }

    #[test]
    fn paths() {
        assert!(is_safe_path("scripts/fill.py"));
        // A colon names a drive on Windows only.
        assert_eq!(is_safe_path("a/C:x"), !cfg!(windows));
        assert_eq!(is_safe_path("scripts/nul.txt"), !cfg!(windows));
        for bad in ["", "/etc/passwd", "../x", "a/../b", "a//b", "a\0b", "a\nb"] {
            assert!(!is_safe_path(bad), "{bad:?}");
        }
    }

    #[test]
    fn keys() {
        assert!(is_safe_key(".claude/skills"));
        assert!(is_safe_key("."));
        assert!(!is_ancestor_key(".", "."));
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
