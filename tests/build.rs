//! Tells the UI test whether it is compiled by the toolchain its expected
//! output is for: the `channel` of `rust-toolchain.toml`, by major and
//! minor version. rustc's wording and layout change between releases, so
//! on another compiler the test is ignored (`cargo test` lists it as
//! ignored, with the reason) rather than compared or passed.

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ui_rustc_pinned)");
    println!("cargo::rerun-if-changed=../rust-toolchain.toml");
    let toolchain = std::fs::read_to_string("../rust-toolchain.toml").unwrap_or_default();
    let pinned = toolchain.lines().find_map(|line| {
        let value = line
            .trim()
            .strip_prefix("channel")?
            .trim()
            .strip_prefix('=')?;
        let channel = value.trim().trim_matches('"');
        let mut parts = channel.split('.');
        Some(format!("{}.{}.", parts.next()?, parts.next()?))
    });
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default();
    let number = version.strip_prefix("rustc ").unwrap_or_default();
    if pinned.is_some_and(|pinned| number.starts_with(&pinned)) {
        println!("cargo::rustc-cfg=ui_rustc_pinned");
    }
}
