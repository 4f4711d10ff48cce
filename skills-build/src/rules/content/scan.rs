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
    /// U+F000–U+FFFF (0xEF) or of U+1000–U+1FFF (0xE1), and the soft
    /// hyphen U+00AD: where bidirectional controls, tag characters and
    /// invisible characters may start.
    pub wide: Vec<usize>,
    /// `<!--` occurs.
    pub comment: bool,
    /// A downloader's name occurs (`curl`, `wget`, `iwr`, `irm`,
    /// `Invoke-`, `Download`), or PowerShell's `iex` or
    /// `Invoke-Expression` in any case.
    pub download: bool,
}

/// The bytes a pattern may start with; every other byte is passed over
/// by one table look-up.
const STARTS: [bool; 256] = {
    let mut table = [false; 256];
    let starts = b"-_A:/\\<";
    let mut i = 0;
    while i < starts.len() {
        table[starts[i] as usize] = true;
        i += 1;
    }
    table[0xE2] = true;
    table[0xF3] = true;
    table[0xEF] = true;
    table[0xE1] = true;
    table[0xC2] = true;
    table
};

/// Marks `bytes` (see [`Marks`]).
pub(crate) fn marks(bytes: &[u8]) -> Marks {
    let mut marks = Marks::default();
    let starts = |i: usize, pattern: &[u8]| bytes.get(i..i + pattern.len()) == Some(pattern);
    let next_is = |i: usize, byte: u8| bytes.get(i + 1) == Some(&byte);
    let after_word = |i: usize| i > 0 && bytes[i - 1].is_ascii_alphanumeric();
    let mut i = 0;
    // A tight loop over the bytes that start nothing.
    while let Some(skip) = bytes[i..].iter().position(|&b| STARTS[b as usize]) {
        i += skip;
        let byte = bytes[i];
        // The second byte is compared first: most letters start no pattern.
        match byte {
            b'-' => {
                if next_is(i, b'-') && starts(i, b"-----BEGIN ") && (i == 0 || bytes[i - 1] != b'-')
                {
                    marks.pem.push(i);
                } else if after_word(i) {
                    marks.token_ends.push(i);
                }
            }
            b'_' if after_word(i) => marks.token_ends.push(i),
            b'A' if (next_is(i, b'K') && starts(i, b"AKIA"))
                || (next_is(i, b'S') && starts(i, b"ASIA")) =>
            {
                marks.aws.push(i)
            }
            b':' if next_is(i, b'/') && starts(i, b"://") => marks.schemes.push(i),
            b'/' if next_is(i, b'U') && starts(i, b"/Users/") => marks.homes.push((i, 7)),
            b'/' if next_is(i, b'h') && starts(i, b"/home/") => marks.homes.push((i, 6)),
            b'\\' if next_is(i, b'U') && starts(i, b"\\Users\\") => marks.homes.push((i, 7)),
            b'\\' if next_is(i, b'\\') && starts(i, b"\\\\Users\\\\") => marks.homes.push((i, 9)),
            b'<' if next_is(i, b'!') && starts(i, b"<!--") => marks.comment = true,
            0xE2 | 0xF3 | 0xEF | 0xE1 => marks.wide.push(i),
            // U+00AD, the soft hyphen (0xC2 leads many common characters:
            // only this one is marked).
            0xC2 if next_is(i, 0xAD) => marks.wide.push(i),
            _ => {}
        }
        i += 1;
    }
    // Downloaders' names start with common letters: a vectorised search
    // for each is cheaper than stopping at every such letter.
    marks.download = DOWNLOADERS
        .iter()
        .any(|finder| finder.find(bytes).is_some())
        || runs_expression(bytes);
    marks
}

/// The downloaders' names (`Invoke-` and `Download` stand for two each).
static DOWNLOADERS: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 6]> =
    std::sync::LazyLock::new(|| {
        ["curl", "wget", "iwr", "irm", "Invoke-", "Download"]
            .map(|name| memchr::memmem::Finder::new(name.as_bytes()).into_owned())
    });

/// Whether PowerShell's `iex` or `Invoke-Expression` occurs, in any case
/// (PowerShell's names are case-insensitive, and every PowerShell form of
/// running a download goes through one): found from their `x`, a rare
/// letter, so the search stays one vectorised pass.
fn runs_expression(bytes: &[u8]) -> bool {
    memchr::memchr2_iter(b'x', b'X', bytes).any(|at| {
        let before = |from: usize| at.checked_sub(from).map(|i| &bytes[i..at]);
        before(2).is_some_and(|b| b.eq_ignore_ascii_case(b"ie"))
            || before(2).is_some_and(|b| b.eq_ignore_ascii_case(b"-e"))
    })
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
        // PowerShell in any case (issue 39, item 6).
        assert!(marks(b"IWR x | IEX").download);
        assert!(marks(b"invoke-expression").download);
        assert!(!marks(b"an index of text").download);
    }
}
