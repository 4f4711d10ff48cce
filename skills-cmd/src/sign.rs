//! `sign TARGET...`: sign a bundle file, or print detached signatures for
//! skill directories.

use skills_build::KeySource;
use skills_build::unstable::signing::{Signer, sign_bundle};

use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Param, concat};
use crate::targets::{Targets, read_file};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "sign",
    short_help: "Sign a bundle file or skill directories with an Ed25519 key.",
    help: "  Sign a bundle file or skill directories with an Ed25519 key.\n\n  A TARGET that is a bundle file gets a signature for each skill (over\n  agentskills-core's agentskills-snapshot-v1 payload) and for the bundle\n  revision, written back to it (or to --output). TARGETs that are skill\n  sources (skill folders, folders of skill folders, .skill/.zip archives,\n  read as `check` reads them, junk left out) get detached signatures,\n  printed (or written to --output) one line per skill: `<skill id> <key id>\n  <base64 signature>`, which `skills verify --signatures` reads and\n  agentskills-core's TrustPolicy accepts.\n\n  The key is a PKCS#8 PEM file or 64 hex digits of seed, from --key FILE or\n  from the environment variable named by --key-env. It is never printed.\n\n  Exit codes:\n    0  Signed\n    1  The key, a target or the signing failed\n    2  Usage error",
    options_help: &concat::<&str, 11>(&[
        &[
            "  --key FILE         The secret key file.",
            "  --key-env NAME     The environment variable holding the secret key.",
            "  --origin ORIGIN    The origin the signatures are made for (required).",
            "  --key-id ID        The key id (default: ed25519- and 16 hex digits of the\n                     public key's SHA-256).",
            "  -o, --output FILE  Where to write instead.",
        ],
        &gate::READ_HELP,
    ]),
    params: &concat::<Param, 14>(&[
        &[
            Param::Arg {
                metavar: "TARGET...",
                many: true,
                must_exist: false,
            },
            Param::Opt {
                long: "--key",
                choices: &[],
            },
            Param::Opt {
                long: "--key-env",
                choices: &[],
            },
            Param::Opt {
                long: "--origin",
                choices: &[],
            },
            Param::Opt {
                long: "--key-id",
                choices: &[],
            },
            Param::Opt {
                long: "-o",
                choices: &[],
            },
            Param::Opt {
                long: "--output",
                choices: &[],
            },
        ],
        &gate::READ_PARAMS,
    ]),
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
    let output = call.option("--output").or_else(|| call.option("-o"));
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
        let signature = match signer.sign_skill(&skill.dir, skill.revision(), skill.version()) {
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
        Some(path) => match std::fs::write(path, &lines) {
            Ok(()) => {
                write(Stream::Err, &format!("wrote {path}\n"));
                0
            }
            Err(error) => fail(&format!("cannot write {path}: {error}")),
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
    match std::fs::write(output, &signed) {
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
        Err(error) => fail(&format!("cannot write {output}: {error}")),
    }
}
