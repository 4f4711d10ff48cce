//! Bounded robustness: random bytes, mutations of a valid bundle and
//! arbitrary tool arguments never make the runtime panic; they give errors.
//!
//! A seeded xorshift generator keeps every run the same; the iteration
//! counts keep the test to about a second in a debug build.

use crate::support;

use skills_core::serve::paged::{PagedBundle, ReadAt, ReadAtError};
use skills_core::{Catalog, DecodeError};

/// xorshift64*: small, seeded, good enough to spread mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn byte(&mut self) -> u8 {
        self.next() as u8
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.byte()).collect()
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A string built from pieces a path or a name might be made of.
    fn text(&mut self) -> String {
        const PIECES: &[&str] = &[
            "",
            "/",
            "//",
            ".",
            "..",
            "\\",
            "a",
            "SKILL.md",
            "skill.MD",
            "S\u{212A}ILL.md",
            "reference.md",
            "assets",
            "logo.png",
            "pdf",
            "team:pdf",
            "git-rebase",
            " ",
            "\0",
            "\n",
            "\"",
            "é",
            "\u{feff}",
            "🙂",
            "\u{10ffff}",
            "%2e%2e",
            "C:",
            "~",
        ];
        let mut out = String::new();
        for _ in 0..self.below(6) {
            out.push_str(self.pick(PIECES));
        }
        if self.below(8) == 0 {
            // Arbitrary bytes, made a string.
            let len = self.below(12);
            let raw = self.bytes(len);
            out.push_str(&String::from_utf8_lossy(&raw));
        }
        out
    }
}

/// Bytes read as a file is, for a paged bundle.
struct Memory(Vec<u8>);

impl ReadAt for Memory {
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadAtError> {
        let start = usize::try_from(offset).map_err(|_| ReadAtError::new("past the end"))?;
        let there = start
            .checked_add(buf.len())
            .and_then(|end| self.0.get(start..end))
            .ok_or_else(|| ReadAtError::new("past the end"))?;
        buf.copy_from_slice(there);
        Ok(())
    }
}

/// Uses a decoded catalog the way a host would, every method and call.
fn exercise(catalog: &Catalog<'_>, rng: &mut Rng) {
    let _ = (
        catalog.prompt(),
        catalog.usage(),
        catalog.tool_definition(),
        catalog.system_prompt(),
    );
    // A lazily opened catalog does not check its name index until
    // `check`: through a broken one a lookup may miss, never panic.
    let indexed = catalog.check().is_ok();
    for skill in catalog.skills() {
        assert!(!indexed || catalog.lookup(skill.name).is_some());
        let _ = skill.body();
        for path in [None, Some(""), Some("SKILL.md")] {
            if let Ok(served) = catalog.call(skill.name, path) {
                assert_eq!(served.read.path, "");
            }
        }
        for file in &skill.files {
            match catalog.call(skill.name, Some(file.path)) {
                Ok(served) => {
                    if let Some(image) = served.reply.as_image() {
                        let _ = image.data_url();
                    }
                    let _ = served.read.sha256.to_string();
                }
                Err(error) => {
                    let _ = error.to_string();
                }
            }
        }
    }
    // Listings a page at a time: every position of the listing order, each
    // skill decoded for one use.
    for position in 0..=catalog.len() {
        if let Some(at) = catalog.listed(position) {
            assert!(at < catalog.len());
            let _ = catalog.with_skill(at, |skill| skill.files.len());
        }
    }
    for _ in 0..4 {
        let name = rng.text();
        let path = rng.text();
        let result = catalog.call(&name, if rng.below(3) == 0 { None } else { Some(&path) });
        if let Err(error) = result {
            let _ = error.to_string();
        }
    }
}

/// Opens the bytes both ways: lazily (every call and the full check must
/// not panic either), then eagerly, whose answer is returned. What the
/// eager way accepts, the lazy way accepts and checks.
fn open(bytes: &[u8], rng: &mut Rng) -> Result<(), DecodeError> {
    // Kept in a file and read a skill at a time: the same bytes.
    if let Ok(paged) = PagedBundle::open(Memory(bytes.to_vec()), bytes.len() as u64)
        && let Ok(catalog) = Catalog::paged(&paged)
    {
        exercise(&catalog, rng);
    }
    let lazy = Catalog::open(bytes);
    if let Ok(lazy) = &lazy {
        exercise(lazy, rng);
        for name in lazy.names() {
            if let Err(error) = lazy.call(name, None) {
                assert!(!error.to_string().is_empty());
            }
        }
        let _ = lazy.bundle();
        if let Err(error) = lazy.check() {
            assert!(!error.to_string().is_empty());
        }
    }
    let catalog = Catalog::from_bytes(bytes)?;
    let lazy = lazy.expect("what decodes eagerly opens lazily");
    assert_eq!(lazy.check(), Ok(()));
    assert_eq!(lazy.bundle(), catalog.bundle());
    exercise(&catalog, rng);
    Ok(())
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x5eed_0001);
    for round in 0..3000 {
        let len = rng.below(200);
        let mut bytes = rng.bytes(len);
        // Half the time, a valid header, so the body decoder sees the bytes.
        if round % 2 == 0 && bytes.len() >= 6 {
            bytes[..4].copy_from_slice(&skills_core::MAGIC);
            bytes[4..6].copy_from_slice(&skills_core::FORMAT_VERSION.to_le_bytes());
        }
        if let Err(error) = open(&bytes, &mut rng) {
            assert!(!error.to_string().is_empty());
        }
    }
}

#[test]
fn mutated_bundles_never_panic() {
    let valid = support::encode(&support::sample());
    let mut rng = Rng(0x5eed_0002);
    let mut decoded = 0;
    let mut refused = 0;
    for _ in 0..4000 {
        let mut bytes = valid.clone();
        for _ in 0..=rng.below(3) {
            let at = rng.below(bytes.len());
            match rng.below(7) {
                // Flip one bit.
                0 => bytes[at] ^= 1 << rng.below(8),
                // Overwrite a byte.
                1 => bytes[at] = rng.byte(),
                // Truncate.
                2 => bytes.truncate(at),
                // Bump what may be a length or a variant: small steps both ways.
                3 => bytes[at] = bytes[at].wrapping_add(rng.pick(&[1, 2, 0x7f, 0x80, 0xfe, 0xff])),
                // Make a varint huge: set continuation bits over a run.
                4 => {
                    for byte in bytes.iter_mut().skip(at).take(1 + rng.below(9)) {
                        *byte |= 0x80;
                    }
                }
                // Insert bytes.
                5 => {
                    let len = 1 + rng.below(4);
                    let extra = rng.bytes(len);
                    bytes.splice(at..at, extra);
                }
                // Remove a run.
                _ => {
                    let end = (at + 1 + rng.below(8)).min(bytes.len());
                    bytes.drain(at..end);
                }
            }
            if bytes.is_empty() {
                break;
            }
        }
        match open(&bytes, &mut rng) {
            Ok(()) => decoded += 1,
            Err(error) => {
                refused += 1;
                assert!(!error.to_string().is_empty());
            }
        }
    }
    // Both paths were exercised: some mutations still decode (a changed
    // text byte), most are refused.
    assert!(decoded > 50, "decoded {decoded}");
    assert!(refused > 50, "refused {refused}");
}

#[test]
fn arbitrary_arguments_never_panic() {
    let valid = support::encode(&support::sample());
    let catalog = Catalog::from_bytes(&valid).unwrap();
    let mut rng = Rng(0x5eed_0003);
    for _ in 0..3000 {
        let name = rng.text();
        let path = rng.text();
        match catalog.call(&name, Some(&path)) {
            Ok(served) => {
                assert!(catalog.lookup(&name).is_some());
                assert!(
                    skills_core::wire::path::is_valid_file_path(served.read.path)
                        || served.read.path.is_empty()
                );
            }
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
}

/// Every traversal shape, across every skill: refused as an invalid path.
#[test]
fn traversal_is_always_refused() {
    let valid = support::encode(&support::sample());
    let catalog = Catalog::from_bytes(&valid).unwrap();
    let mut rng = Rng(0x5eed_0004);
    for _ in 0..2000 {
        let mut path = rng.text();
        match rng.below(5) {
            0 => path.insert_str(0, "../"),
            1 => path.insert(0, '/'),
            2 => path.push_str("/../x"),
            3 => path.push('\\'),
            _ => path.push_str("//y"),
        }
        let name = rng.pick(&["pdf", "git-rebase", "team:pdf", "lower", "unknown"]);
        let error = catalog.call(name, Some(&path)).unwrap_err();
        assert!(
            matches!(error, skills_core::ToolError::InvalidPath { .. }),
            "{path:?} gave {error}"
        );
    }
}

#[cfg(feature = "json")]
#[test]
fn arbitrary_json_never_panics() {
    let valid = support::encode(&support::sample());
    let catalog = Catalog::from_bytes(&valid).unwrap();
    let mut rng = Rng(0x5eed_0005);
    const PIECES: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"name\"",
        "\"path\"",
        "\"pdf\"",
        "\"reference.md\"",
        "1",
        "-0.5e+3",
        "true",
        "null",
        "\"\\u12",
        "\\",
        "\"",
        " ",
        "\n",
        "é",
        "\"\\ud83d\"",
        "nul",
        "01",
        "{\"name\":\"pdf\"",
    ];
    for _ in 0..4000 {
        let mut json = String::new();
        for _ in 0..rng.below(12) {
            json.push_str(rng.pick(PIECES));
        }
        match catalog.call_json(&json) {
            Ok(served) => assert!(catalog.lookup(served.read.name).is_some()),
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
}
