//! The bundle format, the one thing the compiler and the runtime share.
//!
//! A bundle is `MAGIC`, the format version and a container: the catalog's
//! texts, fixed-width tables of where each name and each skill's encoding
//! end, a name index, the listing order, then each skill's encoding. The
//! wings:
//!
//! - [`bundle`]: the records the compiler fills and the runtime borrows,
//!   their rules, and encoding a whole bundle;
//! - `postcard`: the encoding's primitives, as the postcard crate writes
//!   them; `codec`: each record's encoding over them;
//! - `layout`: the container's tables and their bounds; `names`: the name
//!   index; `listing`: the listing order; `decode`: the header and
//!   [`DecodeError`](decode::DecodeError);
//! - [`writer`]: writing a bundle one skill at a time, and each skill's
//!   digest (what the bundle revision is composed of);
//! - [`derived`]: what both sides derive alike, so the bundle need not
//!   store it (a frontmatter's JSON, normalised tags, image types);
//! - [`texts`]: the `skill` tool's fixed texts (name, description,
//!   schema, usage); [`instructions`]: the instructions text a read
//!   serves; [`path`]: the rules of a file path inside a skill.

pub mod bundle;
pub(crate) mod codec;
pub mod decode;
pub mod derived;
pub mod instructions;
pub(crate) mod layout;
pub(crate) mod listing;
pub(crate) mod names;
pub mod path;
pub mod postcard;
#[cfg(test)]
mod refusals;
pub mod texts;
pub mod writer;
