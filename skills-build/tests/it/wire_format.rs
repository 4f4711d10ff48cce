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
//! `content_revisions_are_the_sdk_ones` below and `skills-cmd/tests/it/core_recorded.rs`.
//! Still unreleased, format 6 then changed its name index's hash (eight
//! bytes at a time instead of one: it is on every call's path), which moved
//! names between slots: the body digests were recorded anew, the revisions
//! stayed. Format 7 wrote a skill's texts as a postcard enum (inline, or
//! where in the frontmatter) and composed the bundle revision of skill
//! digests that stand each file's recorded SHA-256 in for its bytes (so a
//! build hashes every byte once), under the `skills-bundle-v3` contract:
//! every pin here was recorded anew, the content revisions stayed. Format
//! 8 added the listing order (the skills' indices in the byte order of
//! their `skill://` URIs) to the layout: the body digests were recorded
//! anew, and the bundle revisions with them (they cover the format
//! version); the content revisions stayed. Format 9 added each skill's
//! executable files (from the source's modes) at the end of its encoding:
//! the body digests and the bundle revisions were recorded anew; the
//! content revisions stayed.

use skills_build::Builder;

use crate::support;

fn body_digest(bytes: &[u8]) -> String {
    skills_core::sha256::digest(&bytes[6..])
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
            "ea0fb110b4a836d19973c86f87473c501914a21e01f1df0918e3d70a37d9152f",
            "46e2a9080985288e3fdb276e22b26bc98f3e92b402667bb57e71fed62b1fce27",
        ),
        (
            "testdata/skills",
            false,
            "92ebb08aadefe765c65461491f42cf87c05b04a1510d78dc5a1967219697e793",
            "541f368b6e015d556915205b62f87282f741c7fbc769a5a1ca7217edfe914dbd",
        ),
        (
            "tests/ui-skills/extensions",
            true,
            "acc23dd7b35646623056b328daa485ab72da8dfe9a2f1a28d59d923ae8ae13a1",
            "f59fc86fff2133792dd3fb39eb514139208f4b438eeee09943114d5dc3cab0ed",
        ),
        (
            "tests/ui-skills/valid",
            false,
            "0c4b4bfa204ee6f0dd452d9b83e8fe27ce2666012946bec468925d0c0ec8e82d",
            "b08eaa602795019c47acbafbab0b7c74a0e9782c21fe11d110000b714256074a",
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
    use skills_build::unstable::keys::SecretKey;
    use skills_build::unstable::signing::{Signer, sign_bundle};
    let signer = Signer::new(SecretKey::from_seed([7; 32]), "https://skills.example")
        .unwrap()
        .key_id("release");
    let signed = sign_bundle(&compiled("testdata/bundle", false), &signer).unwrap();
    assert_eq!(
        body_digest(&signed),
        "d0253ae0f7e07fca9a851c2d45c5366542877dfaf36fe47ac03850d34d24e81e"
    );
    let bundle = skills_core::wire::bundle::Bundle::decode(&signed).expect("decodes");
    assert_eq!(bundle.encode().expect("encodes"), signed);
    // Signed while compiling (each skill signed as it is encoded): the
    // very bytes of signing the compiled bundle afterwards.
    let dir = std::env::temp_dir().join(format!("wire-format-sign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let key = dir.join("key.hex");
    std::fs::write(&key, "07".repeat(32)).unwrap();
    let streamed = Builder::new()
        .source(support::workspace().join("testdata/bundle"))
        .sign(
            skills_build::Signing::new(
                skills_build::KeySource::File(key),
                "https://skills.example",
            )
            .key_id("release"),
        )
        .compile()
        .unwrap()
        .bytes;
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(streamed, signed);
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
