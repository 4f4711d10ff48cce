//! Signing at build time and tamper detection at run time: one byte changed
//! anywhere is caught, with the skill and the check named.

use skills_build::Builder;
use skills_build::KeySource;
use skills_build::Signing;
use skills_build::unstable::keys::SecretKey;
use skills_build::unstable::signing::{Signer, sign_bundle};
use skills_core::trust::revision::Revision;
use skills_core::trust::verify::{Check, Status, Subject, TrustPolicy, VerifyError};
use skills_core::wire::bundle::{Bundle, Content, File};
use support::snapshot::snapshot_dir;

use crate::support;

const ORIGIN: &str = "https://example.com/skills";
const SEED: [u8; 32] = [42; 32];

/// testdata/skills and testdata/bundle (which has a CRLF skill file and
/// binary files), compiled and signed.
fn signed() -> Vec<u8> {
    let compiled = Builder::new()
        .source(support::testdata("skills"))
        .source(support::testdata("bundle"))
        .compile()
        .unwrap();
    let signer = Signer::new(SecretKey::from_seed(SEED), ORIGIN)
        .unwrap()
        .key_id("k1");
    sign_bundle(&compiled.bytes, &signer).unwrap()
}

fn policy() -> TrustPolicy {
    TrustPolicy::new(ORIGIN)
        .unwrap()
        .trust("k1", SecretKey::from_seed(SEED).public_key().0)
        .unwrap()
}

fn failure(error: VerifyError) -> (Subject, Check) {
    match error {
        VerifyError::Failed { subject, check } => (subject, check),
        other => panic!("not a failed check: {other}"),
    }
}

fn skill(name: &str) -> Subject {
    Subject::Skill(name.to_string())
}

#[test]
fn a_signed_bundle_verifies_with_and_without_rehashing() {
    let bytes = signed();
    let bundle = Bundle::decode(&bytes).unwrap();
    for rehash in [true, false] {
        let verified = policy().rehash(rehash).verify(&bundle).unwrap();
        assert_eq!(verified.skills.len(), bundle.skills.len());
        assert!(verified.skills.iter().all(|s| s.status == Status::Verified));
        assert_eq!(verified.bundle.publisher, Some("k1"));
    }
    // The CRLF skill file cannot be rebuilt from its normalised text, so its
    // exact bytes are kept.
    let crlf = bundle.skills.iter().find(|s| s.name == "crlf").unwrap();
    assert!(crlf.skill_file_bytes.is_some());
    assert!(bundle.skills.iter().any(|s| s.skill_file_bytes.is_none()));
}

#[test]
fn revisions_equal_those_of_the_skill_directories() {
    let bytes = signed();
    let bundle = Bundle::decode(&bytes).unwrap();
    for name in ["csv-report", "git-rebase", "pdf-forms"] {
        let snapshot = snapshot_dir(&support::testdata("skills").join(name)).unwrap();
        let recorded = bundle.skills.iter().find(|s| s.name == name).unwrap();
        assert_eq!(Revision(recorded.revision), snapshot.revision, "{name}");
    }
}

/// Flips one byte inside the only occurrence of `needle` in `bytes`.
fn flip(bytes: &[u8], needle: &[u8]) -> Vec<u8> {
    let at: Vec<usize> = bytes
        .windows(needle.len())
        .enumerate()
        .filter(|(_, window)| *window == needle)
        .map(|(at, _)| at)
        .collect();
    assert_eq!(
        at.len(),
        1,
        "{:?} occurs {} times",
        String::from_utf8_lossy(needle),
        at.len()
    );
    let mut out = bytes.to_vec();
    out[at[0] + needle.len() / 2] ^= 0x01;
    out
}

fn verify_bytes(bytes: &[u8]) -> Result<(), (Subject, Check)> {
    let bundle = Bundle::decode(bytes).expect("a flipped byte inside a string still decodes");
    policy().verify(&bundle).map(drop).map_err(failure)
}

#[test]
fn one_byte_changed_in_the_binary_is_caught() {
    let bytes = signed();
    // A file's bytes, flipped in the encoded bundle.
    let template =
        std::fs::read(support::testdata("skills/csv-report/templates/report.md")).unwrap();
    let needle = &template[10..40];
    let (subject, check) = verify_bytes(&flip(&bytes, needle)).unwrap_err();
    assert_eq!(subject, skill("csv-report"));
    assert_eq!(
        check,
        Check::FileDigest {
            path: "templates/report.md".into()
        }
    );
}

#[test]
fn tampering_with_each_part_is_caught_and_named() {
    let bytes = signed();
    let pristine = Bundle::decode(&bytes).unwrap();
    let at = pristine
        .skills
        .iter()
        .position(|s| s.name == "git-rebase")
        .unwrap();
    fn tampered<'a>(pristine: &Bundle<'a>, edit: impl FnOnce(&mut Bundle<'a>)) -> (Subject, Check) {
        let mut bundle = pristine.clone();
        edit(&mut bundle);
        failure(policy().verify(&bundle).unwrap_err())
    }

    // The instructions (the body the model reads).
    let changed = pristine.skills[at].instructions.replacen('a', "b", 1);
    assert_eq!(
        tampered(&pristine, |b| b.skills[at].instructions = &changed),
        (skill("git-rebase"), Check::InstructionsDigest)
    );
    // The frontmatter text.
    let frontmatter = pristine.skills[at].frontmatter.replacen('a', "b", 1);
    assert_eq!(
        tampered(&pristine, |b| b.skills[at].frontmatter = &frontmatter),
        (skill("git-rebase"), Check::FrontmatterDigest)
    );
    // The frontmatter and its digest together: the skill file no longer matches.
    let digest = skills_core::sha256::digest(frontmatter.as_bytes());
    assert_eq!(
        tampered(&pristine, |b| {
            b.skills[at].frontmatter = &frontmatter;
            b.skills[at].frontmatter_sha256 = digest;
        }),
        (skill("git-rebase"), Check::SkillFileDigest)
    );
    // The recorded revision.
    let (subject, check) = tampered(&pristine, |b| b.skills[at].revision[0] ^= 1);
    assert_eq!(subject, skill("git-rebase"));
    assert!(matches!(check, Check::Revision { .. }));
    // A signature.
    let mut signature = pristine.skills[at].signatures[0].signature.0.to_vec();
    signature[5] ^= 1;
    assert_eq!(
        tampered(&pristine, |b| b.skills[at].signatures[0].signature =
            skills_core::wire::bundle::Bytes(&signature)),
        (
            skill("git-rebase"),
            Check::BadSignature {
                key_id: "k1".into()
            }
        )
    );
    // A description: not part of any file, but of the bundle revision.
    assert!(matches!(
        tampered(&pristine, |b| b.skills[at].description =
            "Do something else."),
        (Subject::Bundle, Check::Revision { .. })
    ));
    // The bundle's own signature.
    let mut signature = pristine.signatures[0].signature.0.to_vec();
    signature[0] ^= 1;
    assert_eq!(
        tampered(&pristine, |b| b.signatures[0].signature =
            skills_core::wire::bundle::Bytes(&signature)),
        (
            Subject::Bundle,
            Check::BadSignature {
                key_id: "k1".into()
            }
        )
    );
    // A file swapped with its digest updated: the revision no longer matches.
    let csv = pristine
        .skills
        .iter()
        .position(|s| s.name == "csv-report")
        .unwrap();
    let (subject, check) = tampered(&pristine, |b| {
        b.skills[csv].files[0] = File {
            path: b.skills[csv].files[0].path,
            sha256: skills_core::sha256::digest(b"evil"),
            content: Content::Text("evil"),
        };
    });
    assert_eq!(subject, skill("csv-report"));
    assert!(
        matches!(check, Check::InstructionsText | Check::Revision { .. }),
        "{check:?}"
    );
}

#[test]
fn untrusted_keys_other_origins_and_pins_are_refused() {
    let bytes = signed();
    let bundle = Bundle::decode(&bytes).unwrap();
    let first = bundle.skills[0].name;
    let other_key = TrustPolicy::new(ORIGIN)
        .unwrap()
        .trust("k1", SecretKey::from_seed([1; 32]).public_key().0)
        .unwrap();
    assert_eq!(
        failure(other_key.verify(&bundle).unwrap_err()),
        (
            skill(first),
            Check::BadSignature {
                key_id: "k1".into()
            }
        )
    );
    let unknown_id = TrustPolicy::new(ORIGIN)
        .unwrap()
        .trust("k2", SecretKey::from_seed(SEED).public_key().0)
        .unwrap();
    assert_eq!(
        failure(unknown_id.verify(&bundle).unwrap_err()),
        (
            skill(first),
            Check::UntrustedKey {
                key_id: "k1".into()
            }
        )
    );
    let elsewhere = TrustPolicy::new("https://elsewhere.example")
        .unwrap()
        .trust("k1", SecretKey::from_seed(SEED).public_key().0)
        .unwrap();
    assert_eq!(
        failure(elsewhere.verify(&bundle).unwrap_err()),
        (
            skill(first),
            Check::BadSignature {
                key_id: "k1".into()
            }
        )
    );
    let pinned = policy().pin_revision("git-rebase", Revision([7; 32]));
    assert_eq!(
        failure(pinned.verify(&bundle).unwrap_err()),
        (skill("git-rebase"), Check::RevisionPin)
    );
    let versioned = policy().pin_version("git-rebase", "1.0.0");
    assert_eq!(
        failure(versioned.verify(&bundle).unwrap_err()),
        (skill("git-rebase"), Check::VersionPin)
    );
    let right = snapshot_dir(&support::testdata("skills/git-rebase"))
        .unwrap()
        .revision;
    assert!(
        policy()
            .pin_revision("git-rebase", right)
            .verify(&bundle)
            .is_ok()
    );
}

#[test]
fn unsigned_bundles_need_an_explicit_allowance() {
    let compiled = Builder::new()
        .source(support::testdata("skills"))
        .compile()
        .unwrap();
    let bundle = Bundle::decode(&compiled.bytes).unwrap();
    let first = bundle.skills[0].name;
    assert_eq!(
        failure(policy().verify(&bundle).unwrap_err()),
        (skill(first), Check::SignatureRequired)
    );
    let verified = policy().require_signature(false).verify(&bundle).unwrap();
    assert!(verified.skills.iter().all(|s| s.status == Status::Unsigned));
    assert_eq!(verified.bundle.status, Status::Unsigned);
}

#[test]
fn the_builder_signs_with_a_key_from_the_environment_and_never_shows_it() {
    let hex: String = SEED.iter().map(|b| format!("{b:02x}")).collect();
    let var = "SKILLS_TEST_SIGNING_KEY_SIGNING_RS";
    let file = std::env::temp_dir().join(format!("skills-signing-{}.hex", std::process::id()));
    std::fs::write(&file, &hex).unwrap();
    let signing = Signing::new(KeySource::File(file.clone()), ORIGIN).key_id("k1");
    let compiled = Builder::new()
        .source(support::testdata("skills"))
        .sign(signing.clone())
        .compile()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    let bundle = Bundle::decode(&compiled.bytes).unwrap();
    assert!(policy().verify(&bundle).is_ok());
    assert!(!format!("{signing:?}").contains(&hex));
    assert!(
        !compiled.bytes.windows(32).any(|window| window == SEED),
        "the seed is not embedded"
    );
    // A missing variable fails the build, naming the variable only.
    let missing = Signing::new(KeySource::Env(var.into()), ORIGIN);
    let error = Builder::new()
        .source(support::testdata("skills"))
        .sign(missing)
        .compile()
        .unwrap_err();
    assert!(error.to_string().contains(var), "{error}");
    // A malformed key is refused without echoing it.
    let secret_looking = "ab".repeat(31) + "zz";
    let bad = std::env::temp_dir().join(format!("skills-signing-bad-{}.hex", std::process::id()));
    std::fs::write(&bad, &secret_looking).unwrap();
    let error = Builder::new()
        .source(support::testdata("skills"))
        .sign(Signing::new(KeySource::File(bad.clone()), ORIGIN))
        .compile()
        .unwrap_err();
    std::fs::remove_file(&bad).unwrap();
    assert!(!error.to_string().contains("abab"), "{error}");
}
