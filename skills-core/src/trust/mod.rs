//! Integrity and provenance: SHA-256 digests as values ([`digest`]),
//! agentskills-core's
//! content revisions, the bundle revision and the payloads publishers sign
//! (`revision`, feature `revision`), and the trust policy that checks
//! Ed25519 signatures and pins (`verify`, feature `verify`).

pub mod digest;
#[cfg(feature = "revision")]
pub mod revision;
#[cfg(feature = "verify")]
pub mod verify;
