//! The bundle's bytes are pinned: the body (after the six-byte header) of
//! the bundles compiled from the committed skill trees hashes to the
//! recorded digest, and their bundle revision to the recorded revision.
//! Any change to the wire format fails here, and must come with a format
//! version bump and new recordings.
//!
//! History: formats up to 4 were serde + postcard's bytes (recorded at
//! commit 0d0c818), kept when skills-core got its own encoder; format 5
//! changed only what the bundle revision is a digest of (one SHA-256 per
//! skill, composed). Format 6 changed the layout (a name index and tables
//! of offsets written by the compiler; the prompt and the outlines derived
//! when read, not stored; texts found in the frontmatter written as where
//! they are there), so every pin here was recorded anew with it. The
//! skills' content revisions (agentskills-core's, recorded from the SDK)
//! do not depend on the layout and did not change: see
//! `content_revisions_are_the_sdk_ones` below and `tests/core_recorded.rs`.
//! Still unreleased, format 6 then changed its name index's hash (eight
//! bytes at a time instead of one: it is on every call's path), which moved
//! names between slots: the body digests were recorded anew, the revisions
//! stayed.

use skills_build::Builder;

mod support;

fn body_digest(bytes: &[u8]) -> String {
    skills_core::trust::sha256::digest(&bytes[6..])
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The unsigned bundle's recorded revision: the 32 bytes before the
/// final signature count.
fn revision(bytes: &[u8]) -> String {
    assert_eq!(bytes.last(), Some(&0), "unsigned");
    let at = bytes.len() - 33;
    bytes[at..at + 32]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn compiled(dir: &str, extensions: bool) -> Vec<u8> {
    Builder::new()
        .source(support::workspace().join(dir))
        .extensions(extensions)
        .compile()
        .unwrap_or_else(|error| panic!("{dir} compiles: {error}"))
        .bytes
}

#[test]
fn bundles_keep_their_recorded_bytes() {
    let cases = [
        (
            "testdata/bundle",
            false,
            "5f890eb83374754f178cb8259fbc8a775c1be04dd2b89c593efe2939c80c505f",
            "4ef9622ad85a6848906039dd74d08eae9af4ebb457f567e57766c713f981f9f1",
        ),
        (
            "testdata/skills",
            false,
            "cc8e00869385883611bb87e403f9014f246569b3fd0205470913f2b8da5f5b95",
            "d0a6b474d5ce477c6afc165d38246f5f7ac38707b2e2bee564ffafaabe575111",
        ),
        (
            "tests/ui-skills/extensions",
            true,
            "dc9d9ae73a7df7647db00d229f0cfaf9c470514749947ae3cdf90085dad5187e",
            "8cfd84350e93eb9f761bba202cf74d38ee31ab7884f6c8c051314dd4f2c85e3d",
        ),
        (
            "tests/ui-skills/valid",
            false,
            "3d815d04ac3646209681776f4192ee43ae9330ec69f269a960e573803bf19bd4",
            "be303a8588bf7a1b565a36df56b0ad05e0d0b7bf7a27a7633ff32497d3f1deb5",
        ),
    ];
    for (dir, extensions, recorded, revision) in cases {
        let bytes = compiled(dir, extensions);
        assert_eq!(
            (body_digest(&bytes), self::revision(&bytes)),
            (recorded.to_string(), revision.to_string()),
            "{dir}"
        );
        assert_eq!(
            skills_core::trust::revision::bundle_revision(
                &skills_core::wire::bundle::Bundle::decode(&bytes).unwrap()
            )
            .to_string(),
            format!("sha256:{revision}"),
            "{dir}: the recorded revision is the computed one"
        );
        // And the runtime reads them back, unchanged.
        let bundle = skills_core::wire::bundle::Bundle::decode(&bytes).expect("decodes");
        assert_eq!(bundle.encode().expect("encodes"), bytes, "{dir}");
    }
}

#[cfg(feature = "sign")]
#[test]
fn signed_bundles_keep_their_recorded_bytes() {
    use skills_build::keys::SecretKey;
    use skills_build::signing::{Signer, sign_bundle};
    let signer = Signer::new(SecretKey::from_seed([7; 32]), "https://skills.example")
        .unwrap()
        .key_id("release");
    let signed = sign_bundle(&compiled("testdata/bundle", false), &signer).unwrap();
    assert_eq!(
        body_digest(&signed),
        "3a2d567d9b270953429afd1c7647b77b2c8728dfe54598562c09c0125099d6ab"
    );
    let bundle = skills_core::wire::bundle::Bundle::decode(&signed).expect("decodes");
    assert_eq!(bundle.encode().expect("encodes"), signed);
}

/// The skills' content revisions (agentskills-core's `content_revision`,
/// over the files) do not depend on the bundle's layout: those stored in
/// the bundle of `testdata/bundle` are the ones `skills revision` prints
/// for its folders (computed from the files, not from a bundle).
#[test]
fn content_revisions_did_not_move() {
    let bytes = compiled("testdata/bundle", false);
    let bundle = skills_core::wire::bundle::Bundle::decode(&bytes).unwrap();
    let hex = |digest: &[u8; 32]| {
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let revisions: Vec<(&str, String)> = bundle
        .skills
        .iter()
        .map(|skill| (skill.name, hex(&skill.revision)))
        .collect();
    let recorded = [
        (
            "crlf",
            "5cac58028981774688b8c57a3221515966d4f38bbbd955c3b6710fb190dc46a5",
        ),
        (
            "empty-body",
            "87fb727d42c825a5c45e035d87f6ace1ed7fb816aa7c847fb53ff58ae91ff116",
        ),
        (
            "kitchen-sink",
            "dc6c03247d68ddfcb8f284f8ba81b3f1f653c0b5abe4e688028b6b864fa1fc2b",
        ),
        (
            "lower-case",
            "a5999083484c96d4d74ed09512e22a95f2cfa3b46ae9d7301329666383740649",
        ),
    ];
    for (name, revision) in recorded {
        assert!(
            revisions.contains(&(name, revision.to_string())),
            "{name}: {revisions:?}"
        );
    }
}
