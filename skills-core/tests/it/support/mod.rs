//! A test-only builder: skills described with owned data, compiled into a
//! bundle the way the compiler does (sorted files, rendered instructions,
//! real SHA-256 digests), encoded with this crate's own types.

#![allow(dead_code)]

use sha2::{Digest, Sha256};
use skills_core::wire::bundle::{Bundle, Bytes, Content, File, Skill, SkillFileName, ToolRule};
use skills_core::wire::instructions;

pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

pub fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Clone, Debug)]
pub enum Kind {
    Text,
    Image(&'static str),
    Binary(&'static str),
}

#[derive(Clone, Debug)]
pub struct TestFile {
    pub path: String,
    pub bytes: Vec<u8>,
    pub kind: Kind,
}

#[derive(Clone, Debug)]
pub struct TestSkill {
    pub name: String,
    pub description: String,
    pub location: Option<String>,
    pub frontmatter: String,
    pub body: String,
    pub skill_file: SkillFileName,
    pub license: Option<String>,
    pub allowed_tools: Option<String>,
    pub metadata: Vec<(String, String)>,
    pub files: Vec<TestFile>,
    pub executables: Option<Vec<String>>,
}

impl TestSkill {
    pub fn new(name: &str, description: &str, body: &str) -> Self {
        TestSkill {
            name: name.into(),
            description: description.into(),
            location: None,
            frontmatter: format!("name: {name}\ndescription: {description}\n"),
            body: body.into(),
            skill_file: SkillFileName::Upper,
            license: None,
            allowed_tools: None,
            metadata: Vec::new(),
            files: Vec::new(),
            executables: None,
        }
    }

    pub fn text(mut self, path: &str, text: &str) -> Self {
        self.files.push(TestFile {
            path: path.into(),
            bytes: text.as_bytes().to_vec(),
            kind: Kind::Text,
        });
        self
    }

    pub fn image(mut self, path: &str, media_type: &'static str, bytes: &[u8]) -> Self {
        self.files.push(TestFile {
            path: path.into(),
            bytes: bytes.to_vec(),
            kind: Kind::Image(media_type),
        });
        self
    }

    pub fn binary(mut self, path: &str, media_type: &'static str, bytes: &[u8]) -> Self {
        self.files.push(TestFile {
            path: path.into(),
            bytes: bytes.to_vec(),
            kind: Kind::Binary(media_type),
        });
        self
    }

    pub fn lower_case_file(mut self) -> Self {
        self.skill_file = SkillFileName::Lower;
        self
    }

    pub fn location(&self) -> String {
        self.location
            .clone()
            .unwrap_or_else(|| format!("skill://{}/SKILL.md", self.name))
    }

    /// The files sorted by path in byte order, as the compiler sorts them.
    pub fn sorted_files(&self) -> Vec<&TestFile> {
        let mut files: Vec<&TestFile> = self.files.iter().collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }

    pub fn instructions(&self) -> String {
        instructions::render(
            &self.body,
            self.sorted_files()
                .into_iter()
                .map(|f| (f.path.as_str(), f.bytes.len() as u64)),
        )
    }
}

/// Owned storage the borrowed [`Bundle`] points into.
pub struct Compiled {
    pub prompt: String,
    pub skills: Vec<(TestSkill, String, String, Vec<ToolRule<'static>>)>,
}

pub fn rules(allowed: &str) -> Vec<ToolRule<'static>> {
    // Simple whitespace split; enough for tests (no nested parentheses).
    allowed
        .split_ascii_whitespace()
        .map(|token| {
            let token: &'static str = Box::leak(token.to_owned().into_boxed_str());
            match token.split_once('(') {
                Some((tool, rest)) => ToolRule {
                    tool,
                    spec: Some(rest.trim_end_matches(')')),
                },
                None => ToolRule {
                    tool: token,
                    spec: None,
                },
            }
        })
        .collect()
}

/// Compiles and encodes the skills, in the given (catalog) order.
pub fn encode(skills: &[TestSkill]) -> Vec<u8> {
    with_bundle(skills, |bundle| {
        bundle.encode().expect("test bundle encodes")
    })
}

/// Builds the borrowed bundle over the skills and hands it to `f`.
pub fn with_bundle<T>(skills: &[TestSkill], f: impl FnOnce(&Bundle<'_>) -> T) -> T {
    let locations: Vec<String> = skills.iter().map(TestSkill::location).collect();
    let texts: Vec<String> = skills.iter().map(TestSkill::instructions).collect();
    let bundle = Bundle {
        prompt: None,
        skills: skills
            .iter()
            .zip(&locations)
            .zip(&texts)
            .map(|((s, location), text)| Skill {
                name: &s.name,
                location,
                description: &s.description,
                license: s.license.as_deref(),
                compatibility: None,
                metadata: s
                    .metadata
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect(),
                allowed_tools: s.allowed_tools.as_deref(),
                rules: s.allowed_tools.as_deref().map(rules).unwrap_or_default(),
                skill_file: s.skill_file,
                body_len: s.body.len(),
                instructions: text,
                instructions_sha256: sha256(text.as_bytes()),
                frontmatter_sha256: sha256(s.frontmatter.as_bytes()),
                files: s
                    .sorted_files()
                    .into_iter()
                    .map(|file| File {
                        path: &file.path,
                        sha256: sha256(&file.bytes),
                        content: match file.kind {
                            Kind::Text => Content::Text(
                                std::str::from_utf8(&file.bytes).expect("text is UTF-8"),
                            ),
                            Kind::Image(media_type) => Content::Image {
                                media_type,
                                bytes: Bytes(&file.bytes),
                            },
                            Kind::Binary(media_type) => Content::Binary {
                                media_type,
                                bytes: Bytes(&file.bytes),
                            },
                        },
                    })
                    .collect(),
                executables: s
                    .executables
                    .as_ref()
                    .map(|list| list.iter().map(String::as_str).collect()),
                ..Skill::default()
            })
            .collect(),
        ..Bundle::default()
    };
    f(&bundle)
}

pub const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

/// The skills most tests use: `pdf` with several files, `git-rebase`
/// without any, a qualified `team:pdf`, and `lower` loaded from `skill.md`.
pub fn sample() -> Vec<TestSkill> {
    let mut pdf = TestSkill::new(
        "pdf",
        "Fill & extract <PDF> forms.",
        "\n# PDF processing\n\n1. Extract.\n2. Report the tables.\n",
    )
    .text("reference.md", "# Reference\n\nUse pdfplumber.\n")
    .text("scripts/extract.py", "print('extract')\n")
    .image("assets/logo.png", "image/png", PNG)
    .binary("assets/blob.bin", "application/octet-stream", &[0u8; 1024])
    .binary(
        "assets/form.pdf",
        "application/pdf",
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n",
    )
    .text(
        "docs/SKILL.md",
        "A nested skill file is an ordinary file.\n",
    )
    .text(".gitignore", "*.tmp\n");
    pdf.license = Some("MIT".into());
    pdf.allowed_tools = Some("Bash(python:*) Read".into());
    pdf.metadata = vec![
        ("author".into(), "ada".into()),
        ("version".into(), "1.0".into()),
    ];
    vec![
        pdf,
        TestSkill::new("git-rebase", "Rebase safely.", "Do the minimal thing."),
        TestSkill::new("team:pdf", "The team's PDF skill.", "Team body.\n")
            .text("notes.txt", "team notes\n"),
        TestSkill::new("lower", "Loaded from skill.md.", "lower body\n").lower_case_file(),
    ]
}
