//! CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`): the checksum a
//! zip entry records for its uncompressed bytes.

const fn table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut n = 0;
    while n < 256 {
        let mut c = n as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[n] = c;
        n += 1;
    }
    table
}

static TABLE: [u32; 256] = table();

/// The CRC-32 of `bytes`, as zip records it.
///
/// ```
/// assert_eq!(skills_build::unstable::archive::crc32(b"123456789"), 0xCBF4_3926);
/// assert_eq!(skills_build::unstable::archive::crc32(b""), 0);
/// ```
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &b in bytes {
        c = TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    c ^ 0xFFFF_FFFF
}
