//! The bundle's bytes are pinned: the body (after the six-byte header) of
//! the bundles compiled from the committed skill trees hashes to what the
//! serde + postcard encoder wrote before skills-core got its own encoder
//! (recorded at commit 0d0c818). Any change to the wire format fails here,
//! and must come with a format version bump and new recordings.
//!
//! Format 5 changed only what the bundle revision is a digest of (one
//! SHA-256 per skill, composed; see `skills_core::revision`), not the
//! layout: an unsigned bundle with its revision replaced by the format-4
//! revision (the SHA-256 of the format-4 header and the whole body with
//! the revision zeroed) is still, byte for byte, what format 4 wrote; the
//! new revisions are pinned beside. Signed bundles sign the new revision
//! (payload `skills-bundle-v2`), so their signature bytes, and that pin,
//! changed.

use skills_build::Builder;

mod support;

fn body_digest(bytes: &[u8]) -> String {
    skills_core::sha256::digest(&bytes[6..])
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The body's digest with the unsigned bundle's revision (the 32 bytes
/// before the final signature count) replaced by the format-4 revision,
/// and the recorded revision.
fn format4_digest(bytes: &[u8]) -> (String, String) {
    assert_eq!(bytes.last(), Some(&0), "unsigned");
    let at = bytes.len() - 33;
    let revision = bytes[at..at + 32]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut body = bytes.to_vec();
    body[at..at + 32].fill(0);
    body[4..6].copy_from_slice(&4u16.to_le_bytes());
    let format4 = skills_core::sha256::digest(&body);
    body[at..at + 32].copy_from_slice(&format4);
    (body_digest(&body), revision)
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
            "99e167bec7aa6e607edb0c20f4a24bf23384e5b3c1f1e96a0b8e99e0d751ee88",
            "506c93ec34ffbed739be5a8580e666ec0289b612cf515c8f241228948743d4de",
        ),
        (
            "testdata/skills",
            false,
            "fe98be1187b69cb62be62ac48e44a098824a8e388e86a4479e42981d3013d102",
            "f1fa34b56977858150b7e5d961917807170d0ca3cd09e8c07a4fb2a882cddd72",
        ),
        (
            "tests/ui-skills/extensions",
            true,
            "889a7bf2bbbc4c808733750d2e033727ba9ae1f14ea6aeda83901a46cc2cf1d5",
            "c46ef2b3f4a11ed8121e04ca22fa06c76fe5914f49df9f7c07fa042eeecc9b43",
        ),
        (
            "tests/ui-skills/valid",
            false,
            "4dac6d43319568bfc7908005787740c17bef239870b1c1f58b676c14d6bf64af",
            "6dd1c3bd7d57f12c40436db8ff7b724712a8d64a41969144f7da09f5391ca6a2",
        ),
    ];
    for (dir, extensions, recorded, revision) in cases {
        let bytes = compiled(dir, extensions);
        assert_eq!(
            format4_digest(&bytes),
            (recorded.to_string(), revision.to_string()),
            "{dir}"
        );
        // And the runtime reads them back, unchanged.
        let bundle = skills_core::bundle::Bundle::decode(&bytes).expect("decodes");
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
        "632856a851295afc5fac00e7e6e50fe7e7125835e3a7985355fd4bf1bda0294a"
    );
    let bundle = skills_core::bundle::Bundle::decode(&signed).expect("decodes");
    assert_eq!(bundle.encode().expect("encodes"), signed);
}
