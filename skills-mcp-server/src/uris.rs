//! Finding what a `skill://` URI names, from the URI alone: the skill (by
//! a lookup in the bundle's name index) and the path inside it, so a
//! request touches the one skill it names, whatever the catalog's size.
//!
//! A skill's root URI is `skill://` and its listed name's components
//! (`team:pdf` is `skill://team/pdf`), each percent-encoded; a file's URI
//! is the root, `/`, and its path percent-encoded with `/` kept. Where the
//! root ends is not marked, so each reading is tried, shortest root first;
//! a reading counts only when the URI is exactly the one the server
//! publishes for what it names (the canonical encoding: `%2e%2e`, `..` or a
//! lowercase escape name nothing).

use skills_core::Catalog;
use skills_core::encoding::percent::unquote;
use skills_core::features::manifest::root_uri;

/// The scheme every URI the server publishes starts with.
const SCHEME: &str = "skill://";

/// The longest listed name a URI is read as: a bound on the work a
/// request of many `/` costs (each reading looks its name up).
const MAX_NAME: usize = 1024;

/// One way to read a URI: a skill's root and what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reading {
    /// The skill's index in the catalog.
    pub(crate) at: usize,
    /// The skill's root URI, exactly as the URI starts.
    pub(crate) root: String,
    /// What follows the root and a `/`, decoded; `None` when the URI is
    /// the root itself.
    pub(crate) path: Option<String>,
}

/// Every reading of `uri` as a listed skill's root and a path inside it,
/// shortest root first.
pub(crate) fn readings(catalog: &Catalog<'_>, uri: &str) -> Vec<Reading> {
    let mut found = Vec::new();
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return found;
    };
    // The qualifier's components read so far, `/`-joined, decoded.
    let mut qualifier: Option<String> = None;
    let mut start = 0;
    loop {
        let end = rest[start..].find('/').map_or(rest.len(), |at| start + at);
        let Some(component) = unquote(&rest[start..end]) else {
            break;
        };
        let name = match &qualifier {
            None => component.clone(),
            Some(qualifier) => format!("{qualifier}:{component}"),
        };
        if name.len() > MAX_NAME {
            break;
        }
        if let Some(at) = catalog.index_of(&name)
            && root_uri(&name, None).is_ok_and(|root| root == uri[..SCHEME.len() + end])
        {
            let path = match rest.get(end + 1..) {
                None => Some(None),
                Some(path) => unquote(path).map(Some),
            };
            if let Some(path) = path {
                found.push(Reading {
                    at,
                    root: uri[..SCHEME.len() + end].to_owned(),
                    path,
                });
            }
        }
        if end == rest.len() {
            break;
        }
        match &mut qualifier {
            None => qualifier = Some(component),
            Some(qualifier) => {
                qualifier.push('/');
                qualifier.push_str(&component);
            }
        }
        start = end + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_core::wire::bundle::{Bundle, Skill};

    fn catalog_of(names: &[&'static str]) -> Vec<u8> {
        Bundle {
            skills: names
                .iter()
                .map(|&name| Skill {
                    name,
                    ..Skill::default()
                })
                .collect(),
            ..Bundle::default()
        }
        .encode()
        .unwrap()
    }

    #[test]
    fn roots_of_any_depth_are_found_in_canonical_form_only() {
        let bytes = catalog_of(&["pdf", "team:pdf", "a b"]);
        let catalog = Catalog::open(&bytes).unwrap();
        let read = |uri: &str| -> Vec<(usize, Option<String>)> {
            readings(&catalog, uri)
                .into_iter()
                .map(|r| (r.at, r.path))
                .collect()
        };
        assert_eq!(read("skill://pdf"), [(0, None)]);
        assert_eq!(read("skill://pdf/SKILL.md"), [(0, Some("SKILL.md".into()))]);
        assert_eq!(
            read("skill://team/pdf/SKILL.md"),
            [(1, Some("SKILL.md".into()))]
        );
        assert_eq!(read("skill://a%20b/x%20y/z"), [(2, Some("x y/z".into()))]);
        assert_eq!(read("skill://a%20b/"), [(2, Some(String::new()))]);
        for nothing in [
            "skill://a b/SKILL.md",
            "skill://%70df/SKILL.md",
            "skill://nope/SKILL.md",
            "file:///etc/passwd",
            "skill://",
            "skill://pdf%zz",
        ] {
            assert_eq!(read(nothing), [], "{nothing}");
        }
        // A path that does not decode names nothing in that skill.
        assert_eq!(read("skill://pdf/%FF"), []);
        // Many slashes cost a bounded number of lookups.
        let long = format!("skill://{}", "x/".repeat(100_000));
        assert_eq!(read(&long), []);
    }
}
