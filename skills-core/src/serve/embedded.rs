//! [`Embedded`]: the bundle bytes compiled into the binary, decoded on
//! first use and kept.

use alloc::boxed::Box;
use core::fmt;

use once_cell::race::OnceBox;

use crate::serve::catalog::Catalog;
use crate::wire::decode::DecodeError;

/// A bundle compiled into the binary. `include_skills!` and
/// [`include_bundle!`](crate::include_bundle) expand to one; build it in a
/// `static` so it is decoded once per process.
///
/// The first [`catalog`](Self::catalog) call decodes the bytes and keeps
/// the result (the catalog or the error); later calls return it. If two
/// threads race on the first call, both decode and one result is kept.
///
/// ```
/// use skills_core::Embedded;
/// # let bytes = skills_core::wire::bundle::Bundle::default().encode().unwrap();
/// # let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
/// // In a real program, a static:
/// // static SKILLS: Embedded = include_skills!("skills");
/// // static SKILLS: Embedded = skills_core::include_bundle!("skills.bin");
/// let skills = Embedded::new(bytes);
///
/// let catalog = skills.catalog()?;
/// assert!(catalog.is_empty());
/// assert!(std::ptr::eq(catalog, skills.catalog()?)); // decoded once
/// # Ok::<(), skills_core::DecodeError>(())
/// ```
pub struct Embedded {
    bytes: &'static [u8],
    decoded: OnceBox<Result<Catalog<'static>, DecodeError>>,
}

impl Embedded {
    /// Wraps the bundle bytes; nothing is decoded until
    /// [`catalog`](Self::catalog) is called. Usable in a `static`.
    ///
    /// ```
    /// static EMPTY: skills_core::Embedded = skills_core::Embedded::new(&[]);
    /// assert!(EMPTY.catalog().is_err());
    /// ```
    pub const fn new(bytes: &'static [u8]) -> Self {
        Embedded {
            bytes,
            decoded: OnceBox::new(),
        }
    }

    /// The bundle bytes, as embedded.
    ///
    /// ```
    /// static SKILLS: skills_core::Embedded = skills_core::Embedded::new(b"SKB\0");
    /// assert_eq!(SKILLS.bytes(), b"SKB\0");
    /// ```
    pub const fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    /// The catalog, decoded on the first call and kept. An error is kept
    /// too and returned on every call: the bytes do not change.
    ///
    /// ```
    /// static BROKEN: skills_core::Embedded = skills_core::Embedded::new(b"SKB\0\x63\x00");
    /// let error = BROKEN.catalog().unwrap_err();
    /// assert!(error.to_string().contains("format version 99"));
    /// ```
    pub fn catalog(&self) -> Result<&Catalog<'static>, DecodeError> {
        let bytes = self.bytes;
        self.decoded
            .get_or_init(|| Box::new(Catalog::from_bytes(bytes)))
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl fmt::Debug for Embedded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Embedded")
            .field("bytes", &self.bytes.len())
            .field("decoded", &self.decoded.get().is_some())
            .finish()
    }
}
