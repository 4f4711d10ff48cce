//! Serving a bundle: the decoded [`Catalog`](catalog::Catalog) and its
//! static wrapper ([`embedded`]), a bundle kept in a file and read a skill
//! at a time ([`paged`]), the `skill` tool ([`tool`]: definition,
//! claim, serve, errors in the Go module's words), the model's JSON
//! arguments (`arguments`, features `json`/`serde`), the record of a
//! read ([`read`]), and the tool in model providers' JSON (`providers`,
//! feature `json`).

#[cfg(any(feature = "json", feature = "serde"))]
pub(crate) mod arguments;
pub mod catalog;
pub mod embedded;
pub mod paged;
#[cfg(feature = "json")]
pub mod providers;
pub(crate) mod quote;
pub mod read;
pub mod tool;
