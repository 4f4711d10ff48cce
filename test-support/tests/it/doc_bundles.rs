//! The example bundles the documentation's examples include, written here
//! with skills-core's own types and compared with the committed copies:
//! a copy that differs (a format change, an edit below) fails this test,
//! and `SKILLS_BLESS=1` rewrites every copy.
//!
//! The copies sit in each crate whose examples include them
//! (`<crate>/doc-bundles/`), inside its package, so the examples run from
//! a published crate as well as from this workspace:
//!
//! - `example.bin`: two skills, `pdf` (a text, an image and a PDF file) and
//!   `git-rebase`; its digests are placeholders, so examples that verify it
//!   turn re-hashing off;
//! - `signed.bin`: one skill `pdf` with one file, its digests and
//!   revisions real, signed for `https://example.com/skills` by the key
//!   `release-2026` (the Ed25519 seed 0, 1, …, 31: a published test key,
//!   never a secret), the skill and the bundle;
//! - `signed.pub`: that key's 32-byte public key;
//! - `skills.bin`: the workspace's `testdata/skills` (three real skills:
//!   `csv-report`, `git-rebase`, `pdf-forms`) compiled by skills-build as
//!   `skills build` and `include_skills!` compile them, so skills-install's
//!   examples install real skills without building the compiler into its
//!   tests.

use std::path::{Path, PathBuf};

use ed25519_dalek::{Signer, SigningKey};
use skills_core::sha256::digest as sha256;
use skills_core::trust::revision::{
    bundle_payload, bundle_revision, recorded_revision, skill_file_digest, snapshot_payload,
};
use skills_core::wire::bundle::{Bundle, Bytes, Content, File, Signature, Skill};
use skills_test_support::tree::rust_sources;

/// The crates whose documentation includes example bundles, and which.
const COPIES: &[(&str, &[&str])] = &[
    ("skills-core", &["example.bin", "signed.bin", "signed.pub"]),
    ("skills-runtime", &["signed.bin", "signed.pub"]),
    (
        "skills-mcp-server",
        &["example.bin", "signed.bin", "signed.pub"],
    ),
    ("skills-install", &["skills.bin"]),
];

fn example() -> Vec<u8> {
    const PDF_BODY: &str = "# PDF\n\nRead reference.md first.\n";
    const PDF_INSTRUCTIONS: &str = "# PDF\n\nRead reference.md first.\n\nfiles:\n- assets/form.pdf (8 bytes)\n- assets/logo.png (8 bytes)\n- reference.md (14 bytes)\n";
    const GIT_BODY: &str = "Rebase onto main.";
    const GIT_INSTRUCTIONS: &str = "Rebase onto main.\n\nfiles: none\n";
    let bundle = Bundle {
        skills: vec![
            Skill {
                name: "pdf",
                location: "skill://pdf/SKILL.md",
                description: "Fill PDF forms.",
                body_len: PDF_BODY.len(),
                instructions: PDF_INSTRUCTIONS,
                instructions_sha256: [1; 32],
                frontmatter_sha256: [2; 32],
                files: vec![
                    File {
                        path: "assets/form.pdf",
                        sha256: [3; 32],
                        content: Content::Binary {
                            media_type: "application/pdf",
                            bytes: Bytes(b"%PDF-1.7"),
                        },
                    },
                    File {
                        path: "assets/logo.png",
                        sha256: [4; 32],
                        content: Content::Image {
                            media_type: "image/png",
                            bytes: Bytes(b"\x89PNG\r\n\x1a\n"),
                        },
                    },
                    File {
                        path: "reference.md",
                        sha256: [5; 32],
                        content: Content::Text("Use pdfplumber"),
                    },
                ],
                ..Skill::default()
            },
            Skill {
                name: "git-rebase",
                location: "skill://git-rebase/SKILL.md",
                description: "Rebase safely.",
                body_len: GIT_BODY.len(),
                instructions: GIT_INSTRUCTIONS,
                ..Skill::default()
            },
        ],
        ..Bundle::default()
    };
    bundle.encode().expect("the example bundle encodes")
}

/// The published test key: the seed 0, 1, …, 31.
fn test_key() -> SigningKey {
    let mut seed = [0u8; 32];
    for (at, byte) in seed.iter_mut().enumerate() {
        *byte = at as u8;
    }
    SigningKey::from_bytes(&seed)
}

fn signed() -> Vec<u8> {
    const ORIGIN: &str = "https://example.com/skills";
    const KEY_ID: &str = "release-2026";
    const FRONTMATTER: &str = "name: pdf\ndescription: Fill PDF forms.\n";
    const INSTRUCTIONS: &str = "Go.\n\nfiles:\n- a.md (2 bytes)\n";
    let key = test_key();
    let mut skill = Skill {
        name: "pdf",
        location: "skill://pdf/SKILL.md",
        description: "Fill PDF forms.",
        body_len: 3,
        instructions: INSTRUCTIONS,
        instructions_sha256: sha256(INSTRUCTIONS.as_bytes()),
        frontmatter: FRONTMATTER,
        frontmatter_sha256: sha256(FRONTMATTER.as_bytes()),
        files: vec![File {
            path: "a.md",
            sha256: sha256(b"hi"),
            content: Content::Text("hi"),
        }],
        ..Skill::default()
    };
    (skill.skill_file_size, skill.skill_file_sha256) = skill_file_digest(&skill);
    let revision = recorded_revision(&skill);
    skill.revision = revision.0;
    let payload = snapshot_payload(ORIGIN, "pdf", revision, None).unwrap();
    let skill_signature = key.sign(payload.as_bytes()).to_bytes();
    skill.signatures = vec![Signature {
        key_id: KEY_ID,
        origin: ORIGIN,
        signature: Bytes(&skill_signature),
    }];
    let mut bundle = Bundle {
        skills: vec![skill],
        ..Bundle::default()
    };
    let revision = bundle_revision(&bundle);
    bundle.revision = revision.0;
    let payload = bundle_payload(ORIGIN, revision).unwrap();
    let bundle_signature = key.sign(payload.as_bytes()).to_bytes();
    bundle.signatures = vec![Signature {
        key_id: KEY_ID,
        origin: ORIGIN,
        signature: Bytes(&bundle_signature),
    }];
    bundle.encode().expect("the signed bundle encodes")
}

/// `testdata/skills`, compiled with the defaults of `skills build`.
fn compiled() -> Vec<u8> {
    skills_build::Builder::new()
        .source(skills_test_support::testdata("skills"))
        .compile()
        .expect("testdata/skills compiles")
        .bytes
}

fn made(file: &str) -> Vec<u8> {
    match file {
        "example.bin" => example(),
        "signed.bin" => signed(),
        "signed.pub" => test_key().verifying_key().to_bytes().to_vec(),
        "skills.bin" => compiled(),
        other => panic!("no example bundle {other}"),
    }
}

fn copy_path(krate: &str, file: &str) -> PathBuf {
    skills_test_support::workspace()
        .join(krate)
        .join("doc-bundles")
        .join(file)
}

#[test]
fn committed_example_bundles_are_the_ones_written_here() {
    let bless = std::env::var_os("SKILLS_BLESS").is_some();
    let mut stale = Vec::new();
    for (krate, files) in COPIES {
        for file in *files {
            let bytes = made(file);
            let path = copy_path(krate, file);
            if std::fs::read(&path).ok().as_ref() == Some(&bytes) {
                continue;
            }
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &bytes).unwrap();
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale example bundles (rerun with SKILLS_BLESS=1): {stale:?}"
    );
}

/// Nothing else sits in a `doc-bundles` folder: a file no example uses
/// would ship in the package for nothing.
#[test]
fn every_file_in_a_doc_bundles_folder_is_written_here() {
    for (krate, files) in COPIES {
        let dir = copy_path(krate, "");
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(
                files.contains(&name.as_str()),
                "{} holds {name}, which no example uses",
                dir.display()
            );
        }
    }
    assert!(Path::new(&copy_path("skills-core", "example.bin")).is_file());
}

/// Each copy is included by an example of its crate.
#[test]
fn every_copy_is_included_by_an_example_of_its_crate() {
    for (krate, files) in COPIES {
        let text: String = rust_sources(&skills_test_support::workspace().join(krate).join("src"))
            .into_iter()
            .map(|(_, text)| text)
            .collect();
        for file in *files {
            assert!(
                text.contains(&format!("\"/doc-bundles/{file}\"")),
                "no example of {krate} includes doc-bundles/{file}"
            );
        }
    }
}
