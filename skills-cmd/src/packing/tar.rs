//! The gzipped tar container the well-known index's archives use: POSIX
//! ustar records, every entry a regular file owned by 0:0 with the
//! Unix epoch as its date and mode 0644 or 0755, then gzip (RFC 1952)
//! with no name and no date. The same entries always give the same bytes.

use skills_build::unstable::archive::crc32;

use super::zip::PackEntry;

/// One tar record.
const BLOCK: usize = 512;

/// How a name that does not fit ustar's fields is refused.
fn too_long(name: &str) -> String {
    format!(
        "cannot write {name:?} into a tar archive: a path must split at a `/` into at most 155 and 100 bytes"
    )
}

/// Splits `name` into ustar's prefix and name fields: the whole name when
/// it fits in 100 bytes, else at the last `/` that leaves both parts in
/// their fields.
fn split_name(name: &str) -> Result<(&str, &str), String> {
    if name.len() <= 100 {
        return Ok(("", name));
    }
    name.char_indices()
        .filter(|(_, c)| *c == '/')
        .map(|(at, _)| (&name[..at], &name[at + 1..]))
        .find(|(prefix, rest)| prefix.len() <= 155 && rest.len() <= 100 && !rest.is_empty())
        .ok_or_else(|| too_long(name))
}

/// Writes `value` as `width - 1` octal digits and a NUL.
fn octal(field: &mut [u8], value: u64) -> Result<(), String> {
    let digits = field.len() - 1;
    let text = format!("{value:0digits$o}");
    if text.len() > digits {
        return Err(format!(
            "cannot write a tar archive: {value} does not fit its field"
        ));
    }
    field[..digits].copy_from_slice(text.as_bytes());
    field[digits] = 0;
    Ok(())
}

fn header(entry: &PackEntry) -> Result<[u8; BLOCK], String> {
    let (prefix, name) = split_name(&entry.name)?;
    let mut block = [0u8; BLOCK];
    block[..name.len()].copy_from_slice(name.as_bytes());
    let mode = if entry.executable { 0o755 } else { 0o644 };
    octal(&mut block[100..108], mode)?;
    octal(&mut block[108..116], 0)?; // uid
    octal(&mut block[116..124], 0)?; // gid
    octal(&mut block[124..136], entry.bytes.len() as u64)?;
    octal(&mut block[136..148], 0)?; // mtime
    block[156] = b'0'; // a regular file
    block[257..263].copy_from_slice(b"ustar\0");
    block[263..265].copy_from_slice(b"00");
    octal(&mut block[329..337], 0)?; // devmajor
    octal(&mut block[337..345], 0)?; // devminor
    block[345..345 + prefix.len()].copy_from_slice(prefix.as_bytes());
    // The checksum is summed with its own field as spaces.
    block[148..156].copy_from_slice(b"        ");
    let sum: u64 = block.iter().map(|b| u64::from(*b)).sum();
    let text = format!("{sum:06o}\0 ");
    block[148..156].copy_from_slice(text.as_bytes());
    Ok(block)
}

/// The tar archive of `entries`, in the order given, ended by two zero
/// records.
///
/// # Errors
///
/// A name that does not fit ustar's fields (over 255 bytes, or a last
/// segment over 100), or a file over 8 GiB.
pub fn tar(entries: &[PackEntry]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for entry in entries {
        out.extend_from_slice(&header(entry)?);
        out.extend_from_slice(&entry.bytes);
        let pad = (BLOCK - entry.bytes.len() % BLOCK) % BLOCK;
        out.resize(out.len() + pad, 0);
    }
    out.resize(out.len() + 2 * BLOCK, 0);
    Ok(out)
}

/// `bytes` gzipped (RFC 1952): no file name, no date (0), the best
/// compression, the operating system unknown (255).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255];
    out.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(bytes, 9));
    out.extend_from_slice(&crc32(bytes).to_le_bytes());
    // ISIZE is the length modulo 2^32 (RFC 1952 §2.3.1).
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out
}

/// The `.tar.gz` of `entries`.
///
/// # Errors
///
/// As [`tar`].
pub fn tar_gz(entries: &[PackEntry]) -> Result<Vec<u8>, String> {
    Ok(gzip(&tar(entries)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, bytes: &[u8]) -> PackEntry {
        PackEntry {
            name: name.to_string(),
            bytes: bytes.to_vec(),
            executable: false,
        }
    }

    #[test]
    fn a_long_path_splits_at_a_slash_and_too_long_a_segment_is_refused() {
        let long = format!("{}/{}", "d".repeat(120), "f".repeat(90));
        assert_eq!(split_name(&long).unwrap().0.len(), 120);
        assert!(split_name(&"x".repeat(101)).is_err());
        assert_eq!(split_name("SKILL.md").unwrap(), ("", "SKILL.md"));
    }

    #[test]
    fn records_are_ustar_with_a_valid_checksum_and_gzip_inflates_back() {
        let tar = tar(&[entry("SKILL.md", b"hi\n")]).unwrap();
        assert_eq!(tar.len(), 4 * BLOCK);
        assert_eq!(&tar[257..263], b"ustar\0");
        let mut check = tar[..BLOCK].to_vec();
        check[148..156].copy_from_slice(b"        ");
        let sum: u64 = check.iter().map(|b| u64::from(*b)).sum();
        let field = std::str::from_utf8(&tar[148..154]).unwrap();
        assert_eq!(u64::from_str_radix(field, 8).unwrap(), sum);
        assert_eq!(&tar[BLOCK..BLOCK + 3], b"hi\n");
        let gz = gzip(&tar);
        let inflated = miniz_oxide::inflate::decompress_to_vec(&gz[10..gz.len() - 8]).unwrap();
        assert_eq!(inflated, tar);
        assert_eq!(&gz[gz.len() - 8..gz.len() - 4], &crc32(&tar).to_le_bytes());
    }
}
