//! What the command's behaviour tests share: running the `skills` binary,
//! and the test support of the workspace (paths, scratch trees, a seeded
//! generator).
#![allow(dead_code, unused_imports)] // each test file uses what it needs

pub use skills_test_support::{fake_secrets, paths, rng, tree};

use std::path::Path;
use std::process::{Command, Output};

pub use paths::{testdata, workspace};

/// Runs the `skills` binary with `args` (in `dir` when given) and checks
/// that it did not panic, whatever its exit status.
pub fn run_skills(dir: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skills"));
    command.args(args);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let out = command.output().expect("run skills");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{args:?} panicked"
    );
    out
}

/// A bundle of the workspace's `sources` built into `dir/b.bin` and signed
/// for `origin` with a key made for it (`dir/k.pem`): the bundle's path and
/// the `--trust ID=KEY` value that trusts the key, and the key id.
pub fn signed_bundle(dir: &Path, sources: &[&str], origin: &str) -> SignedBundle {
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let run = |args: &[&str]| {
        let output = run_skills(Some(&workspace()), args);
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    };
    let keygen = run(&["keygen", &path("k.pem")]);
    let key_id = keygen
        .lines()
        .find_map(|line| line.strip_prefix("key id: "))
        .expect("keygen prints the key id")
        .to_owned();
    let mut build = vec!["build"];
    build.extend(sources);
    let bundle = path("b.bin");
    build.extend(["-o", &bundle]);
    run(&build);
    run(&["sign", "--key", &path("k.pem"), "--origin", origin, &bundle]);
    SignedBundle {
        trust: format!("{key_id}={}", path("k.pub.pem")),
        key_id,
        bundle,
    }
}

/// What [`signed_bundle`] made.
pub struct SignedBundle {
    /// The bundle file.
    pub bundle: String,
    /// The signing key's id.
    pub key_id: String,
    /// `ID=KEY`, as `--trust` takes it.
    pub trust: String,
}

/// Builds the skills of `source` into the bundle file `bundle` with
/// `skills build`, which must succeed.
pub fn build_bundle(source: &Path, bundle: &Path) {
    let out = run_skills(
        None,
        &[
            "build",
            source.to_str().unwrap(),
            "-o",
            bundle.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
