//! Discovery and compilation rules: precedence, qualifiers, shadowing,
//! junk, exclude rules, size limits, listing rules, link loops, and
//! byte-for-byte determinism.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use skills_build::problem::{Code, Problem, Severity};
use skills_build::source::{MemorySource, Source};
use skills_build::unstable::discover::{
    DiscoveredSkill, Discovery, Listing, Options, Root, discover,
};
use skills_build::unstable::filter::Glob;
use skills_build::unstable::rules::{Limits, Policy};
use skills_build::{Builder, compile_sources};
use skills_core::Catalog;

use crate::support;
use support::tree;
use tree::write;

fn skill(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n# {name}\n\nSee a.md and docs/.\n"
    )
}

fn temp_dir(label: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "skills-discovery-{}-{label}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn messages(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}

/// The listed skills with their listed names, in catalog order.
fn listed(found: &Discovery) -> impl Iterator<Item = (&str, &DiscoveredSkill)> {
    found
        .skills
        .iter()
        .filter_map(|skill| skill.listing.name().map(|name| (name, skill)))
}

/// The default options with these exclude rules.
fn excluding(patterns: &[&str]) -> Options {
    Options {
        excludes: patterns.iter().map(|p| Glob::new(p).unwrap()).collect(),
        ..Options::default()
    }
}

#[test]
fn first_source_wins_a_name_and_later_ones_are_shadowed() {
    let project = MemorySource::new("project")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("pdf/a.md", "project");
    let user = MemorySource::new("user")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("pdf/a.md", "user")
        .with_file("xlsx/SKILL.md", skill("xlsx"));
    let found = discover(
        &[Root::new(&project), Root::new(&user)],
        &Options::default(),
    );
    let listed: Vec<_> = listed(&found).map(|(name, s)| (name, s.source)).collect();
    assert_eq!(listed, [("pdf", 0), ("xlsx", 1)]);
    assert_eq!(
        messages(&found.problems),
        [
            "user/pdf/SKILL.md: warning: skill \"pdf\" is shadowed by project/pdf/SKILL.md, which took the name first; it is not listed"
        ]
    );
    let compiled = compile_sources(&[&project, &user]).unwrap();
    assert_eq!(compiled.warnings.len(), 1);
    let catalog = Catalog::from_bytes(&compiled.bytes).unwrap();
    assert_eq!(
        catalog.call("pdf", Some("a.md")).unwrap().reply.as_text(),
        Some("project")
    );
}

#[test]
fn a_qualified_source_lists_a_taken_name_under_its_qualifier() {
    let project = MemorySource::new("project").with_file("pdf/SKILL.md", skill("pdf"));
    let vendor = MemorySource::new("vendor")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("zip/SKILL.md", skill("zip"));
    let found = discover(
        &[Root::new(&project), Root::new(&vendor).qualified("acme")],
        &Options::default(),
    );
    let names: Vec<_> = listed(&found).map(|(name, _)| name).collect();
    assert_eq!(names, ["pdf", "acme:pdf", "zip"]);
    assert!(found.problems.is_empty(), "{:?}", found.problems);
    // The same sources on disk, through the builder.
    let dir = temp_dir("qualified");
    for (root, source) in [("project", &project), ("vendor", &vendor)] {
        for path in ["pdf/SKILL.md", "zip/SKILL.md"] {
            if let Ok(bytes) = source.read(path) {
                write(&dir.join(root), path, bytes);
            }
        }
    }
    let compiled = Builder::new()
        .source(dir.join("project"))
        .qualified_source(dir.join("vendor"), "acme")
        .compile()
        .unwrap();
    let catalog = Catalog::from_bytes(&compiled.bytes).unwrap();
    assert_eq!(
        catalog.lookup("acme:pdf").unwrap().location,
        "skill://acme:pdf/SKILL.md"
    );
    assert!(catalog.prompt().contains("<name>\nacme:pdf\n</name>"));
}

#[test]
fn duplicate_sources_and_bad_qualifiers_are_errors() {
    let a = MemorySource::new("skills").with_file("pdf/SKILL.md", skill("pdf"));
    let again = MemorySource::new("skills/");
    let b = MemorySource::new("other");
    let found = discover(
        &[
            Root::new(&a),
            Root::new(&again),
            Root::new(&b).qualified("my team"),
        ],
        &Options::default(),
    );
    assert_eq!(
        messages(&found.problems),
        [
            "other: error: the qualifier \"my team\" of source other holds whitespace or a control character",
            "skills/: error: the source skills/ is given twice; each source may appear once",
        ]
    );
}

#[test]
fn unusable_skills_are_reported_and_not_listed() {
    let source = MemorySource::new("s")
        .with_file("no-name/SKILL.md", "---\ndescription: x\n---\n")
        .with_file(
            "no-desc/SKILL.md",
            "---\nname: no-desc\ndescription: ''\n---\n",
        )
        .with_file("a:b/SKILL.md", "---\nname: a:b\ndescription: colon\n---\n")
        .with_file("broken/SKILL.md", "no frontmatter")
        .with_file("not-a-skill/README.md", "no skill file here")
        .with_file("good/SKILL.md", skill("good"));
    let found = discover(&[Root::new(&source)], &Options::default());
    let listings: Vec<_> = found
        .skills
        .iter()
        .map(|s| (s.dir.as_str(), &s.listing))
        .collect();
    assert_eq!(
        listings.len(),
        5,
        "a directory without a skill file is no skill"
    );
    for (dir, listing) in listings {
        assert_eq!(
            matches!(listing, Listing::Listed(_)),
            dir == "good",
            "{dir}"
        );
    }
    let error = compile_sources(&[&source]).unwrap_err();
    let text = error.to_string();
    for expected in [
        "s/no-name/SKILL.md:1:1: error: Missing required field in frontmatter: name",
        "s/no-desc/SKILL.md:3:14: error: Field 'description' must be a non-empty string",
        "s/a:b/SKILL.md:2:7: error: Skill name 'a:b' contains invalid characters",
        "s/broken/SKILL.md:1:1: error: SKILL.md must start with YAML frontmatter (---)",
    ] {
        assert!(text.contains(expected), "{expected}\nin\n{text}");
    }
}

#[test]
fn junk_is_left_out_with_a_note_and_kept_on_request() {
    let source = MemorySource::new("s")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("pdf/.DS_Store", "x")
        .with_file("pdf/docs/.reference.md.swp", "x")
        .with_file("pdf/docs/reference.md~", "x")
        .with_file("pdf/docs/reference.md", "ok")
        .with_file("pdf/Thumbs.db", "x");
    let found = discover(&[Root::new(&source)], &Options::default());
    let text = messages(&found.problems);
    assert_eq!(
        text,
        [
            "s/pdf/.DS_Store: note: left out .DS_Store: macOS Finder metadata, not part of the skill",
            "s/pdf/Thumbs.db: note: left out Thumbs.db: Windows Explorer metadata, not part of the skill",
            "s/pdf/docs/.reference.md.swp: note: left out docs/.reference.md.swp: a Vim swap file, not part of the skill",
            "s/pdf/docs/reference.md~: note: left out docs/reference.md~: an editor backup file, not part of the skill",
        ]
    );
    let compiled = compile_sources(&[&source]).unwrap();
    assert_eq!(compiled.warnings.len(), 4);
    let catalog = Catalog::from_bytes(&compiled.bytes).unwrap();
    let files: Vec<_> = catalog
        .lookup("pdf")
        .unwrap()
        .files
        .iter()
        .map(|f| f.path)
        .collect();
    assert_eq!(files, ["docs/reference.md"]);
    let kept = discover(
        &[Root::new(&source)],
        &Options {
            keep_junk: true,
            ..Options::default()
        },
    );
    assert!(kept.problems.is_empty(), "{:?}", kept.problems);
    assert_eq!(kept.skills[0].files.len(), 5);
    // An exclude rule skips silently.
    let options = excluding(&[".DS_Store", "*.swp", "*~", "Thumbs.db"]);
    let found = discover(&[Root::new(&source)], &options);
    assert!(found.problems.is_empty(), "{:?}", found.problems);
    let paths: Vec<_> = found.skills[0]
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["docs/reference.md"]);
}

#[test]
fn exclude_rules_skip_any_file_or_directory() {
    let source = MemorySource::new("s")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("pdf/scripts/__pycache__/x.pyc", "x")
        .with_file("pdf/scripts/run.py", "print()")
        .with_file("pdf/drafts/a.md", "x")
        .with_file(
            "pdf/docs/drafts/b.md",
            "kept: anchored rules match from the skill root",
        );
    let options = excluding(&["__pycache__", "drafts/**"]);
    let found = discover(&[Root::new(&source)], &options);
    let paths: Vec<_> = found.skills[0]
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["docs/drafts/b.md", "scripts/run.py"]);
}

#[test]
fn files_over_the_size_limit_are_errors_with_both_figures() {
    let source = MemorySource::new("s")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("pdf/big.bin", vec![7u8; 2049]);
    let options = Options {
        policy: Policy {
            limits: Limits {
                max_file_size: 2048,
                ..Limits::default()
            },
            ..Policy::default()
        },
        ..Options::default()
    };
    let found = discover(&[Root::new(&source)], &options);
    assert_eq!(
        messages(&found.problems),
        ["s/pdf/big.bin: error: the file is 2049 bytes, over the 2048-byte limit for one file"]
    );
    let error = Builder::new().compile().unwrap_err();
    assert_eq!(
        error.problems[0].code,
        skills_build::problem::Code::NoSkills
    );
}

#[test]
fn a_second_skill_file_at_the_root_is_refused() {
    let source = MemorySource::new("s")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("pdf/skill.md", "lower")
        .with_file("pdf/docs/SKILL.md", "nested is fine");
    let found = discover(&[Root::new(&source)], &Options::default());
    assert_eq!(
        messages(&found.problems),
        [
            "s/pdf/skill.md: error: skill.md sits beside SKILL.md; a read of it would serve the instructions of SKILL.md"
        ]
    );
}

#[test]
fn every_problem_is_reported_at_once_with_positions() {
    let source = MemorySource::new("skills")
        .with_file(
            "PDF/SKILL.md",
            "---\nname: PDF\ndescription: x\nauthor: me\n---\n",
        )
        .with_file("PDF/.DS_Store", "")
        .with_file(
            "ok/SKILL.md",
            "---\nname: ok\ndescription: y\nallowed-tools: Bash()\n---\n",
        );
    let error = compile_sources(&[&source]).unwrap_err();
    let lines = messages(&error.problems);
    assert_eq!(
        lines,
        [
            "skills/PDF/.DS_Store: note: left out .DS_Store: macOS Finder metadata, not part of the skill",
            "skills/PDF/SKILL.md:2:7: error: Skill name 'PDF' must be lowercase",
            "skills/PDF/SKILL.md:3:14: note: the description says what the skill does, not when to use it: a model picks skills by their descriptions",
            "skills/PDF/SKILL.md:4:1: error: Unexpected fields in frontmatter: author. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
            "skills/ok/SKILL.md:3:14: note: the description says what the skill does, not when to use it: a model picks skills by their descriptions",
            "skills/ok/SKILL.md:4:16: error: allowed-tools token \"Bash()\": empty specifier",
        ]
    );
    assert_eq!(error.errors(), 3);
}

#[test]
fn frontmatter_closed_inside_a_line_is_refused() {
    let source = MemorySource::new("s").with_file(
        "pdf/SKILL.md",
        "---\nname: pdf\ndescription: before --- after\n---\nbody\n",
    );
    let error = compile_sources(&[&source]).unwrap_err();
    assert!(
        error.problems.iter().any(|p| p.severity == Severity::Error
            && p.message
                .contains("closing `---` must be a line of its own")),
        "{error}"
    );
}

#[cfg(unix)]
#[test]
fn a_link_loop_is_a_clear_error() {
    let root = temp_dir("loop");
    write(&root, "pdf/SKILL.md", skill("pdf").as_bytes());
    std::os::unix::fs::symlink("..", root.join("pdf/up")).unwrap();
    let error = Builder::new().source(&root).compile().unwrap_err();
    assert!(
        error
            .problems
            .iter()
            .any(|p| p.message.contains("nest deeper than 32 levels")),
        "{error}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[cfg(unix)]
#[test]
fn a_link_leaving_the_source_is_refused_with_a_help_line() {
    let root = temp_dir("escape");
    write(&root, "skills/pdf/SKILL.md", skill("pdf").as_bytes());
    write(&root, "secret.txt", b"secret");
    write(&root, "shared/notes.md", b"notes");
    std::os::unix::fs::symlink("../../secret.txt", root.join("skills/pdf/leak")).unwrap();
    // The one problem of the build: the listing of the skill's folder.
    let unreadable = || -> Problem {
        let error = Builder::new()
            .source(root.join("skills"))
            .compile()
            .unwrap_err();
        error
            .problems
            .iter()
            .find(|p| p.code == Code::SourceUnreadable)
            .cloned()
            .unwrap_or_else(|| panic!("{error}"))
    };
    let problem = unreadable();
    let real = std::fs::canonicalize(root.join("secret.txt")).unwrap();
    assert_eq!(
        problem.message,
        format!(
            "cannot list pdf: pdf/leak: symbolic link to a file outside the source ({}); links are followed only while they stay inside the source",
            real.display()
        )
    );
    assert_eq!(
        problem.hint.as_deref(),
        Some("copy the file into the skill in place of the link")
    );
    // A link to a directory outside says so, with its own help line.
    std::fs::remove_file(root.join("skills/pdf/leak")).unwrap();
    std::os::unix::fs::symlink("../../shared", root.join("skills/pdf/shared")).unwrap();
    let problem = unreadable();
    assert!(
        problem
            .message
            .contains("pdf/shared: symbolic link to a directory outside the source"),
        "{}",
        problem.message
    );
    assert!(
        problem
            .hint
            .as_deref()
            .is_some_and(|h| h.starts_with("copy the directory into the skill")),
        "{problem:?}"
    );
    // SKILL.md itself linked out of the source: the same, for the skill file.
    std::fs::remove_file(root.join("skills/pdf/shared")).unwrap();
    std::fs::remove_file(root.join("skills/pdf/SKILL.md")).unwrap();
    write(&root, "elsewhere/SKILL.md", skill("pdf").as_bytes());
    std::os::unix::fs::symlink("../../elsewhere/SKILL.md", root.join("skills/pdf/SKILL.md"))
        .unwrap();
    let error = Builder::new()
        .source(root.join("skills"))
        .compile()
        .unwrap_err();
    assert!(
        error.problems.iter().any(|p| p
            .message
            .contains("symbolic link to a file outside the source")
            && p.hint.as_deref() == Some("copy the file into the skill in place of the link")),
        "{error}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[cfg(unix)]
#[test]
fn links_inside_the_source_are_followed_and_embedded_as_copies() {
    let root = temp_dir("inside");
    write(
        &root,
        "skills/pdf/SKILL.md",
        b"---\nname: pdf\ndescription: Fills PDF forms. Use when asked.\n---\nSee reference.md, guide.md and shared/terms.md.\n",
    );
    write(&root, "skills/pdf/reference.md", b"the reference");
    write(&root, "skills/common/SKILL.md", skill("common").as_bytes());
    write(&root, "skills/common/terms.md", b"the terms");
    // A file link and a directory link, both staying inside the source.
    std::os::unix::fs::symlink("reference.md", root.join("skills/pdf/guide.md")).unwrap();
    std::os::unix::fs::symlink("../common", root.join("skills/pdf/shared")).unwrap();
    let compiled = Builder::new()
        .source(root.join("skills"))
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    let catalog = Catalog::from_bytes(&compiled.bytes).unwrap();
    let read = |path: &str| {
        catalog
            .call("pdf", Some(path))
            .unwrap_or_else(|e| panic!("{path}: {e:?}"))
            .reply
            .as_text()
            .map(str::to_owned)
    };
    assert_eq!(read("guide.md").as_deref(), Some("the reference"));
    assert_eq!(read("shared/terms.md").as_deref(), Some("the terms"));
    std::fs::remove_dir_all(&root).unwrap();
}

#[cfg(unix)]
fn is_exec(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_exec(_: &std::fs::Metadata) -> bool {
    false
}

/// The same tree written to two places, files created in opposite orders.
#[test]
fn the_same_skills_give_the_same_bytes_anywhere() {
    let tree = support::testdata("bundle");
    let mut files = Vec::new();
    collect(&tree, "", &mut files);
    assert!(files.len() > 10);
    let first = temp_dir("first").join("skills");
    let second = temp_dir("second").join("deeper/other-name");
    for (rel, bytes) in &files {
        write(&first, rel, bytes);
    }
    for (rel, bytes) in files.iter().rev() {
        write(&second, rel, bytes);
    }
    let a = Builder::new().source(&first).compile().unwrap().bytes;
    let b = Builder::new().source(&second).compile().unwrap().bytes;
    assert!(a == b, "bundles differ");
    // A tree in memory gives the same bytes when it carries the same modes
    // (the bundle lists the executable files, format 9).
    let mut memory = MemorySource::new("memory");
    for (rel, bytes) in files.iter().rev() {
        memory.insert(rel.clone(), bytes.clone());
        memory.set_executable(
            rel.clone(),
            first.join(rel).metadata().is_ok_and(|m| is_exec(&m)),
        );
    }
    let sources: [&dyn Source; 1] = [&memory];
    assert!(
        compile_sources(&sources).unwrap().bytes == a || cfg!(not(unix)),
        "memory differs"
    );
    for dir in [first, second] {
        let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    }
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().into_string().unwrap();
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if entry.file_type().unwrap().is_dir() {
            collect(&entry.path(), &rel, out);
        } else {
            out.push((rel, std::fs::read(entry.path()).unwrap()));
        }
    }
}
