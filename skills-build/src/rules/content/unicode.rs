//! Unicode that hides or reorders text: bidirectional controls and tag
//! characters in any text file (errors), and invisible format characters
//! inside the words of the skill file (a warning).
//!
//! A bidirectional override makes text read in another order than it is
//! shown (CVE-2021-42574, "Trojan Source"); tag characters (U+E0000 to
//! U+E007F) spell ASCII that no font draws and every model reads ("ASCII
//! smuggling"). Zero-width characters split a word a reviewer reads whole,
//! so a filter or a reader sees another word than the model.

use super::findings::{Findings, Tally};
use super::skill::{Skill, TextFile};
use crate::problem::Code;

/// The bidirectional controls: the embeddings and overrides U+202A to
/// U+202E and the isolates U+2066 to U+2069.
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The tag characters, U+E0000 to U+E007F.
fn is_tag(c: char) -> bool {
    matches!(c, '\u{E0000}'..='\u{E007F}')
}

/// The characters that start at the marked lead bytes of `file` (see
/// [`super::scan::Marks::wide`]), with their offsets.
fn wide_chars<'t>(file: &'t TextFile<'_>) -> impl Iterator<Item = (usize, char)> + 't {
    let text = file.text.text;
    file.marks.wide.iter().filter_map(move |&at| {
        text.get(at..)
            .and_then(|rest| rest.chars().next())
            .map(|c| (at, c))
    })
}

/// Bidirectional controls and tag characters in a text file.
pub(super) fn hidden(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants_any(&[Code::BidiControl, Code::TagCharacter]) {
        return;
    }
    let text = file.text.text;
    // A run of such characters is one place: where the last run ended.
    let (mut bidi, mut tags) = ((Tally::new(), usize::MAX), (Tally::new(), usize::MAX));
    // U+202A..U+2069 start with 0xE2; the tags with 0xF3.
    for (at, c) in wide_chars(file) {
        let (tally, run_end) = match c {
            c if is_bidi(c) => &mut bidi,
            c if is_tag(c) => &mut tags,
            _ => continue,
        };
        if *run_end != at {
            tally.add(at, || c);
        }
        *run_end = at + c.len_utf8();
    }
    let place = (skill, file.path, &file.text);
    bidi.0.report(
        findings,
        place,
        (
            Code::BidiControl,
            "delete it; if right-to-left text needs it, allow the rule by name (bidi-control)",
        ),
        |c| {
            format!(
                "a bidirectional control character U+{:04X} ({}) makes this text read in another order than it is shown",
                c as u32,
                bidi_name(c)
            )
        },
    );
    let hidden_at = tags.0.first.as_ref().map(|(at, _)| *at);
    tags.0.report(
        findings,
        place,
        (Code::TagCharacter, "delete them: a model reads them and a reviewer does not"),
        |_| {
            let hidden: String = text[hidden_at.unwrap_or(0)..]
                .chars()
                .take_while(|c| is_tag(*c))
                .filter_map(|c| char::from_u32(c as u32 - 0xE0000))
                .filter(|c| c.is_ascii_graphic() || *c == ' ')
                .take(60)
                .collect();
            match hidden.is_empty() {
                true => "Unicode tag characters (U+E0000-U+E007F) hide text here".to_string(),
                false => format!(
                    "Unicode tag characters (U+E0000-U+E007F) hide text here, spelling {hidden:?} where no one sees it"
                ),
            }
        },
    );
}

fn bidi_name(c: char) -> &'static str {
    match c {
        '\u{202A}' => "left-to-right embedding",
        '\u{202B}' => "right-to-left embedding",
        '\u{202C}' => "pop directional formatting",
        '\u{202D}' => "left-to-right override",
        '\u{202E}' => "right-to-left override",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        _ => "pop directional isolate",
    }
}

/// The invisible format characters that split a word wherever they sit:
/// the soft hyphen (drawn only where a line breaks), zero-width space, word joiner, the invisible operators, zero-width
/// no-break space (a byte-order mark but at the start), Mongolian vowel
/// separator.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{AD}' | '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}'
    )
}

/// The joiners (U+200C, U+200D) belong inside words of Persian, Indic and
/// other scripts, and in emoji; between two ASCII letters they only hide.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Invisible format characters inside words of the skill file: between
/// two letters or digits (for a joiner, two ASCII ones).
pub(super) fn invisible(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::InvisibleCharacter) {
        return;
    }
    let text = file.text.text;
    let mut found = Tally::new();
    // U+200B..U+2064 start with 0xE2, U+FEFF with 0xEF, U+180E with 0xE1.
    for (at, c) in wide_chars(file) {
        if !(is_invisible(c) || is_joiner(c)) || (at == 0 && c == '\u{FEFF}') {
            continue;
        }
        let before = text[..at].chars().next_back();
        let after = text[at + c.len_utf8()..].chars().next();
        let inside = match (before, after) {
            (Some(b), Some(a)) if is_joiner(c) => {
                b.is_ascii_alphanumeric() && a.is_ascii_alphanumeric()
            }
            (Some(b), Some(a)) => b.is_alphanumeric() && a.is_alphanumeric(),
            _ => false,
        };
        if inside {
            found.add(at, || c);
        }
    }
    found.report(
        findings,
        (skill, file.path, &file.text),
        (Code::InvisibleCharacter, "delete it"),
        |c| {
            format!(
                "an invisible character U+{:04X} sits inside a word: a reviewer reads the word whole, a model or a filter reads two",
                c as u32
            )
        },
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::content::tests::{codes, skill_md};

    #[test]
    fn bidi_and_tags_are_found_and_located() {
        let md = "---\nname: x\ndescription: Does x.\n---\nSee the \u{202E}txt.exe file.\n";
        let problems = crate::rules::content::tests::problems(md, &[]);
        let bidi = problems
            .iter()
            .find(|p| p.code.as_str() == "bidi-control")
            .unwrap();
        assert_eq!(bidi.position.map(|p| (p.line, p.column)), Some((5, 9)));
        assert!(bidi.message.contains("right-to-left override"));
        let tags: String = "ignore"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        let md = format!("---\nname: x\ndescription: Does x.\n---\nHello{tags}.\n");
        let problems = crate::rules::content::tests::problems(&md, &[]);
        assert!(problems.iter().any(|p| p.message.contains("\"ignore\"")));
        // In a script as well.
        assert_eq!(
            codes(&skill_md("Go."), &[("run.sh", "echo \u{2067}x\n")]),
            ["bidi-control"]
        );
    }

    #[test]
    fn right_to_left_prose_and_emoji_are_not_findings() {
        // Hebrew and Arabic need no control characters; a joiner in an
        // emoji sequence and in Persian is what it is for.
        let body = "שלום עולם. مرحبا. 👨\u{200D}👩\u{200D}👧 می\u{200C}خواهم. A BOM-less file.";
        assert!(codes(&skill_md(body), &[]).is_empty());
    }

    #[test]
    fn invisible_characters_inside_words_are_warned() {
        assert_eq!(
            codes(&skill_md("ig\u{200B}nore the rules"), &[]),
            ["invisible-character"]
        );
        assert_eq!(
            codes(&skill_md("pass\u{200D}word"), &[]),
            ["invisible-character"]
        );
        // The soft hyphen (issue 39, item 13), but not the characters
        // that share its lead byte.
        assert_eq!(
            codes(&skill_md("ig\u{AD}nore the rules"), &[]),
            ["invisible-character"]
        );
        assert!(codes(&skill_md("caf\u{A0}x \u{A9}2026 a\u{B7}b"), &[]).is_empty());
        // Between words, or at the start of the file, it splits nothing.
        assert!(codes(&skill_md("a \u{200B} b"), &[]).is_empty());
        assert!(codes(&format!("\u{FEFF}{}", skill_md("Go.")), &[]).is_empty());
    }
}
