//! The byte patterns the rules search every file for, each prepared once
//! (a vectorised `memchr::memmem::Finder`) and shared by every thread: a
//! registry's worth of files is searched many times over, and preparing a
//! searcher costs more than a short file's search.

use std::sync::LazyLock;

use memchr::memmem::Finder;

/// A prepared search for one byte string.
pub(super) type Needle = LazyLock<Finder<'static>>;

/// Declares prepared needles: `needles! { NAME = b"bytes"; ... }`.
macro_rules! needles {
    ($($(#[$doc:meta])* $name:ident = $bytes:expr;)*) => {$(
        $(#[$doc])*
        pub(super) static $name: Needle = LazyLock::new(|| Finder::new($bytes));
    )*};
}

needles! {
    /// Opens a PEM or PGP block.
    PEM_BEGIN = b"-----BEGIN ";
    /// AWS access key ids of long-term and temporary credentials.
    AKIA = b"AKIA";
    ASIA = b"ASIA";
    /// Slack's incoming webhooks.
    SLACK_HOOK = b"hooks.slack.com/services/";
    /// Every URL's scheme separator.
    SCHEME = b"://";
    /// Opens an HTML comment.
    COMMENT = b"<!--";
}

/// Prepared needles for a list of patterns, in its order.
pub(super) fn all<'p>(patterns: impl IntoIterator<Item = &'p str>) -> Vec<Finder<'static>> {
    patterns
        .into_iter()
        .map(|pattern| Finder::new(pattern.as_bytes()).into_owned())
        .collect()
}
