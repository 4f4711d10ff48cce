//! SHA-256 (FIPS 180-4): the one entry point, [`Hasher`] and [`digest`],
//! with two back ends.
//!
//! - The portable one ([`portable`]), written out plainly here: what a
//!   build script or `include_skills!` hashes with. Cargo's default dev
//!   profile compiles those unoptimised, and there a straight loop over
//!   `u32`s (shifts, and `wrapping_add`, inlined even at opt-level 0) runs
//!   as fast as the `sha2` crate (whose SHA-NI intrinsics become function
//!   calls), and it spares a user's cold build the six crates `sha2` 0.11
//!   compiles first (`typenum`, `hybrid-array`, `crypto-common`,
//!   `block-buffer`, `digest`, `sha2`). The figures are in
//!   `docs/benchmarks.md`.
//! - The `sha2` crate, with the `verify` feature, which compiles it anyway
//!   (through ed25519-dalek): the `skills` command, signing and verifying.
//!   Optimised, with the CPU's SHA instructions, it is several times as
//!   fast as the portable loop.
//!
//! Both give the same digests; the tests check them against each other at
//! every length and split up to a few blocks.
//!
//! ```
//! use skills_core::sha256::{Hasher, digest};
//! let mut hasher = Hasher::new();
//! hasher.update(b"ab");
//! hasher.update(b"c");
//! assert_eq!(hasher.finalize(), digest(b"abc"));
//! assert_eq!(digest(b"abc")[..4], [0xba, 0x78, 0x16, 0xbf]);
//! ```

#[cfg(not(feature = "verify"))]
pub use portable::Hasher;

/// An incremental SHA-256 over the `sha2` crate (feature `verify`).
///
/// ```
/// let mut hasher = skills_core::sha256::Hasher::new();
/// hasher.update(b"abc");
/// assert_eq!(hasher.finalize(), skills_core::sha256::digest(b"abc"));
/// ```
#[cfg(feature = "verify")]
#[derive(Clone, Debug, Default)]
pub struct Hasher(sha2::Sha256);

#[cfg(feature = "verify")]
impl Hasher {
    /// A hasher over no bytes yet.
    pub fn new() -> Self {
        Hasher(<sha2::Sha256 as sha2::Digest>::new())
    }

    /// Hashes `bytes` after everything before.
    pub fn update(&mut self, bytes: impl AsRef<[u8]>) {
        sha2::Digest::update(&mut self.0, bytes.as_ref());
    }

    /// The digest of everything hashed.
    pub fn finalize(self) -> [u8; 32] {
        sha2::Digest::finalize(self.0).into()
    }
}

/// The SHA-256 of `bytes`.
///
/// ```
/// let empty = skills_core::sha256::digest(b"");
/// assert_eq!(empty[..4], [0xe3, 0xb0, 0xc4, 0x42]);
/// ```
pub fn digest(bytes: &[u8]) -> [u8; 32] {
    let mut hasher = Hasher::new();
    hasher.update(bytes);
    hasher.finalize()
}

pub mod portable {
    //! The portable back end: see the [parent module](super).
    //!
    //! ```
    //! use skills_core::sha256::portable;
    //! assert_eq!(portable::digest(b"abc"), skills_core::sha256::digest(b"abc"));
    //! ```

    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];

    const INITIAL: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];

    /// An incremental SHA-256, by the portable back end.
    ///
    /// ```
    /// let mut hasher = skills_core::sha256::portable::Hasher::new();
    /// hasher.update(b"abc");
    /// assert_eq!(hasher.finalize(), skills_core::sha256::portable::digest(b"abc"));
    /// ```
    #[derive(Clone, Debug)]
    pub struct Hasher {
        state: [u32; 8],
        /// Bytes hashed so far, the buffered ones included.
        len: u64,
        buffer: [u8; 64],
        buffered: usize,
    }

    impl Default for Hasher {
        fn default() -> Self {
            Hasher::new()
        }
    }

    /// The SHA-256 of `bytes`, by the portable back end.
    ///
    /// ```
    /// let empty = skills_core::sha256::portable::digest(b"");
    /// assert_eq!(empty[..4], [0xe3, 0xb0, 0xc4, 0x42]);
    /// ```
    pub fn digest(bytes: &[u8]) -> [u8; 32] {
        let mut hasher = Hasher::new();
        hasher.update(bytes);
        hasher.finalize()
    }

    impl Hasher {
        /// A hasher over no bytes yet.
        pub const fn new() -> Self {
            Hasher {
                state: INITIAL,
                len: 0,
                buffer: [0; 64],
                buffered: 0,
            }
        }

        /// Hashes `bytes` after everything before.
        pub fn update(&mut self, bytes: impl AsRef<[u8]>) {
            let mut bytes = bytes.as_ref();
            self.len = self.len.wrapping_add(bytes.len() as u64);
            if self.buffered > 0 {
                let take = (64 - self.buffered).min(bytes.len());
                self.buffer[self.buffered..self.buffered + take].copy_from_slice(&bytes[..take]);
                self.buffered += take;
                bytes = &bytes[take..];
                if self.buffered < 64 {
                    return;
                }
                let block = self.buffer;
                compress(&mut self.state, &block);
                self.buffered = 0;
            }
            let mut blocks = bytes.chunks_exact(64);
            for block in &mut blocks {
                compress(&mut self.state, block);
            }
            let rest = blocks.remainder();
            self.buffer[..rest.len()].copy_from_slice(rest);
            self.buffered = rest.len();
        }

        /// The digest of everything hashed.
        pub fn finalize(mut self) -> [u8; 32] {
            let bits = self.len.wrapping_mul(8);
            let mut tail = [0u8; 72];
            tail[0] = 0x80;
            // Pad to 56 bytes past a block boundary, then the length.
            let pad = (119 - (self.len % 64) as usize) % 64 + 1;
            tail[pad..pad + 8].copy_from_slice(&bits.to_be_bytes());
            self.update(&tail[..pad + 8]);
            let mut out = [0u8; 32];
            for (chunk, word) in out.chunks_exact_mut(4).zip(self.state) {
                chunk.copy_from_slice(&word.to_be_bytes());
            }
            out
        }
    }

    /// `x` rotated right by `n` bits, written as shifts: `u32::rotate_right`
    /// is a function call in unoptimised code.
    macro_rules! rotr {
        ($x:expr, $n:literal) => {
            ($x >> $n) | ($x << (32 - $n))
        };
    }

    /// One round: `$d` and `$h` take the new values of `e` and `a`; the
    /// caller renames the rest.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $k:expr, $w:expr) => {
            let t1 = $h
                .wrapping_add(rotr!($e, 6) ^ rotr!($e, 11) ^ rotr!($e, 25))
                .wrapping_add(($e & $f) ^ (!$e & $g))
                .wrapping_add($k)
                .wrapping_add($w);
            let t2 = (rotr!($a, 2) ^ rotr!($a, 13) ^ rotr!($a, 22))
                .wrapping_add(($a & $b) ^ ($a & $c) ^ ($b & $c));
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(t2);
        };
    }

    /// One 64-byte block. Plain `while` loops and wrapping arithmetic, so that
    /// unoptimised code calls no iterator or overflow-check functions per round.
    #[allow(clippy::manual_rotate)] // see `rotr!`
    fn compress(state: &mut [u32; 8], block: &[u8]) {
        let mut w = [0u32; 64];
        let mut i = 0;
        while i < 16 {
            w[i] = u32::from_be_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ]);
            i += 1;
        }
        while i < 64 {
            let a = w[i - 15];
            let b = w[i - 2];
            let s0 = rotr!(a, 7) ^ rotr!(a, 18) ^ (a >> 3);
            let s1 = rotr!(b, 17) ^ rotr!(b, 19) ^ (b >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
            i += 1;
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        // Eight rounds an iteration, the working variables renamed instead of
        // shifted along: unoptimised code keeps every variable in memory, and
        // the shuffle would cost eight copies a round.
        i = 0;
        while i < 64 {
            round!(a, b, c, d, e, f, g, h, K[i], w[i]);
            round!(h, a, b, c, d, e, f, g, K[i + 1], w[i + 1]);
            round!(g, h, a, b, c, d, e, f, K[i + 2], w[i + 2]);
            round!(f, g, h, a, b, c, d, e, K[i + 3], w[i + 3]);
            round!(e, f, g, h, a, b, c, d, K[i + 4], w[i + 4]);
            round!(d, e, f, g, h, a, b, c, K[i + 5], w[i + 5]);
            round!(c, d, e, f, g, h, a, b, K[i + 6], w[i + 6]);
            round!(b, c, d, e, f, g, h, a, K[i + 7], w[i + 7]);
            i += 8;
        }
        state[0] = state[0].wrapping_add(a);
        state[1] = state[1].wrapping_add(b);
        state[2] = state[2].wrapping_add(c);
        state[3] = state[3].wrapping_add(d);
        state[4] = state[4].wrapping_add(e);
        state[5] = state[5].wrapping_add(f);
        state[6] = state[6].wrapping_add(g);
        state[7] = state[7].wrapping_add(h);
    }
}

#[cfg(test)]
mod tests {
    use super::portable;
    use super::*;
    use alloc::vec::Vec;
    use sha2::Digest;

    /// The entry point's back end (sha2 with `verify`, which these tests
    /// enable) and the portable one agree at every length and split.
    #[test]
    fn both_back_ends_agree_at_every_length_and_split() {
        let data: Vec<u8> = (0..700u32)
            .map(|i| (i.wrapping_mul(2_246_822_519) >> 13) as u8)
            .collect();
        for len in 0..data.len() {
            let expected = portable::digest(&data[..len]);
            assert_eq!(digest(&data[..len]), expected, "length {len}");
            for split in [1, len / 2, len.saturating_sub(1), 64.min(len)] {
                let split = split.min(len);
                let mut hasher = Hasher::new();
                hasher.update(&data[..split]);
                hasher.update(&data[split..len]);
                assert_eq!(hasher.finalize(), expected, "length {len} split at {split}");
                let mut hasher = portable::Hasher::new();
                hasher.update(&data[..split]);
                hasher.update(&data[split..len]);
                assert_eq!(
                    hasher.finalize(),
                    expected,
                    "portable, length {len} split at {split}"
                );
            }
        }
    }

    #[test]
    fn matches_sha2_at_every_length_and_split() {
        let data: Vec<u8> = (0..600u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
            .collect();
        for len in 0..data.len() {
            let expected: [u8; 32] = sha2::Sha256::digest(&data[..len]).into();
            assert_eq!(portable::digest(&data[..len]), expected, "length {len}");
            let split = len / 3;
            let mut hasher = portable::Hasher::new();
            hasher.update(&data[..split]);
            hasher.update(&data[split..len]);
            assert_eq!(hasher.finalize(), expected, "length {len} split at {split}");
        }
    }

    #[test]
    fn known_vectors() {
        let hex = |bytes: [u8; 32]| {
            bytes
                .iter()
                .map(|b| alloc::format!("{b:02x}"))
                .collect::<alloc::string::String>()
        };
        assert_eq!(
            hex(portable::digest(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(portable::digest(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        let mut million = portable::Hasher::new();
        for _ in 0..1000 {
            million.update([b'a'; 1000]);
        }
        assert_eq!(
            hex(million.finalize()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }
}
