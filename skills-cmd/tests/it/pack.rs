//! `skills pack`: an archive a build reads as it reads the folder, the same
//! bytes from the same folder whatever the timestamps, the Claude
//! packager's junk left out, and a folder that fails `check` refused.

use std::path::{Path, PathBuf};

use skills_build::Builder;

use crate::support;
use support::tree::{copy_tree, scratch};
use support::{run_skills, workspace};

/// The bundle of one source, as a build script's `Builder` makes it.
fn bundle(source: &Path) -> Vec<u8> {
    match Builder::new().source(source).compile() {
        Ok(compiled) => compiled.bytes,
        Err(error) => panic!("{} does not compile: {error}", source.display()),
    }
}

/// `skills pack DIR -o OUT`: the archive's bytes, or the failed output.
fn pack(dir: &Path, out: &Path) -> Result<Vec<u8>, String> {
    let run = run_skills(
        None,
        &["pack", dir.to_str().unwrap(), "-o", out.to_str().unwrap()],
    );
    match run.status.code() {
        Some(0) => Ok(std::fs::read(out).unwrap()),
        _ => Err(String::from_utf8_lossy(&run.stderr).into_owned()),
    }
}

/// Every skill folder the repository holds.
fn skill_folders() -> Vec<PathBuf> {
    let root = workspace();
    let mut found = Vec::new();
    for parent in [
        "testdata/skills",
        "testdata/archive/skills",
        "examples/serve-skills/skills",
    ] {
        for entry in std::fs::read_dir(root.join(parent)).unwrap() {
            let path = entry.unwrap().path();
            if path.join("SKILL.md").is_file() {
                found.push(path);
            }
        }
    }
    found.sort();
    assert!(found.len() >= 5, "{found:?}");
    found
}

#[test]
fn pack_then_build_gives_the_folders_bundle() {
    let tmp = scratch("pack", "roundtrip");
    for folder in skill_folders() {
        let name = folder.file_name().unwrap().to_str().unwrap();
        let alone = tmp.join(name);
        copy_tree(&folder, &alone.join(name));
        let archive = alone.join(format!("{name}.skill"));
        let packed = pack(&alone.join(name), &archive).unwrap();
        assert_eq!(
            bundle(&archive),
            bundle(&alone),
            "{name}: the archive builds another bundle"
        );
        // The same folder gives the same bytes, whatever the timestamps.
        let again = tmp.join(format!("{name}-again"));
        copy_tree(&folder, &again.join(name));
        let repacked = pack(&again.join(name), &tmp.join("again.skill")).unwrap();
        assert_eq!(repacked, packed, "{name}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn pack_leaves_out_what_the_claude_packager_leaves_out() {
    let tmp = scratch("pack", "junk");
    let folder = tmp.join("report-writer");
    copy_tree(
        &workspace().join("testdata/archive/skills/report-writer"),
        &folder,
    );
    let clean = pack(&folder, &tmp.join("clean.skill")).unwrap();
    for junk in [
        "scripts/__pycache__/render.cpython-312.pyc",
        "node_modules/left-pad/index.js",
        "stale.pyc",
        ".DS_Store",
        "references/.DS_Store",
    ] {
        let path = folder.join(junk);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "junk").unwrap();
    }
    let run = run_skills(
        None,
        &[
            "pack",
            folder.to_str().unwrap(),
            "-o",
            tmp.join("junk.skill").to_str().unwrap(),
        ],
    );
    assert_eq!(run.status.code(), Some(0));
    assert_eq!(std::fs::read(tmp.join("junk.skill")).unwrap(), clean);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("packed 5 files of report-writer"), "{said}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn pack_refuses_a_folder_that_fails_check() {
    let tmp = scratch("pack", "refuse");
    let folder = tmp.join("Bad_Name");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("SKILL.md"),
        "---\nname: Bad_Name\ndescription: x\n---\n",
    )
    .unwrap();
    let out = tmp.join("Bad_Name.skill");
    let error = pack(&folder, &out).unwrap_err();
    assert!(error.contains("must be lowercase"), "{error}");
    assert!(!out.exists(), "nothing is written");
    std::fs::remove_dir_all(&tmp).unwrap();
}
