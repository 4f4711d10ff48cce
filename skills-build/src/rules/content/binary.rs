//! Executable programs embedded in a skill: ELF, Mach-O and PE files,
//! which no reader of the skill can review and a host may be led to run.

use super::findings::Findings;
use super::skill::{File, Skill};
use crate::problem::{Code, Problem};

/// The executable format `bytes` are in, by their magic numbers.
///
/// `CA FE BA BE` starts both a universal Mach-O binary and a Java class
/// file: the word after it is the number of architectures (a handful) in
/// the first, a class-file version (45 and up) in the second.
fn executable_format(bytes: &[u8]) -> Option<&'static str> {
    let word = |at: usize| bytes.get(at..at + 4);
    match word(0)? {
        [0x7f, b'E', b'L', b'F'] => Some("an ELF executable"),
        [0xfe, 0xed, 0xfa, 0xce | 0xcf] | [0xce | 0xcf, 0xfa, 0xed, 0xfe] => {
            Some("a Mach-O executable")
        }
        [0xca, 0xfe, 0xba, 0xbe] => {
            let count = u32::from_be_bytes(word(4)?.try_into().ok()?);
            (1..=20)
                .contains(&count)
                .then_some("a universal Mach-O executable")
        }
        [b'M', b'Z', ..] => {
            let offset = u32::from_le_bytes(word(0x3c)?.try_into().ok()?) as usize;
            (bytes.get(offset..offset + 4)? == b"PE\0\0").then_some("a PE (Windows) executable")
        }
        _ => None,
    }
}

/// An executable among the skill's files; `true` when `file` is one (and
/// so not text).
pub(super) fn executable(skill: &Skill<'_>, file: &File<'_>, findings: &mut Findings<'_>) -> bool {
    let Some(format) = executable_format(file.bytes) else {
        return false;
    };
    findings.push(
        Problem::new(
            Code::ExecutableEmbedded,
            format!(
                "{} is {format}: no reader of the skill can review what it does",
                file.path
            ),
        )
        .with_hint("ship the source and build it, or have the skill install a published release"),
        skill.location_of(file.path),
        None,
    );
    true
}

#[cfg(test)]
mod tests {
    use super::executable_format;

    #[test]
    fn formats() {
        assert!(executable_format(b"\x7fELF\x02\x01\x01").is_some());
        assert!(executable_format(b"\xcf\xfa\xed\xfe\x07\x00").is_some());
        assert!(executable_format(b"\xca\xfe\xba\xbe\x00\x00\x00\x02").is_some());
        // A Java class file (version 52) is not a Mach-O binary.
        assert!(executable_format(b"\xca\xfe\xba\xbe\x00\x00\x00\x34").is_none());
        let mut pe = vec![0u8; 0x90];
        pe[..2].copy_from_slice(b"MZ");
        pe[0x3c] = 0x80;
        pe[0x80..0x84].copy_from_slice(b"PE\0\0");
        assert!(executable_format(&pe).is_some());
        // "MZ" starting a text file is no executable.
        assert!(executable_format(b"MZ is a postcode area").is_none());
        assert!(executable_format(b"#!/bin/sh\n").is_none());
    }
}
