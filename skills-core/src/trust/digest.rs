//! A SHA-256 digest as a value: shown as 64 lowercase hex digits, and (with
//! the `serde` feature) serialized as that text, the way read records,
//! manifests and revisions print it.

use core::fmt;

/// A SHA-256 digest, shown as 64 lowercase hex digits.
///
/// ```
/// use skills_core::Sha256;
/// let digest = Sha256([0xab; 32]);
/// assert_eq!(digest.to_string(), "ab".repeat(32));
/// assert_eq!(digest.to_hex().as_str(), digest.to_string());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Sha256(pub [u8; 32]);

impl Sha256 {
    /// The digest as lowercase hex, in a fixed buffer (no allocation).
    ///
    /// ```
    /// let hex = skills_core::Sha256([0x0f; 32]).to_hex();
    /// assert!(hex.as_str().starts_with("0f0f"));
    /// ```
    pub fn to_hex(&self) -> HexDigest {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; 64];
        for (pair, byte) in text.chunks_exact_mut(2).zip(self.0) {
            pair[0] = DIGITS[usize::from(byte >> 4)];
            pair[1] = DIGITS[usize::from(byte & 0xf)];
        }
        HexDigest(text)
    }
}

impl fmt::Display for Sha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_hex().as_str())
    }
}

impl fmt::LowerHex for Sha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_hex().as_str())
    }
}

impl fmt::Debug for Sha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sha256({self})")
    }
}

impl From<[u8; 32]> for Sha256 {
    fn from(bytes: [u8; 32]) -> Self {
        Sha256(bytes)
    }
}

/// Serialized as its lowercase hex text, as the Go module's JSON has it.
#[cfg(feature = "serde")]
impl serde::Serialize for Sha256 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.to_hex().as_str())
    }
}

/// A digest written out as 64 lowercase hex digits, from [`Sha256::to_hex`].
///
/// ```
/// let hex = skills_core::Sha256([0; 32]).to_hex();
/// assert_eq!(hex.as_str(), "0".repeat(64));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct HexDigest([u8; 64]);

impl HexDigest {
    /// The hex text.
    ///
    /// ```
    /// assert_eq!(skills_core::Sha256([0x10; 32]).to_hex().as_str().len(), 64);
    /// ```
    pub fn as_str(&self) -> &str {
        // Only ASCII hex digits are ever written into the buffer, so this
        // never fails; the fallback keeps the function free of panics.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl fmt::Display for HexDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for HexDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn hex_is_lowercase_and_ordered() {
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(9);
        }
        let text = format!("{}", Sha256(bytes));
        assert_eq!(&text[..8], "0009121b");
        assert_eq!(text.len(), 64);
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
        assert_eq!(format!("{:x}", Sha256(bytes)), text);
        assert_eq!(
            format!("{:?}", Sha256([0xff; 32])),
            format!("Sha256({})", "ff".repeat(32))
        );
    }
}
