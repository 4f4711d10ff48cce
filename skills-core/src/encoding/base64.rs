//! Standard base64 (RFC 4648, `+` and `/`, `=` padding): the encoding an
//! image part's `data:` URL uses, and the text form of public keys and
//! detached signatures. The workspace's one base64 (see
//! `docs/dependencies.md` for why it is written here).

use alloc::string::String;
use alloc::vec::Vec;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The length of the standard, padded base64 text for `len` bytes.
///
/// ```
/// assert_eq!(skills_core::encoding::base64::encoded_len(0), 0);
/// assert_eq!(skills_core::encoding::base64::encoded_len(4), 8);
/// ```
pub const fn encoded_len(len: usize) -> usize {
    len.div_ceil(3).saturating_mul(4)
}

/// Appends the standard, padded base64 encoding of `bytes` to `out`.
///
/// ```
/// let mut out = String::from("data:image/png;base64,");
/// skills_core::encoding::base64::encode_into(b"hi!?", &mut out);
/// assert_eq!(out, "data:image/png;base64,aGkhPw==");
/// ```
pub fn encode_into(bytes: &[u8], out: &mut String) {
    out.reserve(encoded_len(bytes.len()));
    let symbol = |index: u32| char::from(ALPHABET[(index & 0x3f) as usize]);
    let mut chunks = bytes.chunks_exact(3);
    for chunk in &mut chunks {
        let group = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        out.push(symbol(group >> 18));
        out.push(symbol(group >> 12));
        out.push(symbol(group >> 6));
        out.push(symbol(group));
    }
    match *chunks.remainder() {
        [a] => {
            let group = u32::from(a) << 16;
            out.push(symbol(group >> 18));
            out.push(symbol(group >> 12));
            out.push_str("==");
        }
        [a, b] => {
            let group = u32::from(a) << 16 | u32::from(b) << 8;
            out.push(symbol(group >> 18));
            out.push(symbol(group >> 12));
            out.push(symbol(group >> 6));
            out.push('=');
        }
        _ => {}
    }
}

/// The standard, padded base64 encoding of `bytes`.
///
/// ```
/// assert_eq!(skills_core::encoding::base64::encode(b"foobar"), "Zm9vYmFy");
/// ```
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    encode_into(bytes, &mut out);
    out
}

/// Decodes standard base64, padding optional; `None` for anything else
/// (another alphabet, whitespace, a length no encoding has).
///
/// ```
/// use skills_core::encoding::base64::decode;
/// assert_eq!(decode("aGk="), Some(b"hi".to_vec()));
/// assert_eq!(decode("aGk"), Some(b"hi".to_vec()));
/// assert_eq!(decode("a"), None);
/// ```
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let digits = text.trim_end_matches('=');
    if text.len() - digits.len() > 2 || digits.len() % 4 == 1 {
        return None;
    }
    let value = |c: u8| -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    };
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.as_bytes().chunks(4) {
        let mut acc = 0u32;
        for (at, c) in chunk.iter().enumerate() {
            acc |= value(*c)? << (18 - 6 * at);
        }
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(encoded_len(plain.len()), encoded.len());
        }
    }

    #[test]
    fn every_symbol() {
        let bytes: alloc::vec::Vec<u8> = (0..=255).collect();
        let text = encode(&bytes);
        assert_eq!(text.len(), encoded_len(256));
        assert!(text.starts_with("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g"));
        assert!(text.ends_with("+fr7/P3+/w=="));
        assert_eq!(encode(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn decodes_what_it_encodes_and_nothing_else() {
        let bytes: alloc::vec::Vec<u8> = (0..=255).collect();
        for len in 0..bytes.len() {
            let text = encode(&bytes[..len]);
            assert_eq!(decode(&text).as_deref(), Some(&bytes[..len]));
            assert_eq!(
                decode(text.trim_end_matches('=')).as_deref(),
                Some(&bytes[..len])
            );
        }
        for bad in ["a", "a===", "a-b_", "aGk=\n", " aGk="] {
            assert_eq!(decode(bad), None, "{bad:?}");
        }
    }
}
