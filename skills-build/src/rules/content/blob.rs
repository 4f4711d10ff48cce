//! Long base64 blobs in the skill file: bytes a reviewer cannot read and
//! a model can decode (an encoded payload, or instructions in disguise).

use super::findings::{Findings, Tally};
use super::skill::{Skill, TextFile};
use crate::problem::Code;

/// The shortest run of base64 characters taken for a blob: 256 characters,
/// 192 bytes encoded, longer than any identifier, hash or key id.
const BLOB_MIN: usize = 256;

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_')
}

/// Runs of at least [`BLOB_MIN`] base64 characters (either alphabet)
/// holding lower case, upper case and digits, in the skill file.
pub(super) fn base64(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::Base64Blob) {
        return;
    }
    let bytes = file.text.text.as_bytes();
    let mut found = Tally::new();
    // A run of BLOB_MIN base64 characters holds a whole aligned block of
    // half that length: only blocks are tested (prose fails each within a
    // few bytes), and a run is measured from a block that passes.
    let block = BLOB_MIN / 2;
    let mut at = 0;
    let mut scanned_to = 0;
    while at + block <= bytes.len() {
        if at < scanned_to || !bytes[at..at + block].iter().all(|b| is_base64(*b)) {
            at += block;
            continue;
        }
        let start = at
            - bytes[..at]
                .iter()
                .rev()
                .take_while(|b| is_base64(**b))
                .count();
        let run = bytes[start..].iter().take_while(|b| is_base64(**b)).count();
        let blob = &bytes[start..start + run];
        if run >= BLOB_MIN
            && blob.iter().any(u8::is_ascii_lowercase)
            && blob.iter().any(u8::is_ascii_uppercase)
            && blob.iter().any(u8::is_ascii_digit)
        {
            found.add(start, || run);
        }
        scanned_to = start + run;
        at += block;
    }
    found.report(
        findings,
        (skill, file.path, &file.text),
        (Code::Base64Blob, "bundle the decoded file beside SKILL.md instead"),
        |run| format!("a base64 blob of {run} characters: what it encodes, a reviewer cannot read and a model can"),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::content::secrets::tests::noise;
    use crate::rules::content::tests::{codes, skill_md};

    #[test]
    fn long_blobs_only() {
        let blob = format!("data:image/png;base64,{}==", noise(300));
        assert_eq!(codes(&skill_md(&blob), &[]), ["base64-blob"]);
        // Hashes, long words, and URLs are not blobs.
        let hash = "a".repeat(64);
        let url = format!("https://example.com/{}", ["path"; 80].join("/"));
        assert!(codes(&skill_md(&format!("{hash} {url}")), &[]).is_empty());
    }
}
