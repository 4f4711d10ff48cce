//! Integrity and provenance: SHA-256 digests as values ([`digest`]),
//! agentskills-core's
//! content revisions, the bundle revision and the payloads publishers sign
//! (`revision`, feature `revision`), and the trust policy that checks
//! Ed25519 signatures and pins (`verify`, feature `verify`).

pub mod digest;
#[cfg(feature = "revision")]
pub mod revision;
/// SHA-256 itself, at [`crate::sha256`]: it lives at the ground floor of
/// the crate, below the wire format that hashes what it writes, and is
/// re-exported here, beside the digests, where it has always been found.
pub use crate::sha256;
#[cfg(feature = "verify")]
pub mod verify;
