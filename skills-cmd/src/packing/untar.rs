//! Reading a `.tar.gz` that nobody vouches for (`skills verify
//! --well-known`): gzip's header parsed by the RFC, the stream inflated
//! within a limit decided before, then the tar records walked once, each
//! checked: regular files and folders only (a link, a device or a pax
//! record is refused), a path with no `..`, no absolute or backslashed
//! path, no repeat, every header's checksum right.

/// The most bytes a tar may inflate to (the zip reader's default total).
pub const MAX_INFLATED: usize = 256 << 20;

/// The tar inside the gzip `bytes`, at most `max` bytes.
///
/// # Errors
///
/// Not gzip, a header that ends early, a stream that does not inflate or
/// inflates past `max`, or a CRC or length that does not match.
pub fn gunzip(bytes: &[u8], max: usize) -> Result<Vec<u8>, String> {
    if bytes.len() < 18 || bytes[..3] != [0x1f, 0x8b, 8] {
        return Err("not a gzip stream (RFC 1952) with deflate".into());
    }
    let flags = bytes[3];
    let mut at = 10;
    let short = || "the gzip header ends early".to_string();
    if flags & 4 != 0 {
        let len = usize::from(u16::from_le_bytes([
            *bytes.get(at).ok_or_else(short)?,
            *bytes.get(at + 1).ok_or_else(short)?,
        ]));
        at += 2 + len;
    }
    for flag in [8u8, 16] {
        if flags & flag != 0 {
            let rest = bytes.get(at..).ok_or_else(short)?;
            at += rest.iter().position(|b| *b == 0).ok_or_else(short)? + 1;
        }
    }
    if flags & 2 != 0 {
        at += 2;
    }
    let end = bytes.len() - 8;
    let body = bytes.get(at..end).ok_or_else(short)?;
    let inflated = miniz_oxide::inflate::decompress_to_vec_with_limit(body, max)
        .map_err(|error| format!("the gzip stream does not inflate within {max} bytes: {error}"))?;
    let crc = u32::from_le_bytes(bytes[end..end + 4].try_into().unwrap_or_default());
    let size = u32::from_le_bytes(bytes[end + 4..].try_into().unwrap_or_default());
    if crc != skills_build::unstable::archive::crc32(&inflated) || size != inflated.len() as u32 {
        return Err("the gzip stream's CRC-32 or length does not match its bytes".into());
    }
    Ok(inflated)
}

fn field(block: &[u8]) -> &[u8] {
    let end = block.iter().position(|b| *b == 0).unwrap_or(block.len());
    &block[..end]
}

fn octal(block: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(field(block)).ok()?.trim();
    match text {
        "" => Some(0),
        text => u64::from_str_radix(text, 8).ok(),
    }
}

/// Why a path cannot be unpacked safely, if it cannot.
pub fn unsafe_path(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        Some("an empty path")
    } else if path.starts_with('/') {
        Some("an absolute path")
    } else if path.contains('\\') {
        Some("a backslash")
    } else if path.as_bytes().get(1) == Some(&b':') {
        Some("a drive letter")
    } else if path.split('/').any(|part| part == "..") {
        Some("a `..` segment")
    } else if path.contains('\0') || path.chars().any(char::is_control) {
        Some("a control character")
    } else {
        None
    }
}

/// The regular files of the tar `bytes`, `(path, bytes)` in its order.
///
/// # Errors
///
/// What makes the archive unsafe or unreadable, naming the entry.
pub fn untar(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut at = 0;
    while at + 512 <= bytes.len() {
        let block = &bytes[at..at + 512];
        if block.iter().all(|b| *b == 0) {
            return Ok(files);
        }
        let sum = octal(&block[148..156]).ok_or("a tar header's checksum is not a number")?;
        let actual: u64 = block
            .iter()
            .enumerate()
            .map(|(i, b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    u64::from(*b)
                }
            })
            .sum();
        if sum != actual {
            return Err(format!("the tar header at byte {at} has a wrong checksum"));
        }
        let name = String::from_utf8_lossy(field(&block[..100])).into_owned();
        let prefix = String::from_utf8_lossy(field(&block[345..500])).into_owned();
        let path = match prefix.as_str() {
            "" => name,
            prefix => format!("{prefix}/{name}"),
        };
        let size =
            octal(&block[124..136]).ok_or_else(|| format!("{path:?}: size is not a number"))?;
        let size = usize::try_from(size).map_err(|_| format!("{path:?}: too large"))?;
        let start = at + 512;
        let data = bytes
            .get(start..start.saturating_add(size))
            .ok_or_else(|| format!("{path:?}: the archive ends inside it"))?;
        let kind = block[156];
        match kind {
            b'0' | 0 => {
                if let Some(why) = unsafe_path(&path) {
                    return Err(format!("{path:?}: {why}"));
                }
                if !seen.insert(path.clone()) {
                    return Err(format!("{path:?} is in the archive twice"));
                }
                files.push((path, data.to_vec()));
            }
            b'5' => {
                if let Some(why) = unsafe_path(path.trim_end_matches('/')) {
                    return Err(format!("{path:?}: {why}"));
                }
            }
            b'1' | b'2' => return Err(format!("{path:?} is a link")),
            b'x' | b'g' => return Err(format!("{path:?}: pax headers are not read")),
            other => {
                return Err(format!(
                    "{path:?} is of tar type {:?}, not a file",
                    char::from(other)
                ));
            }
        }
        at = start + size.div_ceil(512) * 512;
    }
    Err("the tar archive has no end records".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packing::tar::{tar, tar_gz};
    use crate::packing::zip::PackEntry;

    #[test]
    fn what_the_writer_writes_reads_back_and_a_hostile_path_is_refused() {
        let entries = vec![
            PackEntry {
                name: "SKILL.md".into(),
                bytes: b"x".to_vec(),
                executable: false,
            },
            PackEntry {
                name: "scripts/run.sh".into(),
                bytes: vec![7; 700],
                executable: true,
            },
        ];
        let files = untar(&gunzip(&tar_gz(&entries).unwrap(), MAX_INFLATED).unwrap()).unwrap();
        assert_eq!(files[1], ("scripts/run.sh".to_string(), vec![7; 700]));
        for bad in ["../x", "/etc/passwd", "a\\b"] {
            let mut archive = tar(&entries[..1]).unwrap();
            archive[..100].fill(0);
            archive[..bad.len()].copy_from_slice(bad.as_bytes());
            archive[148..156].copy_from_slice(b"        ");
            let sum: u64 = archive[..512].iter().map(|b| u64::from(*b)).sum();
            archive[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
            assert!(untar(&archive).is_err(), "{bad}");
        }
        assert!(gunzip(b"not gzip at all, no", MAX_INFLATED).is_err());
    }

    #[test]
    fn changed_bytes_give_an_error_or_files_never_a_panic() {
        let entries: Vec<PackEntry> = (0..4)
            .map(|i| PackEntry {
                name: format!("{}/f{i}", "d".repeat(60 + i * 30)),
                bytes: vec![b'x'; 300 * i],
                executable: i % 2 == 0,
            })
            .collect();
        let tar = tar(&entries).unwrap();
        let gz = tar_gz(&entries).unwrap();
        // Names past 100 bytes go through ustar's prefix field and back.
        let names: Vec<String> = untar(&tar).unwrap().into_iter().map(|(p, _)| p).collect();
        assert_eq!(
            names,
            entries.iter().map(|e| e.name.clone()).collect::<Vec<_>>()
        );
        let mut rng = skills_test_support::rng::Rng(45);
        for _ in 0..2000 {
            let (mut t, mut g) = (tar.clone(), gz.clone());
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(t.len());
                t[at] = rng.next_u64() as u8;
                let at = rng.below(g.len());
                g[at] = rng.next_u64() as u8;
            }
            let cut = rng.below(t.len());
            let _ = untar(&t);
            let _ = untar(&t[..cut]);
            let _ = gunzip(&g, MAX_INFLATED).map(|inflated| untar(&inflated));
            let _ = gunzip(&g[..rng.below(g.len())], MAX_INFLATED);
        }
    }
}
