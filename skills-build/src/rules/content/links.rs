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
    // `git@github.com:owner/repo.git`: git's form of an SSH URL (a user at
    // a host, then a path), not a file of the skill.
    if scheme.contains('@') && !scheme.contains(['/', '\\']) {
        return true;
    }
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
        if path.is_empty() || path == self.skill_file || self.file(path).is_some() {
            return true;
        }
        // The files are sorted by path: the first at or after `path/` is
        // in the folder if any is.
        let folder = format!("{path}/");
        let first = self
            .files
            .partition_point(|file| file.path.as_bytes() < folder.as_bytes());
        self.files
            .get(first)
            .is_some_and(|file| file.path.starts_with(&folder))
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
/// has an extension), or a folder above it written as a folder (`assets/`,
/// `./assets`, `` `assets` ``, `scripts/office`).
///
/// `folders` keeps what is known of the folders in this text: each
/// distinct folder is searched for once, whatever the number of files in
/// it.
fn mentions<'p>(text: &str, path: &'p str, folders: &mut BTreeMap<&'p str, bool>) -> bool {
    memchr::memmem::find(text.as_bytes(), wanted(path).as_bytes()).is_some()
        || folders_of(path).any(|folder| {
            *folders
                .entry(folder)
                .or_insert_with(|| folder_named(text, folder))
        })
}

/// What names `path` in a text: its file name when it has an extension
/// (the path holds it), a bare name only as the whole path.
fn wanted(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.contains('.') && name.len() > 3 {
        true => name,
        false => path,
    }
}

/// The folders above `path`, deepest first (`a/b/c.md`: `a/b`, `a`).
fn folders_of(path: &str) -> impl Iterator<Item = &str> {
    let mut folder = path;
    std::iter::from_fn(move || {
        let (parent, _) = folder.rsplit_once('/')?;
        folder = parent;
        Some(parent)
    })
}

/// Whether `text` names the folder `folder` as a folder: followed by its
/// slash and not by more of a path (`assets/`, not `assets/logo.png`), or
/// written as a path of its own (`./canvas-fonts`, `` `canvas-fonts` ``,
/// `scripts/office` with nothing after it). A one-segment name
/// alone in prose (`the scripts`) is a word, not a folder.
fn folder_named(text: &str, folder: &str) -> bool {
    let bytes = text.as_bytes();
    let path_char = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'*' | b'{');
    memchr::memmem::find_iter(bytes, folder.as_bytes()).any(|at| {
        let end = at + folder.len();
        let after = bytes.get(end).copied();
        let then = bytes.get(end + 1).copied();
        if after == Some(b'/') {
            return !then.is_some_and(path_char);
        }
        // Not a longer name, and not a file in it (`fonts.zip`).
        if after.is_some_and(|b| path_char(b) || (b == b'.' && then.is_some_and(path_char))) {
            return false;
        }
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let dot_slash = at >= 2 && &bytes[at - 2..at] == b"./";
        // In a code span; a name in quotes is more often a key
        // (`"scripts": {` in a package.json shown) than a folder.
        let quoted = before == Some(b'`') && after == Some(b'`');
        let standalone = !before.is_some_and(|b| path_char(b) || matches!(b, b'.' | b'/'));
        dot_slash || quoted || (folder.contains('/') && standalone)
    })
}

/// Where `text` names `path` in another case than its own (`FORMS.md` for
/// `forms.md`): what it wrote. `lower` is `text` in ASCII lower case.
fn mentioned_in_another_case<'t>(text: &'t str, lower: &str, path: &str) -> Option<&'t str> {
    let wanted = wanted(path).to_ascii_lowercase();
    memchr::memmem::find_iter(lower.as_bytes(), wanted.as_bytes())
        .filter_map(|at| text.get(at..at + wanted.len()))
        .find(|written| *written != self::wanted(path))
}

/// A file that links, read for its links: its path and located text.
struct Linking<'a> {
    path: &'a str,
    text: Located<'a>,
}

/// The link rules' codes.
const CODES: [Code; 4] = [
    Code::LinkBroken,
    Code::LinkOutsideSkill,
    Code::ReferenceTooDeep,
    Code::FileUnmentioned,
];

/// Whether any link rule runs (and so the body's links are wanted).
pub(super) fn any_wanted(findings: &Findings<'_>) -> bool {
    findings.wants_any(&CODES)
}

/// The link rules over `skill`, whose body's links are `body_links`
/// ([`markdown::links`] of `body`, read with its comments).
pub(super) fn check(
    skill: &Skill<'_>,
    body: &Located<'_>,
    body_links: Vec<Link>,
    findings: &mut Findings<'_>,
) {
    if !any_wanted(findings) {
        return;
    }
    let mut body_links = Some(body_links);
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
    let mut body_folders = BTreeMap::new();
    for (index, file) in skill.files.iter().enumerate() {
        if mentions(body.text, file.path, &mut body_folders) {
            level.insert(index, 1);
        }
    }
    let mut broken: Vec<(String, Position, String, Code)> = Vec::new();
    let mut deep: BTreeSet<usize> = BTreeSet::new();
    let mut read_texts: Vec<&str> = vec![body.text];
    let mut visited: BTreeSet<usize> = BTreeSet::new();
    while let Some((linking, depth)) = queue.pop() {
        // In order, so that their positions cost one walk over the text.
        // The body comes first, read already.
        let mut links = body_links
            .take()
            .unwrap_or_else(|| markdown::links(linking.text.text));
        links.sort_by_key(|link| link.offset);
        let mut walker = linking.text.walker();
        for Link {
            destination,
            offset,
        } in links
        {
            let position = walker.position(offset);
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
    let mut lowered: Option<Vec<String>> = None;
    let mut text_folders: Vec<BTreeMap<&str, bool>> = vec![BTreeMap::new(); read_texts.len()];
    for (index, file) in skill.files.iter().enumerate() {
        if level.contains_key(&index) || needs_no_mention(file.path) || in_named_folder(file.path) {
            continue;
        }
        if read_texts
            .iter()
            .zip(text_folders.iter_mut())
            .skip(1)
            .any(|(text, folders)| mentions(text, file.path, folders))
        {
            continue;
        }
        // Named, but in another case: the `skill` tool's paths are exact.
        let lower = lowered.get_or_insert_with(|| {
            read_texts
                .iter()
                .map(|text| text.to_ascii_lowercase())
                .collect::<Vec<_>>()
        });
        let miscased = read_texts
            .iter()
            .zip(lower.iter())
            .find_map(|(text, lower)| mentioned_in_another_case(text, lower, file.path));
        if let Some(written) = miscased {
            findings.push(
                Problem::new(
                    Code::FileUnmentioned,
                    format!(
                        "{} is named only as {written:?}, in another case: the `skill` tool's paths are exact, so a model that asks for {written} gets an error",
                        file.path
                    ),
                )
                .with_hint(format!("write it as {} (or rename the file)", wanted(file.path))),
                skill.location_of(file.path),
                None,
            );
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

    /// Issue 39, item 1: a link's position is found walking forward, not
    /// counted from the start for each: 1 MB of links, one a line and all
    /// on one line, each of which took from 10 s to minutes quadratic.
    #[test]
    fn item_1_links_are_linear() {
        let one_a_line = "[x](gone.md)\n".repeat(80_000);
        let one_line = "[x](gone.md) ".repeat(80_000);
        for body in [one_a_line, one_line] {
            let found: Vec<_> = crate::rules::content::tests::problems(&skill_md(&body), &[])
                .into_iter()
                .filter(|p| p.code.as_str() == "link-broken")
                .collect();
            assert_eq!(found.len(), 80_000);
            let last = found.last().and_then(|p| p.position).unwrap();
            assert!(last.line >= 5, "{last:?}");
        }
    }

    /// Issue 39, item 15: git's SSH form of a repository is no path.
    #[test]
    fn item_15_git_ssh_urls_are_no_files() {
        for url in [
            "git@github.com:owner/repo.git",
            "deploy@example.com:repos/x.git",
        ] {
            assert_eq!(resolve("SKILL.md", url), Target::NotAFile, "{url}");
        }
        let md = skill_md("Clone [the repo](git@github.com:owner/repo.git).");
        assert!(codes_all(&md, &[]).is_empty());
    }

    /// Issue 39, item 14: Anthropic's canvas-design names its fonts'
    /// folder as "Search the `./canvas-fonts` directory", with no trailing
    /// slash; a folder written as a word of prose is still no mention.
    #[test]
    fn item_14_a_folder_named_without_its_slash() {
        let md = skill_md(
            "**IMPORTANT: Use different fonts if writing text. Search the `./canvas-fonts` directory.**",
        );
        let files = [
            ("canvas-fonts/ArsenalSC-OFL.txt", "x"),
            ("canvas-fonts/ArsenalSC-Regular.ttf", "x"),
        ];
        assert!(codes_all(&md, &files).is_empty());
        for named in ["Fonts are in `canvas-fonts`.", "See canvas-fonts/ too."] {
            assert!(codes_all(&skill_md(named), &files).is_empty(), "{named}");
        }
        // A word, a longer name or a file beside it is not the folder.
        for unnamed in [
            "Use canvas-fonts wisely.",
            "See `./canvas-fonts-old`.",
            "See `./canvas-fonts.zip`.",
            // Anthropic's mcp-builder shows a package.json's `"scripts": {`.
            "```json\n{ \"canvas-fonts\": { \"build\": \"tsc\" } }\n```",
        ] {
            assert_eq!(
                codes_all(&skill_md(unnamed), &files),
                ["file-unmentioned", "file-unmentioned"],
                "{unnamed}"
            );
        }
    }

    /// Issue 39, item 14: Anthropic's pdf skill names `FORMS.md`; were the
    /// file `forms.md`, the `skill` tool would refuse `FORMS.md`: the
    /// finding says so, rather than "named neither".
    #[test]
    fn item_14_a_name_in_another_case_is_said_as_such() {
        let md = skill_md(
            "If you need to fill out a PDF form, read FORMS.md and follow its instructions.",
        );
        let found = crate::rules::content::tests::problems(&md, &[("forms.md", "# Forms\n")]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code.as_str(), "file-unmentioned");
        assert!(
            found[0]
                .message
                .contains("named only as \"FORMS.md\", in another case"),
            "{}",
            found[0].message
        );
        assert!(found[0].hint.as_deref().unwrap_or("").contains("forms.md"));
    }
}
