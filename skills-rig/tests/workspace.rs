//! skills-rig's workspace (its own, kept out of the main one) shares the
//! main workspace's settings: the same package fields, lints, and versions
//! of the dependencies both name.

use std::path::Path;

/// The lines of the `[name]` table of a manifest, comments and blank lines
/// left out.
fn table(manifest: &str, name: &str) -> Vec<String> {
    let header = format!("[{name}]");
    manifest
        .lines()
        .skip_while(|line| line.trim() != header)
        .skip(1)
        .take_while(|line| !line.starts_with('['))
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// A dependency line without its `path`, which differs by where the
/// manifest sits.
fn without_path(line: &str) -> String {
    let mut out = line.to_owned();
    if let Some(at) = out.find("path = \"") {
        let end = out[at + 8..].find('"').map(|n| at + 8 + n + 1).unwrap();
        let end = if out[end..].starts_with(", ") {
            end + 2
        } else {
            end
        };
        out.replace_range(at..end, "");
    }
    out
}

#[test]
fn the_shared_settings_are_the_main_workspace_s() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rig = std::fs::read_to_string(here.join("Cargo.toml")).unwrap();
    let main = std::fs::read_to_string(here.join("../Cargo.toml")).unwrap();
    for name in [
        "workspace.package",
        "workspace.lints.rust",
        "workspace.lints.clippy",
    ] {
        assert!(!table(&rig, name).is_empty(), "[{name}] is empty");
        assert_eq!(table(&rig, name), table(&main, name), "[{name}]");
    }
    let main_deps: Vec<String> = table(&main, "workspace.dependencies")
        .iter()
        .map(|line| without_path(line))
        .collect();
    for line in table(&rig, "workspace.dependencies") {
        let line = without_path(&line);
        assert!(
            main_deps.contains(&line),
            "{line:?} is not what the main workspace says"
        );
    }
}
