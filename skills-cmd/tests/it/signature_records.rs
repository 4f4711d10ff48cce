//! A signature record is bound by its signature: every single-bit flip of
//! a signed bundle's signature records either fails to verify or changes
//! nothing `skills verify` and `skills inspect` print (issue 28, finding 5:
//! an origin rewritten inside a record still verified for the original
//! origin, and `inspect` printed the forged one; 104 of 4,695 flips).
//!
//! Each flip is checked in process with the trust policy `skills verify`
//! runs (`TrustPolicy::verify_bytes`); a flip that passes is run through
//! the binary, and what both commands print is compared.

use std::path::{Path, PathBuf};
use std::process::Output;

use skills_core::trust::verify::TrustPolicy;
use skills_core::wire::bundle::{Bundle, Signature};

use crate::support;
use support::tree;

const ORIGIN: &str = "https://example.com/skills";

fn skills(args: &[&str]) -> Output {
    support::run_skills(None, args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A key pair made by `skills keygen`: the secret key file, and the public
/// key's PEM file and raw bytes.
struct Key {
    id: &'static str,
    secret: PathBuf,
    public_pem: PathBuf,
    public: [u8; 32],
}

fn keygen(dir: &Path, id: &'static str) -> Key {
    let secret = dir.join(format!("{id}.pem"));
    let out = skills(&["keygen", secret.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let public_pem = dir.join(format!("{id}.pub.pem"));
    // An Ed25519 SubjectPublicKeyInfo ends with the 32 key bytes.
    let pem = std::fs::read_to_string(&public_pem).unwrap();
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = skills_core::encoding::base64::decode(&body).expect("base64 PEM body");
    let public = der[der.len() - 32..].try_into().unwrap();
    Key {
        id,
        secret,
        public_pem,
        public,
    }
}

fn sign(bundle: &Path, key: &Key) {
    let out = skills(&[
        "sign",
        bundle.to_str().unwrap(),
        "--key",
        key.secret.to_str().unwrap(),
        "--origin",
        ORIGIN,
        "--key-id",
        key.id,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// What the two commands print for `bundle`: verify's exit code, stdout
/// and stderr, and inspect's stdout (its path line left out, the path
/// being the only thing that differs between the files compared).
fn printed(bundle: &Path, keys: &[&Key]) -> String {
    let trusts: Vec<String> = keys
        .iter()
        .map(|key| format!("{}={}", key.id, key.public_pem.display()))
        .collect();
    let mut args = vec!["verify", bundle.to_str().unwrap(), "--origin", ORIGIN];
    for trust in &trusts {
        args.extend(["--trust", trust.as_str()]);
    }
    let verify = skills(&args);
    let inspect = skills(&["inspect", bundle.to_str().unwrap()]);
    let inspected: String = text(&inspect.stdout)
        .lines()
        .skip(1)
        .map(|line| format!("{line}\n"))
        .collect();
    format!(
        "verify exit {:?}\n{}{}inspect\n{inspected}",
        verify.status.code(),
        text(&verify.stdout),
        text(&verify.stderr).replace(bundle.to_str().unwrap(), "BUNDLE"),
    )
}

/// The bytes a list of signature records is encoded as: the count, then
/// each record's key id, origin and signature, each with its length (every
/// one under 128, so one byte).
fn encoded(signatures: &[Signature<'_>]) -> Vec<u8> {
    let mut out = vec![u8::try_from(signatures.len()).unwrap()];
    for signature in signatures {
        for field in [
            signature.key_id.as_bytes(),
            signature.origin.as_bytes(),
            signature.signature.0,
        ] {
            out.push(u8::try_from(field.len()).ok().filter(|&n| n < 128).unwrap());
            out.extend_from_slice(field);
        }
    }
    out
}

/// Every list of signature records of `bundle`: each skill's, then the
/// bundle's.
fn record_lists<'b, 'a>(bundle: &'b Bundle<'a>) -> impl Iterator<Item = &'b Vec<Signature<'a>>> {
    let skills = bundle.skills.iter().map(|skill| &skill.signatures);
    skills.chain([&bundle.signatures])
}

/// The byte ranges of `bytes` holding signature records: every skill's
/// list and the bundle's, each found exactly once.
fn record_ranges(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let bundle = Bundle::decode(bytes).unwrap();
    record_lists(&bundle)
        .map(|signatures| {
            assert!(!signatures.is_empty(), "every list is signed");
            let needle = encoded(signatures);
            let mut windows = bytes.windows(needle.len());
            let first = windows.position(|window| window == needle).unwrap();
            assert!(
                !windows.any(|window| window == needle),
                "each record list occurs once"
            );
            first..first + needle.len()
        })
        .collect()
}

/// A flip that verified: where it was, and what the commands printed.
struct Verified {
    /// The flipped byte lies inside a record's key id.
    in_key_id: bool,
    printed: String,
}

/// Flips every bit of every signature record of `bundle`; gives what
/// `printed` gives for the bundle as it is, the flips that verified (each
/// with what the commands printed for it), and how many bits were flipped.
fn flip_every_record_bit(
    dir: &Path,
    bundle: &Path,
    keys: &[&Key],
) -> (String, Vec<Verified>, usize) {
    let bytes = std::fs::read(bundle).unwrap();
    // A filter before the binary runs: without re-hashing (no record is
    // under a digest, and re-hashing only adds checks), what fails here
    // fails in `skills verify` too; what passes is run through it.
    let mut policy = TrustPolicy::new(ORIGIN).unwrap().rehash(false);
    for key in keys {
        policy = policy.trust(key.id, key.public).unwrap();
    }
    assert!(
        policy.verify_bytes(&bytes).is_ok(),
        "the pristine bundle verifies"
    );
    let pristine = printed(bundle, keys);
    assert!(pristine.starts_with("verify exit Some(0)"), "{pristine}");
    let key_ids: Vec<std::ops::Range<usize>> = key_id_ranges(&bytes);
    let flipped = dir.join("flipped.bin");
    let (mut verified, mut flips) = (Vec::new(), 0);
    for range in record_ranges(&bytes) {
        for at in range {
            for bit in 0..8 {
                let mut copy = bytes.clone();
                copy[at] ^= 1 << bit;
                flips += 1;
                if policy.verify_bytes(&copy).is_err() {
                    continue;
                }
                std::fs::write(&flipped, &copy).unwrap();
                verified.push(Verified {
                    in_key_id: key_ids.iter().any(|ids| ids.contains(&at)),
                    printed: printed(&flipped, keys),
                });
            }
        }
    }
    (pristine, verified, flips)
}

/// The byte ranges of every record's key id text.
fn key_id_ranges(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let bundle = Bundle::decode(bytes).unwrap();
    let mut out = Vec::new();
    for (signatures, list) in record_lists(&bundle).zip(record_ranges(bytes)) {
        let mut at = list.start + 1; // past the count
        for signature in signatures {
            out.push(at + 1..at + 1 + signature.key_id.len());
            at += 3 + signature.key_id.len() + signature.origin.len() + signature.signature.0.len();
        }
    }
    out
}

#[test]
fn every_bit_of_a_signature_record_is_bound_by_its_signature() {
    let dir = tree::scratch("records", "flips");
    let (k1, k2) = (keygen(&dir, "k1"), keygen(&dir, "k2"));
    let bundle = dir.join("skills.bin");
    // One skill keeps the run short: its records and the bundle's.
    support::build_bundle(&support::testdata("skills/git-rebase"), &bundle);

    // One publisher, as `skills build --sign` and `skills sign` make it:
    // no flip verifies, so none changes what is printed.
    sign(&bundle, &k1);
    let (_, verified, flips) = flip_every_record_bit(&dir, &bundle, &[&k1]);
    assert!(flips > 1_400, "{flips} bits flipped");
    assert_eq!(verified.len(), 0, "of {flips} flips");

    // Two publishers, both trusted (a key being rotated): every record by
    // a trusted key is checked, so a flip anywhere fails, except in a key
    // id: the record then names a key the host does not trust, which no
    // check can reach (as if it were left out), and the other publisher's
    // signature stands. What is printed is still bound: each `by` names a
    // key whose record verified, and `inspect` differs in that one record,
    // which it prints as an unchecked claim.
    sign(&bundle, &k2);
    let (pristine, verified, flips) = flip_every_record_bit(&dir, &bundle, &[&k1, &k2]);
    assert!(flips > 2_800, "{flips} bits flipped");
    assert!(
        !verified.is_empty(),
        "a renamed key id leaves the other signature"
    );
    let by_any = |text: &str| {
        text.replace("by k1\n", "by K\n")
            .replace("by k2\n", "by K\n")
    };
    for flip in &verified {
        assert!(
            flip.in_key_id,
            "a flip outside a key id verified:\n{}",
            flip.printed
        );
        let (verify, inspect) = flip.printed.split_once("inspect\n").unwrap();
        let (pristine_verify, pristine_inspect) = pristine.split_once("inspect\n").unwrap();
        assert_eq!(by_any(verify), by_any(pristine_verify));
        let changed: Vec<(&str, &str)> = inspect
            .lines()
            .zip(pristine_inspect.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert!(
            changed[0]
                .0
                .trim_start()
                .starts_with("claimed signature: key "),
            "{changed:?}"
        );
    }
}

/// The finding's own case through the binary: an origin rewritten in a
/// record is refused for the original origin (and for the forged one, which
/// the signature never covered), and `inspect` prints records as claims.
#[test]
fn a_rewritten_origin_is_refused_and_inspect_calls_records_claims() {
    let dir = tree::scratch("records", "origin");
    let key = keygen(&dir, "release");
    let bundle = dir.join("skills.bin");
    support::build_bundle(&support::testdata("skills"), &bundle);
    sign(&bundle, &key);
    let forged = "https://dxample.com/skills";
    let mut bytes = std::fs::read(&bundle).unwrap();
    let mut rewrites = 0;
    while let Some(at) = bytes
        .windows(ORIGIN.len())
        .position(|w| w == ORIGIN.as_bytes())
    {
        bytes[at..at + forged.len()].copy_from_slice(forged.as_bytes());
        rewrites += 1;
    }
    assert_eq!(rewrites, 4, "three skills' records and the bundle's");
    let rewritten = dir.join("rewritten.bin");
    std::fs::write(&rewritten, &bytes).unwrap();
    let trust = format!("release={}", key.public_pem.display());
    for origin in [ORIGIN, forged] {
        let out = skills(&[
            "verify",
            rewritten.to_str().unwrap(),
            "--origin",
            origin,
            "--trust",
            &trust,
        ]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{origin}: {}",
            text(&out.stdout)
        );
        assert!(
            text(&out.stderr).contains("Publisher signature verification failed"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = skills(&["inspect", rewritten.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let report = text(&out.stdout);
    let claims: Vec<&str> = report.lines().filter(|l| l.contains(forged)).collect();
    assert_eq!(claims.len(), 4, "three skills and the bundle: {report}");
    assert!(
        claims.iter().all(|line| line
            .trim_start()
            .starts_with("claimed signature: key release origin ")
            && line.contains("(unchecked here: `skills verify")),
        "{report}"
    );
}
