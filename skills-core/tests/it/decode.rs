//! Opening bundles: the header, the version, trailing bytes, the rules a
//! hostile bundle could break, and the static wrapper.

use crate::support;

use skills_core::wire::bundle::{Bundle, BundleError, Bytes, Content, File, Skill};
use skills_core::{Catalog, DecodeError, Embedded, FORMAT_VERSION, MAGIC};
use support::{encode, sample, with_bundle};

#[test]
fn header_layout() {
    assert_eq!(MAGIC, *b"SKB\0");
    assert_eq!(FORMAT_VERSION, 9);
    let bytes = encode(&sample());
    assert_eq!(&bytes[..4], b"SKB\0");
    assert_eq!(&bytes[4..6], &[9, 0]);
}

/// A bundle of the previous format (8, before file modes) is still read:
/// the one the documentation carried before format 9, decoded whole and
/// checked, its skills without modes.
#[test]
fn the_previous_format_is_read() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/core/format-8/example.bin"
    );
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[4..6], &[8, 0]);
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    catalog.check().unwrap();
    let bundle = Bundle::decode(&bytes).unwrap();
    assert_eq!(bundle.skills.len(), 2);
    assert!(
        bundle
            .skills
            .iter()
            .all(|skill| skill.executables.is_none())
    );
    assert!(catalog.lookup("pdf").is_some());
    // A skill of format 9 carries its modes, and they round-trip.
    let mut modes = sample();
    let path = modes[0].files[0].path.clone();
    modes[0].executables = Some(vec![path.clone()]);
    let encoded = encode(&modes);
    let again = Bundle::decode(&encoded).unwrap();
    let first = again
        .skills
        .iter()
        .find(|skill| skill.name == modes[0].name)
        .unwrap();
    assert_eq!(first.executables.as_deref(), Some(&[path.as_str()][..]));
}

#[test]
fn round_trip_and_determinism() {
    let bytes = encode(&sample());
    assert_eq!(bytes, encode(&sample()), "same skills, same bytes");
    // Files given in another order compile to the same bundle.
    let mut shuffled = sample();
    shuffled[0].files.reverse();
    assert_eq!(bytes, encode(&shuffled));
    let decoded = Bundle::decode(&bytes).unwrap();
    with_bundle(&sample(), |bundle| assert_eq!(&decoded, bundle));
    assert_eq!(Catalog::from_bytes(&bytes).unwrap().bundle(), &decoded);
}

#[test]
fn wrong_magic_and_short_input() {
    assert_eq!(
        Catalog::from_bytes(b"").unwrap_err(),
        DecodeError::TooShort { len: 0 }
    );
    assert_eq!(
        Catalog::from_bytes(b"SKB\0\x01").unwrap_err(),
        DecodeError::TooShort { len: 5 }
    );
    let error = Catalog::from_bytes(b"\x89PNG\r\n\x1a\n").unwrap_err();
    assert_eq!(error, DecodeError::BadMagic { found: *b"\x89PNG" });
    assert_eq!(
        error.to_string(),
        "not a skills bundle: it starts with b\"\\x89PNG\" where a bundle starts with b\"SKB\\x00\"; embed the bundle file skills-build wrote, unchanged"
    );
    assert_eq!(
        DecodeError::TooShort { len: 3 }.to_string(),
        "not a skills bundle: 3 bytes is shorter than the 6-byte header; embed the bundle file skills-build wrote, unchanged"
    );
}

#[test]
fn other_format_versions_name_both_versions() {
    let mut bytes = encode(&sample());
    for version in [0u16, 1, 7, 10, 0x0100, u16::MAX] {
        bytes[4..6].copy_from_slice(&version.to_le_bytes());
        let error = Catalog::from_bytes(&bytes).unwrap_err();
        assert_eq!(error, DecodeError::UnsupportedVersion { found: version });
        assert_eq!(
            error.to_string(),
            format!(
                "the skills bundle has format version {version}, but skills-runtime {} reads format versions 8 and {FORMAT_VERSION}; \
                 build the bundle with the skills-build release matching this skills-runtime",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
}

#[test]
fn trailing_and_missing_bytes() {
    let mut bytes = encode(&sample());
    bytes.push(0);
    let error = Catalog::from_bytes(&bytes).unwrap_err();
    assert_eq!(error, DecodeError::TrailingBytes { count: 1 });
    assert_eq!(
        error.to_string(),
        "the skills bundle is followed by 1 unexpected bytes; embed the bundle file skills-build wrote, unchanged"
    );
    bytes.pop();
    bytes.pop();
    let error = Catalog::from_bytes(&bytes).unwrap_err();
    assert!(matches!(error, DecodeError::Corrupt(_)), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with("the skills bundle is corrupt ("),
        "{error}"
    );
}

/// The listing order (format 8) is checked by a full decode and by
/// `Catalog::check`; a lazily opened catalog reads it as given, bounded:
/// a listing through a forged order can repeat or leave out a skill, never
/// name one that is not there.
#[test]
fn a_forged_listing_order_is_refused_and_bounded() {
    let skill = |name| Skill {
        name,
        ..Skill::default()
    };
    let bundle = Bundle {
        skills: vec![skill("b"), skill("a")],
        ..Bundle::default()
    };
    let bytes = bundle.encode().unwrap();
    let written = [8u8, 1, 0, 0, 0, 0, 0, 0, 0];
    let at = bytes
        .windows(written.len())
        .position(|w| w == written)
        .expect("the listing table: a before b");
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    assert_eq!(
        (catalog.listed(0), catalog.listed(1), catalog.listed(2)),
        (Some(1), Some(0), None)
    );
    for forged in [
        [0u8, 0, 0, 0, 1, 0, 0, 0],
        [1, 0, 0, 0, 1, 0, 0, 0],
        [9, 0, 0, 0, 0, 0, 0, 0],
    ] {
        let mut bytes = bytes.clone();
        bytes[at + 1..at + 9].copy_from_slice(&forged);
        assert_eq!(
            Catalog::from_bytes(&bytes).unwrap_err(),
            DecodeError::Invalid(BundleError::BadListing),
            "{forged:?}"
        );
        let lazy = Catalog::open(&bytes).unwrap();
        assert_eq!(
            lazy.check(),
            Err(DecodeError::Invalid(BundleError::BadListing))
        );
        for position in 0..3 {
            assert!(lazy.listed(position).is_none_or(|at| at < 2));
        }
    }
}

#[test]
fn text_files_must_be_utf8() {
    // A text file is a string on the wire: invalid UTF-8 there is corrupt.
    let file = File {
        path: "a",
        sha256: [0; 32],
        content: Content::Binary {
            media_type: "x",
            bytes: Bytes(b"\xff\xfe"),
        },
    };
    let bundle = Bundle {
        skills: vec![Skill {
            name: "s",
            files: vec![file],
            ..Skill::default()
        }],
        ..Bundle::default()
    };
    let mut bytes = bundle.encode().unwrap();
    // `Binary { media_type: "x", bytes }` is `2, 1, 'x', len, bytes...`; cutting the
    // variant and the media type down to `0` leaves `Text` over the same bytes.
    let at = bytes
        .windows(3)
        .position(|w| w == [2, 1, b'x'])
        .expect("variant found");
    bytes.splice(at..at + 3, [0]);
    assert!(matches!(
        Catalog::from_bytes(&bytes),
        Err(DecodeError::Corrupt(_))
    ));
}

#[test]
fn bundle_error_messages() {
    let skill = || "s".to_string();
    assert_eq!(
        BundleError::InvalidFilePath {
            skill: skill(),
            path: "../x".into()
        }
        .to_string(),
        "skill \"s\" has a file at \"../x\", which is not a relative `/`-separated path without empty, `.` or `..` segments, backslashes or control characters"
    );
    assert_eq!(
        BundleError::ShadowedBySkillFile {
            skill: skill(),
            path: "skill.md".into()
        }
        .to_string(),
        "skill \"s\" has a file \"skill.md\", which a read would take for the skill file; rename or exclude it"
    );
    assert_eq!(
        BundleError::FilesOutOfOrder {
            skill: skill(),
            path: "a".into()
        }
        .to_string(),
        "the files of skill \"s\" are not sorted by path in byte order, or repeat, at \"a\""
    );
    assert_eq!(
        BundleError::BodyOutOfRange { skill: skill() }.to_string(),
        "skill \"s\" has a body length outside its instructions text"
    );
}

static SAMPLE: std::sync::LazyLock<&'static [u8]> =
    std::sync::LazyLock::new(|| Box::leak(encode(&sample()).into_boxed_slice()));

#[test]
fn embedded_decodes_once() {
    let skills = Embedded::new(&SAMPLE);
    assert_eq!(skills.bytes().len(), SAMPLE.len());
    assert!(format!("{skills:?}").contains("decoded: false"));
    let first = skills.catalog().unwrap();
    let second = skills.catalog().unwrap();
    assert!(std::ptr::eq(first, second));
    assert!(format!("{skills:?}").contains("decoded: true"));
    assert_eq!(
        first.call("git-rebase", None).unwrap().read.name,
        "git-rebase"
    );

    static BROKEN: Embedded = Embedded::new(b"SKB\0\xff\x00");
    assert_eq!(
        BROKEN.catalog().unwrap_err(),
        DecodeError::UnsupportedVersion { found: 255 }
    );
    assert_eq!(
        BROKEN.catalog().unwrap_err(),
        DecodeError::UnsupportedVersion { found: 255 }
    );
}

#[test]
fn embedded_is_shared_across_threads() {
    let skills: &'static Embedded = Box::leak(Box::new(Embedded::new(&SAMPLE)));
    let addresses: Vec<usize> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| std::ptr::from_ref(skills.catalog().unwrap()) as usize))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(addresses.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_large_catalog_looks_names_up() {
    let skills: Vec<_> = (0..500)
        .rev()
        .map(|i| support::TestSkill::new(&format!("skill-{i:03}"), "d", "b"))
        .collect();
    let bytes = encode(&skills);
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    assert_eq!(catalog.names().next(), Some("skill-499"));
    for i in 0..500 {
        let name = format!("skill-{i:03}");
        assert_eq!(catalog.lookup(&name).unwrap().name, name);
    }
    assert!(catalog.lookup("skill-500").is_none());
    assert!(catalog.lookup("skill-").is_none());
}

/// One meaning, one byte string: a length re-encoded in a longer varint
/// form still means the same bundle, but has another SHA-256, so it is
/// refused (issue 10, finding 7).
#[test]
fn overlong_varints_are_refused() {
    let prompt = "p".repeat(5);
    let bundle = Bundle {
        prompt: Some(&prompt),
        skills: vec![Skill {
            name: "a",
            description: "d",
            ..Skill::default()
        }],
        ..Bundle::default()
    };
    let bytes = bundle.encode().unwrap();
    assert_eq!(bytes[7], 5, "the prompt's length, one byte after its tag");

    // The prompt's length as 0x85 0x00: five, in two bytes.
    let mut overlong = bytes[..7].to_vec();
    overlong.extend_from_slice(&[0x85, 0x00]);
    overlong.extend_from_slice(&bytes[8..]);
    for error in [
        Catalog::from_bytes(&overlong).unwrap_err(),
        Catalog::open(&overlong).unwrap_err(),
        Bundle::decode(&overlong).unwrap_err(),
    ] {
        assert!(
            matches!(error, DecodeError::Corrupt(e) if e.kind == skills_core::wire::postcard::WireErrorKind::NonCanonicalVarint && e.offset == 1),
            "{error:?}"
        );
        assert!(
            error.to_string().contains("non-canonical varint"),
            "{error}"
        );
    }

    // Inside a skill's own encoding (decoded lazily by `open`): the first
    // field, the frontmatter, is empty; write its length 0 as 0x80 0x00 and
    // grow the skill's end (the table of ends just before the area of
    // encodings: its length 4, then the end as a u32) and the area's
    // length prefix by one.
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let detail = skills_core::wire::bundle::SkillEntry::encode(&catalog.bundle().skills[0]).detail;
    let varint = |mut n: usize| {
        let mut out = Vec::new();
        while n >= 0x80 {
            out.push(n as u8 | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
        out
    };
    let mut framed = varint(detail.len());
    framed.extend_from_slice(&detail);
    let at = bytes
        .windows(framed.len())
        .position(|w| w == framed)
        .expect("the skill's length-prefixed encoding");
    assert_eq!(detail[0], 0, "an empty frontmatter");
    let ends = at - 5;
    assert_eq!(bytes[ends], 4, "one end of four bytes");
    assert_eq!(bytes[ends + 1..at], (detail.len() as u32).to_le_bytes());
    let mut nested = bytes[..ends + 1].to_vec();
    nested.extend_from_slice(&(detail.len() as u32 + 1).to_le_bytes());
    nested.extend_from_slice(&varint(detail.len() + 1));
    nested.extend_from_slice(&[0x80, 0x00]);
    nested.extend_from_slice(&detail[1..]);
    nested.extend_from_slice(&bytes[at + framed.len()..]);
    assert!(matches!(
        Catalog::from_bytes(&nested),
        Err(DecodeError::Corrupt(_))
    ));
    let lazy = Catalog::open(&nested).expect("the head is canonical");
    assert!(matches!(lazy.check(), Err(DecodeError::Corrupt(_))));
}
