//! The listing order the compiler writes into the bundle (format 8): every
//! skill's catalog index in the byte order of its `skill://` URI, as the
//! MCP Skills extension's servers list skills (`skills/list`,
//! `resources/list`), so a server makes any page of a listing from this
//! table alone, without reading or sorting the skills before it.
//!
//! A skill's listing key is its root URI's path and a slash: each
//! component (the qualifier's parts, then the name) percent-encoded as
//! `urllib.parse.quote` does with nothing safe, joined by `/`, and a `/`
//! after the last: `pdf` is `pdf/`, `team:pdf` is `team/pdf/`. Its
//! `SKILL.md` URI is `skill://`, the key, and the skill file's name, so for
//! names without a qualifier the key order is exactly the byte order of
//! the `SKILL.md` URIs (`pdf-forms/` before `pdf/`, as `skill://pdf-forms/SKILL.md`
//! sorts before `skill://pdf/SKILL.md`). Keys that tie (two listed names
//! with one URI) keep catalog order.

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::encoding::percent::quote_with;
use crate::wire::bundle::BundleError;
use crate::wire::postcard::entry;

/// Calls `put` with the bytes of `name`'s listing key, a piece at a time.
fn key_with(name: &str, mut put: impl FnMut(&[u8])) {
    let (qualifier, bare) = match name.rsplit_once(':') {
        Some((qualifier, bare)) => (Some(qualifier), bare),
        None => (None, name),
    };
    for component in qualifier.into_iter().flat_map(|q| q.split('/')) {
        quote_with(component, false, &mut put);
        put(b"/");
    }
    quote_with(bare, false, &mut put);
    put(b"/");
}

/// `name`'s listing key.
///
/// ```ignore
/// assert_eq!(key("team:a b"), b"team/a%20b/");
/// ```
pub(crate) fn key(name: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 8);
    key_with(name, |piece| out.extend_from_slice(piece));
    out
}

/// The listing order of `count` skills named `name(i)`: their indices
/// sorted by listing key, ties in index order.
pub(crate) fn order<'n>(count: usize, name: impl Fn(usize) -> &'n str) -> Vec<u32> {
    let mut keyed: Vec<(Vec<u8>, u32)> = (0..count).map(|at| (key(name(at)), at as u32)).collect();
    // (key, index) pairs are distinct, so an unstable sort is deterministic.
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, at)| at).collect()
}

/// Checks a listing table read from a bundle: `count` entries, each a
/// skill's index, in strictly ascending (key, index) order, which makes it
/// a permutation of the skills and the one [`order`] writes.
pub(crate) fn check<'n>(
    table: &[u8],
    count: usize,
    name: impl Fn(usize) -> &'n str,
) -> Result<(), BundleError> {
    if count.checked_mul(4) != Some(table.len()) {
        return Err(BundleError::BadListing);
    }
    let mut previous: Option<(Vec<u8>, usize)> = None;
    for position in 0..count {
        let at = entry(table, position);
        if at >= count {
            return Err(BundleError::BadListing);
        }
        let current = (key(name(at)), at);
        if let Some(previous) = &previous
            && previous.cmp(&current) != Ordering::Less
        {
            return Err(BundleError::BadListing);
        }
        previous = Some(current);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn keys_are_the_uri_paths() {
        assert_eq!(key("pdf"), b"pdf/");
        assert_eq!(key("team:a b"), b"team/a%20b/");
        assert_eq!(key("a/b:c"), b"a/b/c/");
        assert_eq!(key("x:y:z"), b"x%3Ay/z/");
        assert_eq!(key("é"), b"%C3%A9/");
    }

    /// Sorted as the reference server sorts its `SKILL.md` URIs: a name
    /// that another extends with `-` comes after it.
    #[test]
    fn the_order_is_the_uris_byte_order() {
        let names = ["pdf", "pdf-forms", "é", "b", "a:z"];
        let order = order(names.len(), |at| names[at]);
        let listed: Vec<&str> = order.iter().map(|&at| names[at as usize]).collect();
        assert_eq!(listed, ["é", "a:z", "b", "pdf-forms", "pdf"]);
        // The same as the `SKILL.md` URIs sorted.
        let mut uris: Vec<Vec<u8>> = names
            .iter()
            .map(|name| [&b"skill://"[..], &key(name), b"SKILL.md"].concat())
            .collect();
        uris.sort();
        let sorted: Vec<Vec<u8>> = listed
            .iter()
            .map(|name| [&b"skill://"[..], &key(name), b"SKILL.md"].concat())
            .collect();
        assert_eq!(uris, sorted);
    }

    #[test]
    fn check_takes_the_written_order_only() {
        let names = ["b", "a", "c"];
        let table =
            |order: &[u32]| -> Vec<u8> { order.iter().flat_map(|v| v.to_le_bytes()).collect() };
        let written = order(3, |at| names[at]);
        assert_eq!(written, vec![1, 0, 2]);
        assert_eq!(check(&table(&written), 3, |at| names[at]), Ok(()));
        for bad in [&[0, 1, 2][..], &[1, 1, 2], &[1, 0, 3], &[1, 0]] {
            assert_eq!(
                check(&table(bad), 3, |at| names[at]),
                Err(BundleError::BadListing),
                "{bad:?}"
            );
        }
        // Tied keys: index order.
        let tied = ["a", "a"];
        assert_eq!(check(&table(&[0, 1]), 2, |at| tied[at]), Ok(()));
        assert_eq!(
            check(&table(&[1, 0]), 2, |at| tied[at]),
            Err(BundleError::BadListing)
        );
    }
}
