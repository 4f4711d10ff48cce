//! Discovery's unit tests.

use super::*;
use crate::problem::Severity;
use crate::source::MemorySource;
use crate::unstable::discover::discover;

fn skill(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody of {name}; see scripts/.\n"
    )
}

#[test]
fn first_source_wins_and_qualifiers_list_the_rest() {
    let a = MemorySource::new("a").with_file("pdf/SKILL.md", skill("pdf"));
    let b = MemorySource::new("b").with_file("pdf/SKILL.md", skill("pdf"));
    let c = MemorySource::new("c/").with_file("pdf/skill.md", skill("pdf"));
    let found = discover(
        &[
            Root::new(&a),
            Root::new(&b),
            Root::new(&c).qualified("team"),
        ],
        &Options::default(),
    );
    let names: Vec<_> = found
        .skills
        .iter()
        .filter_map(|s| s.listing.name())
        .collect();
    assert_eq!(names, ["pdf", "team:pdf"]);
    assert_eq!(found.problems.len(), 1, "{:?}", found.problems);
    assert!(
        found.problems[0]
            .message
            .contains("shadowed by a/pdf/SKILL.md")
    );
    assert_eq!(found.problems[0].file.as_deref(), Some("b/pdf/SKILL.md"));
    assert_eq!(found.skills[2].file_location, "c/pdf/skill.md");
}

#[test]
fn duplicate_sources_and_bad_qualifiers() {
    let a = MemorySource::new("a").with_file("pdf/SKILL.md", skill("pdf"));
    let a2 = MemorySource::new("a/");
    let b = MemorySource::new("b");
    let found = discover(
        &[
            Root::new(&a),
            Root::new(&a2),
            Root::new(&b).qualified("x y"),
        ],
        &Options::default(),
    );
    let codes: Vec<_> = found.problems.iter().map(|p| p.code).collect();
    assert_eq!(codes, [Code::SourceDuplicate, Code::QualifierInvalid]);
    assert!(found.problems.iter().any(Problem::is_error));
}

#[test]
fn a_source_is_one_skill_or_a_collection_and_never_empty() {
    let one = MemorySource::new("skills/pdf")
        .with_file("SKILL.md", skill("pdf"))
        .with_file("scripts/fill.py", "print(1)\n");
    let many = MemorySource::new("skills").with_file("csv/SKILL.md", skill("csv"));
    let parent = MemorySource::new(".").with_file("skills/csv/skill.md", skill("csv"));
    let empty = MemorySource::new("empty").with_file("README.md", "no skill");
    let found = discover(
        &[
            Root::new(&one),
            Root::new(&many),
            Root::new(&parent),
            Root::new(&empty),
        ],
        &Options::default(),
    );
    let layouts: Vec<_> = found.sources.iter().map(|s| (s.layout, s.skills)).collect();
    assert_eq!(
        layouts,
        [
            (Some(Layout::Skill), 1),
            (Some(Layout::Collection), 1),
            (None, 0),
            (None, 0)
        ]
    );
    assert_eq!(found.skills[0].dir, "pdf");
    assert_eq!(found.skills[0].path, "");
    assert_eq!(found.skills[0].file_location, "skills/pdf/SKILL.md");
    assert_eq!(found.skills[0].files[0].path, "scripts/fill.py");
    let no_skills: Vec<_> = found
        .problems
        .iter()
        .filter(|p| p.code == Code::NoSkills)
        .map(|p| {
            (
                p.file.as_deref().unwrap_or(""),
                p.hint.as_deref().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        no_skills,
        [
            (
                ".",
                "skills sit one level deeper, in ./skills: give that folder instead"
            ),
            (
                "empty",
                "give a skill folder (it holds SKILL.md) or a folder of skill folders"
            ),
        ]
    );
    assert_eq!(
        found.problems[0].message,
        "no skill found in .: neither ./SKILL.md nor ./*/SKILL.md exists"
    );
}

#[test]
fn junk_is_left_out_with_a_note_unless_kept() {
    let source = MemorySource::new("s")
        .with_file("pdf/SKILL.md", skill("pdf"))
        .with_file("pdf/.DS_Store", "x")
        .with_file("pdf/node_modules/left-pad/index.js", "x")
        .with_file("pdf/.git/HEAD", "ref")
        .with_file("pdf/scripts/__pycache__/a.pyc", "x")
        .with_file("pdf/scripts/fill.py", "x");
    let found = discover(&[Root::new(&source)], &Options::default());
    let notes: Vec<_> = found
        .problems
        .iter()
        .map(|p| (p.code, p.severity, p.file.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        notes,
        [
            (Code::JunkSkipped, Severity::Note, "s/pdf/.DS_Store"),
            (Code::JunkSkipped, Severity::Note, "s/pdf/.git"),
            (Code::JunkSkipped, Severity::Note, "s/pdf/node_modules"),
            (
                Code::JunkSkipped,
                Severity::Note,
                "s/pdf/scripts/__pycache__"
            ),
        ]
    );
    let files: Vec<_> = found.skills[0]
        .files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(files, ["scripts/fill.py"]);
    let kept = discover(
        &[Root::new(&source)],
        &Options {
            keep_junk: true,
            ..Options::default()
        },
    );
    assert!(kept.problems.is_empty(), "{:?}", kept.problems);
    assert_eq!(kept.skills[0].files.len(), 5);
}
