//! `keygen FILE`: a new Ed25519 key pair for signing skills.

use std::path::{Path, PathBuf};

use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{EncodePrivateKey, KeypairBytes};
use skills_build::unstable::keys::SecretKey;
use zeroize::Zeroizing;

use crate::output::{Stream, write};
use crate::python::click::{Arg, CommandSpec, Invocation, Opt};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "keygen",
    summary: "Create an Ed25519 key pair for signing skills.",
    about: "Writes the secret key to FILE as PKCS#8 PEM (readable by you only) and the public key as PEM beside it: FILE with its `.pem` ending, if any, replaced by `.pub.pem` (keys/skills.pem gives keys/skills.pub.pem; key gives key.pub.pem). Then prints the public key, its default key id, and the `--trust ID=FILE` argument that `skills verify` and `skills mcp` trust it with. The folder must exist. Never overwrites a file, and never prints the secret key. Keep FILE out of version control.",
    exit_codes: &[
        (0, "Keys written"),
        (
            1,
            "A file exists, its folder is missing, or it cannot be written",
        ),
    ],
    args: &[Arg {
        metavar: "FILE",
        many: false,
        must_exist: false,
    }],
    options: &[&[Opt::value(
        "--public",
        "FILE",
        "Where to write the public key (default: beside FILE, as above).",
    )]],
    run,
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

/// The seed of a new key, from the system's random number generator;
/// wiped when dropped.
fn generate() -> Result<Zeroizing<[u8; 32]>, getrandom::Error> {
    let mut seed = Zeroizing::new([0u8; 32]);
    getrandom::fill(seed.as_mut())?;
    Ok(seed)
}

/// The key of `seed` as a PKCS#8 version 1 PEM document (no public key),
/// as OpenSSL and Python's `cryptography` write it; ed25519-dalek's
/// encoder of a key pair would add the public key. The text holds the
/// secret: it is wiped when dropped, and never printed.
fn secret_pem(seed: &[u8; 32]) -> Zeroizing<String> {
    KeypairBytes {
        secret_key: *seed,
        public_key: None,
    }
    .to_pkcs8_pem(LineEnding::LF)
    .expect("a 32-byte Ed25519 seed encodes as PKCS#8")
}

/// Writes the key pair of `seed`: the secret key as PKCS#8 PEM at
/// `secret` (readable by its owner only, on Unix) and the public key as
/// PEM at `public`. Refuses to overwrite either file, and writes both or
/// neither.
fn write_pair(seed: &[u8; 32], secret: &Path, public: &Path) -> Result<(), String> {
    for path in [secret, public] {
        let folder = path
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty());
        if let Some(folder) = folder.filter(|folder| !folder.is_dir()) {
            return Err(format!(
                "cannot write {}: the folder {} does not exist (create it first: mkdir -p {})",
                path.display(),
                folder.display(),
                folder.display()
            ));
        }
        // Whatever is there (a file, a link even dangling, /dev/null) is
        // kept: a key is only ever written as a new file.
        match crate::atomic::Found::at(path) {
            Ok(crate::atomic::Found::Nothing) => {}
            Ok(found) => {
                return Err(format!(
                    "{} exists ({}); refusing to overwrite a key (remove it first, or choose another path)",
                    path.display(),
                    found.describe()
                ));
            }
            Err(error) => return Err(format!("cannot write {}: {error}", path.display())),
        }
    }
    let cannot = |path: &Path, error: std::io::Error| format!("{}: {error}", path.display());
    write_new(secret, secret_pem(seed).as_bytes(), true).map_err(|error| cannot(secret, error))?;
    // Both or neither: a secret key without its public key is a key
    // nobody knows to trust, left behind where it may leak.
    let public_pem = crate::public_key::to_pem(SecretKey::from_seed(*seed).public_key());
    write_new(public, public_pem.as_bytes(), false).map_err(|error| {
        let _ = std::fs::remove_file(secret);
        cannot(public, error)
    })
}

/// Creates `path`, failing if it exists, and writes `bytes`; `private`
/// makes it readable by its owner only (on Unix).
fn write_new(path: &Path, bytes: &[u8], private: bool) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut file = options.open(path)?;
    // A file this call created and could not fill is removed, not left
    // half written.
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .inspect_err(|_| {
            let _ = std::fs::remove_file(path);
        })
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
    let seed = match generate() {
        Ok(seed) => seed,
        Err(error) => {
            write(
                Stream::Err,
                &format!("error: no random bytes for a new key: {error}\n"),
            );
            return 1;
        }
    };
    if let Err(error) = write_pair(&seed, &secret, &public) {
        write(Stream::Err, &format!("error: {error}\n"));
        return 1;
    }
    let public_key = SecretKey::from_seed(*seed).public_key();
    write(
        Stream::Out,
        &format!(
            "wrote the secret key to {} (keep it private; do not commit it)\nwrote the public key to {}\nkey id: {}\npublic key (hex): {}\npublic key (base64): {}\nverify with: --trust {}={}\n",
            secret.display(),
            public.display(),
            public_key.fingerprint(),
            public_key.to_hex(),
            crate::public_key::to_base64(public_key),
            public_key.fingerprint(),
            public.display(),
        ),
    );
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_build::unstable::keys::PublicKey;

    #[test]
    fn writes_the_bytes_openssl_writes() {
        assert_eq!(
            *secret_pem(&[1; 32]),
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n-----END PRIVATE KEY-----\n"
        );
        assert_eq!(
            crate::public_key::to_pem(PublicKey([0; 32])),
            "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n-----END PUBLIC KEY-----\n"
        );
    }

    #[test]
    fn a_pair_is_written_once_and_reads_back() {
        let dir = std::env::temp_dir().join(format!("skills-keygen-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (secret, public) = (dir.join("k.pem"), dir.join("k.pub.pem"));
        let seed: [u8; 32] = std::array::from_fn(|at| at as u8);
        write_pair(&seed, &secret, &public).unwrap();
        let error = write_pair(&seed, &secret, &public).unwrap_err();
        assert!(error.contains("refusing to overwrite a key"), "{error}");
        // The secret key file reads back as the key it was made from.
        let signer = skills_build::unstable::signing::Signer::load(
            &skills_build::KeySource::File(secret.clone()),
            "acme",
        )
        .unwrap();
        let read_public = crate::public_key::from_file(&public).unwrap();
        assert_eq!(SecretKey::from_seed(seed).public_key(), read_public);
        assert_eq!(signer.id(), read_public.fingerprint());
        assert_eq!(
            read_public.to_hex(),
            "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&secret).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
