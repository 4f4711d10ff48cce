//! Compile-fail and compile-pass tests of `include_skills!`.
//!
//! The expected `.stderr` files are pinned to the toolchain in
//! `rust-toolchain.toml`; on another compiler version (`build.rs` compares
//! them) the test is ignored with the reason, neither compared nor counted
//! as a pass (rustc's wording and layout change between releases). On the
//! pinned toolchain it is one of the slow tests, ignored by default and run
//! by `scripts/test.sh` (`-- --ignored slow_`).
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

use skills_test_support::fake_secrets;

#[test]
#[cfg(ui_rustc_pinned)]
#[ignore = "slow: compiles every UI case (the trybuild matrix); scripts/test.sh runs it"]
fn slow_ui() {
    ui();
}

#[test]
#[cfg(not(ui_rustc_pinned))]
#[ignore = "the expected compiler output is for the toolchain in rust-toolchain.toml; this rustc is another version"]
fn ui_on_the_pinned_toolchain() {
    ui();
}

fn ui() {
    link_fixtures();
    fake_secrets::write_fixtures(&target_dir().join("tests/trybuild/skills-tests/ui-generated"));
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
