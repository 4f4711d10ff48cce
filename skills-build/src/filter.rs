//! Which files of a skill are embedded: exclude rules and junk names.
//!
//! Every file of a skill directory is embedded unless an exclude rule
//! skips it or it is junk ([`junk`]): what operating systems, editors,
//! version control and caches leave behind. Discovery leaves junk out and
//! says so in a note naming the file, in every route (CLI, `Builder`,
//! `include_skills!`); `keep_junk` embeds it anyway.

use std::fmt;

/// A small glob for exclude rules.
///
/// - `*` matches any run of characters within one path segment;
/// - `?` matches one character other than `/`;
/// - `**` as a whole segment matches any number of segments (zero or more);
/// - every other character matches itself.
///
/// A pattern without `/` is tried against every name along a path (so
/// `*.pyc` skips `scripts/cache/x.pyc` and `__pycache__` skips that
/// directory wherever it is); a pattern with `/` is matched against the
/// whole path relative to the skill directory, as the tool lists it.
///
/// ```
/// use skills_build::unstable::filter::Glob;
/// let pyc = Glob::new("*.pyc").unwrap();
/// assert!(pyc.matches("scripts/cache/x.pyc"));
/// let drafts = Glob::new("drafts/**").unwrap();
/// assert!(drafts.matches("drafts/a/b.md"));
/// assert!(!drafts.matches("docs/drafts/a.md"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Glob {
    pattern: String,
    segments: Vec<String>,
    anchored: bool,
}

/// An exclude pattern that cannot be used.
///
/// ```
/// let err = skills_build::unstable::filter::Glob::new("").unwrap_err();
/// assert_eq!(err.to_string(), "exclude pattern \"\" is empty");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobError {
    /// The pattern as given.
    pub pattern: String,
    /// Why it is refused.
    pub reason: &'static str,
}

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exclude pattern {:?} {}", self.pattern, self.reason)
    }
}

impl std::error::Error for GlobError {}

impl Glob {
    /// Parses a pattern. Empty patterns, patterns with empty segments
    /// (`a//b`, a leading or trailing `/`) and backslashes are refused.
    ///
    /// ```
    /// assert!(skills_build::unstable::filter::Glob::new("a\\b").is_err());
    /// ```
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        let fail = |reason| GlobError {
            pattern: pattern.to_string(),
            reason,
        };
        if pattern.is_empty() {
            return Err(fail("is empty"));
        }
        if pattern.contains('\\') {
            return Err(fail("holds a backslash; write paths with `/`"));
        }
        let segments: Vec<String> = pattern.split('/').map(str::to_string).collect();
        if segments.iter().any(String::is_empty) {
            return Err(fail(
                "has an empty segment (a leading, trailing or doubled `/`)",
            ));
        }
        Ok(Glob {
            pattern: pattern.to_string(),
            anchored: segments.len() > 1,
            segments,
        })
    }

    /// Whether the rule skips `path` (relative to the skill directory,
    /// `/`-separated). A directory that matches is skipped whole.
    ///
    /// ```
    /// let tmp = skills_build::unstable::filter::Glob::new("build").unwrap();
    /// assert!(tmp.matches("build") && tmp.matches("a/build") && !tmp.matches("builds"));
    /// ```
    pub fn matches(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        if self.anchored {
            let pattern: Vec<&str> = self.segments.iter().map(String::as_str).collect();
            match_segments(&pattern, &parts)
        } else {
            let pattern = self.segments.first().map_or("", String::as_str);
            pattern == "**" || parts.iter().any(|name| match_name(pattern, name))
        }
    }
}

/// Whether the segments of `pattern` match `parts`, `**` standing for any
/// number of parts.
///
/// One pass per pattern segment over the set of positions in `parts` the
/// pattern so far can reach: O(pattern × path) segment matches, where
/// trying every split for each `**` in turn was exponential in the number
/// of `**` segments.
fn match_segments(pattern: &[&str], parts: &[&str]) -> bool {
    let mut reach = vec![false; parts.len() + 1];
    reach[0] = true;
    for segment in pattern {
        let mut next = vec![false; parts.len() + 1];
        if *segment == "**" {
            let mut reached = false;
            for (at, slot) in next.iter_mut().enumerate() {
                reached |= reach[at];
                *slot = reached;
            }
        } else {
            for (at, part) in parts.iter().enumerate() {
                next[at + 1] = reach[at] && match_name(segment, part);
            }
        }
        if !next.contains(&true) {
            return false;
        }
        reach = next;
    }
    reach[parts.len()]
}

/// `*` and `?` within one segment, by characters.
fn match_name(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    // Iterative wildcard matching with one backtrack point.
    let (mut p, mut n) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

/// Why a file or directory name counts as junk, or `None` for an ordinary
/// name.
///
/// Files: `.DS_Store` and AppleDouble `._*` files (macOS), `Thumbs.db` and
/// `desktop.ini` (Windows; these and `.DS_Store` in any case), editor swap,
/// lock and backup files (`*.swp`, `*.swo`, `*~`, `.#*`, `#*#`), Python
/// bytecode (`*.pyc`, `*.pyo`) and a `.git` file (a worktree's or
/// submodule's pointer).
///
/// Directories: `.git`, `.hg`, `.svn` (version control), `__pycache__`
/// (Python's bytecode cache) and `node_modules`. A `node_modules` folder is
/// installed dependencies, not the skill: `npm install` recreates it from
/// the `package.json` that stays embedded; the model reads skills through
/// the `skill` tool and never runs code from the bundle; and a real one
/// holds thousands of files, far over the MCP Skills extension's 512 files
/// and 16 MiB per skill. Anthropic's `.skill` packager leaves it out too.
pub fn junk(name: &str, is_dir: bool) -> Option<&'static str> {
    if is_dir {
        return match name {
            ".git" | ".hg" | ".svn" => Some("version-control data"),
            "__pycache__" => Some("a Python bytecode cache"),
            "node_modules" => Some("installed Node.js dependencies"),
            _ => None,
        };
    }
    if name == ".git" {
        return Some("a Git worktree or submodule pointer");
    }
    if name.ends_with(".pyc") || name.ends_with(".pyo") {
        return Some("Python bytecode");
    }
    let lower = name.to_ascii_lowercase();
    if lower == ".ds_store" || name.starts_with("._") {
        return Some("macOS Finder metadata");
    }
    if lower == "thumbs.db" || lower == "desktop.ini" {
        return Some("Windows Explorer metadata");
    }
    if name.ends_with(".swp") || name.ends_with(".swo") {
        return Some("a Vim swap file");
    }
    if name.ends_with('~') {
        return Some("an editor backup file");
    }
    if name.starts_with(".#") || (name.len() >= 2 && name.starts_with('#') && name.ends_with('#')) {
        return Some("an Emacs lock or autosave file");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_and_questions() {
        assert!(match_name("*.py", "a.py"));
        assert!(match_name("*", ""));
        assert!(match_name("a*b*c", "aXbYbc"));
        assert!(!match_name("a*b", "a"));
        assert!(match_name("?.md", "é.md"));
        assert!(!match_name("?.md", "ab.md"));
    }

    #[test]
    fn double_star_spans_segments() {
        let g = Glob::new("**/cache/*.bin").unwrap();
        assert!(g.matches("cache/x.bin"));
        assert!(g.matches("a/b/cache/x.bin"));
        assert!(!g.matches("a/cache/d/x.bin"));
        assert!(Glob::new("**").unwrap().matches("any/thing"));
        assert!(!Glob::new("a/*").unwrap().matches("a/b/c"));
    }

    #[test]
    fn many_double_stars_match_in_polynomial_time() {
        let deep = vec!["d"; 60].join("/");
        let many = format!("{}nomatch", "**/".repeat(20));
        let start = std::time::Instant::now();
        assert!(!Glob::new(&many).unwrap().matches(&deep));
        assert!(
            Glob::new(&format!("{}d", "**/".repeat(20)))
                .unwrap()
                .matches(&deep)
        );
        assert!(Glob::new("**/**").unwrap().matches("a"));
        assert!(Glob::new("a/**/b/**").unwrap().matches("a/b"));
        assert!(!Glob::new("a/**/b/**/c").unwrap().matches("a/c/b"));
        // A guard against a blow-up, far above the microseconds it takes.
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
    }

    #[test]
    fn junk_names() {
        for junk in [
            "Thumbs.db",
            "DESKTOP.INI",
            ".#x",
            "#x#",
            "._logo.png",
            "a.swo",
            "x.pyc",
            ".git",
        ] {
            assert!(super::junk(junk, false).is_some(), "{junk}");
        }
        for fine in ["#", "readme#", "swp", ".gitignore", "pyc", "__pycache__"] {
            assert_eq!(super::junk(fine, false), None, "{fine}");
        }
        for dir in [".git", ".hg", ".svn", "__pycache__", "node_modules"] {
            assert!(super::junk(dir, true).is_some(), "{dir}");
        }
        for fine in ["scripts", ".github", "node", "Thumbs.db"] {
            assert_eq!(super::junk(fine, true), None, "{fine}");
        }
    }

    #[test]
    fn names_junk() {
        use crate::filter::junk;
        assert!(junk(".DS_Store", false).is_some());
        assert!(junk(".SKILL.md.swp", false).is_some());
        assert!(junk("notes.md~", false).is_some());
        assert!(junk("node_modules", true).is_some());
        assert_eq!(junk("node_modules", false), None);
        assert_eq!(junk("reference.md", false), None);
    }
}
