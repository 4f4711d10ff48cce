//! What the skill file points at: links that name no file of the skill
//! (errors: a model that follows one gets a read error), links out of the
//! skill folder (errors: a bundle serves only the skill), references more
//! than one level deep (a warning), and files nothing mentions (a note).
//!
//! Links are read in the skill file and in every Markdown file reached
//! from it by links, with a CommonMark parser ([`super::markdown`]). A
//! destination with a scheme (`https:`, `mailto:`), a protocol-relative
//! one (`//host`) or an anchor alone (`#usage`) names no file; the rest is
//! a path relative to the linking file: its `?query` and `#anchor` dropped,
//! percent-encoding decoded, `./` and `..` resolved. Everything is
//! relative to the skill folder, so the verdict is the same wherever the
//! folder sits.

use std::collections::{BTreeMap, BTreeSet};

use super::findings::Findings;
use super::markdown::{self, Link, is_markdown};
use super::position::Located;
use super::skill::{File, Skill};
use crate::problem::{Code, Position, Problem};

/// Where a link's destination leads.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// Not a file: a URL with a scheme, an anchor, nothing.
    NotAFile,
    /// A path in the skill folder (`""` is the folder itself).
    Inside(String),
    /// Out of the skill folder: up past its top, or an absolute path.
    Outside,
}

/// Whether `destination` starts with a URL scheme (`https:`, `mailto:`,
/// `data:`); a one-letter "scheme" followed by a slash is a Windows drive.
fn has_scheme(destination: &str) -> bool {
    let Some(colon) = destination.find(':') else {
        return false;
    };
    let scheme = &destination[..colon];
    let drive = scheme.len() == 1 && destination[colon + 1..].starts_with(['/', '\\']);
    !drive
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
}

/// `%XX` sequences decoded, when they decode to UTF-8; else the text as it
/// is.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Where `destination`, written in the file at `from` (a path in the
/// skill), leads.
fn resolve(from: &str, destination: &str) -> Target {
    let destination = destination.trim();
    if destination.is_empty()
        || destination.starts_with('#')
        || destination.starts_with("//")
        || has_scheme(destination)
    {
        return Target::NotAFile;
    }
    let path = destination.split(['#', '?']).next().unwrap_or(destination);
    let path = percent_decode(path);
    // `/features/analytics` is a web site's route (a page's link quoted in
    // the instructions), not a file; `/opt/tools/run.sh`, `C:\x.md` are.
    let last = path.rsplit(['/', '\\']).next().unwrap_or("");
    if path.starts_with('/') && !last.contains('.') {
        return Target::NotAFile;
    }
    if path.starts_with(['/', '\\']) || (path.len() > 1 && path.as_bytes()[1] == b':') {
        return Target::Outside;
    }
    if path.is_empty() {
        return Target::NotAFile;
    }
    let mut segments: Vec<&str> = from.split('/').collect();
    segments.pop();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if segments.pop().is_none() {
                    return Target::Outside;
                }
            }
            name => segments.push(name),
        }
    }
    Target::Inside(segments.join("/"))
}

/// The skill's files by path, for lookups.
struct Tree<'a> {
    skill_file: &'a str,
    files: &'a [File<'a>],
}

impl Tree<'_> {
    /// The index of the file at `path`, if it is one.
    fn file(&self, path: &str) -> Option<usize> {
        self.files
            .binary_search_by(|file| file.path.as_bytes().cmp(path.as_bytes()))
            .ok()
    }

    /// Whether `path` names the skill file, a file or a folder of the
    /// skill.
    fn holds(&self, path: &str) -> bool {
        path.is_empty()
            || path == self.skill_file
            || self.file(path).is_some()
            || self.files.iter().any(|file| {
                file.path.len() > path.len()
                    && file.path.starts_with(path)
                    && file.path.as_bytes()[path.len()] == b'/'
            })
    }
}

// OpenAI Codex's sidecar of its own settings for a skill: read by the
// host, not the model.
use crate::rules::hosts::sidecar::SIDECAR as CODEX_SIDECAR;

/// Files whose presence explains itself: licences, read-me files, change
/// logs, dotfiles and what sits in dot folders, junk kept on purpose, a
/// host's sidecar, and evaluations (authoring material).
fn needs_no_mention(path: &str) -> bool {
    if path == CODEX_SIDECAR {
        return true;
    }
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_uppercase();
    let mut segments = path.split('/').peekable();
    let mut hidden_or_junk = false;
    while let Some(segment) = segments.next() {
        let last = segments.peek().is_none();
        hidden_or_junk |= segment.starts_with('.') || crate::filter::junk(segment, !last).is_some();
    }
    [
        "LICENSE",
        "LICENCE",
        "COPYING",
        "NOTICE",
        "README",
        "CHANGELOG",
        "AUTHORS",
    ]
    .iter()
    .any(|prefix| name.starts_with(prefix))
        || hidden_or_junk
        || path.starts_with("evals/")
}

/// Whether `text` names `path`: the path itself, its file name (when it
/// has an extension), or a folder above it written with its slash.
fn mentions(text: &str, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    // A file name with an extension is searched alone (the path holds it);
    // a bare name only as the whole path.
    let wanted = match name.contains('.') && name.len() > 3 {
        true => name,
        false => path,
    };
    if memchr::memmem::find(text.as_bytes(), wanted.as_bytes()).is_some() {
        return true;
    }
    // A folder named as itself (`assets/`, not the start of
    // `assets/logo.png`) covers what is in it.
    let mut folder = path;
    while let Some((parent, _)) = folder.rsplit_once('/') {
        let named = format!("{parent}/");
        let whole = memchr::memmem::find_iter(text.as_bytes(), named.as_bytes()).any(|at| {
            let after = text.as_bytes().get(at + named.len());
            !after.is_some_and(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'*' | b'{')
            })
        });
        if whole {
            return true;
        }
        folder = parent;
    }
    false
}

/// A file that links, read for its links: its path and located text.
struct Linking<'a> {
    path: &'a str,
    text: Located<'a>,
}

/// The link rules over `skill`.
pub(super) fn check(skill: &Skill<'_>, body: &Located<'_>, findings: &mut Findings<'_>) {
    const CODES: [Code; 4] = [
        Code::LinkBroken,
        Code::LinkOutsideSkill,
        Code::ReferenceTooDeep,
        Code::FileUnmentioned,
    ];
    if !findings.wants_any(&CODES) {
        return;
    }
    let tree = Tree {
        skill_file: skill.skill_file,
        files: skill.files,
    };
    // Level 1: what the skill file links or names.
    let mut level: BTreeMap<usize, u8> = BTreeMap::new();
    let mut queue: Vec<(Linking<'_>, u8)> = vec![(
        Linking {
            path: skill.skill_file,
            text: *body,
        },
        0,
    )];
    for (index, file) in skill.files.iter().enumerate() {
        if mentions(body.text, file.path) {
            level.insert(index, 1);
        }
    }
    let mut broken: Vec<(String, Position, String, Code)> = Vec::new();
    let mut deep: BTreeSet<usize> = BTreeSet::new();
    let mut read_texts: Vec<&str> = vec![body.text];
    let mut visited: BTreeSet<usize> = BTreeSet::new();
    while let Some((linking, depth)) = queue.pop() {
        for Link {
            destination,
            offset,
        } in markdown::links(linking.text.text)
        {
            let position = linking.text.position(offset);
            let target = match resolve(linking.path, &destination) {
                Target::NotAFile => continue,
                Target::Outside => {
                    broken.push((
                        linking.path.to_string(),
                        position,
                        destination,
                        Code::LinkOutsideSkill,
                    ));
                    continue;
                }
                Target::Inside(path) => path,
            };
            if !tree.holds(&target) {
                broken.push((
                    linking.path.to_string(),
                    position,
                    destination,
                    Code::LinkBroken,
                ));
                continue;
            }
            let Some(index) = tree.file(&target) else {
                continue;
            };
            let reached = depth + 1;
            let known = level.get(&index).copied();
            if known.is_none_or(|known| reached < known) {
                level.insert(index, reached);
            }
            if reached >= 2
                && known.is_none()
                && deep.insert(index)
                && findings.wants(Code::ReferenceTooDeep)
            {
                findings.push(
                    Problem::new(
                        Code::ReferenceTooDeep,
                        format!(
                            "{target} is reached from {} only through {}: a model may stop before it; references should be one level deep",
                            skill.skill_file, linking.path
                        ),
                    )
                    .with_hint(format!("link {target} from {} as well, or fold it into {}", skill.skill_file, linking.path)),
                    skill.location_of(linking.path),
                    Some(position),
                );
            }
            let file = &skill.files[index];
            if is_markdown(file.path)
                && visited.insert(index)
                && let Ok(text) = std::str::from_utf8(file.bytes)
            {
                read_texts.push(text);
                queue.push((
                    Linking {
                        path: file.path,
                        text: Located::new(text, Position { line: 1, column: 1 }),
                    },
                    reached.min(2),
                ));
            }
        }
    }
    for (path, position, destination, code) in broken {
        let message = match code {
            Code::LinkOutsideSkill => format!(
                "the link {destination:?} points outside the skill folder, which the bundle does not serve"
            ),
            _ => format!("the link {destination:?} names no file of the skill"),
        };
        let hint = match code {
            Code::LinkOutsideSkill => {
                "copy what it points at into the skill, and link it relative to this file"
            }
            _ => {
                "add the file to the skill, or fix the link (paths are relative to the linking file)"
            }
        };
        findings.push(
            Problem::new(code, message).with_hint(hint),
            skill.location_of(&path),
            Some(position),
        );
    }
    if !findings.wants(Code::FileUnmentioned) {
        return;
    }
    // A host's sidecar names the files it uses (icons, say).
    if let Some(sidecar) = tree.file(CODEX_SIDECAR)
        && let Ok(text) = std::str::from_utf8(skill.files[sidecar].bytes)
    {
        read_texts.push(text);
    }
    // What sits in a folder beside a named file is that file's support
    // (the schemas a named validation script reads, say).
    let named_folders: BTreeSet<&str> = level
        .keys()
        .filter_map(|index| {
            skill.files[*index]
                .path
                .rsplit_once('/')
                .map(|(folder, _)| folder)
        })
        .collect();
    let in_named_folder = |path: &str| {
        let mut folder = path;
        while let Some((parent, _)) = folder.rsplit_once('/') {
            if named_folders.contains(parent) {
                return true;
            }
            folder = parent;
        }
        false
    };
    for (index, file) in skill.files.iter().enumerate() {
        if level.contains_key(&index) || needs_no_mention(file.path) || in_named_folder(file.path) {
            continue;
        }
        if read_texts
            .iter()
            .skip(1)
            .any(|text| mentions(text, file.path))
        {
            continue;
        }
        findings.push(
            Problem::new(
                Code::FileUnmentioned,
                format!(
                    "{} is named neither in {} nor in a file it links: a model learns of it only from the file list",
                    file.path, skill.skill_file
                ),
            )
            .with_hint("say in SKILL.md when to read or run it, or leave it out of the skill"),
            skill.location_of(file.path),
            None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{Target, resolve};
    use crate::rules::content::tests::{codes_all, skill_md};

    #[test]
    fn destinations_resolve_relative_to_the_linking_file() {
        let inside = |p: &str| Target::Inside(p.to_string());
        assert_eq!(resolve("SKILL.md", "reference.md"), inside("reference.md"));
        assert_eq!(
            resolve("SKILL.md", "./docs/a%20b.md#part"),
            inside("docs/a b.md")
        );
        assert_eq!(
            resolve("docs/a.md", "../scripts/run.py?x=1"),
            inside("scripts/run.py")
        );
        assert_eq!(resolve("SKILL.md", "../other/SKILL.md"), Target::Outside);
        assert_eq!(resolve("SKILL.md", "/opt/tools/run.sh"), Target::Outside);
        assert_eq!(resolve("SKILL.md", "/features/analytics"), Target::NotAFile);
        assert_eq!(resolve("SKILL.md", "C:\\Users\\x"), Target::Outside);
        for not_a_file in [
            "https://example.com/a.md",
            "mailto:me@example.com",
            "#usage",
            "//cdn.example/x.js",
            "",
        ] {
            assert_eq!(
                resolve("SKILL.md", not_a_file),
                Target::NotAFile,
                "{not_a_file}"
            );
        }
    }

    #[test]
    fn broken_and_outside_links_are_errors() {
        let md = skill_md("See [themes](themes.md) and [up](../shared/x.md).");
        assert_eq!(codes_all(&md, &[]), ["link-broken", "link-outside-skill"]);
        // In code, to a URL, an anchor, or a file that is there: no finding.
        let md = skill_md(
            "See [ref](reference.md#setup), [web](https://x.example/y.md), [top](#top).\n\n`[c](nope.md)`\n\n```\n[x](nope.md)\n```",
        );
        assert!(codes_all(&md, &[("reference.md", "# Ref\n")]).is_empty());
        // A broken link in a linked reference is found there.
        let md = skill_md("Read [the guide](docs/guide.md).");
        assert_eq!(
            codes_all(&md, &[("docs/guide.md", "See [x](missing.md).\n")]),
            ["link-broken"]
        );
    }

    #[test]
    fn deep_references_and_unmentioned_files() {
        let md = skill_md("Read [the guide](docs/guide.md).");
        let files = [
            ("docs/guide.md", "Then [the list](../scripts/list.txt).\n"),
            ("scripts/list.txt", "x\n"),
        ];
        assert_eq!(codes_all(&md, &files), ["reference-too-deep"]);
        let md = skill_md("Read [the guide](docs/guide.md) and run `scripts/list.txt`.");
        assert!(codes_all(&md, &files).is_empty());
        let md = skill_md("Go.");
        assert_eq!(
            codes_all(
                &md,
                &[
                    ("scripts/orphan.py", "print(1)\n"),
                    ("LICENSE.txt", "MIT\n")
                ]
            ),
            ["file-unmentioned"]
        );
        // A folder named with its slash covers its files; prose like
        // `@john.doe` or `$5.00` is no link.
        let md = skill_md("Templates are in `assets/`. Ask @john.doe; it costs $5.00.");
        assert!(codes_all(&md, &[("assets/a.docx", "x")]).is_empty());
        // A named script's support files, a host's sidecar and the icon it
        // names need no mention.
        let md = skill_md("Check with `scripts/office/validate.py`.");
        let files = [
            ("scripts/office/validate.py", "load('schemas')\n"),
            ("scripts/office/schemas/a.xsd", "<x/>"),
            (
                "agents/openai.yaml",
                "interface:\n  icon_small: assets/icon.png\n",
            ),
            ("assets/icon.png", "png"),
        ];
        assert!(codes_all(&md, &files).is_empty());
    }
}
