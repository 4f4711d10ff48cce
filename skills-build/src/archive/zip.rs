//! The zip container read by hand: the end-of-central-directory record,
//! the central directory and local headers.
//!
//! Only what skill archives need is read: one disk, entries stored (method
//! 0) or deflated (method 8), zip64 sizes in an entry's extra field. Every
//! field is checked against the bytes actually present before it is used,
//! and nothing is inflated until the whole central directory has been
//! read and found within the limits.

use super::crc32::crc32;
use super::rules::{Limits, Reason, shown};

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
const ZIP64_END_LOCATOR_SIG: u32 = 0x0706_4b50;
const ZIP64_END_SIG: u32 = 0x0606_4b50;
const DESCRIPTOR_SIG: u32 = 0x0807_4b50;
/// The signatures a zip reader looks for: none may hide in the archive's
/// comment, where a reader that searches for the last end record (Python's
/// `zipfile`, Info-ZIP's `unzip`) would take a decoy for the real one.
const SIGNATURES: [u32; 5] = [
    LOCAL_SIG,
    CENTRAL_SIG,
    END_SIG,
    ZIP64_END_SIG,
    ZIP64_END_LOCATOR_SIG,
];
/// The Info-ZIP Unicode Path extra field: readers that honour it (unzip,
/// Python's `zipfile` since 3.12) take the name it holds over the header's.
const UNICODE_PATH_FIELD: u16 = 0x7075;
/// The general-purpose flag bit saying that sizes and CRC-32 follow the
/// data in a data descriptor.
const FLAG_DESCRIPTOR: u16 = 0x0008;
const END_LEN: usize = 22;
const CENTRAL_LEN: usize = 46;
const LOCAL_LEN: usize = 30;
/// The longest archive comment, and so how far from the end the
/// end-of-central-directory record can start.
const MAX_COMMENT: usize = 0xFFFF;

/// The file-type bits of a Unix mode.
const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFLNK: u32 = 0o120_000;

/// The "made by" hosts whose external attributes Info-ZIP's `unzip` reads
/// as a Unix mode (upper 16 bits), and so may turn into a symbolic link or
/// a directory on extraction: MS-DOS/FAT (0, when the mode agrees with the
/// DOS bits), VMS (2), Unix (3), Atari ST (5), QDOS (12), Acorn RISC OS
/// (13), BeOS (16), Tandem (17), THEOS (18), AtheOS (30) (`mapattr` in its
/// `unix/unix.c`). A link mode is refused from any host all the same.
const UNIX_MODE_HOSTS: [u16; 10] = [0, 2, 3, 5, 12, 13, 16, 17, 18, 30];

/// What an entry of the central directory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
}

/// One entry of the central directory, checked.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) kind: Kind,
    flags: u16,
    method: u16,
    crc: u32,
    pub(crate) compressed: u64,
    pub(crate) size: u64,
    local_offset: u64,
    /// Whether the file is executable, when the entry was made on Unix
    /// (host 3) with a regular file's mode: any execute bit.
    pub(crate) executable: Option<bool>,
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Some(u64::from_le_bytes(a))
}

fn truncated(what: &str) -> Reason {
    Reason::Truncated(what.to_string())
}

/// Where the end-of-central-directory record starts: the one signature
/// whose record (with its comment) ends exactly at the end of the bytes.
///
/// Readers differ in which end record they take when there are several
/// (Python's `zipfile` and `unzip` take the last signature they find, some
/// readers the first that fits), so an archive with a second candidate, or
/// with any zip signature inside its comment, is refused: each reader
/// would see another archive.
fn find_end(bytes: &[u8]) -> Result<usize, Reason> {
    let earliest = bytes.len().saturating_sub(END_LEN + MAX_COMMENT);
    let mut at = bytes.len().checked_sub(END_LEN);
    let mut found = None;
    while let Some(pos) = at {
        if pos < earliest {
            break;
        }
        if u32_at(bytes, pos) == Some(END_SIG) {
            let comment = u16_at(bytes, pos + 20).map_or(usize::MAX, usize::from);
            if pos + END_LEN + comment == bytes.len() {
                if found.is_some() {
                    return Err(Reason::Ambiguous(
                        "it holds more than one end-of-central-directory record".into(),
                    ));
                }
                found = Some(pos);
            }
        }
        at = pos.checked_sub(1);
    }
    if let Some(pos) = found {
        let comment = &bytes[pos + END_LEN..];
        if comment
            .windows(4)
            .any(|w| SIGNATURES.contains(&u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
        {
            return Err(Reason::Ambiguous(
                "its comment holds a zip signature (a decoy directory other readers would take for the real one)".into(),
            ));
        }
        return Ok(pos);
    }
    if u32_at(bytes, 0) == Some(LOCAL_SIG) || u32_at(bytes, 0) == Some(END_SIG) {
        Err(truncated(
            "the end-of-central-directory record is missing (was the file cut short?)",
        ))
    } else {
        Err(Reason::NotZip)
    }
}

/// The checked entry name: relative, `/`-separated, no `.`/`..` or empty
/// segments, no backslash, no drive letter, no control characters.
fn check_name(raw: &[u8]) -> Result<String, Reason> {
    let name = String::from_utf8(raw.to_vec())
        .map_err(|_| Reason::NotUtf8Name(String::from_utf8_lossy(raw).into_owned()))?;
    let escapes = |reason: &'static str| Reason::Escapes {
        entry: name.clone(),
        reason,
    };
    if name.is_empty() {
        return Err(escapes("the name is empty"));
    }
    if name.starts_with('/') {
        return Err(escapes("it is an absolute path"));
    }
    if name.contains('\\') {
        return Err(escapes(
            "it holds a backslash, which some tools read as a path separator",
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(escapes("it holds a control character"));
    }
    let path = name.strip_suffix('/').unwrap_or(&name);
    for (i, segment) in path.split('/').enumerate() {
        match segment {
            ".." => return Err(escapes("a `..` segment leads out of the folder")),
            "." | "" => return Err(escapes("it has an empty or `.` segment")),
            s if i == 0 && s.len() == 2 && s.ends_with(':') => {
                return Err(escapes("it starts with a drive letter"));
            }
            _ => {}
        }
    }
    Ok(name)
}

/// Reads and checks the central directory against `limits`, before
/// anything is inflated.
pub(crate) fn central_directory(bytes: &[u8], limits: &Limits) -> Result<Vec<Entry>, Reason> {
    let end = find_end(bytes)?;
    let field = |at: usize| u16_at(bytes, end + at).unwrap_or(0);
    let (disk, cd_disk, disk_entries, entries) = (field(4), field(6), field(8), field(10));
    let cd_size = u32_at(bytes, end + 12).unwrap_or(0);
    let cd_offset = u32_at(bytes, end + 16).unwrap_or(0);
    if end >= 20 && u32_at(bytes, end - 20) == Some(ZIP64_END_LOCATOR_SIG)
        || entries == 0xFFFF
        || cd_size == 0xFFFF_FFFF
        || cd_offset == 0xFFFF_FFFF
    {
        return Err(Reason::Unsupported(
            "it is a zip64 archive (over 65535 entries or 4 GiB), far beyond what a skill holds"
                .into(),
        ));
    }
    if disk != 0 || cd_disk != 0 || disk_entries != entries {
        return Err(Reason::Unsupported(
            "it is split across several disks".into(),
        ));
    }
    let entries = usize::from(entries);
    if entries > limits.max_entries {
        return Err(Reason::TooManyEntries {
            entries,
            max: limits.max_entries,
        });
    }
    let cd_start = cd_offset as usize;
    let cd_end = cd_start
        .checked_add(cd_size as usize)
        .filter(|&e| e <= end)
        .ok_or_else(|| truncated("the central directory lies past the end of the file"))?;
    if cd_end != end {
        // Python's `zipfile` and `unzip` then look for the directory
        // `size` bytes before the end record, not where the record says.
        return Err(Reason::Ambiguous(format!(
            "{} bytes between the central directory and its end record belong to no entry",
            end - cd_end
        )));
    }
    let mut out: Vec<Entry> = Vec::with_capacity(entries);
    let mut at = cd_start;
    let mut total: u64 = 0;
    for _ in 0..entries {
        if u32_at(bytes, at) != Some(CENTRAL_SIG) || at + CENTRAL_LEN > cd_end {
            return Err(truncated("the central directory is shorter than it says"));
        }
        let h = |off: usize| u16_at(bytes, at + off).unwrap_or(0);
        let w = |off: usize| u32_at(bytes, at + off).unwrap_or(0);
        let made_by = h(4);
        let flags = h(8);
        let method = h(10);
        let crc = w(16);
        let mut compressed = u64::from(w(20));
        let mut size = u64::from(w(24));
        let (name_len, extra_len, comment_len) =
            (usize::from(h(28)), usize::from(h(30)), usize::from(h(32)));
        let external = w(38);
        let mut local_offset = u64::from(w(42));
        let name_start = at + CENTRAL_LEN;
        let extra_start = name_start + name_len;
        let next = extra_start + extra_len + comment_len;
        if next > cd_end {
            return Err(truncated("a central directory entry runs past its end"));
        }
        let name = check_name(&bytes[name_start..extra_start])?;
        read_zip64(
            &bytes[extra_start..extra_start + extra_len],
            &mut size,
            &mut compressed,
            &mut local_offset,
        )
        .map_err(|()| truncated("an entry's zip64 field is cut short"))?;
        if flags & 0x0001 != 0 {
            return Err(Reason::Unsupported(format!(
                "{} is encrypted",
                shown(&name)
            )));
        }
        let unix = UNIX_MODE_HOSTS.contains(&(made_by >> 8));
        let file_type = (external >> 16) & S_IFMT;
        let kind = if file_type == S_IFLNK {
            return Err(Reason::Symlink(name));
        } else if name.ends_with('/') || (unix && file_type == S_IFDIR) {
            Kind::Dir
        } else if unix && file_type != 0 && file_type != S_IFREG {
            return Err(Reason::SpecialFile(name));
        } else {
            Kind::File
        };
        unicode_path_agrees(&bytes[extra_start..extra_start + extra_len], &name)?;
        if kind == Kind::Dir && size != 0 {
            return Err(Reason::Unsupported(format!(
                "{} is a directory entry with {size} bytes of content",
                shown(&name)
            )));
        }
        match method {
            0 if compressed != size => {
                return Err(Reason::Inflate {
                    entry: name,
                    what: "is stored uncompressed, yet its two recorded sizes differ",
                });
            }
            0 | 8 => {}
            other => {
                return Err(Reason::Unsupported(format!(
                    "{} uses compression method {other}; only stored (0) and deflated (8) are read",
                    shown(&name)
                )));
            }
        }
        total = total.saturating_add(size);
        if total > limits.max_total {
            return Err(Reason::TotalTooLarge {
                declared: total,
                max: limits.max_total,
            });
        }
        if size > limits.ratio_floor && size / compressed.max(1) > limits.max_ratio {
            return Err(Reason::RatioTooHigh {
                entry: name,
                size,
                compressed,
                max_ratio: limits.max_ratio,
            });
        }
        let mode = external >> 16;
        let executable =
            (made_by >> 8 == 3 && mode & S_IFMT == S_IFREG).then_some(mode & 0o111 != 0);
        out.push(Entry {
            name,
            kind,
            flags,
            method,
            crc,
            compressed,
            size,
            local_offset,
            executable,
        });
        at = next;
    }
    if at != cd_end {
        return Err(Reason::Ambiguous(format!(
            "{} bytes of the central directory belong to no entry",
            cd_end - at
        )));
    }
    check_data_ranges(bytes, &out, cd_start)?;
    Ok(out)
}

/// An Info-ZIP Unicode Path field in `extra`, if any, names the entry as
/// its header does: a reader that honours the field must not see another
/// name.
fn unicode_path_agrees(extra: &[u8], name: &str) -> Result<(), Reason> {
    let mut at = 0;
    while at + 4 <= extra.len() {
        let id = u16_at(extra, at).unwrap_or(0);
        let len = usize::from(u16_at(extra, at + 2).unwrap_or(0));
        let Some(body) = extra.get(at + 4..at + 4 + len) else {
            return Err(truncated(&format!(
                "an extra field of {} runs past its end",
                shown(name)
            )));
        };
        // Version (1 byte), CRC-32 of the header's name (4), the name.
        if id == UNICODE_PATH_FIELD && body.get(5..) != Some(name.as_bytes()) {
            return Err(Reason::Ambiguous(format!(
                "the Unicode Path field of {} names another file, which unzip and Python would extract instead",
                shown(name)
            )));
        }
        at += 4 + len;
    }
    Ok(())
}

/// Applies a zip64 extended-information field: the sizes and offset that
/// are `0xFFFFFFFF` in the fixed header come from it, in that order.
fn read_zip64(
    extra: &[u8],
    size: &mut u64,
    compressed: &mut u64,
    offset: &mut u64,
) -> Result<(), ()> {
    let mut at = 0;
    while at + 4 <= extra.len() {
        let id = u16_at(extra, at).ok_or(())?;
        let len = usize::from(u16_at(extra, at + 2).ok_or(())?);
        let body = extra.get(at + 4..at + 4 + len).ok_or(())?;
        if id == 0x0001 {
            let mut pos = 0;
            for value in [size, compressed, offset] {
                if *value == 0xFFFF_FFFF {
                    *value = u64_at(body, pos).ok_or(())?;
                    pos += 8;
                }
            }
            return Ok(());
        }
        at += 4 + len;
    }
    Ok(())
}

/// Every byte before the central directory belongs to exactly one entry:
/// the entries' local records (header, data and any data descriptor) lie
/// end to end from the first byte to the directory. Overlapping entries
/// are how some zip bombs multiply one compressed stream; a gap is room
/// for content that one reader sees and another does not (data before the
/// first entry is where a reader that scans local headers finds a decoy).
fn check_data_ranges(bytes: &[u8], entries: &[Entry], cd_start: usize) -> Result<(), Reason> {
    let mut ranges = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let start = usize::try_from(entry.local_offset).unwrap_or(usize::MAX);
        let data = data_start(bytes, entry)?;
        let end = usize::try_from(entry.compressed)
            .ok()
            .and_then(|c| data.checked_add(c))
            .filter(|&e| e <= cd_start)
            .ok_or_else(|| {
                truncated(&format!(
                    "the data of {} runs past the start of the central directory",
                    shown(&entry.name)
                ))
            })?;
        let end = end + descriptor_len(bytes, entry, end, cd_start)?;
        ranges.push((start, end, index));
    }
    ranges.sort_unstable();
    let mut covered = 0;
    for &(start, end, index) in &ranges {
        if start < covered {
            return Err(Reason::Overlap(entries[index].name.clone()));
        }
        if start > covered {
            return Err(Reason::Ambiguous(format!(
                "{} bytes before {} belong to no entry",
                start - covered,
                shown(&entries[index].name)
            )));
        }
        covered = end;
    }
    if covered != cd_start {
        return Err(Reason::Ambiguous(format!(
            "{} bytes before the central directory belong to no entry",
            cd_start - covered
        )));
    }
    Ok(())
}

/// The length of the data descriptor after an entry's data (0 unless its
/// flags announce one), whose CRC-32 and sizes must be the directory's.
fn descriptor_len(
    bytes: &[u8],
    entry: &Entry,
    at: usize,
    cd_start: usize,
) -> Result<usize, Reason> {
    if entry.flags & FLAG_DESCRIPTOR == 0 {
        return Ok(0);
    }
    let signed = u32_at(bytes, at) == Some(DESCRIPTOR_SIG);
    let body = at + if signed { 4 } else { 0 };
    let wide = entry.compressed > u64::from(u32::MAX) || entry.size > u64::from(u32::MAX);
    let (compressed, size, len) = if wide {
        (u64_at(bytes, body + 4), u64_at(bytes, body + 12), 20)
    } else {
        (
            u32_at(bytes, body + 4).map(u64::from),
            u32_at(bytes, body + 8).map(u64::from),
            12,
        )
    };
    let end = body + len;
    if end > cd_start {
        return Err(truncated(&format!(
            "the data descriptor of {} runs past the start of the central directory",
            shown(&entry.name)
        )));
    }
    if u32_at(bytes, body) != Some(entry.crc)
        || compressed != Some(entry.compressed)
        || size != Some(entry.size)
    {
        return Err(Reason::Ambiguous(format!(
            "the data descriptor of {} disagrees with the central directory",
            shown(&entry.name)
        )));
    }
    Ok(end - at)
}

/// Where an entry's data starts, after its local header, which must say
/// what the central directory says of the entry: its name, flags,
/// compression method, and (unless a data descriptor follows the data)
/// its CRC-32 and sizes. Readers that trust the local header (unzip takes
/// the method from it) would otherwise read another file.
fn data_start(bytes: &[u8], entry: &Entry) -> Result<usize, Reason> {
    let at = usize::try_from(entry.local_offset).unwrap_or(usize::MAX);
    if u32_at(bytes, at) != Some(LOCAL_SIG) {
        return Err(truncated(&format!(
            "the local header of {} is missing",
            shown(&entry.name)
        )));
    }
    let field16 = |off: usize| u16_at(bytes, at + off);
    let field32 = |off: usize| u32_at(bytes, at + off);
    let name_len = usize::from(field16(26).unwrap_or(0));
    let extra_len = usize::from(field16(28).unwrap_or(0));
    let name_start = at + LOCAL_LEN;
    let local_name = bytes
        .get(name_start..name_start + name_len)
        .ok_or_else(|| {
            truncated(&format!(
                "the local header of {} is cut short",
                shown(&entry.name)
            ))
        })?;
    if local_name != entry.name.as_bytes() {
        return Err(Reason::Ambiguous(format!(
            "the local header of {} names another file, {}",
            shown(&entry.name),
            shown(&String::from_utf8_lossy(local_name))
        )));
    }
    let extra = bytes
        .get(name_start + name_len..name_start + name_len + extra_len)
        .ok_or_else(|| {
            truncated(&format!(
                "the local header of {} is cut short",
                shown(&entry.name)
            ))
        })?;
    let disagree = |what: &str| {
        Reason::Ambiguous(format!(
            "the local header of {} gives another {what} than the central directory",
            shown(&entry.name)
        ))
    };
    if field16(6) != Some(entry.flags) {
        return Err(disagree("set of flags"));
    }
    if field16(8) != Some(entry.method) {
        return Err(disagree("compression method"));
    }
    let (crc, mut compressed, mut size, mut offset) = (
        field32(14).unwrap_or(0),
        u64::from(field32(18).unwrap_or(0)),
        u64::from(field32(22).unwrap_or(0)),
        0,
    );
    read_zip64(extra, &mut size, &mut compressed, &mut offset).map_err(|()| {
        truncated(&format!(
            "the zip64 field of the local header of {} is cut short",
            shown(&entry.name)
        ))
    })?;
    let deferred = entry.flags & FLAG_DESCRIPTOR != 0;
    let agrees = |local: u64, central: u64| local == central || (deferred && local == 0);
    if !agrees(u64::from(crc), u64::from(entry.crc)) {
        return Err(disagree("CRC-32"));
    }
    if !agrees(compressed, entry.compressed) || !agrees(size, entry.size) {
        return Err(disagree("size"));
    }
    unicode_path_agrees(extra, &entry.name)?;
    Ok(name_start + name_len + extra_len)
}

/// The bytes of a file entry: inflated into at most its declared size
/// (never more, whatever the stream holds), then checked for length and
/// CRC-32.
pub(crate) fn extract(bytes: &[u8], entry: &Entry) -> Result<Vec<u8>, Reason> {
    let start = data_start(bytes, entry)?;
    let end = start.saturating_add(usize::try_from(entry.compressed).unwrap_or(usize::MAX));
    let data = bytes
        .get(start..end)
        .ok_or_else(|| truncated(&format!("the data of {} is cut short", shown(&entry.name))))?;
    let size = usize::try_from(entry.size).unwrap_or(usize::MAX);
    let fail = |what| Reason::Inflate {
        entry: entry.name.clone(),
        what,
    };
    let out = match entry.method {
        0 => data.to_vec(),
        _ => match miniz_oxide::inflate::decompress_to_vec_with_limit(data, size) {
            Ok(out) => out,
            Err(error) => {
                return Err(fail(match error.status {
                    miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                        "inflates past the size its header declares (a zip bomb?)"
                    }
                    miniz_oxide::inflate::TINFLStatus::FailedCannotMakeProgress => {
                        "ends in the middle of its compressed data (truncated?)"
                    }
                    _ => "is not valid deflate data",
                }));
            }
        },
    };
    if out.len() != size {
        return Err(fail("inflates to fewer bytes than its header declares"));
    }
    if crc32(&out) != entry.crc {
        return Err(fail("does not match its CRC-32 (the archive is damaged)"));
    }
    Ok(out)
}
