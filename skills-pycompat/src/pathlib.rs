//! Paths as Python's `pathlib` prints and names them: the reference echoes
//! the paths it was given after `pathlib` normalised them, and takes a
//! skill's directory name from `Path.name`.
//!
//! ```
//! use skills_pycompat::pathlib::PyPath;
//! let path = PyPath::new("skills//pdf/./SKILL.md");
//! assert_eq!(path.to_string(), "skills/pdf/SKILL.md");
//! assert_eq!(path.parent().name(), "pdf");
//! ```

use std::path::{Path, PathBuf};

/// A path in `pathlib`'s normal form: empty and `.` segments dropped,
/// trailing slashes removed, `..` kept, exactly two leading slashes kept.
///
/// ```
/// use skills_pycompat::pathlib::PyPath;
/// assert_eq!(PyPath::new("//srv/x/").to_string(), "//srv/x");
/// assert_eq!(PyPath::new("./").to_string(), ".");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyPath {
    root: &'static str,
    parts: Vec<String>,
}

impl PyPath {
    /// Normalises `text` as `pathlib.PurePosixPath(text)` does.
    pub fn new(text: &str) -> PyPath {
        let root = if text.starts_with("//") && !text.starts_with("///") {
            "//"
        } else if text.starts_with('/') {
            "/"
        } else {
            ""
        };
        let parts = text
            .split('/')
            .filter(|part| !part.is_empty() && *part != ".")
            .map(str::to_string)
            .collect();
        PyPath { root, parts }
    }

    /// The last segment, or `''`.
    pub fn name(&self) -> &str {
        self.parts.last().map_or("", String::as_str)
    }

    /// The path without its last segment (`.` when nothing is left).
    pub fn parent(&self) -> PyPath {
        let mut parts = self.parts.clone();
        parts.pop();
        PyPath {
            root: self.root,
            parts,
        }
    }

    /// As a path to hand to the file system.
    pub fn to_path(&self) -> PathBuf {
        PathBuf::from(self.to_string())
    }

    /// When the path names a file called `skill.md` in any letter case, its
    /// directory; otherwise the path itself. The reference accepts the skill
    /// file in place of its directory this way.
    pub fn skill_dir(self) -> PyPath {
        let is_skill_file =
            self.name().to_lowercase() == "skill.md" && Path::new(&self.to_string()).is_file();
        if is_skill_file { self.parent() } else { self }
    }
}

/// The last segment of a path as `pathlib` names it: `''` for `.`, `/` or
/// an empty path, `..` kept.
///
/// ```
/// use std::path::Path;
/// use skills_pycompat::pathlib::dir_name;
/// assert_eq!(dir_name(Path::new("skills/pdf/")), "pdf");
/// assert_eq!(dir_name(Path::new("x/..")), "..");
/// assert_eq!(dir_name(Path::new(".")), "");
/// ```
pub fn dir_name(path: &Path) -> String {
    PyPath::new(&path.to_string_lossy()).name().to_string()
}

impl std::fmt::Display for PyPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.root.is_empty() && self.parts.is_empty() {
            return f.write_str(".");
        }
        f.write_str(self.root)?;
        f.write_str(&self.parts.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::PyPath;

    #[test]
    fn normalises_like_pathlib() {
        for (input, shown, name) in [
            ("a//b/./c/", "a/b/c", "c"),
            ("./x", "x", "x"),
            (".", ".", ""),
            ("x/..", "x/..", ".."),
            ("/", "/", ""),
            ("//srv/x", "//srv/x", "x"),
            ("///srv", "/srv", "srv"),
        ] {
            let path = PyPath::new(input);
            assert_eq!(
                (path.to_string().as_str(), path.name()),
                (shown, name),
                "{input}"
            );
        }
        assert_eq!(PyPath::new("SKILL.md").parent().to_string(), ".");
        assert_eq!(PyPath::new("/SKILL.md").parent().to_string(), "/");
    }
}
