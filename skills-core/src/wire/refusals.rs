//! Bundles that break the rules the decoder enforces, written without the
//! writer's check (`Bundle::encode_unchecked`, which only tests have), and
//! the decoder's refusal of each: the same rule `Bundle::check` names, so
//! the two never disagree.

use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use crate::wire::bundle::{Bundle, BundleError, Content, EncodeError, File, Skill};
use crate::wire::decode::DecodeError;

fn skill<'a>(name: &'a str, files: Vec<File<'a>>) -> Skill<'a> {
    Skill {
        name,
        files,
        ..Skill::default()
    }
}

fn text(path: &str) -> File<'_> {
    File {
        path,
        sha256: [0; 32],
        content: Content::Text("t"),
    }
}

fn decode_error(bundle: &Bundle<'_>) -> DecodeError {
    let bytes = bundle.encode_unchecked();
    let error = Bundle::decode(&bytes).unwrap_err();
    #[cfg(feature = "catalog")]
    assert_eq!(crate::Catalog::from_bytes(&bytes).unwrap_err(), error);
    let DecodeError::Invalid(rule) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(bundle.check().unwrap_err(), *rule, "check and decode agree");
    assert!(matches!(bundle.encode(), Err(EncodeError::Invalid(_))));
    error
}

#[test]
fn hostile_bundles_are_refused() {
    let twice = Bundle {
        skills: vec![skill("a", vec![]), skill("b", vec![]), skill("a", vec![])],
        ..Bundle::default()
    };
    let error = decode_error(&twice);
    assert_eq!(
        error,
        DecodeError::Invalid(BundleError::DuplicateSkill { name: "a".into() })
    );
    assert_eq!(
        error.to_string(),
        "the skills bundle is inconsistent: two skills are listed as \"a\"; listed names must be unique; embed the bundle file skills-build wrote, unchanged"
    );

    for path in ["../etc/passwd", "/abs", "a//b", "a\\b", "", "./a", "a/"] {
        let bundle = Bundle {
            skills: vec![skill("s", vec![text(path)])],
            ..Bundle::default()
        };
        assert_eq!(
            decode_error(&bundle),
            DecodeError::Invalid(BundleError::InvalidFilePath {
                skill: "s".into(),
                path: path.into()
            })
        );
    }

    let shadow = Bundle {
        skills: vec![skill("s", vec![text("Skill.md")])],
        ..Bundle::default()
    };
    assert!(matches!(
        decode_error(&shadow),
        DecodeError::Invalid(BundleError::ShadowedBySkillFile { .. })
    ));

    let unsorted = Bundle {
        skills: vec![skill("s", vec![text("b"), text("a")])],
        ..Bundle::default()
    };
    assert_eq!(
        decode_error(&unsorted),
        DecodeError::Invalid(BundleError::FilesOutOfOrder {
            skill: "s".into(),
            path: "a".into()
        })
    );
    let mut stranger = skill("s", vec![text("a"), text("b")]);
    stranger.executables = Some(vec!["c"]);
    let stranger = Bundle {
        skills: vec![stranger],
        ..Bundle::default()
    };
    assert_eq!(
        decode_error(&stranger),
        DecodeError::Invalid(BundleError::BadExecutables {
            skill: "s".into(),
            path: "c".into()
        })
    );
    let mut unsorted = skill("s", vec![text("a"), text("b")]);
    unsorted.executables = Some(vec!["b", "a"]);
    let unsorted = Bundle {
        skills: vec![unsorted],
        ..Bundle::default()
    };
    assert!(matches!(
        decode_error(&unsorted),
        DecodeError::Invalid(BundleError::BadExecutables { .. })
    ));
    let repeated = Bundle {
        skills: vec![skill("s", vec![text("a"), text("a")])],
        ..Bundle::default()
    };
    assert!(matches!(
        decode_error(&repeated),
        DecodeError::Invalid(BundleError::FilesOutOfOrder { .. })
    ));

    // A body length past the instructions, or inside a character.
    for (body_len, instructions) in [(99, "short"), (1, "é")] {
        let bundle = Bundle {
            skills: vec![Skill {
                name: "s",
                body_len,
                instructions,
                ..Skill::default()
            }],
            ..Bundle::default()
        };
        assert_eq!(
            decode_error(&bundle),
            DecodeError::Invalid(BundleError::BodyOutOfRange { skill: "s".into() })
        );
    }
}

/// A skill whose part of the bundle breaks the rules (its files out of
/// order) is never served from the compact record: a lazily opened
/// catalog answers `CorruptSkill` to a read of its instructions, on the
/// first call and the next, and serves the other skills.
#[cfg(feature = "catalog")]
#[test]
fn a_corrupt_skill_is_refused_by_the_instructions_fast_path() {
    use crate::{Catalog, ToolError};
    let bundle = Bundle {
        skills: vec![
            Skill {
                name: "pdf",
                instructions: "Go.\n\nfiles:\n- b (1 bytes)\n- a (1 bytes)\n",
                body_len: 3,
                ..skill("pdf", vec![text("b"), text("a")])
            },
            Skill {
                instructions: "Rebase.\n\nfiles: none\n",
                body_len: 7,
                ..skill("git-rebase", vec![])
            },
        ],
        ..Bundle::default()
    };
    let bytes = bundle.encode_unchecked();
    let catalog = Catalog::open(&bytes).unwrap();
    for _ in 0..2 {
        assert!(matches!(
            catalog.call("pdf", None),
            Err(ToolError::CorruptSkill { .. })
        ));
        assert_eq!(
            catalog.call("git-rebase", None).unwrap().read.name,
            "git-rebase"
        );
    }
    assert!(Catalog::from_bytes(&bytes).is_err());
}
