//! `sign TARGET...`: sign a bundle file, or print detached signatures for
//! skill directories.

use skills_build::KeySource;
use skills_build::unstable::signing::{Signer, sign_bundle};

use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{Arg, CommandSpec, Invocation, Opt};
use crate::targets::{Targets, read_file};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "sign",
    summary: "Sign a bundle file or skill directories with an Ed25519 key.",
    about: "A TARGET that is a bundle file gets a signature for each skill (over agentskills-core's agentskills-snapshot-v1 payload) and for the bundle revision, written back to it (or to --output). TARGETs that are skill sources (skill folders, folders of skill folders, .skill/.zip archives, read as `check` reads them, junk left out) get detached signatures, printed (or written to --output) one line per skill: `<skill id> <key id> <base64 signature>`, which `skills verify --signatures` reads and agentskills-core's TrustPolicy accepts.\n\nThe key is a PKCS#8 PEM file or 64 hex digits of seed, from --key FILE or from the environment variable named by --key-env. It is never printed.",
    exit_codes: &[
        (0, "Signed"),
        (1, "The key, a target or the signing failed"),
    ],
    args: &[TARGETS],
    options: &[
        &[
            Opt::value("--key", "FILE", "The secret key file."),
            Opt::value(
                "--key-env",
                "NAME",
                "The environment variable holding the secret key.",
            ),
            Opt::value(
                "--origin",
                "ORIGIN",
                "The origin the signatures are made for (required).",
            ),
            Opt::value(
                "--key-id",
                "ID",
                "The key id (default: ed25519- and 16 hex digits of the public key's SHA-256).",
            ),
            Opt::value("--output", "FILE", "Where to write instead.").short("-o"),
        ],
        gate::EXCLUDE_GROUP,
        gate::READ_ONLY,
    ],
    run,
};

/// `TARGET...`: bundle files or skill sources.
pub const TARGETS: Arg = Arg {
    metavar: "TARGET...",
    many: true,
    must_exist: false,
};

fn usage_error(message: &str) -> i32 {
    COMMAND.usage_error(message)
}

fn fail(message: &str) -> i32 {
    write(Stream::Err, &format!("error: {message}\n"));
    1
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let source = match (call.option("--key"), call.option("--key-env")) {
        (Some(path), None) => KeySource::File(path.into()),
        (None, Some(name)) => KeySource::Env(name.to_string()),
        _ => return usage_error("Give exactly one of '--key' and '--key-env'."),
    };
    let Some(origin) = call.option("--origin") else {
        return usage_error("Missing option '--origin'.");
    };
    let output = call.option("--output");
    let signer = match Signer::load(&source, origin) {
        Ok(signer) => signer,
        Err(error) => return fail(&error.to_string()),
    };
    let signer = match call.option("--key-id") {
        Some(id) => signer.key_id(id),
        None => signer,
    };
    match Targets::of(&call.args) {
        Ok(Targets::Bundle(bundle)) => return sign_file(bundle, output.unwrap_or(bundle), &signer),
        Ok(Targets::Dirs(_)) => {}
        Err(message) => return usage_error(message),
    }
    let skills = match gate::read(call) {
        Ok(Ok(skills)) => skills,
        Ok(Err(code)) => return code,
        Err(message) => return usage_error(&message),
    };
    let mut lines = String::new();
    for skill in &skills {
        let (revision, version) = (super::revision::of(skill), super::revision::version(skill));
        let signature = match signer.sign_skill(&skill.dir, revision, version) {
            Ok(signature) => signature,
            Err(error) => return fail(&error.to_string()),
        };
        lines.push_str(&format!(
            "{} {} {}\n",
            skill.dir,
            signer.id(),
            skills_core::encoding::base64::encode(&signature)
        ));
    }
    match output {
        Some(path) => match crate::atomic::write(path.as_ref(), lines.as_bytes()) {
            Ok(()) => {
                write(Stream::Err, &format!("wrote {path}\n"));
                0
            }
            Err(error) => fail(&error.to_string()),
        },
        None => {
            write(Stream::Out, &lines);
            0
        }
    }
}

fn sign_file(bundle: &str, output: &str, signer: &Signer) -> i32 {
    let bytes = match read_file(bundle, 1) {
        Ok(bytes) => bytes,
        Err(status) => return status,
    };
    let signed = match sign_bundle(&bytes, signer) {
        Ok(signed) => signed,
        Err(error) => return fail(&format!("{bundle}: {error}")),
    };
    match crate::atomic::write(output.as_ref(), &signed) {
        Ok(()) => {
            write(
                Stream::Err,
                &format!(
                    "signed {bundle} as {} for {}; wrote {output}\n",
                    signer.id(),
                    signer.origin()
                ),
            );
            0
        }
        Err(error) => fail(&error.to_string()),
    }
}
