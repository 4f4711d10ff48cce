//! The skills the documentation's examples embed, shipped in each crate
//! whose examples read them (`<crate>/doc-skills/`, and skills-build's
//! `doc-archive/`), so the examples run from a published package as well
//! as from this workspace: the workspace's `testdata/skills` and
//! `testdata/archive/report-writer.skill`, copied. A copy that differs
//! from its original (an edit of one and not the other) fails this test,
//! and `SKILLS_BLESS=1` rewrites every copy from the original.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use skills_test_support::tree::rust_sources;
use skills_test_support::{testdata, workspace};

/// The crates whose examples embed `testdata/skills`.
const SKILL_COPIES: &[&str] = &["skills-build", "skills-runtime", "skills-rig"];

/// Every file under `dir`, by its path relative to `dir`.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Makes `copy` hold exactly `original`'s files.
fn bless(original: &BTreeMap<PathBuf, Vec<u8>>, copy: &Path) {
    let _ = std::fs::remove_dir_all(copy);
    for (rel, bytes) in original {
        let path = copy.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

#[test]
fn every_doc_skills_copy_is_testdata_skills() {
    let blessing = std::env::var_os("SKILLS_BLESS").is_some();
    let original = files(&testdata("skills"));
    assert!(original.len() >= 3, "testdata/skills is empty");
    let mut stale = Vec::new();
    for krate in SKILL_COPIES {
        let copy = workspace().join(krate).join("doc-skills");
        if files(&copy) == original {
            continue;
        }
        if blessing {
            bless(&original, &copy);
        } else {
            stale.push(copy.display().to_string());
        }
    }
    let archive = testdata("archive/report-writer.skill");
    let copy = workspace().join("skills-build/doc-archive/report-writer.skill");
    let bytes = std::fs::read(&archive).unwrap();
    if std::fs::read(&copy).ok().as_ref() != Some(&bytes) {
        if blessing {
            std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
            std::fs::write(&copy, &bytes).unwrap();
        } else {
            stale.push(copy.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "copies that differ from testdata (rerun with SKILLS_BLESS=1): {stale:?}"
    );
}

/// No example of a published crate reads the workspace's `testdata/`,
/// which its package does not hold.
#[test]
fn no_example_of_a_published_crate_reads_the_workspace_testdata() {
    let crates = [
        "skills-build",
        "skills-core",
        "skills-install",
        "skills-macros",
        "skills-mcp-server",
        "skills-pycompat",
        "skills-rig",
        "skills-runtime",
    ];
    for krate in crates {
        for (path, text) in rust_sources(&workspace().join(krate).join("src")) {
            for (n, line) in text.lines().enumerate() {
                assert!(
                    !(line.contains("../testdata") || line.contains("/../testdata")),
                    "{}:{}: reads the workspace's testdata, which the package leaves out: {line}",
                    path.display(),
                    n + 1
                );
            }
        }
    }
}
