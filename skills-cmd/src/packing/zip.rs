//! The zip container `skills pack` writes: every entry deflated, with the
//! same fixed date and a Unix mode, so the same entries always give the
//! same bytes. The compiler reads archives (and checks every field this
//! writes); writing them is this command's alone.

use skills_build::unstable::archive::crc32;

/// The signatures of a local header, a central-directory header and the
/// end-of-central-directory record.
const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;

/// The file-type bits of a regular file in a Unix mode.
const S_IFREG: u32 = 0o100_000;

/// The DOS date of 1980-01-01, the earliest a zip can record: every entry
/// carries it (time 00:00:00), so the same files give the same bytes.
const FIXED_DATE: u16 = (1 << 5) | 1;

/// One file to write into an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackEntry {
    /// `<folder>/<path>`, `/`-separated.
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Whether the file is executable (Unix mode 0755 rather than 0644).
    pub executable: bool,
}

/// Writes `entries`, in the order given, as a deflated zip archive with
/// fixed timestamps and Unix modes; the same entries always give the same
/// bytes.
///
/// # Errors
///
/// More than 65535 entries, or more than 4 GiB in all: beyond a plain
/// zip, and far beyond a skill.
pub fn write(entries: &[PackEntry]) -> Result<Vec<u8>, String> {
    let too_big = || {
        "cannot write the archive: a skill archive holds at most 65535 files and 4 GiB; this folder holds more"
            .to_string()
    };
    let count = u16::try_from(entries.len()).map_err(|_| too_big())?;
    let mut out = Vec::new();
    let mut central = Vec::new();
    for entry in entries {
        let offset = u32::try_from(out.len()).map_err(|_| too_big())?;
        let data = miniz_oxide::deflate::compress_to_vec(&entry.bytes, 9);
        let compressed = u32::try_from(data.len()).map_err(|_| too_big())?;
        let size = u32::try_from(entry.bytes.len()).map_err(|_| too_big())?;
        let name_len = u16::try_from(entry.name.len()).map_err(|_| too_big())?;
        let crc = crc32(&entry.bytes);
        let name = entry.name.as_bytes();
        let flags: u16 = if entry.name.is_ascii() { 0 } else { 0x0800 };
        let common = |buf: &mut Vec<u8>| {
            buf.extend_from_slice(&20u16.to_le_bytes()); // version needed
            buf.extend_from_slice(&flags.to_le_bytes());
            buf.extend_from_slice(&8u16.to_le_bytes()); // deflated
            buf.extend_from_slice(&0u16.to_le_bytes()); // time
            buf.extend_from_slice(&FIXED_DATE.to_le_bytes());
            buf.extend_from_slice(&crc.to_le_bytes());
            buf.extend_from_slice(&compressed.to_le_bytes());
            buf.extend_from_slice(&size.to_le_bytes());
            buf.extend_from_slice(&name_len.to_le_bytes());
            buf.extend_from_slice(&0u16.to_le_bytes()); // extra length
        };
        out.extend_from_slice(&LOCAL_SIG.to_le_bytes());
        common(&mut out);
        out.extend_from_slice(name);
        out.extend_from_slice(&data);

        central.extend_from_slice(&CENTRAL_SIG.to_le_bytes());
        central.extend_from_slice(&(0x0300u16 | 20).to_le_bytes()); // made by Unix, 2.0
        common(&mut central);
        central.extend_from_slice(&0u16.to_le_bytes()); // comment length
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        let mode = S_IFREG | if entry.executable { 0o755 } else { 0o644 };
        central.extend_from_slice(&(mode << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name);
    }
    let cd_offset = u32::try_from(out.len()).map_err(|_| too_big())?;
    let cd_size = u32::try_from(central.len()).map_err(|_| too_big())?;
    if u32::try_from(out.len() + central.len()).is_err() {
        return Err(too_big());
    }
    out.extend_from_slice(&central);
    out.extend_from_slice(&END_SIG.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // disk numbers
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&cd_size.to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // comment length
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{PackEntry, write};
    use skills_build::source::Source;
    use skills_build::unstable::archive::{ArchiveSource, Expect, Limits};

    fn entry(name: &str, bytes: &[u8], executable: bool) -> PackEntry {
        PackEntry {
            name: name.into(),
            bytes: bytes.to_vec(),
            executable,
        }
    }

    #[test]
    fn what_is_written_the_compiler_reads_back() {
        let skill = b"---\nname: pdf\ndescription: Fill PDF forms.\n---\nGo.\n";
        let entries = [
            entry("pdf/SKILL.md", skill, false),
            entry("pdf/scripts/fill.py", b"print(1)\n", true),
            entry("pdf/\u{e9}t\u{e9}.md", b"non-ASCII name", false),
        ];
        let bytes = write(&entries).unwrap();
        let source =
            ArchiveSource::from_bytes("pdf.skill", &bytes, Expect::OneFolder, &Limits::default())
                .unwrap();
        assert_eq!(source.list("").unwrap()[0].name, "pdf");
        for entry in &entries {
            assert_eq!(
                source.read(&entry.name).unwrap(),
                entry.bytes,
                "{}",
                entry.name
            );
        }
    }

    #[test]
    fn the_same_entries_give_the_same_bytes() {
        let entries = [entry("pdf/SKILL.md", b"---\nname: pdf\n---\n", false)];
        assert_eq!(write(&entries).unwrap(), write(&entries).unwrap());
        // The mode of the entry, in the central directory's external
        // attributes: 0644 and 0755 regular files.
        let mode = |executable| {
            let bytes = write(&[entry("a/b", b"x", executable)]).unwrap();
            let central = bytes.len() - 22 - (46 + 3);
            u32::from_le_bytes(bytes[central + 38..central + 42].try_into().unwrap()) >> 16
        };
        assert_eq!((mode(false), mode(true)), (0o100_644, 0o100_755));
    }
}
