//! Standard base64 (RFC 4648, `+` and `/`, `=` padding), the encoding an
//! image part's `data:` URL uses. Written out here, as it is the only
//! encoding the runtime needs.

use alloc::string::String;

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
}
