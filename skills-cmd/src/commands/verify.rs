//! `verify TARGET...`: check the signatures and revisions of a bundle file
//! or of skill directories against trusted public keys.

use std::path::Path;

use crate::targets::read_text_limited;
use skills_build::DEFAULT_MAX_FILE_SIZE;
use skills_build::unstable::printable::printable;
use skills_core::encoding::base64;
use skills_core::trust::revision::Revision;
use skills_core::trust::verify::{Check, Identity, Status, Subject, TrustPolicy, VerifyError};
use skills_core::wire::bundle::{Bytes, Signature, Skill};

use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Opt};
use crate::targets::{Targets, read_file};

/// `--origin ORIGIN` (`mcp` takes it too).
pub const ORIGIN: Opt = Opt::value(
    "--origin",
    "ORIGIN",
    "The origin the publisher signed for (required).",
);

/// `--trust ID=KEY` (`mcp` takes it too).
pub const TRUST: Opt = Opt::value(
    "--trust",
    "ID=KEY",
    "A trusted public key: a PEM, hex or base64 key, or a file holding one (repeatable).",
);

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "verify",
    summary: "Verify the signatures of a bundle file or skill directories.",
    about: "Checks, in agentskills-core's order, each skill's content revision, the pins, and its Ed25519 signature by one of the --trust keys for --origin; for a bundle file, first the embedded bytes against their recorded digests (unless --rehash no), and last the bundle revision and its signature. For skill sources (skill folders, folders of skill folders, archives, read as `check` reads them) the signatures come from --signatures, a file of `<skill id> <key id> <base64 signature>` lines as `skills sign` writes. Prints one line per skill, or the first failure, naming the skill and the check.",
    exit_codes: &[
        (0, "Verified"),
        (1, "Verification failed"),
        (2, "Usage error (bad option, unreadable key or file)"),
    ],
    args: &[super::sign::TARGETS],
    options: &[
        &[
            ORIGIN,
            TRUST,
            Opt::value(
                "--signatures",
                "FILE",
                "Detached signatures for skill directories.",
            ),
            Opt::choice(
                "--require-signature",
                &["yes", "no"],
                "Refuse unsigned skills (default yes).",
            ),
            Opt::choice(
                "--rehash",
                &["yes", "no"],
                "Hash a bundle's embedded bytes again (default yes).",
            ),
            Opt::value(
                "--pin",
                "NAME=REVISION",
                "Accept skill NAME only at this revision (repeatable).",
            ),
            Opt::value(
                "--pin-version",
                "NAME=VERSION",
                "Accept skill NAME only with this version (repeatable).",
            ),
            Opt::flag(
                "--well-known",
                "TARGET is a tree `skills publish --well-known` wrote (a folder) or its http:// loopback origin: check the 0.2.0 index against its artifacts (form, digests of the bytes served, root layout, each skill's verdict, the name its entry gives; served: GET, HEAD, types, 404) and the 0.1 layout when present. No signature is involved: --origin is not needed.",
            ),
            gate::FORMAT,
        ],
        gate::EXCLUDE_GROUP,
        gate::READ_ONLY,
    ],
    run,
};

fn usage_error(message: &str) -> i32 {
    COMMAND.usage_error(message)
}

fn split_pair<'v>(value: &'v str, option: &str) -> Result<(&'v str, &'v str), String> {
    value
        .split_once('=')
        .filter(|(name, rest)| !name.is_empty() && !rest.is_empty())
        .ok_or_else(|| format!("Invalid value for '{option}': expected NAME=VALUE, got {value:?}."))
}

/// Whether a `--trust` value that is neither a file nor a key was meant
/// as a path: it names a folder, or holds a `.` or a path separator, which
/// no hex or base64 key does (base64's `/` aside, and then it did not
/// decode) and a PEM key's text starts with dashes.
fn looks_like_path(value: &str) -> bool {
    !value.starts_with("-----")
        && (value.contains('.')
            || value.contains(std::path::MAIN_SEPARATOR)
            || Path::new(value).exists())
}

pub(crate) fn policy(call: &Invocation) -> Result<TrustPolicy, String> {
    let origin = call
        .option("--origin")
        .ok_or_else(|| "Missing option '--origin'.".to_string())?;
    let mut policy = TrustPolicy::new(origin).map_err(|error| error.to_string())?;
    for value in call.values("--trust") {
        let (id, key) = split_pair(value, "--trust")?;
        let key = if Path::new(key).is_file() {
            crate::public_key::from_file(Path::new(key))
                .map_err(|error| format!("Invalid key for '--trust' {id}: {error}"))?
        } else {
            crate::public_key::from_text(key).map_err(|error| match looks_like_path(key) {
                true => format!(
                    "Invalid key for '--trust' {id}: no such file: {key} (give a file holding a public key, or the key itself: PEM, hex or base64)"
                ),
                false => format!("Invalid key for '--trust' {id}: {error}"),
            })?
        };
        policy = policy.trust(id, key.0).map_err(|error| error.to_string())?;
    }
    for value in call.values("--pin") {
        let (name, revision) = split_pair(value, "--pin")?;
        let revision: Revision = revision
            .parse()
            .map_err(|error| format!("Invalid value for '--pin' {name}: {error}"))?;
        policy = policy.pin_revision(name, revision);
    }
    for value in call.values("--pin-version") {
        let (name, version) = split_pair(value, "--pin-version")?;
        policy = policy.pin_version(name, version);
    }
    Ok(policy
        .require_signature(call.option("--require-signature") != Some("no"))
        .rehash(call.option("--rehash") != Some("no")))
}

fn line(identity: &Identity<'_>) -> String {
    match (identity.status, identity.publisher) {
        (Status::Verified, Some(key)) => {
            format!(
                "verified  {}  {}  by {}\n",
                printable(identity.skill),
                identity.revision,
                printable(key)
            )
        }
        _ => format!(
            "unsigned  {}  {}\n",
            printable(identity.skill),
            identity.revision
        ),
    }
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    if call.flag("--well-known") {
        return well_known(call);
    }
    let policy = match policy(call) {
        Ok(policy) => policy,
        Err(message) => return usage_error(&message),
    };
    match Targets::of(&call.args) {
        Ok(Targets::Bundle(bundle)) => return verify_file(bundle, &policy),
        Ok(Targets::Dirs(_)) => {}
        Err(message) => return usage_error(message),
    };
    let signatures = match call.option("--signatures") {
        Some(path) => match read_signatures(path) {
            Ok(signatures) => signatures,
            Err(message) => return usage_error(&message),
        },
        None => Vec::new(),
    };
    let skills = match gate::read(call) {
        Ok(Ok(skills)) => skills,
        Ok(Err(code)) => return code,
        Err(message) => return usage_error(&message),
    };
    // The revisions were just computed from the files read.
    let policy = policy.rehash(false);
    let mut out = String::new();
    for found in &skills {
        let (id, revision) = (found.dir.as_str(), super::revision::of(found));
        let dir = gate::skill_path(found);
        let skill = Skill {
            name: id,
            version: super::revision::version(found),
            revision: revision.0,
            signatures: signatures
                .iter()
                .filter(|(skill, _, _)| skill == id)
                .map(|(_, key_id, bytes)| Signature {
                    key_id,
                    origin: policy.origin(),
                    signature: Bytes(bytes),
                })
                .collect(),
            ..Skill::default()
        };
        match policy.verify_skill(&skill) {
            Ok(identity) => out.push_str(&line(&identity)),
            Err(error) => {
                write(Stream::Out, &out);
                fail(&dir, &error);
                if let Some(Check::BadSignature { .. }) = error.check() {
                    // A detached signature records no origin: say what else
                    // fails this way.
                    write(
                        Stream::Err,
                        &format!(
                            "  = help: a signature made for another origin fails this way too: give the --origin that `skills sign` was given (here {})\n",
                            printable(policy.origin())
                        ),
                    );
                }
                return 1;
            }
        }
    }
    write(Stream::Out, &out);
    0
}

type DetachedSignature = (String, String, Vec<u8>);

fn read_signatures(path: &str) -> Result<Vec<DetachedSignature>, String> {
    let text = read_text_limited(Path::new(path), DEFAULT_MAX_FILE_SIZE)
        .map_err(|error| format!("cannot read {path}: {error}"))?;
    let mut signatures = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = match fields.as_slice() {
            [skill, key, signature] => {
                base64::decode(signature).map(|bytes| (skill.to_string(), key.to_string(), bytes))
            }
            _ => None,
        };
        let Some(parsed) = parsed else {
            return Err(format!(
                "{path}:{}: expected `<skill id> <key id> <base64 signature>`",
                number + 1
            ));
        };
        signatures.push(parsed);
    }
    Ok(signatures)
}

fn verify_file(path: &str, policy: &TrustPolicy) -> i32 {
    let bytes = match read_file(path, 2) {
        Ok(bytes) => bytes,
        Err(status) => return status,
    };
    // The exact bytes: a signature binds them, not only what they decode to.
    match policy.verify_bytes(&bytes) {
        Ok(verified) => {
            let mut out: String = verified.skills.iter().map(line).collect();
            out.push_str(&match (verified.bundle.status, verified.bundle.publisher) {
                (Status::Verified, Some(key)) => {
                    format!("bundle verified  {}  by {key}\n", verified.bundle.revision)
                }
                _ => format!("bundle unsigned  {}\n", verified.bundle.revision),
            });
            write(Stream::Out, &out);
            0
        }
        Err(error) => {
            fail(path, &error);
            if let Some(hint) = origin_hint(&error, &bytes, policy.origin()) {
                write(Stream::Err, &format!("  = help: {}\n", printable(&hint)));
            }
            1
        }
    }
}

/// When a signature by a trusted key was refused and the record claims
/// another origin than `--origin`: says so, so that the wrong origin is not
/// taken for a bad signature. The claim is the record's (unchecked: the
/// signature decides, for whichever origin is given).
pub(crate) fn origin_hint(error: &VerifyError, bytes: &[u8], origin: &str) -> Option<String> {
    let VerifyError::Failed {
        subject,
        check: Check::BadSignature { key_id },
    } = error
    else {
        return None;
    };
    let catalog = skills_core::Catalog::from_bytes(bytes).ok()?;
    let bundle = catalog.bundle();
    let records = match subject {
        Subject::Bundle => &bundle.signatures,
        Subject::Skill(name) => {
            &bundle
                .skills
                .iter()
                .find(|skill| skill.name == name)?
                .signatures
        }
    };
    let claimed = records
        .iter()
        .find(|record| record.key_id == key_id && record.origin != origin)?;
    Some(format!(
        "the signature record by {key_id} is for the origin {:?}, not {origin:?} (--origin): give --origin {:?} if that is the origin you trust it for",
        claimed.origin, claimed.origin
    ))
}

/// Says on stderr that `what` (a path) failed with `error`, both made
/// printable.
fn fail(what: &str, error: &dyn std::fmt::Display) {
    write(
        Stream::Err,
        &format!(
            "error: {}: {}\n",
            printable(what),
            printable(&error.to_string())
        ),
    );
}

/// `--well-known TARGET`: a published tree checked against its artifacts,
/// reported in the `--format` asked for.
fn well_known(call: &Invocation) -> i32 {
    use crate::well_known::{fetch::Origin, verify};
    let [target] = call.args.as_slice() else {
        return usage_error("--well-known checks one TARGET: a folder or an http:// loopback URL.");
    };
    let origin = match Origin::parse(target) {
        Ok(origin) => origin,
        Err(message) => return usage_error(&message),
    };
    let verified = verify::verify(&origin);
    let failed = !verified.problems.is_empty() || verified.skills == 0;
    let mut last: String = verified
        .lines
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    last.push_str(&match (failed, verified.skills) {
        (_, 0) if verified.problems.is_empty() => "error: the index lists no skill\n".to_string(),
        _ => gate::summary_of(
            "verified",
            &verified.problems,
            verified.skills,
            failed,
            false,
        ),
    });
    let counted = crate::report::Counted {
        problems: &verified.problems,
        sources: &[],
        skills: verified.skills,
    };
    gate::print_counted("verify", call, &counted, failed, &last, Vec::new());
    i32::from(failed)
}
