//! Hard-coded home directories (`/Users/alice/...`, `/home/alice/...`,
//! `C:\Users\alice\...`): a path that breaks on every other machine, and
//! names the author.

use super::findings::{Findings, Tally};
use super::skill::{Skill, TextFile};
use crate::problem::Code;

/// Names that stand for "your user name" in documentation: not a real
/// user's home.
const PLACEHOLDERS: [&str; 22] = [
    "user",
    "username",
    "user-name",
    "user_name",
    "you",
    "your-name",
    "yourname",
    "your_name",
    "yourusername",
    "your-username",
    "me",
    "name",
    "someone",
    "example",
    "runner",
    "ubuntu",
    "root",
    "admin",
    "default",
    "public",
    "shared",
    "all users",
];

/// A user name as written after a home prefix: up to the next separator;
/// `None` when it is a placeholder (`<user>`, `$USER`, `{name}`, `...`,
/// `*`, a listed word).
fn user_name(rest: &str) -> Option<&str> {
    let name = &rest[..rest
        .find(|c: char| {
            matches!(c, '/' | '\\')
                || c.is_whitespace()
                || matches!(c, '`' | '"' | '\'' | ')' | ']' | ',' | ';' | ':')
        })
        .unwrap_or(rest.len())];
    let placeholder = name.is_empty()
        || name.starts_with(['<', '$', '{', '%', '[', '*', '.', '~'])
        || name.contains(['<', '>', '*', '$', '{'])
        || PLACEHOLDERS.contains(&name.to_ascii_lowercase().as_str())
        || name.to_ascii_lowercase().starts_with("your")
        || name.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    (!placeholder).then_some(name)
}

/// Home directories in a text file.
pub(super) fn paths(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::HomePath) {
        return;
    }
    let text = file.text.text;
    let mut found = Tally::new();
    for &(at, len) in &file.marks.homes {
        let prefix = &text[at..at + len];
        // A path of its own, not the tail of a URL path (`/api/home/...`).
        let before = text[..at].chars().next_back();
        let standalone = match before {
            None => true,
            Some(c) => {
                !(c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '-' | '_'))
                    || (prefix.starts_with('\\') && c == ':')
            }
        };
        if standalone && let Some(name) = user_name(&text[at + len..]) {
            found.add(at, || name.to_string());
        }
    }
    found.report(
        findings,
        (skill, file.path, &file.text),
        (Code::HomePath, "write it relative to the skill, or as ~ or $HOME"),
        |name| format!("a hard-coded home directory (of the user {name:?}): the path breaks on every other machine and names its author"),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::content::tests::{codes, skill_md};

    #[test]
    fn real_homes_are_found_placeholders_are_not() {
        assert_eq!(
            codes(&skill_md("Run /Users/alice/tools/fill.py"), &[]),
            ["home-path"]
        );
        assert_eq!(
            codes(&skill_md("Go."), &[("run.sh", "cd /home/bob/work\n")]),
            ["home-path"]
        );
        assert_eq!(
            codes(&skill_md("Open C:\\Users\\carol\\notes.txt"), &[]),
            ["home-path"]
        );
        for body in [
            "Install into /Users/<you>/bin or /home/$USER/bin or ~/bin",
            "e.g. /home/user/project or /Users/yourname/project",
            "GitHub runs in /home/runner/work",
            "The API lives at https://example.com/home/index.html",
            "Files go in /Users/USERNAME/Library",
        ] {
            assert!(codes(&skill_md(body), &[]).is_empty(), "{body}");
        }
    }
}
