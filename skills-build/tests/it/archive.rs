//! `.skill` and `.zip` archives: a build from an archive gives the bundle
//! its folder gives (the Claude packager's archives included), and hostile
//! archives are refused with a clear error in bounded memory. Packing
//! (`skills pack`) is tested with the command, in skills-cmd.
#![cfg(feature = "archive")]
// A counting allocator (below) is the one use of `unsafe` here: it only
// forwards to the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};

use skills_build::Builder;
use skills_build::source::Source;
use skills_build::unstable::archive::{ArchiveSource, Expect, Limits, crc32};

use crate::support;
use support::tree;
use tree::copy_tree;

/// The skill folders at an archive's root, in name order.
fn folders(source: &ArchiveSource) -> Vec<String> {
    let root = source.list("").unwrap();
    root.into_iter().map(|entry| entry.name).collect()
}

/// The system allocator, counting the bytes each thread holds, so a test
/// can bound the memory one call needs.
struct Counting;

thread_local! {
    static HELD: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = HELD.try_with(|held| {
            let now = held.get() + layout.size();
            held.set(now);
            let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
        });
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = HELD.try_with(|held| held.set(held.get().saturating_sub(layout.size())));
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes this thread held at once while `f` ran, above what it
/// held before.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(base));
    let out = f();
    (out, PEAK.with(Cell::get) - base)
}

fn temp_dir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skills-archive-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bundle of one source, as a build script's `Builder` makes it.
fn bundle(source: &Path, excludes: &[&str]) -> Vec<u8> {
    let mut builder = Builder::new().source(source);
    for pattern in excludes {
        builder = builder.exclude(*pattern);
    }
    match builder.compile() {
        Ok(compiled) => compiled.bytes,
        Err(error) => panic!("{} does not compile: {error}", source.display()),
    }
}

#[test]
fn the_claude_packagers_archive_builds_like_the_folder() {
    let root = support::workspace().join("testdata/archive");
    let folder_bundle = bundle(&root.join("skills"), &[]);
    assert_eq!(
        bundle(&root.join("report-writer.skill"), &[]),
        folder_bundle
    );
    let source = ArchiveSource::open(root.join("report-writer.skill")).unwrap();
    assert_eq!(folders(&source), ["report-writer"]);
}

/// What the Claude packager leaves out of an archive, as exclude rules.
const CLAUDE_EXCLUDES: [&str; 4] = ["__pycache__", "node_modules", "*.pyc", ".DS_Store"];

/// Runs the committed packager script when Python is here: on a copy of
/// the folder holding junk it must leave out, its archive still builds the
/// folder's bundle.
#[test]
fn a_fresh_archive_from_the_python_packager_builds_like_the_folder() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if !python.is_ok_and(|out| out.status.success()) {
        eprintln!("python3 is not here; the committed archive stands in for it");
        return;
    }
    let root = support::workspace().join("testdata/archive");
    let tmp = temp_dir("python");
    let folder = tmp.join("report-writer");
    copy_tree(&root.join("skills/report-writer"), &folder);
    for junk in [
        "scripts/__pycache__/a.pyc",
        "node_modules/x/i.js",
        ".DS_Store",
    ] {
        let path = folder.join(junk);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "junk").unwrap();
    }
    let archive = tmp.join("out.skill");
    let status = std::process::Command::new("python3")
        .arg(root.join("claude_package.py"))
        .arg(&folder)
        .arg(&archive)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(bundle(&archive, &[]), bundle(&root.join("skills"), &[]));
    // Ours, built from the junk-laden folder, is the same bundle too.
    assert_eq!(
        bundle(&tmp, &CLAUDE_EXCLUDES),
        bundle(&root.join("skills"), &[]),
        "the folder with its junk excluded"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn builder_tracks_the_archive_itself() {
    let archive = support::workspace().join("testdata/archive/report-writer.skill");
    let (result, inputs) = Builder::new().source(&archive).compile_with_inputs();
    assert!(result.is_ok());
    assert_eq!(inputs, [archive]);
}

// ---- hostile archives -------------------------------------------------

/// One entry as a hostile archive spells it, every field chosen by the
/// test.
#[derive(Clone)]
struct Raw {
    name: Vec<u8>,
    data: Vec<u8>,
    method: u16,
    crc: u32,
    size: u64,
    mode: u32,
    flags: u16,
    /// The "made by" host (3: Unix).
    host: u8,
}

impl Raw {
    fn stored(name: &str, bytes: &[u8]) -> Raw {
        Raw {
            name: name.as_bytes().to_vec(),
            data: bytes.to_vec(),
            method: 0,
            crc: crc32(bytes),
            size: bytes.len() as u64,
            mode: 0o100_644,
            flags: 0,
            host: 3,
        }
    }

    fn deflated(name: &str, bytes: &[u8]) -> Raw {
        Raw {
            data: miniz_oxide::deflate::compress_to_vec(bytes, 6),
            method: 8,
            ..Raw::stored(name, bytes)
        }
    }
}

/// A zip of `entries` as given, sizes of 4 GiB and more in zip64 fields.
fn raw_zip(entries: &[Raw]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let offset = out.len() as u32;
        let big = e.size > u64::from(u32::MAX);
        let extra: Vec<u8> = if big {
            let mut x = vec![1, 0, 8, 0];
            x.extend_from_slice(&e.size.to_le_bytes());
            x
        } else {
            Vec::new()
        };
        let size32 = if big { u32::MAX } else { e.size as u32 };
        let fields = |buf: &mut Vec<u8>| {
            buf.extend_from_slice(&45u16.to_le_bytes());
            buf.extend_from_slice(&e.flags.to_le_bytes());
            buf.extend_from_slice(&e.method.to_le_bytes());
            buf.extend_from_slice(&[0, 0, 0x21, 0]);
            buf.extend_from_slice(&e.crc.to_le_bytes());
            buf.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
            buf.extend_from_slice(&size32.to_le_bytes());
            buf.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
            buf.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        };
        out.extend_from_slice(b"PK\x03\x04");
        fields(&mut out);
        out.extend_from_slice(&e.name);
        out.extend_from_slice(&extra);
        out.extend_from_slice(&e.data);
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&(u16::from(e.host) << 8 | 0x14).to_le_bytes());
        fields(&mut central);
        central.extend_from_slice(&[0; 6]);
        central.extend_from_slice(&(e.mode << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(&e.name);
        central.extend_from_slice(&extra);
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

const SKILL: &[u8] = b"---\nname: pdf\ndescription: Fill PDF forms. Use for forms.\n---\nGo.\n";

fn skill_entry() -> Raw {
    Raw::deflated("pdf/SKILL.md", SKILL)
}

/// The error text opening `bytes` as a `.skill` gives, and the memory
/// that took.
fn refusal_with(bytes: &[u8], limits: &Limits) -> (String, usize) {
    let (result, peak) =
        peak_during(|| ArchiveSource::from_bytes("bad.skill", bytes, Expect::OneFolder, limits));
    match result {
        Ok(source) => panic!("accepted: {:?}", folders(&source)),
        Err(error) => {
            let text = error.to_string();
            assert!(text.starts_with("bad.skill: "), "{text}");
            (text, peak)
        }
    }
}

fn refusal(bytes: &[u8]) -> String {
    let (text, peak) = refusal_with(bytes, &Limits::default());
    assert!(peak < 4 << 20, "{peak} bytes to refuse: {text}");
    text
}

#[test]
fn a_well_formed_raw_archive_is_accepted() {
    let bytes = raw_zip(&[skill_entry(), Raw::stored("pdf/notes/a.md", b"a")]);
    let source =
        ArchiveSource::from_bytes("ok.skill", &bytes, Expect::OneFolder, &Limits::default())
            .unwrap();
    let compiled = skills_build::compile_sources(&[&source]).unwrap();
    let catalog = skills_core::Catalog::from_bytes(&compiled.bytes).unwrap();
    assert_eq!(catalog.names().collect::<Vec<_>>(), ["pdf"]);
}

/// An archive made on Unix carries each file's mode: the bundle lists the
/// executable ones (not a guess from the path); one made elsewhere
/// carries none, and the bundle says so (`None`).
#[test]
fn an_archives_unix_modes_are_the_bundles() {
    let tool = Raw {
        mode: 0o100_755,
        ..Raw::stored("pdf/bin/tool", b"echo hi")
    };
    let unix = raw_zip(&[
        skill_entry(),
        tool,
        Raw::stored("pdf/scripts/notes.md", b"a"),
    ]);
    let source =
        ArchiveSource::from_bytes("m.skill", &unix, Expect::OneFolder, &Limits::default()).unwrap();
    let compiled = skills_build::compile_sources(&[&source]).unwrap();
    let bundle = skills_core::wire::bundle::Bundle::decode(&compiled.bytes).unwrap();
    assert_eq!(
        bundle.skills[0].executables.as_deref(),
        Some(&["bin/tool"][..])
    );
    let elsewhere: Vec<Raw> = [skill_entry(), Raw::stored("pdf/bin/tool", b"echo hi")]
        .into_iter()
        .map(|raw| Raw { host: 0, ..raw })
        .collect();
    let bytes = raw_zip(&elsewhere);
    let source =
        ArchiveSource::from_bytes("d.skill", &bytes, Expect::OneFolder, &Limits::default())
            .unwrap();
    let compiled = skills_build::compile_sources(&[&source]).unwrap();
    let bundle = skills_core::wire::bundle::Bundle::decode(&compiled.bytes).unwrap();
    assert_eq!(bundle.skills[0].executables, None);
}

#[test]
fn entries_that_escape_are_refused() {
    for name in [
        "pdf/../../etc/passwd",
        "../pdf/SKILL.md",
        "/etc/passwd",
        "pdf/scripts\\..\\..\\x",
        "C:/pdf/x",
        "pdf//x",
        "pdf/./x",
        "pdf/\u{1b}[31mx",
    ] {
        let text = refusal(&raw_zip(&[skill_entry(), Raw::stored(name, b"x")]));
        assert!(text.contains("outside its folder"), "{name}: {text}");
    }
    let mut latin1 = Raw::stored("pdf/x", b"x");
    latin1.name = b"pdf/caf\xe9".to_vec();
    assert!(refusal(&raw_zip(&[skill_entry(), latin1])).contains("not UTF-8"));
}

#[test]
fn symlinks_and_special_files_are_refused() {
    let mut link = Raw::stored("pdf/leak", b"/etc/passwd");
    link.mode = 0o120_777;
    let text = refusal(&raw_zip(&[skill_entry(), link]));
    assert!(text.contains("\"pdf/leak\" is a symbolic link"), "{text}");
    let mut fifo = Raw::stored("pdf/pipe", b"");
    fifo.mode = 0o010_644;
    assert!(refusal(&raw_zip(&[skill_entry(), fifo])).contains("FIFO"));
}

#[test]
fn duplicates_are_refused() {
    let text = refusal(&raw_zip(&[skill_entry(), skill_entry()]));
    assert!(text.contains("\"pdf/SKILL.md\" appears twice"), "{text}");
    let text = refusal(&raw_zip(&[
        skill_entry(),
        Raw::stored("pdf/a", b"file"),
        Raw::stored("pdf/a/b", b"inside"),
    ]));
    assert!(text.contains("\"pdf/a\" appears twice"), "{text}");
}

#[test]
fn the_layout_must_be_one_folder() {
    let two = raw_zip(&[skill_entry(), Raw::deflated("doc/SKILL.md", SKILL)]);
    let text = refusal(&two);
    assert!(text.contains("holds 2: doc, pdf"), "{text}");
    // A .zip may hold several.
    let source =
        ArchiveSource::from_bytes("two.zip", &two, Expect::Folders, &Limits::default()).unwrap();
    assert_eq!(folders(&source), ["doc", "pdf"]);
    let text = refusal(&raw_zip(&[Raw::stored("SKILL.md", SKILL)]));
    assert!(text.contains("not inside a skill folder"), "{text}");
    assert!(refusal(&raw_zip(&[])).contains("holds no skill folder"));
}

#[test]
fn an_entry_declaring_10_gb_from_1_kb_is_refused_before_inflating() {
    let mut bomb = Raw::deflated("pdf/zeros.bin", &[0u8; 1024 * 1024]);
    bomb.data.truncate(1024);
    bomb.size = 10 << 30;
    let bytes = raw_zip(&[skill_entry(), bomb]);
    let text = refusal(&bytes);
    assert!(text.contains("over the 268435456-byte limit"), "{text}");
    // With room for it, the ratio refuses it.
    let roomy = Limits {
        max_total: u64::MAX,
        ..Limits::default()
    };
    let (text, peak) = refusal_with(&bytes, &roomy);
    assert!(text.contains("ratio over 100:1"), "{text}");
    assert!(peak < 1 << 20, "{peak}");
}

/// A deflate stream of `n` zero bytes, compressed in pieces so the zeros
/// never sit in memory at once.
fn deflated_zeros(n: usize) -> Vec<u8> {
    use miniz_oxide::deflate::core::{
        CompressorOxide, TDEFLFlush, TDEFLStatus, compress, create_comp_flags_from_zip_params,
    };
    let mut compressor = CompressorOxide::new(create_comp_flags_from_zip_params(1, -15, 0));
    let zeros = vec![0u8; 64 * 1024];
    let mut out = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut left = n;
    loop {
        let take = left.min(zeros.len());
        let flush = if take == left {
            TDEFLFlush::Finish
        } else {
            TDEFLFlush::None
        };
        let (status, used, written) = compress(&mut compressor, &zeros[..take], &mut buf, flush);
        out.extend_from_slice(&buf[..written]);
        left -= used;
        match status {
            TDEFLStatus::Done => return out,
            TDEFLStatus::Okay => {}
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn an_entry_inflating_past_its_declared_size_is_stopped() {
    // Declared as 1 KiB; really 64 MiB of zeros.
    let data = deflated_zeros(64 << 20);
    let lying = Raw {
        data,
        method: 8,
        crc: 0,
        size: 1024,
        ..Raw::stored("pdf/zeros.bin", b"")
    };
    let bytes = raw_zip(&[skill_entry(), lying]);
    let (text, peak) = refusal_with(&bytes, &Limits::default());
    assert!(
        text.contains("inflates past the size its header declares"),
        "{text}"
    );
    assert!(peak < 1 << 20, "{peak} bytes to refuse it");
}

#[test]
fn the_total_bound_counts_every_entry() {
    let entries: Vec<Raw> = (0..5)
        .map(|i| Raw::stored(&format!("pdf/f{i}"), &[b'x'; 1000]))
        .chain([skill_entry()])
        .collect();
    let limits = Limits {
        max_total: 4000,
        ..Limits::default()
    };
    let (text, _) = refusal_with(&raw_zip(&entries), &limits);
    assert!(text.contains("over the 4000-byte limit"), "{text}");
}

#[test]
fn damaged_archives_are_refused() {
    let good = raw_zip(&[skill_entry(), Raw::deflated("pdf/r.md", b"reference text")]);
    // Every truncation is an error, never a panic.
    for len in 0..good.len() {
        let text = refusal(&good[..len]);
        assert!(
            text.contains("truncated") || text.contains("not a zip"),
            "{len}: {text}"
        );
    }
    let mut bad_crc = skill_entry();
    bad_crc.crc ^= 1;
    assert!(refusal(&raw_zip(&[bad_crc])).contains("CRC-32"));
    let mut encrypted = skill_entry();
    encrypted.flags = 1;
    assert!(refusal(&raw_zip(&[encrypted])).contains("encrypted"));
    let mut bzip = skill_entry();
    bzip.method = 12;
    assert!(refusal(&raw_zip(&[bzip])).contains("compression method 12"));
    let mut garbage = skill_entry();
    garbage.data = vec![0xff; 40];
    assert!(refusal(&raw_zip(&[garbage])).contains("not valid deflate data"));
}

#[test]
fn overlapping_entries_are_refused() {
    // Two central-directory entries pointing at one local entry.
    let one = raw_zip(&[skill_entry()]);
    let cd_start =
        u32::from_le_bytes(one[one.len() - 6..one.len() - 2].try_into().unwrap()) as usize;
    let end = one.len() - 22;
    let record = &one[cd_start..end];
    let mut bytes = one[..cd_start].to_vec();
    bytes.extend_from_slice(record);
    bytes.extend_from_slice(record);
    bytes.extend_from_slice(b"PK\x05\x06\0\0\0\0\x02\0\x02\0");
    bytes.extend_from_slice(&(2 * record.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&(cd_start as u32).to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    let text = refusal(&bytes);
    assert!(
        text.contains("appears twice") || text.contains("shares"),
        "{text}"
    );
}

#[test]
fn a_file_that_is_not_a_zip_is_refused_by_every_route() {
    let tmp = temp_dir("notzip");
    let fake = tmp.join("pdf.skill");
    std::fs::write(&fake, "---\nname: pdf\n---\nnot a zip\n").unwrap();
    let error = ArchiveSource::open(&fake).unwrap_err();
    assert!(error.to_string().contains("not a zip archive"), "{error}");
    let error = Builder::new().source(&fake).compile().unwrap_err();
    assert_eq!(error.problems.len(), 1);
    assert!(
        error.problems[0]
            .message
            .contains("cannot open the archive")
            && error.problems[0].message.contains("not a zip archive"),
        "{error}"
    );
    assert_eq!(
        error.problems[0].file.as_deref(),
        Some(fake.to_str().unwrap())
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

use support::rng;

/// Random damage to a real archive: every result is an answer (a source
/// or an error), never a panic, in bounded memory.
#[test]
fn mutated_archives_never_panic_and_stay_bounded() {
    let original =
        std::fs::read(support::workspace().join("testdata/archive/report-writer.skill")).unwrap();
    let mut rng = rng::Rng(0x2a2a_7e57_0bad_f00d);
    let (mut opened, mut refused) = (0usize, 0usize);
    for _ in 0..3000 {
        let mut bytes = original.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = rng.next_u64() as u8,
                1 => bytes[at] ^= 1 << rng.below(8),
                2 => bytes[at] = [0x00, 0xff, 0x7f, 0x80][rng.below(4)],
                _ => bytes.truncate(at),
            }
            if bytes.is_empty() {
                break;
            }
        }
        let (result, peak) = peak_during(|| {
            ArchiveSource::from_bytes("m.skill", &bytes, Expect::OneFolder, &Limits::default())
        });
        assert!(peak < 16 << 20, "{peak} bytes");
        match result {
            Ok(_) => opened += 1,
            Err(_) => refused += 1,
        }
    }
    // Most damage is caught (CRC-32, sizes, signatures); some lands in
    // places that do not matter (a timestamp, a mode bit).
    assert!(
        refused > 2000 && opened > 10,
        "{opened} opened, {refused} refused"
    );
}

// ---- issue 20: archives other readers read differently ----------------

/// `bytes` with its end record's comment set to `comment`.
fn with_comment(mut bytes: Vec<u8>, comment: &[u8]) -> Vec<u8> {
    let at = bytes.len() - 2;
    bytes[at..].copy_from_slice(&(comment.len() as u16).to_le_bytes());
    bytes.extend_from_slice(comment);
    bytes
}

const DECOY: &[u8] = b"---\nname: pdf\ndescription: Harmless. Reviewed.\n---\nNothing to see.\n";

/// Finding 4: a decoy archive in the end record's comment is what
/// Python's `zipfile` and `unzip` read (they take the last end record);
/// we refuse the archive rather than compile the one they do not show.
#[test]
fn a_decoy_directory_in_the_comment_is_refused() {
    let real = raw_zip(&[skill_entry()]);
    let decoy = raw_zip(&[Raw::deflated("pdf/SKILL.md", DECOY)]);
    let text = refusal(&with_comment(real.clone(), &decoy));
    assert!(text.contains("other zip readers could unpack"), "{text}");
    // The decoy's own end record also ends the file: two candidates.
    assert!(
        text.contains("comment holds a zip signature")
            || text.contains("more than one end-of-central-directory record"),
        "{text}"
    );
    // A decoy directory alone (its end record cut off) in the comment.
    let cut = &decoy[..decoy.len() - 22];
    let text = refusal(&with_comment(real.clone(), cut));
    assert!(text.contains("comment holds a zip signature"), "{text}");
    // A comment of plain text is fine.
    let commented = with_comment(real, b"packed by hand");
    ArchiveSource::from_bytes(
        "ok.skill",
        &commented,
        Expect::OneFolder,
        &Limits::default(),
    )
    .unwrap();
}

/// Finding 4: a second end record that also ends at the end of the file
/// (one inside the other's comment) is a second archive.
#[test]
fn a_second_end_record_is_refused() {
    let real = raw_zip(&[skill_entry()]);
    let record = real[real.len() - 22..].to_vec();
    // The outer record's comment is exactly the inner record.
    let mut outer = record.clone();
    let at = outer.len() - 2;
    outer[at..].copy_from_slice(&22u16.to_le_bytes());
    let mut bytes = real[..real.len() - 22].to_vec();
    bytes.extend_from_slice(&outer);
    bytes.extend_from_slice(&record);
    let text = refusal(&bytes);
    assert!(
        text.contains("more than one end-of-central-directory record")
            || text.contains("comment holds a zip signature"),
        "{text}"
    );
}

/// Finding 4: bytes that belong to no entry (before the first entry,
/// between the directory and its end record, inside the directory) are
/// where readers part ways (Python and unzip then look for the directory
/// `size` bytes before the end record).
#[test]
fn bytes_that_belong_to_no_entry_are_refused() {
    let real = raw_zip(&[skill_entry()]);
    let cd_offset = u32::from_le_bytes(real[real.len() - 6..real.len() - 2].try_into().unwrap());
    // Prepended bytes, every offset moved past them: a consistent archive
    // for us, with room for a decoy local entry a scanner would read.
    let prefix = raw_zip(&[Raw::deflated("pdf/SKILL.md", DECOY)]);
    let shift = prefix.len() as u32;
    let mut moved = prefix.clone();
    moved.extend_from_slice(&real);
    let end = moved.len() - 22;
    let cd = (cd_offset + shift) as usize;
    // The central entry's local offset (at 42) and the end record's.
    let local = u32::from_le_bytes(moved[cd + 42..cd + 46].try_into().unwrap()) + shift;
    moved[cd + 42..cd + 46].copy_from_slice(&local.to_le_bytes());
    moved[end + 16..end + 20].copy_from_slice(&(cd_offset + shift).to_le_bytes());
    let text = refusal(&moved);
    assert!(text.contains("belong to no entry"), "{text}");
    // A gap between the directory and the end record.
    let mut gap = real[..real.len() - 22].to_vec();
    gap.extend_from_slice(b"GAP!");
    gap.extend_from_slice(&real[real.len() - 22..]);
    let text = refusal(&gap);
    assert!(
        text.contains("between the central directory and its end record"),
        "{text}"
    );
}

/// Finding 4: local and central headers that disagree (unzip takes the
/// compression method and sizes from the local header).
#[test]
fn local_and_central_headers_that_disagree_are_refused() {
    let good = raw_zip(&[Raw::stored("pdf/SKILL.md", SKILL)]);
    for (offset, what) in [
        (8, "compression method"),
        (6, "flags"),
        (14, "CRC-32"),
        (22, "size"),
    ] {
        let mut bytes = good.clone();
        bytes[offset] ^= 0x08;
        let text = refusal(&bytes);
        assert!(text.contains("local header"), "{what}: {text}");
        assert!(text.contains("gives another"), "{what}: {text}");
    }
    // An Info-ZIP Unicode Path field naming another file.
    let mut entry = Raw::stored("pdf/SKILL.md", SKILL);
    entry.name = b"pdf/SKILL.md".to_vec();
    let mut bytes = raw_zip(&[entry]);
    let cd =
        u32::from_le_bytes(bytes[bytes.len() - 6..bytes.len() - 2].try_into().unwrap()) as usize;
    let mut field = vec![0x75, 0x70];
    let other = b"pdf/OTHER.md";
    field.extend_from_slice(&((5 + other.len()) as u16).to_le_bytes());
    field.push(1);
    field.extend_from_slice(&crc32(b"pdf/SKILL.md").to_le_bytes());
    field.extend_from_slice(other);
    // Put the field in the central entry (its extra length at 30).
    let name_end = cd + 46 + 12;
    bytes[cd + 30..cd + 32].copy_from_slice(&(field.len() as u16).to_le_bytes());
    bytes.splice(name_end..name_end, field.iter().copied());
    let end = bytes.len() - 22;
    let cd_size =
        u32::from_le_bytes(bytes[end + 12..end + 16].try_into().unwrap()) + field.len() as u32;
    bytes[end + 12..end + 16].copy_from_slice(&cd_size.to_le_bytes());
    let text = refusal(&bytes);
    assert!(text.contains("Unicode Path field"), "{text}");
}

/// Finding 5: a link mode is refused whatever host the archive says made
/// it (unzip makes a real link from Atari, BeOS, AtheOS and others).
#[test]
fn symlink_modes_from_every_host_are_refused() {
    for host in [0u8, 2, 3, 5, 11, 12, 13, 16, 17, 18, 19, 30] {
        let mut link = Raw::stored("pdf/leak", b"/etc/passwd");
        link.mode = 0o120_777;
        link.host = host;
        let text = refusal(&raw_zip(&[skill_entry(), link]));
        assert!(text.contains("is a symbolic link"), "host {host}: {text}");
    }
    // A special file from a host whose modes unzip reads as Unix modes.
    for host in [5u8, 16, 30] {
        let mut fifo = Raw::stored("pdf/pipe", b"");
        fifo.mode = 0o010_644;
        fifo.host = host;
        assert!(refusal(&raw_zip(&[skill_entry(), fifo])).contains("FIFO"));
    }
}

/// Finding 6: a named pipe given as an archive source is refused before
/// it is opened (opening it would block until a writer came).
#[test]
fn a_fifo_archive_source_is_refused_without_blocking() {
    let tmp = temp_dir("fifo");
    let fifo = tmp.join("pdf.skill");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (done, answer) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || {
        let opened = ArchiveSource::open(&path)
            .map(|_| ())
            .map_err(|e| e.to_string());
        let built = Builder::new()
            .source(&path)
            .compile()
            .map(|_| ())
            .map_err(|e| e.to_string());
        let _ = done.send((opened, built));
    });
    // Only a hang reaches this bound; the answer takes microseconds.
    let (opened, built) = answer
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("opening a FIFO as an archive hung");
    let opened = opened.unwrap_err();
    assert!(
        opened.contains("named pipe (FIFO), not a regular file"),
        "{opened}"
    );
    assert!(built.unwrap_err().contains("named pipe"));
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// Finding 7: an error quotes at most 200 characters of an entry name,
/// however long the name (a zip allows 64 KiB).
#[test]
fn archive_errors_cap_entry_names() {
    let long = format!("pdf/../{}", "x".repeat(60_000));
    let text = refusal(&raw_zip(&[skill_entry(), Raw::stored(&long, b"x")]));
    assert!(
        text.contains("outside its folder"),
        "{}",
        &text[..300.min(text.len())]
    );
    assert!(text.len() < 600, "{} bytes", text.len());
    assert!(text.contains('…'), "{text}");
    let long = "y".repeat(60_000);
    let mut link = Raw::stored(&format!("pdf/{long}"), b"target");
    link.mode = 0o120_777;
    let text = refusal(&raw_zip(&[skill_entry(), link]));
    assert!(text.len() < 600, "{} bytes", text.len());
    // Many folders: a few named, the rest counted.
    let entries: Vec<Raw> = (0..50)
        .map(|i| Raw::deflated(&format!("{}{i}/SKILL.md", "z".repeat(1000)), SKILL))
        .collect();
    let text = refusal(&raw_zip(&entries));
    assert!(text.contains("holds 50:"), "{}", &text[..300]);
    assert!(text.contains("and 40 more"), "{}", &text[..300]);
    assert!(text.len() < 4000, "{} bytes", text.len());
}
