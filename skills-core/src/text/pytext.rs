//! The few Python string operations agentskills-core's output depends on,
//! from fixed tables (Python 3.12, Unicode 15.0), so the runtime gives the
//! same answers on every host and never consults the host's files.
//!
//! - [`casefold`], `str.casefold()`, for tags and section keys;
//! - [`is_space`] and [`strip`]: `str.isspace()` and `str.strip()`;
//! - [`lines`], `str.splitlines()`;
//! - [`char_len`], `len(str)`, in code points;
//! - [`guess_media_type`], `mimetypes.guess_type(name)[0]` over Python's
//!   built-in table with Markdown added (`.md` and `.markdown` are
//!   `text/markdown`, as in Python 3.13's table and a usual
//!   `/etc/mime.types`), never the host's files.

use alloc::borrow::Cow;
use alloc::string::String;

use crate::text::pytables::{
    CASEFOLD_FROM, CASEFOLD_TO, CASEFOLD_TO_ENDS, ENCODINGS, MEDIA_EXTENSIONS,
    MEDIA_EXTENSIONS_ENDS, MEDIA_TYPES, MEDIA_TYPES_ENDS, SPACE, SUFFIXES,
};

/// Python's `str.casefold()`: full Unicode case folding, for caseless
/// matching. Borrows when nothing changes.
///
/// ```
/// use skills_core::text::pytext::casefold;
/// assert_eq!(casefold("PDF"), "pdf");
/// assert_eq!(casefold("Straße"), "strasse");
/// assert_eq!(casefold("ﬁle"), "file");
/// assert_eq!(casefold("ok"), "ok");
/// ```
pub fn casefold(text: &str) -> Cow<'_, str> {
    let Some(first) = text.char_indices().find(|&(_, c)| fold(c).is_some()) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 4);
    out.push_str(&text[..first.0]);
    for c in text[first.0..].chars() {
        match fold(c) {
            Some(folded) => out.push_str(folded),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn fold(c: char) -> Option<&'static str> {
    if c.is_ascii() {
        return c.is_ascii_uppercase().then(|| {
            let at = usize::from(c as u8 - b'A');
            "abcdefghijklmnopqrstuvwxyz"
                .get(at..at + 1)
                .unwrap_or_default()
        });
    }
    CASEFOLD_FROM
        .binary_search(&c)
        .ok()
        .and_then(|at| packed(CASEFOLD_TO, CASEFOLD_TO_ENDS, at))
}

/// The `at`th of the strings `text` holds one after another, the `i`th
/// ending at `ends[i]` (the generated tables' form: one string and its
/// ends instead of a string pointer an entry, which a binary relocates).
fn packed(text: &'static str, ends: &[u16], at: usize) -> Option<&'static str> {
    let end = usize::from(*ends.get(at)?);
    let start = match at.checked_sub(1) {
        Some(before) => usize::from(*ends.get(before)?),
        None => 0,
    };
    text.get(start..end)
}

/// Where `key` is among the sorted strings of `text` and `ends` (see
/// [`packed`]).
fn find_packed(text: &'static str, ends: &[u16], key: &str) -> Option<usize> {
    let (mut low, mut high) = (0, ends.len());
    while low < high {
        let middle = low + (high - low) / 2;
        match packed(text, ends, middle)?.cmp(key) {
            core::cmp::Ordering::Less => low = middle + 1,
            core::cmp::Ordering::Greater => high = middle,
            core::cmp::Ordering::Equal => return Some(middle),
        }
    }
    None
}

/// Python's `str.isspace()` for one character.
///
/// ```
/// use skills_core::text::pytext::is_space;
/// assert!(is_space(' ') && is_space('\u{1c}') && is_space('\u{3000}'));
/// assert!(!is_space('x') && !is_space('\u{200b}'));
/// ```
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, ' ' | '\t'..='\r' | '\u{1c}'..='\u{1f}');
    }
    SPACE.binary_search(&c).is_ok()
}

/// Python's `str.strip()` without arguments.
///
/// ```
/// assert_eq!(skills_core::text::pytext::strip("\u{1f} tag \n"), "tag");
/// ```
pub fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// Python's `str.rstrip()` without arguments.
///
/// ```
/// assert_eq!(skills_core::text::pytext::rstrip(" body\n\n"), " body");
/// ```
pub fn rstrip(text: &str) -> &str {
    text.trim_end_matches(is_space)
}

/// `len(text)` in Python: the number of code points.
///
/// ```
/// assert_eq!(skills_core::text::pytext::char_len("é!"), 2);
/// ```
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

/// Whether `c` ends a line for Python's `str.splitlines()`.
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}'..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Python's `str.splitlines()`: the lines of `text` without their ends,
/// each with its byte offset. `\r\n` is one line end; a final line end
/// does not start another line.
///
/// ```
/// let lines: Vec<_> = skills_core::text::pytext::lines("a\r\nb\u{2028}c\n").collect();
/// assert_eq!(lines, [(0, "a"), (3, "b"), (7, "c")]);
/// ```
pub fn lines(text: &str) -> Lines<'_> {
    Lines { text, at: 0 }
}

/// The iterator [`lines`] returns: `(byte offset, line)` pairs.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.text.get(self.at..).filter(|rest| !rest.is_empty())?;
        let start = self.at;
        match rest.char_indices().find(|&(_, c)| is_line_break(c)) {
            Some((end, c)) => {
                let mut next = end + c.len_utf8();
                if c == '\r' && rest.as_bytes().get(next) == Some(&b'\n') {
                    next += 1;
                }
                self.at = start + next;
                Some((start, rest.get(..end).unwrap_or_default()))
            }
            None => {
                self.at = self.text.len();
                Some((start, rest))
            }
        }
    }
}

/// `mimetypes.guess_type(name)[0]` with only Python's built-in table (no
/// host files): by extension, case-insensitively, after the suffix map
/// (`.tgz` is `.tar.gz`) and past a compression extension (`.gz`, `.bz2`,
/// `.xz`, `.br`, `.Z`, which name the encoding, not the type).
///
/// ```
/// use skills_core::text::pytext::guess_media_type;
/// assert_eq!(guess_media_type("assets/logo.PNG"), Some("image/png"));
/// assert_eq!(guess_media_type("notes.txt"), Some("text/plain"));
/// assert_eq!(guess_media_type("references/guide.md"), Some("text/markdown"));
/// assert_eq!(guess_media_type("data.tar.gz"), Some("application/x-tar"));
/// assert_eq!(guess_media_type("blob.bin"), Some("application/octet-stream"));
/// assert_eq!(guess_media_type("config.yaml"), None);
/// assert_eq!(guess_media_type(".bashrc"), None);
/// ```
pub fn guess_media_type(name: &str) -> Option<&'static str> {
    let url = strip_scheme(name);
    let mut path = String::from(url);
    // Each replacement is longer than what it replaces and ends in a
    // compression extension, so this runs at most once; bound it anyway.
    for _ in 0..4 {
        let (base, ext) = split_ext(&path);
        let Some(&(_, replacement)) = SUFFIXES.iter().find(|(key, _)| lower(ext) == *key) else {
            break;
        };
        path = [base, replacement].concat();
    }
    let (base, mut ext) = split_ext(&path);
    if ENCODINGS.contains(&ext) {
        ext = split_ext(base).1;
    }
    let ext = lower(ext);
    let at = find_packed(MEDIA_EXTENSIONS, MEDIA_EXTENSIONS_ENDS, &ext)?;
    packed(MEDIA_TYPES, MEDIA_TYPES_ENDS, at)
}

/// Python's `str.lower()` (full lowercase mapping).
fn lower(text: &str) -> Cow<'_, str> {
    if text
        .chars()
        .any(|c| c.to_lowercase().ne(core::iter::once(c)))
    {
        Cow::Owned(text.chars().flat_map(char::to_lowercase).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// `urllib.parse._splittype`: a leading `scheme:` (no `/` or `:` in it) is
/// not part of the name.
fn strip_scheme(name: &str) -> &str {
    match name.find([':', '/']) {
        Some(at) if at > 0 && name.as_bytes().get(at) == Some(&b':') => {
            name.get(at + 1..).unwrap_or_default()
        }
        _ => name,
    }
}

/// `posixpath.splitext`: the extension starts at the last dot of the last
/// component, unless only dots precede it there.
fn split_ext(path: &str) -> (&str, &str) {
    let name_start = path.rfind('/').map_or(0, |at| at + 1);
    if let Some(dot) = path.rfind('.')
        && dot >= name_start
        && path
            .get(name_start..dot)
            .is_some_and(|lead| lead.bytes().any(|b| b != b'.'))
    {
        return (
            path.get(..dot).unwrap_or_default(),
            path.get(dot..).unwrap_or_default(),
        );
    }
    (path, "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The packed tables: one string of each of their keys and values,
    /// every end on a character boundary, the keys sorted (binary search
    /// finds every one of them).
    #[test]
    fn packed_tables_hold_one_string_an_entry() {
        for (text, ends) in [
            (CASEFOLD_TO, CASEFOLD_TO_ENDS),
            (MEDIA_EXTENSIONS, MEDIA_EXTENSIONS_ENDS),
            (MEDIA_TYPES, MEDIA_TYPES_ENDS),
        ] {
            assert_eq!(ends.last().map(|end| usize::from(*end)), Some(text.len()));
            assert!(ends.windows(2).all(|pair| pair[0] < pair[1]));
            assert!((0..ends.len()).all(|at| packed(text, ends, at).is_some()));
            assert_eq!(packed(text, ends, ends.len()), None);
        }
        assert_eq!(CASEFOLD_FROM.len(), CASEFOLD_TO_ENDS.len());
        assert!(CASEFOLD_FROM.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(MEDIA_EXTENSIONS_ENDS.len(), MEDIA_TYPES_ENDS.len());
        for at in 0..MEDIA_EXTENSIONS_ENDS.len() {
            let ext = packed(MEDIA_EXTENSIONS, MEDIA_EXTENSIONS_ENDS, at).unwrap();
            assert_eq!(
                find_packed(MEDIA_EXTENSIONS, MEDIA_EXTENSIONS_ENDS, ext),
                Some(at)
            );
            assert!(
                at == 0 || packed(MEDIA_EXTENSIONS, MEDIA_EXTENSIONS_ENDS, at - 1).unwrap() < ext
            );
        }
        assert_eq!(
            find_packed(MEDIA_EXTENSIONS, MEDIA_EXTENSIONS_ENDS, ".nope"),
            None
        );
        assert_eq!(casefold("\u{1e9e}"), "ss");
        assert_eq!(casefold("\u{10400}"), "\u{10428}");
    }

    #[test]
    fn splitlines_like_python() {
        let got: Vec<&str> = lines("a\n\nb\r\rc\u{85}").map(|(_, l)| l).collect();
        assert_eq!(got, ["a", "", "b", "", "c"]);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("\n").map(|(_, l)| l).collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn splitext_like_posixpath() {
        assert_eq!(split_ext("a/b.c"), ("a/b", ".c"));
        assert_eq!(split_ext(".bashrc"), (".bashrc", ""));
        assert_eq!(split_ext("..x.y"), ("..x", ".y"));
        assert_eq!(split_ext("a.b/c"), ("a.b/c", ""));
        assert_eq!(split_ext("x."), ("x", "."));
    }

    #[test]
    fn media_types_follow_the_suffix_and_encoding_maps() {
        assert_eq!(guess_media_type("a.tgz"), Some("application/x-tar"));
        assert_eq!(guess_media_type("a.svgz"), Some("image/svg+xml"));
        assert_eq!(guess_media_type("a.json.gz"), Some("application/json"));
        assert_eq!(guess_media_type("a.json.GZ"), None);
        assert_eq!(guess_media_type("x:y.png"), Some("image/png"));
    }
}
