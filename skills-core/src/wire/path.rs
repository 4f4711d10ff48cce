//! The rules a file path inside a skill follows, shared by the tool (which
//! refuses a bad request before looking anything up) and the bundle checks
//! (which refuse a bundle that lists a file no request could name).

/// Whether `path` is a file path the `skill` tool accepts: relative,
/// `/`-separated, and made of non-empty segments other than `.` and `..`,
/// with no backslash anywhere.
///
/// This is Go's `fs.ValidPath` plus a refusal of `\`, so a path means the
/// same file on every platform. The compiler refuses to embed a file whose
/// path fails it.
///
/// ```
/// use skills_core::wire::path::is_valid_file_path;
/// assert!(is_valid_file_path("scripts/extract.py"));
/// assert!(is_valid_file_path(".gitignore"));
/// for bad in ["", "/etc/passwd", "./x", "a/../b", "a//b", "a/", "..", "a\\b", "SKILL.md/../x"] {
///     assert!(!is_valid_file_path(bad), "{bad}");
/// }
/// ```
pub fn is_valid_file_path(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && path
            .split('/')
            .all(|segment| !segment.is_empty() && segment != "." && segment != "..")
}

/// Whether `path` names the skill file itself: `SKILL.md` in any case, at
/// the root only. A call with such a path reads the instructions.
///
/// Case is folded the way Go's `strings.EqualFold` folds it, so the Kelvin
/// sign (U+212A) matches `k` and the long s (U+017F) matches `s`.
///
/// ```
/// use skills_core::wire::path::names_skill_file;
/// assert!(names_skill_file("SKILL.md"));
/// assert!(names_skill_file("skill.MD"));
/// assert!(!names_skill_file("scripts/SKILL.md"));
/// assert!(!names_skill_file("SKILL.md "));
/// ```
pub fn names_skill_file(path: &str) -> bool {
    let mut chars = path.chars();
    for wanted in "skill.md".chars() {
        let Some(c) = chars.next() else {
            return false;
        };
        let same = c.to_ascii_lowercase() == wanted
            || (wanted == 'k' && c == '\u{212A}')
            || (wanted == 's' && c == '\u{017F}');
        if !same {
            return false;
        }
    }
    chars.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_paths() {
        for good in [
            "a",
            "a/b",
            "a.b/c.d",
            "...",
            "a/.../b",
            ".env",
            "dir/.hidden",
            "é/ü.md",
            "a b",
        ] {
            assert!(is_valid_file_path(good), "{good}");
        }
    }

    #[test]
    fn invalid_paths() {
        for bad in [
            "",
            "/",
            "/a",
            "a/",
            "./a",
            "a/.",
            "a/./b",
            "..",
            "../a",
            "a/..",
            "a//b",
            "\\a",
            "a\\b",
            "C:\\x",
            "SKILL.md/../x",
        ] {
            assert!(!is_valid_file_path(bad), "{bad:?}");
        }
    }

    #[test]
    fn skill_file_in_any_case() {
        for yes in [
            "SKILL.md",
            "skill.md",
            "Skill.Md",
            "S\u{212A}ILL.md",
            "\u{017F}kill.md",
        ] {
            assert!(names_skill_file(yes), "{yes}");
        }
        for no in [
            "",
            "SKILL",
            "SKILL.mdx",
            "xSKILL.md",
            "./SKILL.md",
            "a/SKILL.md",
            "SKİLL.md",
            "SKILL.md/",
        ] {
            assert!(!names_skill_file(no), "{no}");
        }
    }
}
