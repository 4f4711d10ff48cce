//! What the compiler leaves out of a bundle, or stores in one normal form,
//! because both sides derive it with these same functions: a skill's
//! frontmatter as JSON (stored only when [`simple_frontmatter_json`] cannot
//! give it byte for byte), tags as the catalog filter compares them
//! ([`normalize_tag`]), and which files are images ([`sniff_image`]).

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::string::String;

use crate::encoding::json::{JsonWriter, Style};
use crate::encoding::yaml_core::write_scalar;
use crate::text::pytext::{casefold, strip};
use crate::wire::bundle::Skill;

/// The frontmatter as compact JSON (keys in file order, each scalar typed
/// as YAML 1.2's core schema types it: [`crate::encoding::yaml_core`]),
/// derived from its text when it has the plain shape most skills have:
/// `key: value` lines and `key:` lines followed by `  key: value` lines
/// (one level), each value a plain scalar, or quoted without escapes or
/// the quote inside. Anything else (comments, blank lines, lists, block
/// scalars, deeper nesting, repeated keys, a plain value YAML might read
/// otherwise than as one scalar) gives `None`.
///
/// The compiler stores a skill's JSON only when this derivation does not
/// give exactly the JSON its YAML reader produced, so the derivation never
/// has to be a YAML parser: it only has to be the same function at build
/// time and at run time.
///
/// ```
/// use skills_core::wire::derived::simple_frontmatter_json;
/// let text = "name: pdf\ndescription: Fill forms.\nmetadata:\n  owner: me\n  version: \"1.0\"\n";
/// assert_eq!(simple_frontmatter_json(text).unwrap(), r#"{"name":"pdf","description":"Fill forms.","metadata":{"owner":"me","version":"1.0"}}"#);
/// let typed = "name: pdf\ndisable-model-invocation: true\nmetadata:\n  version: 1.0\n";
/// assert_eq!(simple_frontmatter_json(typed).unwrap(), r#"{"name":"pdf","disable-model-invocation":true,"metadata":{"version":1.0}}"#);
/// assert_eq!(simple_frontmatter_json("tags:\n  - a\n"), None);
/// ```
pub fn simple_frontmatter_json(frontmatter: &str) -> Option<String> {
    let body = frontmatter.strip_suffix('\n').unwrap_or(frontmatter);
    let mut json = JsonWriter::new(
        String::with_capacity(frontmatter.len() + 32),
        Style::COMPACT,
    );
    // Sets, not lists: a repeated key is found in log time, so 80,000
    // metadata keys cost no more than their length. Writing to a String
    // cannot fail, so the writer's results are dropped.
    let mut keys: BTreeSet<&str> = BTreeSet::new();
    let mut nested: Option<BTreeSet<&str>> = None;
    let _ = json.begin_object();
    let close_nested =
        |json: &mut JsonWriter<String>, nested: &mut Option<BTreeSet<&str>>| -> Option<()> {
            if let Some(inner) = nested.take() {
                if inner.is_empty() {
                    return None; // `key:` alone is null, not a map
                }
                let _ = json.end();
            }
            Some(())
        };
    if !body.is_empty() {
        for line in body.split('\n') {
            if let Some(rest) = line.strip_prefix("  ") {
                let inner = nested.as_mut()?;
                let (key, value) = simple_pair(rest)?;
                if !inner.insert(key) {
                    return None;
                }
                let _ = json.key(key);
                let (text, plain) = simple_scalar(value?)?;
                let _ = write_scalar(&mut json, text, plain);
                continue;
            }
            close_nested(&mut json, &mut nested)?;
            let (key, value) = simple_pair(line)?;
            if !keys.insert(key) {
                return None;
            }
            let _ = json.key(key);
            match value {
                Some(value) => {
                    let (text, plain) = simple_scalar(value)?;
                    let _ = write_scalar(&mut json, text, plain);
                }
                None => {
                    let _ = json.begin_object();
                    nested = Some(BTreeSet::new());
                }
            }
        }
    }
    close_nested(&mut json, &mut nested)?;
    let _ = json.end();
    Some(json.into_inner())
}

/// `key: value` (value `Some`) or `key:` (value `None`), with a key of
/// ASCII letters, digits, `-` and `_`.
fn simple_pair(line: &str) -> Option<(&str, Option<&str>)> {
    let (key, rest) = line.split_once(':')?;
    let key_ok = key
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !key_ok {
        return None;
    }
    if rest.is_empty() {
        return Some((key, None));
    }
    Some((key, Some(rest.strip_prefix(' ')?)))
}

/// The text of a simple scalar and whether it is plain: plain text YAML
/// reads as that one scalar (typed then by the core schema), or text
/// quoted without escapes.
fn simple_scalar(value: &str) -> Option<(&str, bool)> {
    if let Some(inner) = value.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        return (!inner.contains(['"', '\\'])).then_some((inner, false));
    }
    if let Some(inner) = value.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'')?;
        return (!inner.contains('\'')).then_some((inner, false));
    }
    let first = value.chars().next()?;
    let plain = !"-?:,[]{}#&*!|>'\"%@`~ \t".contains(first)
        && !value.ends_with([' ', '\t', ':'])
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.contains(['\t', '\r']);
    plain.then_some((value, true))
}

/// A tag as the filter compares it: stripped, then case-folded; `None`
/// for a blank tag, which never matches.
///
/// ```
/// use skills_core::wire::derived::normalize_tag;
/// assert_eq!(normalize_tag(" PDF ").as_deref(), Some("pdf"));
/// assert_eq!(normalize_tag(" \t"), None);
/// ```
pub fn normalize_tag(tag: &str) -> Option<Cow<'_, str>> {
    let stripped = strip(tag);
    (!stripped.is_empty()).then(|| casefold(stripped))
}

/// The image type the leading bytes announce, for the four formats a model
/// can be shown. The compiler (`skills-build`'s `media::detect`) decides
/// with it which files the tool serves as images.
///
/// ```
/// assert_eq!(skills_core::wire::derived::sniff_image(b"GIF89a..."), Some("image/gif"));
/// assert_eq!(skills_core::wire::derived::sniff_image(b"%PDF"), None);
/// ```
pub fn sniff_image(data: &[u8]) -> Option<&'static str> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if data.starts_with(b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if data.get(..4) == Some(b"RIFF") && data.get(8..12) == Some(b"WEBP") {
        Some("image/webp")
    } else {
        None
    }
}

impl<'a> Skill<'a> {
    /// The frontmatter as compact JSON: the stored text, or else the one
    /// derived from the frontmatter text (`{}` if it cannot be).
    ///
    /// ```
    /// use skills_core::wire::bundle::Skill;
    /// let skill = Skill { frontmatter: "name: a\ndescription: B.\n", ..Skill::default() };
    /// assert_eq!(skill.frontmatter_json(), r#"{"name":"a","description":"B."}"#);
    /// ```
    pub fn frontmatter_json(&self) -> Cow<'a, str> {
        match self.frontmatter_json {
            Some(json) => json.into(),
            None => simple_frontmatter_json(self.frontmatter)
                .unwrap_or_else(|| "{}".into())
                .into(),
        }
    }
}
