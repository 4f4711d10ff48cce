//! The trust policy against agentskills-core's signing test vector, and its
//! check order.
#![cfg(feature = "verify")]

use skills_core::sha256::digest as sha256;
use skills_core::trust::revision::{
    Revision, recorded_revision, skill_file_digest, snapshot_payload,
};
use skills_core::trust::verify::{Check, Status, TrustPolicy, VerifyError};
use skills_core::wire::bundle::{Bundle, Bytes, Content, File, Signature, Skill};

const ORIGIN: &str = "https://example.com/skills";
const FRONTMATTER: &str = "name: sig-demo\ndescription: Demo skill for signing.\nversion: \"0.1.0\"\nmetadata:\n  owner: team-a\n";
const BODY: &str = "# Sig Demo\n\nSee references/a b.md.\n";
const PUBLIC_KEY: &str = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
const SIGNATURE: &str = "59aa1b71202d6e88edd064b97014f1e7ac4bf6c4c727fa21a7b3d06ae83a0d8c30a655d36020029d91e789a9893194ed2ba205b192a0153679466ee74d4b370e";
const REVISION: &str = "sha256:5455288ebbf0dde83a5a1058b395401e3d0363850eafd9f6424ffa000bf8ffd6";

fn hex<const N: usize>(text: &str) -> [u8; N] {
    skills_core::trust::revision::parse_hex(text).unwrap()
}

/// The sig-demo skill as a compiled bundle holds it, with the reference
/// notes' signature.
fn with_sig_demo<T>(signature: &[u8], f: impl FnOnce(&mut Skill<'_>) -> T) -> T {
    let instructions = skills_core::wire::instructions::render(
        BODY,
        [(".hidden/f.txt", 1), ("references/a b.md", 4)],
    );
    let mut skill = Skill {
        name: "sig-demo",
        body_len: BODY.len(),
        instructions: &instructions,
        instructions_sha256: sha256(instructions.as_bytes()),
        frontmatter: FRONTMATTER,
        frontmatter_sha256: sha256(FRONTMATTER.as_bytes()),
        version: Some("0.1.0"),
        files: vec![
            File {
                path: ".hidden/f.txt",
                sha256: sha256(b"x"),
                content: Content::Text("x"),
            },
            File {
                path: "references/a b.md",
                sha256: sha256(b"ref\n"),
                content: Content::Text("ref\n"),
            },
        ],
        signatures: vec![Signature {
            key_id: "k1",
            origin: ORIGIN,
            signature: Bytes(signature),
        }],
        ..Skill::default()
    };
    (skill.skill_file_size, skill.skill_file_sha256) = skill_file_digest(&skill);
    skill.revision = recorded_revision(&skill).0;
    f(&mut skill)
}

fn policy(origin: &str) -> TrustPolicy {
    TrustPolicy::new(origin)
        .unwrap()
        .trust("k1", hex(PUBLIC_KEY))
        .unwrap()
}

#[test]
fn the_agentskills_core_vector_verifies() {
    let signature: [u8; 64] = hex(SIGNATURE);
    with_sig_demo(&signature, |skill| {
        assert_eq!(skill.skill_file_size, 138);
        assert_eq!(Revision(skill.revision).to_string(), REVISION);
        let payload = snapshot_payload(ORIGIN, "sig-demo", Revision(skill.revision), Some("0.1.0"));
        assert_eq!(
            payload.unwrap(),
            format!(
                r#"{{"contract":"agentskills-snapshot-v1","origin":"{ORIGIN}","revision":"{REVISION}","skillId":"sig-demo","version":"0.1.0"}}"#
            )
        );
        for rehash in [true, false] {
            let identity = policy(ORIGIN).rehash(rehash).verify_skill(skill).unwrap();
            assert_eq!(identity.status, Status::Verified);
            assert_eq!(identity.publisher, Some("k1"));
            assert_eq!(identity.revision.to_string(), REVISION);
        }
        // agentskills-core: with origin `other`, the signature fails.
        let error = policy("other").verify_skill(skill).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"skill "sig-demo": Publisher signature verification failed"#
        );
    });
}

fn check_of(error: VerifyError) -> Check {
    error.check().cloned().unwrap()
}

#[test]
fn checks_come_in_agentskills_core_order() {
    let signature: [u8; 64] = hex(SIGNATURE);
    let pin: Revision = REVISION.parse().unwrap();
    let other_pin = Revision([1; 32]);
    with_sig_demo(&signature, |skill| {
        // A revision pin is checked before a version pin, both before keys.
        let both = policy(ORIGIN)
            .pin_revision("sig-demo", other_pin)
            .pin_version("sig-demo", "9.9.9");
        assert_eq!(
            check_of(both.verify_skill(skill).unwrap_err()),
            Check::RevisionPin
        );
        let version = policy(ORIGIN)
            .pin_revision("sig-demo", pin)
            .pin_version("sig-demo", "9.9.9");
        assert_eq!(
            check_of(version.verify_skill(skill).unwrap_err()),
            Check::VersionPin
        );
        let untrusted = TrustPolicy::new(ORIGIN)
            .unwrap()
            .pin_version("sig-demo", "0.1.0");
        assert!(matches!(
            check_of(untrusted.verify_skill(skill).unwrap_err()),
            Check::UntrustedKey { key_id } if key_id == "k1"
        ));
        // A supplied proof is checked even when unsigned content is allowed.
        let lenient = TrustPolicy::new(ORIGIN).unwrap().require_signature(false);
        assert!(matches!(
            check_of(lenient.verify_skill(skill).unwrap_err()),
            Check::UntrustedKey { .. }
        ));
        // Re-hashing comes first: a changed file wins over a wrong pin.
        let changed = File {
            path: ".hidden/f.txt",
            sha256: skill.files[0].sha256,
            content: Content::Text("y"),
        };
        skill.files[0] = changed;
        let error = policy(ORIGIN)
            .pin_revision("sig-demo", other_pin)
            .verify_skill(skill)
            .unwrap_err();
        assert_eq!(
            check_of(error),
            Check::FileDigest {
                path: ".hidden/f.txt".into()
            }
        );
        // Without re-hashing, the recorded revision is trusted and signed.
        assert!(policy(ORIGIN).rehash(false).verify_skill(skill).is_ok());
    });
}

#[test]
fn unsigned_content_is_refused_unless_allowed() {
    with_sig_demo(&[], |skill| {
        skill.signatures.clear();
        assert_eq!(
            check_of(policy(ORIGIN).verify_skill(skill).unwrap_err()),
            Check::SignatureRequired
        );
        let identity = policy(ORIGIN)
            .require_signature(false)
            .verify_skill(skill)
            .unwrap();
        assert_eq!(
            (identity.status, identity.publisher),
            (Status::Unsigned, None)
        );
        assert_eq!(identity.revision.to_string(), REVISION);
    });
}

#[test]
fn malformed_signatures_and_keys_fail_cleanly() {
    for signature in [&[][..], &[0; 63][..], &[0xff; 64][..], &[0; 65][..]] {
        with_sig_demo(signature, |skill| {
            assert!(matches!(
                check_of(policy(ORIGIN).verify_skill(skill).unwrap_err()),
                Check::BadSignature { .. }
            ));
        });
    }
    // Not every 32 bytes are a point on the curve; such a key is refused.
    let refused = (0u8..=255).filter(|first| {
        let mut bytes = [0u8; 32];
        bytes[0] = *first;
        matches!(
            TrustPolicy::new(ORIGIN).unwrap().trust("bad", bytes),
            Err(VerifyError::InvalidPublicKey { key_id }) if key_id == "bad"
        )
    });
    assert!(refused.count() > 0);
    assert!(matches!(
        TrustPolicy::new("a\u{0}b"),
        Err(VerifyError::InvalidOrigin(_))
    ));
}

#[test]
fn a_pin_for_a_skill_not_listed_is_refused() {
    let bundle = Bundle::default();
    let policy = TrustPolicy::new(ORIGIN)
        .unwrap()
        .require_signature(false)
        .pin_version("ghost", "1");
    let error = policy.verify(&bundle).unwrap_err();
    assert_eq!(
        error.to_string(),
        r#"skill "ghost": a pin names this skill, but the bundle does not list it"#
    );
}

/// A signature record binds its origin: a record whose origin text is not
/// the policy's is refused, even when its signature holds for the policy's
/// origin (issue 28, finding 5: a rewritten origin verified, and `inspect`
/// printed it). A record by a key the policy does not trust is left out,
/// but every record by a trusted key must hold, not only the first.
#[test]
fn a_record_s_origin_is_bound_by_its_signature() {
    // 'static, as the records pushed below must outlive any skill.
    let signature: &'static [u8; 64] = Box::leak(Box::new(hex(SIGNATURE)));
    with_sig_demo(signature, |skill| {
        assert!(policy(ORIGIN).verify_skill(skill).is_ok());
        // The signature holds for ORIGIN; the record says otherwise.
        skill.signatures[0].origin = "https://dxample.com/skills";
        for origin in [ORIGIN, "https://dxample.com/skills"] {
            assert_eq!(
                check_of(policy(origin).verify_skill(skill).unwrap_err()),
                Check::BadSignature {
                    key_id: "k1".into()
                },
                "{origin}"
            );
        }
        skill.signatures[0].origin = ORIGIN;

        // A second record by an untrusted key is not checked, and names no
        // publisher.
        let other = Signature {
            key_id: "k2",
            origin: "anything",
            signature: Bytes(&[0; 64]),
        };
        skill.signatures.push(other);
        let identity = policy(ORIGIN).verify_skill(skill).unwrap();
        assert_eq!(identity.publisher, Some("k1"));
        // Once the policy trusts its key, it must hold too.
        let both = policy(ORIGIN).trust("k2", hex(PUBLIC_KEY)).unwrap();
        assert_eq!(
            check_of(both.verify_skill(skill).unwrap_err()),
            Check::BadSignature {
                key_id: "k2".into()
            }
        );
        // A second trusted record with the first's valid signature but
        // another origin is refused as well.
        skill.signatures[1] = Signature {
            key_id: "k2",
            origin: "https://dxample.com/skills",
            signature: Bytes(signature),
        };
        assert!(both.verify_skill(skill).is_err());
        skill.signatures[1].origin = ORIGIN;
        assert_eq!(both.verify_skill(skill).unwrap().publisher, Some("k1"));
    });
}
