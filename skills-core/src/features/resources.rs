//! A skill's resources as agentskills-core presents them: listed by kind
//! (`references`, `scripts`, `assets`), classified by their bytes, and
//! encoded for a model as text or as a JSON envelope.
//!
//! Media types come from a fixed table (Python's built-in `mimetypes`
//! table, see [`crate::text::pytext::guess_media_type`]), never from the host.
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
//! use skills_core::features::resources::{encode_resource_content, DEFAULT_MAX_INLINE_BINARY_BYTES};
//! let pdf = catalog.lookup("pdf").unwrap();
//! let listed = skills_core::features::resources::list_resources(pdf);
//! assert_eq!(listed.assets, ["form.pdf", "logo.png"]);
//! let logo = catalog.resource("pdf", "assets", "logo.png").unwrap();
//! assert_eq!(
//!     encode_resource_content("logo.png", logo.bytes(), DEFAULT_MAX_INLINE_BINARY_BYTES),
//!     r#"{"name": "logo.png", "media_type": "image/png", "size_bytes": 8, "encoding": "base64", "content": "iVBORw0KGgo="}"#,
//! );
//! ```

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::encoding::json::{JsonWriter, Style};
#[cfg(feature = "catalog")]
use crate::serve::catalog::Catalog;
use crate::text::pytext::guess_media_type;
use crate::wire::bundle::File;
use crate::wire::bundle::Skill;
#[cfg(feature = "catalog")]
use crate::wire::derived::sniff_image;

/// The resource kinds, each a directory of the skill.
///
/// ```
/// assert_eq!(skills_core::features::resources::RESOURCE_KINDS, ["references", "scripts", "assets"]);
/// ```
pub const RESOURCE_KINDS: [&str; 3] = ["references", "scripts", "assets"];

/// The largest binary resource inlined as base64 by default (64 KiB).
///
/// ```
/// assert_eq!(skills_core::features::resources::DEFAULT_MAX_INLINE_BINARY_BYTES, 65536);
/// ```
pub const DEFAULT_MAX_INLINE_BINARY_BYTES: usize = 64 * 1024;

/// The largest image shown as an image by default (5 MiB).
///
/// ```
/// assert_eq!(skills_core::features::resources::DEFAULT_MAX_INLINE_IMAGE_BYTES, 5 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_INLINE_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// A skill's resources by kind: the names of the regular files directly
/// inside each kind's directory, dotfiles left out, sorted.
///
/// ```
/// let none = skills_core::features::resources::Resources::default();
/// assert!(none.references.is_empty() && none.kind("scripts").is_some() && none.kind("x").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resources<'a> {
    /// Files in `references/`.
    pub references: Vec<&'a str>,
    /// Files in `scripts/`.
    pub scripts: Vec<&'a str>,
    /// Files in `assets/`.
    pub assets: Vec<&'a str>,
}

impl<'a> Resources<'a> {
    /// The names of one kind, or `None` for a kind that is not one of
    /// [`RESOURCE_KINDS`].
    pub fn kind(&self, kind: &str) -> Option<&[&'a str]> {
        match kind {
            "references" => Some(&self.references),
            "scripts" => Some(&self.scripts),
            "assets" => Some(&self.assets),
            _ => None,
        }
    }

    /// The listing as agentskills-core's `list_resources` dict prints in
    /// JSON (`json.dumps`, default separators, ASCII).
    ///
    /// ```
    /// let none = skills_core::features::resources::Resources::default();
    /// assert_eq!(none.to_json(), r#"{"references": [], "scripts": [], "assets": []}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut json = JsonWriter::new(String::new(), Style::PYTHON);
        // Writing to a String never fails.
        let _ = self.write_json(&mut json);
        json.into_inner()
    }

    fn write_json(&self, json: &mut JsonWriter<String>) -> fmt::Result {
        json.begin_object()?;
        for kind in RESOURCE_KINDS {
            json.key(kind)?;
            json.begin_array()?;
            for name in self.kind(kind).unwrap_or_default() {
                json.string(name)?;
            }
            json.end()?;
        }
        json.end()
    }
}

/// Lists `skill`'s resources by kind.
///
/// ```
/// use skills_core::wire::bundle::{Content, File, Skill};
/// let file = |path| File { path, sha256: [0; 32], content: Content::Text("") };
/// let skill = Skill {
///     files: vec![file("assets/.hidden"), file("assets/a/b.png"), file("assets/c.png"), file("scripts/run.sh")],
///     ..Skill::default()
/// };
/// let listed = skills_core::features::resources::list_resources(&skill);
/// assert_eq!((listed.assets, listed.scripts), (vec!["c.png"], vec!["run.sh"]));
/// ```
pub fn list_resources<'a>(skill: &Skill<'a>) -> Resources<'a> {
    let mut listed = Resources::default();
    for file in &skill.files {
        let Some((kind, name)) = file.path.split_once('/') else {
            continue;
        };
        if name.contains('/') || name.starts_with('.') {
            continue;
        }
        match kind {
            "references" => listed.references.push(name),
            "scripts" => listed.scripts.push(name),
            "assets" => listed.assets.push(name),
            _ => {}
        }
    }
    listed
}

/// A resource that is not there, in agentskills-core's words.
///
/// ```
/// let error = skills_core::features::resources::ResourceNotFound { skill: "s".into(), kind: "references".into(), name: "x.md".into() };
/// assert_eq!(error.to_string(), "Resource 'x.md' not found in references/ for skill 's'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceNotFound {
    /// The skill asked for.
    pub skill: String,
    /// The kind asked for.
    pub kind: String,
    /// The name asked for.
    pub name: String,
}

impl fmt::Display for ResourceNotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Resource '{}' not found in {}/ for skill '{}'",
            self.name, self.kind, self.skill
        )
    }
}

impl core::error::Error for ResourceNotFound {}

#[cfg(feature = "catalog")]
impl<'a> Catalog<'a> {
    /// The resource `name` of kind `kind` (one of [`RESOURCE_KINDS`]) of
    /// the skill listed as `skill`: a bare file name directly inside the
    /// kind's directory.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(catalog.resource("pdf", "assets", "logo.png").is_ok());
    /// assert_eq!(
    ///     catalog.resource("pdf", "references", "x.md").unwrap_err().to_string(),
    ///     "Resource 'x.md' not found in references/ for skill 'pdf'",
    /// );
    /// ```
    pub fn resource(
        &self,
        skill: &str,
        kind: &str,
        name: &str,
    ) -> Result<&File<'a>, ResourceNotFound> {
        let found = (RESOURCE_KINDS.contains(&kind)
            && !name.is_empty()
            && !name.contains(['/', '\\', '\0'])
            && !name.starts_with('.'))
        .then(|| self.lookup(skill))
        .flatten()
        .and_then(|found| {
            let mut path = String::with_capacity(kind.len() + 1 + name.len());
            path.push_str(kind);
            path.push('/');
            path.push_str(name);
            found.file(&path)
        });
        found.ok_or_else(|| ResourceNotFound {
            skill: skill.into(),
            kind: kind.into(),
            name: name.into(),
        })
    }
}

/// What a resource is and whether a model can be shown it
/// (agentskills-core's `classify_resource`).
///
/// ```
/// use skills_core::features::resources::{classify_resource, DEFAULT_MAX_INLINE_IMAGE_BYTES};
/// let png = classify_resource("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", DEFAULT_MAX_INLINE_IMAGE_BYTES);
/// assert_eq!((png.media_type, png.is_text, png.renderable), ("image/png", false, true));
/// let svg = classify_resource("d.svg", b"<svg/>", DEFAULT_MAX_INLINE_IMAGE_BYTES);
/// assert_eq!((svg.media_type, svg.is_text, svg.renderable), ("image/svg+xml", true, false));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceMedia<'a> {
    /// The name given.
    pub name: &'a str,
    /// The media type: sniffed from the bytes for PNG, JPEG, GIF and WebP,
    /// else guessed from the name, else `application/octet-stream`.
    pub media_type: &'static str,
    /// The size in bytes.
    pub size_bytes: usize,
    /// Whether it is text: not a sniffed image, and valid UTF-8.
    pub is_text: bool,
    /// Whether to show it as an image: a sniffed image within the limit.
    pub renderable: bool,
}

/// Classifies a resource (see [`ResourceMedia`]).
pub fn classify_resource<'a>(
    name: &'a str,
    data: &[u8],
    max_inline_image_bytes: usize,
) -> ResourceMedia<'a> {
    let sniffed = sniff_image(data);
    ResourceMedia {
        name,
        media_type: sniffed
            .or_else(|| guess_media_type(name))
            .unwrap_or("application/octet-stream"),
        size_bytes: data.len(),
        is_text: sniffed.is_none() && core::str::from_utf8(data).is_ok(),
        renderable: sniffed.is_some() && data.len() <= max_inline_image_bytes,
    }
}

/// A resource as a model reads it (agentskills-core's
/// `encode_resource_content`): UTF-8 text as is; anything else as a JSON
/// envelope with its name-based media type and size, and the bytes in
/// base64 when they are at most `max_inline_binary_bytes`, else a note.
///
/// ```
/// use skills_core::features::resources::encode_resource_content;
/// assert_eq!(encode_resource_content("a.md", b"# A", 0), "# A");
/// assert_eq!(
///     encode_resource_content("b.bin", b"\xff\xfe", 0),
///     r#"{"name": "b.bin", "media_type": "application/octet-stream", "size_bytes": 2, "encoding": "none", "note": "Binary content omitted: 2 bytes exceeds the 0-byte inline limit. Retrieve this resource out of band if you need it."}"#,
/// );
/// ```
pub fn encode_resource_content<'d>(
    name: &str,
    data: &'d [u8],
    max_inline_binary_bytes: usize,
) -> Cow<'d, str> {
    if let Ok(text) = core::str::from_utf8(data) {
        return Cow::Borrowed(text);
    }
    let media_type = guess_media_type(name).unwrap_or("application/octet-stream");
    let mut json = JsonWriter::new(
        String::with_capacity(data.len() / 3 * 4 + name.len() + 128),
        Style::PYTHON,
    );
    // Writing to a String never fails.
    let _ = write_envelope(&mut json, name, media_type, data, max_inline_binary_bytes);
    Cow::Owned(json.into_inner())
}

fn write_envelope(
    json: &mut JsonWriter<String>,
    name: &str,
    media_type: &str,
    data: &[u8],
    max_inline_binary_bytes: usize,
) -> fmt::Result {
    json.begin_object()?;
    json.key("name")?;
    json.string(name)?;
    json.key("media_type")?;
    json.string(media_type)?;
    json.key("size_bytes")?;
    json.value(data.len())?;
    json.key("encoding")?;
    if data.len() > max_inline_binary_bytes {
        json.string("none")?;
        json.key("note")?;
        json.display(format_args!(
            "Binary content omitted: {} bytes exceeds the {max_inline_binary_bytes}-byte inline limit. Retrieve this resource out of band if you need it.",
            data.len()
        ))?;
    } else {
        json.string("base64")?;
        json.key("content")?;
        let mut content = String::with_capacity(crate::encoding::base64::encoded_len(data.len()));
        crate::encoding::base64::encode_into(data, &mut content);
        json.string(&content)?;
    }
    json.end()
}
