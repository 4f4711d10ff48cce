//! The bundle's bytes are pinned: the body (after the six-byte header) of
//! the bundles compiled from the committed skill trees hashes to what the
//! serde + postcard encoder wrote before skills-core got its own encoder
//! (recorded at commit 0d0c818). Any change to the wire format fails here,
//! and must come with a format version bump and new recordings.

use std::path::{Path, PathBuf};

use skills_build::Builder;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn body_digest(bytes: &[u8]) -> String {
    skills_build::compile::sha256(&bytes[6..])
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn compiled(dir: &str, extensions: bool) -> Vec<u8> {
    Builder::new()
        .source(workspace().join(dir))
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
        ),
        (
            "testdata/skills",
            false,
            "fe98be1187b69cb62be62ac48e44a098824a8e388e86a4479e42981d3013d102",
        ),
        (
            "tests/ui-skills/extensions",
            true,
            "889a7bf2bbbc4c808733750d2e033727ba9ae1f14ea6aeda83901a46cc2cf1d5",
        ),
        (
            "tests/ui-skills/valid",
            false,
            "4dac6d43319568bfc7908005787740c17bef239870b1c1f58b676c14d6bf64af",
        ),
    ];
    for (dir, extensions, recorded) in cases {
        let bytes = compiled(dir, extensions);
        assert_eq!(body_digest(&bytes), recorded, "{dir}");
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
        "82d84cabc7cc70f8d7836dd233af4fada88049590720d9db5f779e7e0fc8d150"
    );
    let bundle = skills_core::bundle::Bundle::decode(&signed).expect("decodes");
    assert_eq!(bundle.encode().expect("encodes"), signed);
}
