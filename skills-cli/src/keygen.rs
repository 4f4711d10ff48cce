//! `keygen FILE`: a new Ed25519 key pair for signing skills.

use std::path::{Path, PathBuf};

use skills_build::keys::SecretKey;

use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Param};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "keygen",
    short_help: "Create an Ed25519 key pair for signing skills.",
    help: "  Create an Ed25519 key pair for signing skills.\n\n  Writes the secret key to FILE as PKCS#8 PEM (readable by you only) and the\n  public key as PEM beside it (FILE with `.pub.pem`), then prints the public\n  key and its default key id. Never overwrites a file, and never prints the\n  secret key. Keep FILE out of version control.\n\n  Exit codes:\n    0  Keys written\n    1  A file exists or cannot be written\n    2  Usage error",
    options_help: &["  --public FILE  Where to write the public key (default: FILE.pub.pem)."],
    params: &[
        Param::Arg {
            metavar: "FILE",
            many: false,
            must_exist: false,
        },
        Param::Opt {
            long: "--public",
            choices: &[],
        },
    ],
};

/// `keys/skills.pem` -> `keys/skills.pub.pem`; `key` -> `key.pub.pem`.
fn public_path(secret: &Path) -> PathBuf {
    let name = secret
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".pem").unwrap_or(&name);
    secret.with_file_name(format!("{stem}.pub.pem"))
}

/// A new key from the system's random number generator. The seed is
/// wiped once the key holds it.
fn generate() -> Result<SecretKey, getrandom::Error> {
    let mut seed = zeroize::Zeroizing::new([0u8; 32]);
    getrandom::fill(seed.as_mut())?;
    Ok(SecretKey::from_seed(*seed))
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let Some(secret) = call.args.first().map(PathBuf::from) else {
        return 2;
    };
    let public = call
        .option("--public")
        .map(PathBuf::from)
        .unwrap_or_else(|| public_path(&secret));
    let key = match generate() {
        Ok(key) => key,
        Err(error) => {
            write(
                Stream::Err,
                &format!("error: no random bytes for a new key: {error}\n"),
            );
            return 1;
        }
    };
    if let Err(error) = key.write_pair(&secret, &public) {
        write(Stream::Err, &format!("error: {error}\n"));
        return 1;
    }
    let public_key = key.public_key();
    write(
        Stream::Out,
        &format!(
            "wrote the secret key to {} (keep it private; do not commit it)\nwrote the public key to {}\nkey id: {}\npublic key (hex): {}\npublic key (base64): {}\n",
            secret.display(),
            public.display(),
            public_key.fingerprint(),
            public_key.to_hex(),
            public_key.to_base64(),
        ),
    );
    0
}
