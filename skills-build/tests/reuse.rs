//! Rebuilds that take digests from the previous bundle give the bundle a
//! cold build gives: build, edit, rebuild, revert, rebuild.

use std::path::{Path, PathBuf};

use skills_build::Builder;

mod support;
use support::tree;
use tree::copy_tree;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_tree(&support::testdata("bundle"), &dir.join("skills"));
    dir
}

fn cold(skills: &Path) -> Vec<u8> {
    Builder::new().source(skills).compile().unwrap().bytes
}

/// Compiles reusing the bundle at `last`, then writes the result there.
fn rebuild(skills: &Path, last: &Path) -> Vec<u8> {
    let bytes = Builder::new()
        .source(skills)
        .reuse_from(last)
        .compile()
        .unwrap()
        .bytes;
    std::fs::write(last, &bytes).unwrap();
    bytes
}

#[test]
fn edit_rebuild_revert_rebuild_gives_the_cold_bytes() {
    let dir = scratch("reuse-edit");
    let skills = dir.join("skills");
    let last = dir.join("skills.bin");
    let first = rebuild(&skills, &last); // nothing to reuse yet
    assert_eq!(first, cold(&skills));

    let edited = [
        skills.join("kitchen-sink/SKILL.md"),
        skills.join("kitchen-sink/docs/guide.md"),
    ];
    let originals: Vec<Vec<u8>> = edited.iter().map(|p| std::fs::read(p).unwrap()).collect();
    for (path, original) in edited.iter().zip(&originals) {
        let mut changed = original.clone();
        changed.extend_from_slice(b"\nOne more line.\n");
        std::fs::write(path, changed).unwrap();
    }
    let second = rebuild(&skills, &last);
    assert_ne!(second, first, "the edit shows");
    assert_eq!(second, cold(&skills), "the same bytes as a cold build");

    for (path, original) in edited.iter().zip(&originals) {
        std::fs::write(path, original).unwrap();
    }
    assert_eq!(rebuild(&skills, &last), first, "reverted: the first bytes");
}

#[test]
fn a_stale_or_foreign_previous_bundle_changes_nothing() {
    let dir = scratch("reuse-foreign");
    let skills = dir.join("skills");
    let first = cold(&skills);
    for junk in [&b""[..], b"not a bundle", &first[..first.len() / 2]] {
        let last = dir.join("junk.bin");
        std::fs::write(&last, junk).unwrap();
        assert_eq!(rebuild(&skills, &last), first);
    }
    // Missing altogether.
    let bytes = Builder::new()
        .source(&skills)
        .reuse_from(dir.join("missing.bin"))
        .compile()
        .unwrap()
        .bytes;
    assert_eq!(bytes, first);
}

/// Four skills of 200 KB each.
fn large_tree(edit: &str) -> skills_build::source::MemorySource {
    let mut source = skills_build::source::MemorySource::new("skills");
    for name in ["alpha", "beta", "gamma", "delta"] {
        let body = if name == "gamma" { edit } else { "Go." };
        source = source
            .with_file(
                format!("{name}/SKILL.md"),
                format!("---\nname: {name}\ndescription: Skill {name}.\n---\n{body}\n"),
            )
            .with_file(
                format!("{name}/data.txt"),
                format!("{name} ").repeat(40_000),
            );
    }
    source
}

#[test]
fn only_edited_files_are_hashed_again() {
    use skills_build::compile::{CompileOptions, compile, compile_reusing};
    use skills_build::discover::{Options, Root, discover};
    use skills_build::reuse::Reuse;

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reuse-file-digests");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let last = dir.join("skills.bin");
    let build = |edit: &str| {
        let source = large_tree(edit);
        let found = discover(&[Root::new(&source)], &Options::default());
        let cold = compile(&found, &CompileOptions::default()).unwrap().bytes;
        let reuse = Reuse::load(&last);
        let bytes = compile_reusing(&found, &CompileOptions::default(), Some(&reuse))
            .unwrap()
            .bytes;
        assert_eq!(bytes, cold, "the same bytes as a cold build");
        std::fs::write(&last, &bytes).unwrap();
        (bytes, reuse.reused())
    };
    let (first, files) = build("Go.");
    assert_eq!(files, 0, "nothing to reuse the first time");
    let (again, files) = build("Go.");
    assert_eq!(
        (again == first, files),
        (true, 4),
        "every file digest reused"
    );
    // An edit of gamma's SKILL.md: every data file's digest is reused.
    let (edited, files) = build("Go on.");
    assert_ne!(edited, first);
    assert_eq!(files, 4);
    // Reverted: the first bytes again.
    let (reverted, _) = build("Go.");
    assert_eq!(reverted, first);
}
