//! Text encodings the other wings write: JSON in the styles of Python's
//! `json.dumps` (manifests, resource envelopes, revision preimages, the
//! CLI's reference output) and standard base64 (image parts).

pub mod base64;
pub mod json;
