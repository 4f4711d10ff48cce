//! What the installer's behaviour tests share: temporary homes and
//! projects, snapshots of trees (links not followed), and running the
//! `skill` subcommand over given arguments.
#![allow(dead_code)] // each test file uses what it needs

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use skills_core::wire::bundle::{Bundle, Content, File};
use skills_core::{Catalog, Embedded};
use skills_install::{Environment, Installer};

/// The testdata skills, as programs embed them: the bundle `include_skills!("../testdata/skills")`
/// makes, committed for the documentation's examples (test-support checks it is current), so
/// these tests build no compiler.
pub static SKILLS: Embedded = Embedded::new(include_bytes!("../../../doc-bundles/skills.bin"));

/// Where the testdata skills are.
pub fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/skills")
}

/// What a bundle holds of a skill: its files by path, the skill file as
/// `SKILL.md`.
pub fn expected(catalog: &Catalog<'_>, name: &str) -> BTreeMap<PathBuf, Vec<u8>> {
    let skill = catalog.lookup(name).unwrap();
    let mut out: BTreeMap<PathBuf, Vec<u8>> = skill
        .files
        .iter()
        .map(|file| (PathBuf::from(file.path), file.bytes().to_vec()))
        .collect();
    let main = skills_core::trust::revision::skill_file_pieces(skill).concat();
    out.insert(PathBuf::from("SKILL.md"), main);
    out
}

/// A second version of the testdata skills: `pdf-forms` with
/// `reference.md` changed, `scripts/fill.py` dropped and `notes/new.md`
/// added; `csv-report` gone; `git-rebase` as it was.
pub fn version_two() -> &'static Catalog<'static> {
    let v1 = SKILLS.catalog().unwrap().bundle().clone();
    let mut bundle: Bundle<'static> = v1;
    bundle.revision = [0; 32];
    bundle.skills.retain(|skill| skill.name != "csv-report");
    let pdf = bundle
        .skills
        .iter_mut()
        .find(|skill| skill.name == "pdf-forms")
        .unwrap();
    pdf.files.retain(|file| file.path != "scripts/fill.py");
    if let Some(executables) = &mut pdf.executables {
        executables.retain(|path| *path != "scripts/fill.py");
    }
    for file in &mut pdf.files {
        if file.path == "reference.md" {
            file.content = Content::Text("# Reference, second edition\n");
            file.sha256 = skills_core::sha256::digest(file.bytes());
        }
    }
    pdf.files.push(File {
        path: "notes/new.md",
        sha256: skills_core::sha256::digest(b"new in two\n"),
        content: Content::Text("new in two\n"),
    });
    pdf.files.sort_by(|a, b| a.path.cmp(b.path));
    pdf.revision = [0; 32];
    let bytes: &'static [u8] = Box::leak(bundle.encode().unwrap().into_boxed_slice());
    Box::leak(Box::new(Catalog::from_bytes(bytes).unwrap()))
}

/// Which version a skill folder holds wholly: 1, 2, or none (0), or
/// absent (`None`).
pub fn version_of(folder: &Path, name: &str, v2: &Catalog<'_>) -> Option<u8> {
    if !folder.exists() {
        return None;
    }
    let on_disk = files(folder);
    let v1 = SKILLS.catalog().unwrap();
    if v1.lookup(name).is_some() && on_disk == expected(v1, name) {
        return Some(1);
    }
    if v2.lookup(name).is_some() && on_disk == expected(v2, name) {
        return Some(2);
    }
    Some(0)
}

/// A folder under the system's temporary folder, removed when dropped.
pub struct Temp(pub PathBuf);

impl Temp {
    pub fn new(name: &str) -> Temp {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "skills-install-{name}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        Temp(fs::canonicalize(&path).unwrap())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// A home and a project (with `.git`) under one temporary folder.
pub struct World {
    pub root: Temp,
}

impl World {
    pub fn new(name: &str) -> World {
        let root = Temp::new(name);
        fs::create_dir_all(root.0.join("home")).unwrap();
        fs::create_dir_all(root.0.join("project/.git")).unwrap();
        fs::create_dir_all(root.0.join("project/src")).unwrap();
        World { root }
    }
    pub fn home(&self) -> PathBuf {
        self.root.0.join("home")
    }
    pub fn project(&self) -> PathBuf {
        self.root.0.join("project")
    }
    /// Run from a folder inside the project: the root is found from `.git`.
    pub fn env(&self) -> Environment {
        Environment::new(self.project().join("src")).var("HOME", self.home())
    }
    pub fn installer<'c>(&self, skills: impl Into<skills_install::Skills<'c>>) -> Installer<'c> {
        Installer::new(skills)
            .tool_name("mytool")
            .version("1.0.0")
            .environment(self.env())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Snap {
    File(Vec<u8>, bool),
    Dir,
    Link(PathBuf),
    Other,
}

/// Everything under `root`, links not followed.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Snap> {
    fn walk(root: &Path, at: &Path, out: &mut BTreeMap<PathBuf, Snap>) {
        let Ok(items) = fs::read_dir(at) else { return };
        for item in items {
            let item = item.unwrap();
            let path = item.path();
            let relative = path.strip_prefix(root).unwrap().to_path_buf();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                out.insert(relative, Snap::Link(fs::read_link(&path).unwrap()));
            } else if meta.is_dir() {
                out.insert(relative, Snap::Dir);
                walk(root, &path, out);
            } else if meta.is_file() {
                out.insert(
                    relative,
                    Snap::File(fs::read(&path).unwrap(), executable(&path)),
                );
            } else {
                out.insert(relative, Snap::Other);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

#[cfg(unix)]
pub fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
pub fn executable(_: &Path) -> bool {
    false
}

/// Asserts two snapshots are equal, naming only the paths that differ.
#[track_caller]
pub fn assert_same(left: &BTreeMap<PathBuf, Snap>, right: &BTreeMap<PathBuf, Snap>, what: &str) {
    let differ: Vec<&PathBuf> = left
        .keys()
        .chain(right.keys())
        .filter(|path| left.get(*path) != right.get(*path))
        .collect();
    assert!(differ.is_empty(), "{what}: these differ: {differ:?}");
}

/// The files of a skill folder, bytes only.
pub fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    snapshot(root)
        .into_iter()
        .filter_map(|(path, snap)| match snap {
            Snap::File(bytes, _) => Some((path, bytes)),
            _ => None,
        })
        .collect()
}

/// Runs the `skill` subcommand with `args`: its exit code, stdout, stderr.
pub fn run(installer: &Installer<'_>, args: &[&str]) -> (i32, String, String) {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = installer.run_args(&args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A bundle of one skill named `name` (the testdata's `git-rebase` with
/// its name changed) holding `files` beside its skill file.
pub fn one_skill(
    name: &'static str,
    files: &[(&'static str, &'static str)],
) -> &'static Catalog<'static> {
    let v1 = SKILLS.catalog().unwrap().bundle().clone();
    let mut bundle: Bundle<'static> = v1;
    bundle.revision = [0; 32];
    bundle.skills.retain(|skill| skill.name == "git-rebase");
    let skill = &mut bundle.skills[0];
    skill.name = name;
    skill.revision = [0; 32];
    skill.files = files
        .iter()
        .map(|(path, text)| File {
            path,
            sha256: skills_core::sha256::digest(text.as_bytes()),
            content: Content::Text(text),
        })
        .collect();
    skill.files.sort_by(|a, b| a.path.cmp(b.path));
    let bytes: &'static [u8] = Box::leak(bundle.encode().unwrap().into_boxed_slice());
    Box::leak(Box::new(Catalog::from_bytes(bytes).unwrap()))
}

/// The scope's state folder the installer keeps under `home` (the only
/// one there).
pub fn state_folder(home: &Path) -> PathBuf {
    fs::read_dir(home.join(".local/state/skills-install"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}
