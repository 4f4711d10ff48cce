//! Compile-fail and compile-pass tests of `include_skills!`.
//!
//! The expected `.stderr` files are pinned to the toolchain in
//! `rust-toolchain.toml`; on another compiler version (`build.rs` compares
//! them) the test is ignored with the reason, neither compared nor counted
//! as a pass (rustc's wording and layout change between releases).
//!
//! trybuild compiles each case in a scratch crate under
//! `target/tests/trybuild/skills-tests/`, which is the `CARGO_MANIFEST_DIR`
//! the macro sees; a link there to `ui-skills/` lets the cases name their
//! fixtures with relative paths, as users do.

use std::path::{Path, PathBuf};

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

fn link_fixtures() {
    let scratch = target_dir().join("tests/trybuild/skills-tests");
    std::fs::create_dir_all(&scratch).expect("create trybuild's scratch directory");
    let link = scratch.join("ui-skills");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui-skills");
    if std::fs::read_link(&link).ok().as_deref() != Some(fixtures.as_path()) {
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&fixtures, &link).expect("link the UI fixtures");
    }
}

/// Fixtures that hold fake secrets are written at test time, from parts,
/// so that no file of the repository looks like a leaked key to a secret
/// scanner; they look like one to the audit, which is the point.
fn generate_fixtures() {
    let root = target_dir().join("tests/trybuild/skills-tests/ui-generated");
    let skill = "---\nname: deploy\ndescription: Deploys the site. Use when the user asks to ship.\n---\n# Deploy\n\nRun `keys/` and `.env` setup first.\n";
    // A random-looking body of `len` characters (no real key or token).
    let noise = |len: usize| -> String {
        let alphabet = b"q7Rz2Kp9WmX4vN8bT3hJ6cY5gL1dF0sA";
        (0..len)
            .map(|i| char::from(alphabet[(i * 7 + i / 3) % alphabet.len()]))
            .collect()
    };
    let label = ["OPENSSH", "PRIVATE", "KEY"].join(" ");
    let key = format!(
        "-----BEGIN {label}-----\n{}\n{}\n{}\n-----END {label}-----\n",
        noise(70),
        noise(70),
        noise(40)
    );
    let token = format!("GITHUB_TOKEN={}_{}\n", "ghp", noise(36));
    for (dir, file, bytes) in [
        ("audit-private-key/deploy", "keys/id_ed25519", key),
        ("audit-credential/deploy", ".env", token),
    ] {
        let skill_dir = root.join(dir);
        let path = skill_dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).expect("create a fixture folder");
        std::fs::write(skill_dir.join("SKILL.md"), skill).expect("write a fixture");
        std::fs::write(&path, bytes).expect("write a fixture");
    }
}

#[test]
#[cfg_attr(
    not(ui_rustc_pinned),
    ignore = "the expected compiler output is for the toolchain in rust-toolchain.toml; this rustc is another version"
)]
fn ui() {
    link_fixtures();
    generate_fixtures();
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass-*.rs");
    cases.compile_fail("ui/fail-*.rs");
    // The signing options need the `sign` feature (`--features sign` or
    // `--all-features`); without it, the error that names the feature.
    if cfg!(feature = "sign") {
        cases.pass("ui/sign/pass-*.rs");
    } else {
        cases.compile_fail("ui/nosign/fail-*.rs");
    }
}
