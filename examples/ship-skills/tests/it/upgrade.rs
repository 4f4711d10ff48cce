//! An upgrade, end to end: ship-skills v1 (`testdata/skills`) installs its
//! skills, then ship-skills v2 (the same example built with `--features
//! v2`: `pdf-forms` revised with a script replaced, `release-notes` new,
//! `csv-report` gone) runs a command of its own. Both are built here by
//! cargo, in this target directory (only the example itself compiles;
//! every dependency is the one this test was built with).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::support;

use support::{Temp, run, text, world};

/// The two versions, copied out of the target directory.
struct Builds {
    v1: PathBuf,
    v2: PathBuf,
    _dir: Temp,
}

/// Builds ship-skills with `features` and copies the executable to `to`.
fn build(features: &[&str], to: &Path) {
    // This test's own executable of ship-skills says which target
    // directory and profile the run uses.
    let own = Path::new(env!("CARGO_BIN_EXE_ship-skills"));
    let profile_dir = own.parent().unwrap();
    let target_dir = profile_dir.parent().unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--quiet", "-p", "ship-skills", "--target-dir"])
        .arg(target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if profile_dir
        .file_name()
        .is_some_and(|name| name == "release")
    {
        command.arg("--release");
    }
    if !features.is_empty() {
        command.args(["--features", &features.join(",")]);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "cargo build {features:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    fs::copy(own, to).unwrap();
}

/// v1 and v2, built once for every test here. The one this run was built
/// with is built last, so the target directory's executable is left as
/// cargo made it for the other tests.
fn builds() -> &'static Builds {
    static BUILDS: OnceLock<Builds> = OnceLock::new();
    BUILDS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ship-skills-builds-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (v1, v2) = (dir.join("ship-skills-v1"), dir.join("ship-skills-v2"));
        match cfg!(feature = "v2") {
            true => {
                build(&[], &v1);
                build(&["v2"], &v2);
            }
            false => {
                build(&["v2"], &v2);
                build(&[], &v1);
            }
        }
        Builds {
            v1,
            v2,
            _dir: Temp(dir),
        }
    })
}

/// Every file under `root` and its bytes, links not followed.
fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(items) = fs::read_dir(&dir) else {
            continue;
        };
        for item in items {
            let path = item.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else {
                let bytes = fs::read(&path).unwrap_or_default();
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), bytes);
            }
        }
    }
    out
}

fn testdata(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(path)
}

#[test]
#[ignore = "slow: builds ship-skills twice with a nested cargo build; scripts/test.sh runs it"]
fn slow_an_upgraded_ship_skills_refreshes_its_untouched_copies_on_any_command() {
    let builds = builds();
    let temp = world("upgrade");
    let root = &temp.0;
    let project = root.join("project");
    for scope in ["project", "user"] {
        let install = run(&builds.v1, root, &["skill", "install", "--scope", scope]);
        assert!(install.status.success(), "{}", text(&install.stderr));
    }
    let check = run(&builds.v1, root, &["skill", "status", "--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    // Another tool's skill, the user's notes beside one of ours, and an
    // edit of one copy.
    let other = project.join(".claude/skills/other-tool/SKILL.md");
    fs::create_dir_all(other.parent().unwrap()).unwrap();
    fs::write(
        &other,
        "---\nname: other-tool\ndescription: Not ours.\n---\n",
    )
    .unwrap();
    fs::write(
        project.join(".claude/skills/pdf-forms/my-notes.md"),
        "mine\n",
    )
    .unwrap();
    let edited = project.join(".agents/skills/pdf-forms/SKILL.md");
    fs::write(&edited, "my own instructions\n").unwrap();
    let edited_copy = files(&project.join(".agents/skills/pdf-forms"));

    // v2's `skill status --check` reports the copies as they are: it does
    // not refresh them first.
    let check = run(&builds.v2, root, &["skill", "status", "--check"]);
    assert_eq!(check.status.code(), Some(1));
    let out = text(&check.stdout);
    assert!(
        out.contains("  pdf-forms  outdated: `ship-skills skill install pdf-forms` updates it\n")
            && out.contains("    scripts/fill.py is from an earlier version, and no longer part of the skill (stale)\n")
            && out.contains("  release-notes  missing: `ship-skills skill install release-notes` installs it\n"),
        "{out}"
    );
    assert!(project.join(".claude/skills/csv-report").exists());

    // The first run of any other command refreshes.
    let first = run(&builds.v2, root, &["prompt"]);
    assert!(first.status.success());
    assert!(text(&first.stdout).contains("<name>\nrelease-notes\n</name>"));
    let said = text(&first.stderr);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 3, "{said}");
    assert!(
        lines[0].starts_with("ship-skills 0.1.0: refreshed the skills it installed in the project")
            && lines[0].contains("updated pdf-forms; removed csv-report (no longer carried)"),
        "{said}"
    );
    assert!(
        lines[1].starts_with("ship-skills 0.1.0: .agents/skills/pdf-forms in the project")
            && lines[1].contains("was changed since it was installed, so it was not updated")
            && lines[1].contains("`ship-skills skill install pdf-forms --force` replaces it"),
        "{said}"
    );
    assert!(lines[2].contains("for the user (home"), "{said}");

    // Untouched copies hold v2, byte for byte; the dropped script and
    // skill are gone; the notes stayed.
    let v2_pdf = files(&testdata("skills-v2/pdf-forms"));
    let mut with_notes = v2_pdf.clone();
    with_notes.insert("my-notes.md".into(), b"mine\n".to_vec());
    let claude = project.join(".claude/skills");
    assert_eq!(files(&claude.join("pdf-forms")), with_notes);
    assert!(!claude.join("pdf-forms/scripts/fill.py").exists());
    assert!(!claude.join("csv-report").exists());
    assert!(!project.join(".agents/skills/csv-report").exists());
    for dir in [".claude/skills", ".codex/skills"] {
        let home = root.join("home").join(dir);
        assert_eq!(files(&home.join("pdf-forms")), v2_pdf, "{dir}");
        assert!(!home.join("csv-report").exists(), "{dir}");
        assert!(!home.join("release-notes").exists(), "{dir}: nothing added");
    }
    assert_eq!(
        files(&claude.join("git-rebase")),
        files(&testdata("skills/git-rebase"))
    );
    // Kept: the edited copy, the other tool's skill; nothing added.
    assert_eq!(
        files(&project.join(".agents/skills/pdf-forms")),
        edited_copy
    );
    assert!(other.is_file());
    assert!(!claude.join("release-notes").exists());
    assert!(!project.join(".cursor").exists());

    // The second run says nothing and changes nothing.
    let before = files(root);
    let second = run(&builds.v2, root, &["prompt"]);
    assert!(second.status.success());
    assert_eq!(text(&second.stderr), "", "told once");
    assert_eq!(files(root), before);

    // What is left is the user's call: status names it, install does it.
    let status = run(&builds.v2, root, &["skill", "status"]);
    assert_eq!(status.status.code(), Some(1));
    let out = text(&status.stdout);
    assert!(
        out.contains("  pdf-forms  modified by the user: `ship-skills skill install pdf-forms --force` replaces it with this version (the changes are lost)\n"),
        "{out}"
    );
    let install = run(&builds.v2, root, &["skill", "install", "--force"]);
    assert!(install.status.success(), "{}", text(&install.stderr));
    let check = run(&builds.v2, root, &["skill", "status", "--check"]);
    assert_eq!(
        check.status.code(),
        Some(1),
        "my-notes.md is not part of the skill"
    );
    assert!(
        text(&check.stdout).contains("    my-notes.md is not part of the skill (install keeps it: remove it by hand) (extra)\n"),
        "{}",
        text(&check.stdout)
    );
    fs::remove_file(claude.join("pdf-forms/my-notes.md")).unwrap();
    let check = run(&builds.v2, root, &["skill", "status", "--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
}
