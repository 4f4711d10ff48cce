//! Postcard all the way: every record of a bundle is what the postcard
//! crate writes for a serde type. Each bundle here (the committed skill
//! trees, signed ones, and generated ones) is decoded with the postcard
//! crate into serde mirror types of the layout and of every skill's
//! encoding, with nothing left over, and written back byte for byte. The
//! mirror types are the format's description in serde terms; the runtime's
//! own decoder (no serde) must agree with them on every byte.

use serde::{Deserialize, Serialize};
use skills_build::Builder;
use skills_build::source::MemorySource;

use crate::support;
use support::rng::Rng;

/// The body after the six header bytes (`MAGIC` and the format version).
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Layout<'a> {
    #[serde(borrow)]
    prompt: Option<&'a str>,
    usage: &'a str,
    tool_description: &'a str,
    tool_schema: &'a str,
    count: u64,
    /// The listed names, one after the other.
    names: &'a str,
    /// A fixed-width table: `count` little-endian `u32` ends into `names`.
    name_ends: &'a [u8],
    #[serde(borrow)]
    index: Index<'a>,
    /// A fixed-width table: `count` little-endian `u32` indices, the
    /// skills in the byte order of their `skill://` URIs.
    listing: &'a [u8],
    /// A fixed-width table: `count` little-endian `u32` ends into `details`.
    detail_ends: &'a [u8],
    /// Each skill's encoding ([`Skill`]), one after the other.
    details: &'a [u8],
    revision: [u8; 32],
    #[serde(borrow)]
    signatures: Vec<Signature<'a>>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
enum Index<'a> {
    /// A seeded hash table: one little-endian `u32` slot each.
    Hashed { seed: [u8; 4], slots: &'a [u8] },
    /// The skills in byte order of their names: `u32` indices.
    Sorted { order: &'a [u8] },
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Signature<'a> {
    key_id: &'a str,
    origin: &'a str,
    signature: &'a [u8],
}

/// A text of a skill: inline, or where it is in the skill's frontmatter.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
enum Text<'a> {
    Inline(&'a str),
    Frontmatter { at: u64, len: u64 },
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct ToolRule<'a> {
    tool: &'a str,
    #[serde(borrow)]
    spec: Option<&'a str>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
enum SkillFileName {
    Upper,
    Lower,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
enum Content<'a> {
    Text(&'a str),
    Image {
        media_type: &'a str,
        bytes: &'a [u8],
    },
    Binary {
        media_type: &'a str,
        bytes: &'a [u8],
    },
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct File<'a> {
    path: &'a str,
    sha256: [u8; 32],
    #[serde(borrow)]
    content: Content<'a>,
}

/// A skill's own encoding: every field but its name, which is in the
/// layout's name table.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Skill<'a> {
    frontmatter: &'a str,
    #[serde(borrow)]
    description: Text<'a>,
    location: &'a str,
    #[serde(borrow)]
    version: Option<Text<'a>>,
    #[serde(borrow)]
    tags: Vec<&'a str>,
    #[serde(borrow)]
    when_to_use: Vec<&'a str>,
    #[serde(borrow)]
    when_not_to_use: Vec<&'a str>,
    #[serde(borrow)]
    license: Option<Text<'a>>,
    #[serde(borrow)]
    compatibility: Option<Text<'a>>,
    #[serde(borrow)]
    metadata: Vec<(Text<'a>, Text<'a>)>,
    #[serde(borrow)]
    allowed_tools: Option<Text<'a>>,
    #[serde(borrow)]
    rules: Vec<ToolRule<'a>>,
    skill_file: SkillFileName,
    body_len: u64,
    instructions: &'a str,
    instructions_sha256: [u8; 32],
    frontmatter_sha256: [u8; 32],
    #[serde(borrow)]
    files: Vec<File<'a>>,
    #[serde(borrow)]
    skill_file_bytes: Option<&'a [u8]>,
    skill_file_size: u64,
    skill_file_sha256: [u8; 32],
    revision: [u8; 32],
    #[serde(borrow)]
    signatures: Vec<Signature<'a>>,
    #[serde(borrow)]
    frontmatter_json: Option<&'a str>,
    #[serde(borrow)]
    executables: Option<Vec<&'a str>>,
}

/// Decodes `bytes` as `T` with the postcard crate, nothing left over, and
/// checks that postcard writes the same bytes back.
fn round_trip<'a, T>(bytes: &'a [u8], what: &str) -> T
where
    T: Deserialize<'a> + Serialize,
{
    let (value, rest): (T, &[u8]) = postcard::take_from_bytes(bytes)
        .unwrap_or_else(|error| panic!("{what}: postcard cannot read it: {error}"));
    assert!(rest.is_empty(), "{what}: {} bytes left over", rest.len());
    let again = postcard::to_allocvec(&value).expect("postcard writes it");
    assert!(again == bytes, "{what}: postcard writes other bytes back");
    value
}

fn ends(table: &[u8]) -> Vec<usize> {
    table
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .collect()
}

/// Every record of `bundle` through the mirror types; returns how many
/// texts were inline and how many referred to the frontmatter.
fn check_bundle(bytes: &[u8], what: &str) -> (usize, usize) {
    assert_eq!(&bytes[..4], &skills_core::MAGIC);
    assert_eq!(
        u16::from_le_bytes([bytes[4], bytes[5]]),
        skills_core::FORMAT_VERSION
    );
    let layout: Layout<'_> = round_trip(&bytes[6..], what);
    let names = skills_core::wire::bundle::SkillEntry::list(bytes)
        .expect("the runtime opens it")
        .0;
    assert_eq!(layout.count as usize, names.len());
    let (mut inline, mut referred) = (0, 0);
    let mut start = 0;
    for (at, end) in ends(layout.detail_ends).into_iter().enumerate() {
        let detail = &layout.details[start..end];
        start = end;
        let name = names[at].name;
        let skill: Skill<'_> = round_trip(detail, &format!("{what}: skill {name}"));
        // The runtime's decoder reads the same values.
        let decoded = names[at].decode().expect("the runtime decodes it");
        assert_eq!(skill.frontmatter, decoded.frontmatter);
        assert_eq!(skill.instructions, decoded.instructions);
        assert_eq!(skill.files.len(), decoded.files.len());
        let mut count = |text: &Text<'_>| match text {
            Text::Inline(_) => inline += 1,
            Text::Frontmatter { .. } => referred += 1,
        };
        count(&skill.description);
        for text in [
            &skill.version,
            &skill.license,
            &skill.compatibility,
            &skill.allowed_tools,
        ]
        .into_iter()
        .flatten()
        {
            count(text);
        }
        for (key, value) in &skill.metadata {
            count(key);
            count(value);
        }
    }
    assert_eq!(start, layout.details.len());
    (inline, referred)
}

fn compiled(dir: &str, extensions: bool) -> Vec<u8> {
    Builder::new()
        .source(support::workspace().join(dir))
        .extensions(extensions)
        .compile()
        .unwrap_or_else(|error| panic!("{dir}: {error}"))
        .bytes
}

#[test]
fn committed_bundles_are_postcard_records() {
    for (dir, extensions) in [
        ("testdata/bundle", false),
        ("testdata/skills", false),
        ("tests/ui-skills/extensions", true),
        ("tests/ui-skills/valid", false),
    ] {
        check_bundle(&compiled(dir, extensions), dir);
    }
}

#[test]
fn signed_bundles_are_postcard_records() {
    use skills_build::unstable::keys::SecretKey;
    use skills_build::unstable::signing::{Signer, sign_bundle};
    let signer = Signer::new(SecretKey::from_seed([3; 32]), "https://skills.example").unwrap();
    let signed = sign_bundle(&compiled("testdata/skills", false), &signer).unwrap();
    check_bundle(&signed, "signed testdata/skills");
}

/// Skills drawn at random: texts quoted (inline) or plain (referred to),
/// metadata, allowed tools, CRLF skill files, images, binaries, nested
/// files.
#[test]
fn generated_bundles_are_postcard_records() {
    let mut rng = Rng(0x0005_eed0_fb0b);
    let words = [
        "pdf", "forms", "tables", "git", "rebase", "é", "naïve", "日本", "x",
    ];
    let (mut inline, mut referred) = (0, 0);
    for round in 0..12 {
        let mut source = MemorySource::new("generated");
        for n in 0..(1 + rng.below(20)) {
            let name = format!("skill-{round}-{n}");
            let mut phrase: Vec<&str> = (0..1 + rng.below(8))
                .map(|_| words[rng.below(words.len())])
                .collect();
            phrase.push("done");
            let phrase = phrase.join(" ");
            let description = match rng.below(3) {
                0 => phrase.clone(),
                1 => format!("\"{phrase} \\u00e9\""),
                _ => format!("'{phrase}'"),
            };
            let mut frontmatter = format!("name: {name}\ndescription: {description}\n");
            if rng.below(2) == 0 {
                frontmatter.push_str("license: MIT\ncompatibility: Needs git 2.40 or later\n");
            }
            if rng.below(2) == 0 {
                frontmatter.push_str("allowed-tools: Bash(git:*) Read\n");
            }
            if rng.below(2) == 0 {
                frontmatter.push_str(&format!(
                    "metadata:\n  author: {}\n  version: \"1.{}\"\n",
                    words[rng.below(words.len())],
                    rng.below(10)
                ));
            }
            let body = format!("# {name}\n\n{phrase}\n");
            let mut skill_md = format!("---\n{frontmatter}---\n{body}");
            if rng.below(4) == 0 {
                skill_md = skill_md.replace('\n', "\r\n");
            }
            source = source.with_file(format!("{name}/SKILL.md"), skill_md);
            if rng.below(2) == 0 {
                source = source.with_file(
                    format!("{name}/references/notes.md"),
                    phrase.repeat(1 + rng.below(50)),
                );
            }
            if rng.below(3) == 0 {
                source = source.with_file(
                    format!("{name}/assets/logo.png"),
                    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
                );
            }
            if rng.below(3) == 0 {
                let blob: Vec<u8> = (0..1 + rng.below(300))
                    .map(|_| rng.next_u64() as u8)
                    .collect();
                source = source.with_file(format!("{name}/data/blob.bin"), blob);
            }
        }
        let bytes = skills_build::compile_sources(&[&source])
            .unwrap_or_else(|error| panic!("round {round}: {error}"))
            .bytes;
        let (i, r) = check_bundle(&bytes, &format!("generated round {round}"));
        inline += i;
        referred += r;
    }
    // Both kinds of text were met.
    assert!(
        inline > 0 && referred > 0,
        "{inline} inline, {referred} referred"
    );
}

/// Issue 20, finding 8: two byte strings verified under one bundle
/// signature (a text inline instead of referred to, a sorted instead of a
/// hashed name index). Both still decode to the same skills, and a check
/// of the decoded bundle alone still passes; the exact bytes are refused.
#[test]
fn two_byte_strings_never_verify_under_one_signature() {
    use skills_build::unstable::keys::SecretKey;
    use skills_build::unstable::signing::{Signer, sign_bundle};
    use skills_core::trust::verify::{Check, TrustPolicy};

    let key = SecretKey::from_seed([9; 32]);
    let public = key.public_key();
    let signer = Signer::new(key, "https://skills.example")
        .unwrap()
        .key_id("k");
    let signed = sign_bundle(&compiled("testdata/skills", false), &signer).unwrap();
    let policy = TrustPolicy::new("https://skills.example")
        .unwrap()
        .trust("k", public.0)
        .unwrap();
    assert!(
        policy.verify_bytes(&signed).is_ok(),
        "the compiler's bytes verify"
    );

    let layout: Layout<'_> = round_trip(&signed[6..], "signed");
    let rewrite = |layout: &Layout<'_>, details: &[u8], ends: &[u8]| {
        let mut bytes = signed[..6].to_vec();
        let again = Layout {
            details,
            detail_ends: ends,
            index: match &layout.index {
                Index::Hashed { seed, slots } => Index::Hashed { seed: *seed, slots },
                Index::Sorted { order } => Index::Sorted { order },
            },
            signatures: layout
                .signatures
                .iter()
                .map(|s| Signature {
                    key_id: s.key_id,
                    origin: s.origin,
                    signature: s.signature,
                })
                .collect(),
            ..*layout
        };
        bytes.extend(postcard::to_allocvec(&again).unwrap());
        bytes
    };

    // A description written inline instead of where it is in the frontmatter.
    let mut details = Vec::new();
    let mut ends = Vec::new();
    let mut start = 0;
    let mut inlined = 0;
    for end in self::ends(layout.detail_ends) {
        let detail = &layout.details[start..end];
        start = end;
        let mut skill: Skill<'_> = round_trip(detail, "skill");
        if let Text::Frontmatter { at, len } = skill.description {
            skill.description = Text::Inline(&skill.frontmatter[at as usize..(at + len) as usize]);
            inlined += 1;
        }
        details.extend(postcard::to_allocvec(&skill).unwrap());
        ends.extend((details.len() as u32).to_le_bytes());
    }
    assert!(inlined > 0);
    let inline = rewrite(&layout, &details, &ends);
    assert_ne!(inline, signed);
    let decoded = skills_core::wire::bundle::Bundle::decode(&inline).expect("it decodes");
    let original = skills_core::wire::bundle::Bundle::decode(&signed).unwrap();
    assert_eq!(decoded, original, "the same skills, texts and all");
    assert!(
        policy.verify(&decoded).is_ok(),
        "the decoded bundle alone passes"
    );
    let error = policy.verify_bytes(&inline).unwrap_err();
    assert_eq!(error.check(), Some(&Check::NotCompilerEncoding), "{error}");

    // A sorted name index instead of the hashed one.
    let names: Vec<&str> = {
        let mut at = 0;
        self::ends(layout.name_ends)
            .into_iter()
            .map(|end| {
                let name = &layout.names[at..end];
                at = end;
                name
            })
            .collect()
    };
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_by_key(|&i| names[i as usize]);
    let order: Vec<u8> = order.iter().flat_map(|i| i.to_le_bytes()).collect();
    let sorted = Layout {
        index: Index::Sorted { order: &order },
        signatures: Vec::new(),
        ..layout
    };
    let mut sorted_bytes = signed[..6].to_vec();
    let with_signatures = Layout {
        signatures: round_trip::<Layout<'_>>(&signed[6..], "again").signatures,
        ..sorted
    };
    sorted_bytes.extend(postcard::to_allocvec(&with_signatures).unwrap());
    let catalog = skills_core::Catalog::open(&sorted_bytes).expect("it opens");
    assert!(catalog.lookup("pdf-forms").is_some(), "and serves");
    let error = policy.verify_bytes(&sorted_bytes).unwrap_err();
    assert!(
        matches!(error.check(), Some(Check::NotCompilerEncoding))
            || matches!(error, skills_core::trust::verify::VerifyError::Decode(_)),
        "{error}"
    );
}
