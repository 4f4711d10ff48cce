//! Long Markdown references without a table of contents: a model reads a
//! long file in parts, and without a map of it reads the wrong part or
//! all of it.

use super::findings::Findings;
use super::markdown::is_markdown;
use super::skill::{Skill, TextFile};
use crate::problem::{Code, Position, Problem};

/// Past this many lines a reference wants a table of contents.
const LONG: usize = 300;

/// How far into the file a table of contents is looked for.
const HEAD: usize = 100;

/// Whether the head of `text` holds a table of contents: a heading that
/// says so, or three links to the file's own sections.
fn has_toc(text: &str) -> bool {
    let mut anchors = 0;
    for line in text.lines().take(HEAD) {
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') {
            let heading = trimmed.trim_start_matches('#').trim().to_ascii_lowercase();
            if heading.contains("contents") || heading == "toc" || heading.contains("index") {
                return true;
            }
        }
        anchors += line.matches("](#").count();
        if anchors >= 3 {
            return true;
        }
    }
    false
}

/// A Markdown file other than the skill file, over [`LONG`] lines, with
/// no table of contents at its head.
pub(super) fn reference(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::ReferenceWithoutToc) || file.skill_file || !is_markdown(file.path) {
        return;
    }
    let text = file.text.text;
    let lines =
        memchr::memchr_iter(b'\n', text.as_bytes()).count() + usize::from(!text.ends_with('\n'));
    if lines <= LONG || has_toc(text) {
        return;
    }
    findings.push(
        Problem::new(
            Code::ReferenceWithoutToc,
            format!("{} has {lines} lines and no table of contents: a model reads a long file in parts, and needs a map of it", file.path),
        )
        .with_hint("list the sections at the top, each a link to its heading"),
        skill.location_of(file.path),
        Some(Position { line: 1, column: 1 }),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::content::tests::{codes, skill_md};

    #[test]
    fn long_references_want_a_map() {
        let long = "Some line of the reference.\n".repeat(320);
        let md = skill_md("See [the reference](reference.md).");
        assert_eq!(
            codes(&md, &[("reference.md", &long)]),
            ["reference-without-toc"]
        );
        let mapped = format!("# API\n\n## Contents\n- [Setup](#setup)\n\n{long}");
        assert!(codes(&md, &[("reference.md", &mapped)]).is_empty());
        // A long script or data file is not a reference.
        let md = skill_md("Run `data.txt` and [it](data.txt).");
        assert!(codes(&md, &[("data.txt", &long)]).is_empty());
    }
}
