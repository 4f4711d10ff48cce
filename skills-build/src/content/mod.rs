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

use crate::discover::ResourceFile;
use crate::frontmatter::SkillDocument;
use crate::problem::{Code, Position, Problem, Rule};

mod binary;
mod blob;
mod budget;
mod bundle;
mod description;
mod home;
mod links;
mod markdown;
mod position;
mod scan;
mod secrets;
mod shell;
mod toc;
mod unicode;
mod urls;

/// The tests' fake secrets, shared with the UI tests and the CLI
/// recordings (written from parts, so no file looks like a leak).
#[cfg(test)]
#[path = "../../tests/support/fake_secrets.rs"]
#[allow(dead_code)]
mod fake_secrets;

pub use budget::estimate_tokens;
pub use bundle::check_bundle;
pub(crate) use position::Located;

/// A skill as read, seen by the rules.
pub(crate) struct Skill<'a> {
    /// The skill file's name inside the skill (`SKILL.md`).
    pub skill_file: &'a str,
    /// The skill file's location, as problems name it.
    pub file_location: &'a str,
    /// Prefix of every other file's location (the skill folder's), with
    /// no trailing `/`; empty when the skill folder is the current one.
    pub folder_location: &'a str,
    /// The skill file's exact bytes.
    pub bytes: &'a [u8],
    /// The parsed skill file, when it parsed.
    pub document: Option<&'a SkillDocument>,
    /// Every other file, sorted by path.
    pub files: &'a [ResourceFile],
}

impl Skill<'_> {
    /// The location of the file at `path` in the skill (`""` or the skill
    /// file's name for the skill file).
    fn location_of(&self, path: &str) -> String {
        if path.is_empty() || path == self.skill_file {
            return self.file_location.to_string();
        }
        match self.folder_location {
            "" => path.to_string(),
            folder => format!("{folder}/{path}"),
        }
    }
}

/// The problems of one skill, and which rules to leave out.
pub(crate) struct Findings<'a> {
    allowed: &'a [Code],
    problems: Vec<Problem>,
}

impl<'a> Findings<'a> {
    fn new(allowed: &'a [Code]) -> Self {
        Findings {
            allowed,
            problems: Vec::new(),
        }
    }

    /// Whether the rule runs (it is not allowed by name).
    fn wants(&self, code: Code) -> bool {
        !self.allowed.contains(&code)
    }

    /// Whether any of the rules runs.
    fn wants_any(&self, codes: &[Code]) -> bool {
        codes.iter().any(|code| self.wants(*code))
    }

    /// Records a finding of `code` in the file at `location`.
    fn push(&mut self, problem: Problem, location: String, position: Option<Position>) {
        if self.wants(problem.code) {
            self.problems
                .push(problem.with_file(location).at_opt(position));
        }
    }
}

/// What one rule found in one text: how many places, and the first (its
/// byte offset and what the message says of it). A rule reports one
/// problem per file, at its first place.
pub(super) struct Tally<T> {
    count: usize,
    first: Option<(usize, T)>,
}

impl<T> Tally<T> {
    fn new() -> Self {
        Tally {
            count: 0,
            first: None,
        }
    }

    /// A place found at byte `at`; `what` is kept for the first one.
    fn add(&mut self, at: usize, what: impl FnOnce() -> T) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some((at, what()));
        }
    }

    /// The problem of `code` at the first place, if one was found, in the
    /// file at `path` whose text is `text`: `message` says what is there,
    /// and how many more places there are follows it.
    fn report(
        self,
        findings: &mut Findings<'_>,
        (skill, path, text): (&Skill<'_>, &str, &Located<'_>),
        (code, hint): (Code, &str),
        message: impl FnOnce(T) -> String,
    ) {
        if let Some((at, what)) = self.first {
            findings.push(
                Problem::new(code, format!("{}{}", message(what), more(self.count)))
                    .with_hint(hint),
                skill.location_of(path),
                Some(text.position(at)),
            );
        }
    }
}

/// `count` findings of one rule in one file, in words: ` (and 3 more in
/// this file)`, or nothing for one.
fn more(count: usize) -> String {
    match count {
        0 | 1 => String::new(),
        2 => " (and 1 more in this file)".to_string(),
        n => format!(" (and {} more in this file)", n - 1),
    }
}

/// Runs every rule not in `allowed` over `skill`; the problems come out in
/// file order.
pub(crate) fn check(skill: &Skill<'_>, allowed: &[Code]) -> Vec<Problem> {
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
        description::when(skill, document, &mut findings);
        let body = markdown::body(document);
        // A skill file that parsed is UTF-8, and so was marked.
        if skill_file.as_ref().is_some_and(|file| file.marks.comment) {
            markdown::html_comments(skill, &body, &mut findings);
        }
        budget::body_tokens(skill, document, &body, &mut findings);
        links::check(skill, document, &body, &mut findings);
    }
    for file in skill.files {
        if binary::executable(skill, file, &mut findings) {
            continue;
        }
        let Some(text) = text_of(file) else {
            continue;
        };
        let text_file = TextFile {
            path: &file.path,
            text: Located::new(text, Position { line: 1, column: 1 }),
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

/// A file's text, when it is text: UTF-8 without NUL bytes (images,
/// archives and other binaries are not read as text).
fn text_of(file: &ResourceFile) -> Option<&str> {
    let text = std::str::from_utf8(&file.bytes).ok()?;
    (!text.as_bytes().contains(&0)).then_some(text)
}

/// A text file of the skill, for the rules that read text.
pub(crate) struct TextFile<'a> {
    /// Its path in the skill.
    pub path: &'a str,
    /// Its text, with positions.
    pub text: Located<'a>,
    /// Whether it is the skill file.
    pub skill_file: bool,
    /// Where the rules' patterns may start in it.
    pub marks: scan::Marks,
}

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
        let document = crate::frontmatter::parse(md.as_bytes()).ok();
        let mut files: Vec<ResourceFile> = files
            .iter()
            .map(|(path, text)| ResourceFile {
                path: path.to_string(),
                bytes: text.as_bytes().to_vec(),
            })
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
                ResourceFile {
                    path: "a/.env".into(),
                    bytes: text.clone().into_bytes(),
                },
                ResourceFile {
                    path: "b.md".into(),
                    bytes,
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
}
