//! Hard-coded home directories (`/Users/alice/...`, `/home/alice/...`,
//! `C:\Users\alice\...`): a path that breaks on every other machine, and
//! names the author.

use super::findings::{Findings, Tally};
use super::skill::{Skill, TextFile};
use crate::problem::Code;

/// Names that stand for "your user name" in documentation: not a real
/// user's home.
const PLACEHOLDERS: [&str; 36] = [
    // The users of well-known container images and hosted workspaces: a
    // path in one is the image's, not the author's.
    "node",
    "app",
    "appuser",
    "vscode",
    "codespace",
    "coder",
    "jovyan",
    "gitpod",
    "circleci",
    "docker",
    "nonroot",
    "runneradmin",
    "foo",
    "bar",
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
/// `*`, `xxx`, a listed word) or the prefix is the pattern of a regular
/// expression (`/home/i`: flags, and no path after them).
fn user_name(rest: &str) -> Option<&str> {
    let end = rest
        .find(|c: char| {
            matches!(c, '/' | '\\')
                || c.is_whitespace()
                || matches!(c, '`' | '"' | '\'' | ')' | ']' | ',' | ';' | ':' | '.')
        })
        .unwrap_or(rest.len());
    let name = &rest[..end];
    let regex = !name.is_empty()
        && name.len() <= 6
        && name.bytes().all(|b| b"dgimsuvy".contains(&b))
        && !rest[end..].starts_with(['/', '\\']);
    let mut letters = name.chars();
    let repeated = letters
        .next()
        .is_some_and(|first| letters.all(|c| c == first));
    let placeholder = name.is_empty()
        || regex
        || (repeated && name.len() >= 2)
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
        // `HOME=/home/az`, `HOME: /home/az`: a home set for a container
        // or a test, not the author's.
        let head = text[..at].trim_end_matches([' ', '"', '\'', '=', ':']);
        let assigned = head.len() < at
            && head
                .len()
                .checked_sub(4)
                .and_then(|from| head.as_bytes().get(from..))
                .is_some_and(|last| last.eq_ignore_ascii_case(b"HOME"));
        if standalone
            && !assigned
            && let Some(name) = user_name(&text[at + len..])
        {
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
            // Issue 39, item 15: a container's user, a home set for a
            // container, a regular expression, a placeholder.
            "WORKDIR /home/node/app",
            "docker run -e HOME=/home/az image",
            "if (/home/i.test(path)) return;",
            "Save to /Users/xxx/Desktop",
        ] {
            assert!(codes(&skill_md(body), &[]).is_empty(), "{body}");
        }
    }
}
