//! Every function of `unicode` checked against what CPython 3.11.7 itself
//! answered, for every code point and for recorded strings
//! (this crate's `testdata/unicode/`, written by `scripts/gen/pyunicode.py`;
//! inside the crate, so these tests run from its package too).

use super::*;
// `isspace`/`strip` live in skills-core (the runtime needs them too); they
// are checked here against CPython 3.11's recording like the rest.
use skills_core::text::pytext::{is_space, strip};

// Recorded from CPython 3.11.7 by scripts/gen/pyunicode.py.
const PROPERTIES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/testdata/unicode/properties.txt"
));
const NFKC_CODEPOINTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/testdata/unicode/nfkc-codepoints.txt"
));
const STRINGS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/testdata/unicode/strings.txt"
));

fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10FFFF_u32).filter_map(char::from_u32)
}

fn hex_char(h: &str) -> char {
    u32::from_str_radix(h, 16)
        .ok()
        .and_then(char::from_u32)
        .unwrap_or_else(|| panic!("bad code point {h:?}"))
}

/// "0041 0301" -> "Á" (unnormalised).
fn hex_string(h: &str) -> String {
    h.split_whitespace().map(hex_char).collect()
}

fn records(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

#[test]
fn nfkc_known_cases() {
    let cases = [
        ("", ""),
        ("abc-123", "abc-123"),
        ("\u{FB03}", "ffi"),
        ("\u{FB01}le", "file"),
        ("\u{2126}", "\u{3A9}"),
        ("\u{212B}", "\u{C5}"),
        ("\u{212A}", "K"),
        ("ＡＢＣ－ｘｙｚ０９", "ABC-xyz09"),
        ("\u{2460}\u{24B6}", "1A"),
        ("\u{1D400}\u{1D7CE}", "A0"),
        ("\u{2163}", "IV"),
        ("\u{33FF}", "gal"),
        ("\u{00BD}", "1\u{2044}2"),
        ("\u{00A0}", " "),
        ("\u{00A8}", " \u{308}"),
        ("\u{1E9B}\u{323}", "\u{1E69}"),
        // Hangul: algorithmic decomposition and composition.
        ("\u{AC00}", "\u{AC00}"),
        ("\u{1100}\u{1161}", "\u{AC00}"),
        ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"),
        ("\u{AC00}\u{11A8}", "\u{AC01}"),
        ("\u{AC01}\u{11A8}", "\u{AC01}\u{11A8}"),
        ("\u{1100}\u{301}\u{1161}", "\u{1100}\u{301}\u{1161}"),
        ("\u{3131}\u{314F}", "\u{AC00}"),
        ("\u{FFA1}\u{FFC2}", "\u{AC00}"),
        ("\u{11A7}", "\u{11A7}"),
        ("\u{AC00}\u{11A7}", "\u{AC00}\u{11A7}"),
        // Combining sequences: reordering and composition.
        ("e\u{301}", "\u{E9}"),
        ("a\u{323}\u{302}", "\u{1EAD}"),
        ("a\u{302}\u{323}", "\u{1EAD}"),
        ("q\u{307}\u{323}", "q\u{323}\u{307}"),
        ("\u{1E0B}\u{323}", "\u{1E0D}\u{307}"),
        ("a\u{301}\u{301}", "\u{E1}\u{301}"),
        ("a\u{5B0}\u{301}", "\u{E1}\u{5B0}"),
        ("\u{0344}", "\u{308}\u{301}"),
        ("\u{0958}", "\u{915}\u{93C}"),
        ("\u{0B47}\u{0B56}", "\u{0B48}"),
        ("\u{0B47}\u{0B3C}\u{0B56}", "\u{0B47}\u{0B3C}\u{0B56}"),
        ("\u{FF76}\u{FF9E}", "\u{30AC}"),
        ("\u{30AB}\u{309B}", "\u{30AB} \u{3099}"),
        ("\u{301}a", "\u{301}a"),
        ("\u{3A3}\u{301}", "\u{3A3}\u{301}"),
        ("\u{3A5}\u{301}", "\u{38E}"),
        ("\u{1F80}", "\u{1F80}"),
    ];
    for (input, expected) in cases {
        assert_eq!(nfkc(input), expected, "nfkc({input:?})");
    }
    // 30 × U+FB03 is 90 code points after NFKC.
    assert_eq!(nfkc(&"\u{FB03}".repeat(30)).chars().count(), 90);
}

#[test]
fn alnum_known_cases() {
    for c in [
        'a',
        'Z',
        '0',
        'ß',
        'é',
        '٣',
        '中',
        '가',
        'Ⅳ',
        '²',
        '½',
        '\u{1D400}',
    ] {
        assert!(is_alnum(c), "{c:?}");
    }
    // U+0345 and circled letters are Alphabetic (Rust says yes) but Mn / So (Python says no).
    for c in [
        '-', '_', ' ', '\u{345}', 'Ⓐ', 'ⓐ', '\u{93F}', '\u{301}', '\u{200D}', '\u{E000}',
    ] {
        assert!(!is_alnum(c), "{c:?}");
    }
    // Unassigned in Unicode 14.0 (assigned later), so not alphanumeric here.
    assert!(!is_alnum('\u{31350}'));
    assert!(!is_alnum('\u{2B739}'));
}

#[test]
fn lowercase_known_cases() {
    for s in [
        "A",
        "abC",
        "\u{130}",
        "Σ",
        "ΑΣ",
        "aΣ b",
        "Ⓐ",
        "Ａ",
        "\u{1C5}",
        "Ⅰ",
        "ẞ",
        "\u{10400}",
    ] {
        assert!(changes_when_lowercased(s), "{s:?}");
    }
    for s in [
        "", "a-b", "ß", "ς", "σ", "٣", "中", "ⓐ", "\u{345}", "i\u{307}", "ǆ", "ﬀ", "ŉ",
    ] {
        assert!(!changes_when_lowercased(s), "{s:?}");
    }
}

#[test]
fn space_and_strip_known_cases() {
    for c in [
        '\t', '\n', '\x0B', '\x0C', '\r', '\x1C', '\x1D', '\x1E', '\x1F', ' ',
    ] {
        assert!(is_space(c), "{c:?}");
    }
    for c in [
        '\u{85}', '\u{A0}', '\u{1680}', '\u{2000}', '\u{200A}', '\u{2028}', '\u{3000}',
    ] {
        assert!(is_space(c), "{c:?}");
    }
    for c in [
        'a', '\0', '\u{180E}', '\u{200B}', '\u{2060}', '\u{FEFF}', '\u{AD}',
    ] {
        assert!(!is_space(c), "{c:?}");
    }
    assert_eq!(strip(""), "");
    assert_eq!(strip(" \t\u{1C}\u{3000}"), "");
    assert_eq!(strip("\u{1F} a b\u{A0}\n"), "a b");
    assert_eq!(strip("\u{FEFF}x\u{200B}"), "\u{FEFF}x\u{200B}");
}

#[test]
fn tables_are_sorted_and_disjoint() {
    for table in [tables::ALNUM, tables::PRINTABLE] {
        assert!(table.iter().all(|&(s, e)| s <= e));
        assert!(table.windows(2).all(|w| w[0].1 < w[1].0));
    }
    assert!(
        tables::LOWER_CHANGES
            .iter()
            .all(|&(s, e, st)| s <= e && (st == 1 || st == 2))
    );
    assert!(tables::LOWER_CHANGES.windows(2).all(|w| w[0].1 < w[1].0));
    assert!(tables::CCC.iter().all(|&(s, e, c)| s <= e && c != 0));
    assert!(tables::CCC.windows(2).all(|w| w[0].1 < w[1].0));
    assert!(tables::DECOMP.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(
        tables::COMPOSE
            .windows(2)
            .all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1))
    );
}

/// Every code point against the recorded per-code-point properties (stored there as plain
/// ranges, whereas `LOWER_CHANGES` uses strided runs).
#[test]
fn properties_match_python_for_every_code_point() {
    let mut alnum = vec![false; 0x110000];
    let mut space = vec![false; 0x110000];
    let mut lower = vec![false; 0x110000];
    let mut printable = vec![false; 0x110000];
    for line in records(PROPERTIES) {
        let mut fields = line.split(' ');
        let (Some(name), Some(start), Some(end)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("bad line {line:?}");
        };
        let table = match name {
            "alnum" => &mut alnum,
            "space" => &mut space,
            "lower" => &mut lower,
            "printable" => &mut printable,
            _ => panic!("bad property {name:?}"),
        };
        let (start, end) = (hex_char(start) as usize, hex_char(end) as usize);
        table[start..=end].fill(true);
    }
    for c in all_chars() {
        let i = c as usize;
        assert_eq!(is_alnum(c), alnum[i], "isalnum U+{i:04X}");
        assert_eq!(is_space(c), space[i], "isspace U+{i:04X}");
        assert_eq!(is_printable(c), printable[i], "isprintable U+{i:04X}");
        assert_eq!(
            changes_when_lowercased(c.encode_utf8(&mut [0; 4])),
            lower[i],
            "lower U+{i:04X}"
        );
    }
}

/// NFKC of every single code point: the recorded ones change, all others stay.
#[test]
fn nfkc_matches_python_for_every_code_point() {
    let mut expected = std::collections::HashMap::new();
    for line in records(NFKC_CODEPOINTS) {
        let (cp, out) = line.split_once(';').expect("cp;nfkc");
        expected.insert(hex_char(cp), hex_string(out));
    }
    assert!(expected.len() > 4000);
    let mut buf = [0; 4];
    for c in all_chars() {
        let s = c.encode_utf8(&mut buf);
        let got = nfkc(s);
        match expected.get(&c) {
            Some(want) => assert_eq!(&got, want, "nfkc(U+{:04X})", c as u32),
            None => assert_eq!(got, *s, "nfkc(U+{:04X}) should not change", c as u32),
        }
    }
}

fn check_string_records(text: &str) -> usize {
    let mut n = 0;
    for line in records(text) {
        let mut fields = line.split(';');
        let (Some(op), Some(input), Some(want)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("bad line {line:?}");
        };
        let input = hex_string(input);
        match op {
            "nfkc" => assert_eq!(nfkc(&input), hex_string(want), "nfkc({input:?})"),
            "strip" => assert_eq!(strip(&input), hex_string(want), "strip({input:?})"),
            "lower" => assert_eq!(
                changes_when_lowercased(&input),
                want == "1",
                "changes_when_lowercased({input:?})"
            ),
            _ => panic!("bad op {op:?}"),
        }
        n += 1;
    }
    n
}

/// Recorded strings made of combining sequences, Hangul jamo and compatibility characters:
/// these exercise reordering and composition, not just the decomposition table.
#[test]
fn strings_match_python() {
    assert!(check_string_records(STRINGS) > 1000);
}

/// A larger random check against Python, not committed: generate it with
/// `python3 scripts/gen/pyunicode.py --random-check /tmp/check.txt 200000`, then run
/// `PYUNICODE_CHECK=/tmp/check.txt cargo test -p skills-pycompat --lib unicode -- --ignored`.
#[test]
#[ignore = "needs PYUNICODE_CHECK=<file from scripts/gen/pyunicode.py --random-check>"]
fn external_check() {
    let path = std::env::var("PYUNICODE_CHECK").expect("PYUNICODE_CHECK");
    let text = std::fs::read_to_string(path).expect("read PYUNICODE_CHECK");
    assert!(check_string_records(&text) > 0);
}

#[test]
fn no_panics_on_odd_input() {
    let marks: String = std::iter::repeat_n("\u{301}\u{316}\u{35C}\u{345}", 300).collect();
    let out = nfkc(&marks);
    assert_eq!(out.chars().count(), 1200);
    assert!(out.starts_with("\u{316}"));
    let hangul: String =
        std::iter::repeat_n("\u{1100}\u{1161}\u{11A8}\u{11A8}\u{1161}", 50).collect();
    assert_eq!(nfkc(&hangul).chars().count(), 150);
    for c in [
        '\0',
        '\u{10FFFF}',
        '\u{FFFF}',
        '\u{E0001}',
        '\u{D7FF}',
        '\u{E000}',
    ] {
        let s = c.to_string();
        assert_eq!(nfkc(&s), s);
        let _ = (
            is_alnum(c),
            is_space(c),
            changes_when_lowercased(&s),
            strip(&s),
        );
    }
}
