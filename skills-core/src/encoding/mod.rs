//! Text encodings the other wings write: JSON in the styles of Python's
//! `json.dumps` (manifests, resource envelopes, revision preimages, the
//! CLI's reference output), standard base64 (image parts), and
//! percent-encoding as Python's `urllib.parse.quote` writes it (`skill://`
//! URIs, and the order the bundle lists skills in), and YAML 1.2's core
//! schema for the frontmatter's scalars in JSON.

pub mod base64;
pub mod json;
pub mod percent;
pub mod yaml_core;
