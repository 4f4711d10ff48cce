//! One pass over a text's bytes that marks where the rules' patterns may
//! start, so that each rule looks only there. A registry holds gigabytes
//! of text, and a build script or proc macro runs unoptimised (Cargo's
//! default profile), where a search per pattern costs many times what one
//! plain pass does: the pass keeps the rules' cost one read of each file,
//! whatever the number of patterns.

/// What [`marks`] found in a text: offsets where a pattern starts, in
/// order, or whether one occurs.
#[derive(Debug, Default)]
pub(crate) struct Marks {
    /// `-----BEGIN ` (the first of a run of dashes).
    pub pem: Vec<usize>,
    /// A `-` or `_` after a letter or digit: where a token's prefix
    /// (`ghp_`, `xoxb-`, `sk-ant-`...) may end.
    pub token_ends: Vec<usize>,
    /// `AKIA` or `ASIA`.
    pub aws: Vec<usize>,
    /// `://`.
    pub schemes: Vec<usize>,
    /// A home directory's prefix, with its length: `/Users/`, `/home/`,
    /// `\Users\`, `\\Users\\`.
    pub homes: Vec<(usize, usize)>,
    /// A lead byte of U+2000–U+2FFF (0xE2), of planes 14 to 16 (0xF3), of
    /// U+F000–U+FFFF (0xEF) or of U+1000–U+1FFF (0xE1): where bidirectional
    /// controls, tag characters and invisible characters may start.
    pub wide: Vec<usize>,
    /// `<!--` occurs.
    pub comment: bool,
    /// A downloader's name occurs (`curl`, `wget`, `iwr`, `irm`,
    /// `Invoke-`, `Download`).
    pub download: bool,
}

/// Marks `bytes` (see [`Marks`]).
pub(super) fn marks(bytes: &[u8]) -> Marks {
    let mut marks = Marks::default();
    let starts = |i: usize, pattern: &[u8]| bytes.get(i..i + pattern.len()) == Some(pattern);
    let after_word = |i: usize| i > 0 && bytes[i - 1].is_ascii_alphanumeric();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'-' => {
                if starts(i, b"-----BEGIN ") && (i == 0 || bytes[i - 1] != b'-') {
                    marks.pem.push(i);
                } else if after_word(i) {
                    marks.token_ends.push(i);
                }
            }
            b'_' if after_word(i) => marks.token_ends.push(i),
            b'A' if starts(i, b"AKIA") || starts(i, b"ASIA") => marks.aws.push(i),
            b':' if starts(i, b"://") => marks.schemes.push(i),
            b'/' if starts(i, b"/Users/") => marks.homes.push((i, 7)),
            b'/' if starts(i, b"/home/") => marks.homes.push((i, 6)),
            b'\\' if starts(i, b"\\Users\\") => marks.homes.push((i, 7)),
            b'\\' if starts(i, b"\\\\Users\\\\") => marks.homes.push((i, 9)),
            b'<' if starts(i, b"<!--") => marks.comment = true,
            b'c' if starts(i, b"curl") => marks.download = true,
            b'w' if starts(i, b"wget") => marks.download = true,
            b'i' if starts(i, b"iwr") || starts(i, b"irm") => marks.download = true,
            b'I' if starts(i, b"Invoke-") => marks.download = true,
            b'D' if starts(i, b"Download") => marks.download = true,
            0xE2 | 0xF3 | 0xEF | 0xE1 => marks.wide.push(i),
            _ => {}
        }
        i += 1;
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::marks;

    #[test]
    fn every_pattern_is_marked_where_it_starts() {
        let text = "ab-cd x_y -----BEGIN K AKIA :// /home/a \\Users\\b <!-- curl é\u{202E}";
        let found = marks(text.as_bytes());
        assert_eq!(found.token_ends, [2, 7]);
        assert_eq!(found.pem, [10]);
        assert_eq!(found.aws, [23]);
        assert_eq!(found.schemes, [28]);
        assert_eq!(found.homes, [(32, 6), (40, 7)]);
        assert!(found.comment && found.download);
        assert_eq!(found.wide.len(), 1);
        assert!(marks(b"plain words").wide.is_empty());
    }
}
