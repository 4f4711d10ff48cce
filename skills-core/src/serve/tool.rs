//! The `skill` tool: its definition, the claim step ([`Catalog::resolve`]),
//! serving ([`Catalog::serve`]) and its errors, with the Go module's wording.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

#[cfg(feature = "catalog")]
use crate::serve::catalog::Catalog;
use crate::serve::quote::push_go_quoted;
use crate::serve::read::ReadRecord;
use crate::trust::digest::Sha256;
use crate::wire::bundle::{Content, File, Skill};
#[cfg(feature = "catalog")]
use crate::wire::path::{is_valid_file_path, names_skill_file};

pub use crate::wire::texts::{TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA, USAGE};

/// The `skill` tool as a host declares it to the model.
///
/// ```
/// let tool = skills_core::ToolDefinition::default();
/// assert_eq!((tool.name, tool.description, tool.parameters),
///            (skills_core::TOOL_NAME, skills_core::TOOL_DESCRIPTION, skills_core::TOOL_SCHEMA));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolDefinition<'a> {
    /// `skill`.
    pub name: &'static str,
    /// What the tool does, for the model.
    pub description: &'a str,
    /// The JSON schema of the arguments, as compact JSON text.
    pub parameters: &'a str,
}

impl Default for ToolDefinition<'_> {
    /// The definition from this crate's constants.
    fn default() -> Self {
        ToolDefinition {
            name: TOOL_NAME,
            description: TOOL_DESCRIPTION,
            parameters: TOOL_SCHEMA,
        }
    }
}

/// What a call would serve, found by [`Catalog::resolve`]: the skill and
/// either its instructions or one of its files.
///
/// A host's policy inspects it (which skill, which file, how many bytes,
/// which digest) and then hands it to [`Catalog::serve`], which serves
/// exactly this target: the claim and the read cannot disagree.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// use skills_core::Target;
/// let resolution = catalog.resolve("pdf", Some("skill.MD")).unwrap();
/// assert!(matches!(resolution.target(), Target::Instructions));
/// assert_eq!(resolution.file_name(), "SKILL.md"); // the skill file the skill was loaded from
/// assert_eq!(resolution.path(), "");
/// let served = catalog.serve(resolution).unwrap();
/// assert_eq!(served.read, resolution.read());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolution<'c> {
    skill: &'c Skill<'c>,
    target: Target<'c>,
}

/// What inside a skill a call reads.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// use skills_core::Target;
/// let resolution = catalog.resolve("pdf", Some("assets/logo.png")).unwrap();
/// let Target::File(file) = resolution.target() else { unreachable!() };
/// assert_eq!(file.media_type(), Some("image/png"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'c> {
    /// The skill's instructions: asked for with no path, an empty path, or
    /// `SKILL.md` in any case.
    Instructions,
    /// One of the skill's files.
    File(&'c File<'c>),
}

impl<'c> Resolution<'c> {
    /// The skill.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.resolve("pdf", None).unwrap().skill().name, "pdf");
    /// ```
    pub fn skill(&self) -> &'c Skill<'c> {
        self.skill
    }

    /// The instructions or the file.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// use skills_core::Target;
    /// assert_eq!(catalog.resolve("pdf", None).unwrap().target(), Target::Instructions);
    /// ```
    pub fn target(&self) -> Target<'c> {
        self.target
    }

    /// The path recorded for the read: the file's path, or `""` for the
    /// instructions.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.resolve("pdf", Some("reference.md")).unwrap().path(), "reference.md");
    /// ```
    pub fn path(&self) -> &'c str {
        match self.target {
            Target::Instructions => "",
            Target::File(file) => file.path,
        }
    }

    /// The file inside the skill the call reads, for a policy that judges
    /// reads by file: the skill file (`SKILL.md` or `skill.md`, as loaded)
    /// for the instructions, or the file's path. A nested
    /// `docs/SKILL.md` is an ordinary file.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.resolve("pdf", None).unwrap().file_name(), "SKILL.md");
    /// ```
    pub fn file_name(&self) -> &'c str {
        match self.target {
            Target::Instructions => self.skill.skill_file.as_str(),
            Target::File(file) => file.path,
        }
    }

    /// The bytes a successful serve returns: the instructions text or the
    /// file's bytes.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert_eq!(catalog.resolve("pdf", Some("reference.md")).unwrap().bytes(), b"Use pdfplumber");
    /// ```
    pub fn bytes(&self) -> &'c [u8] {
        match self.target {
            Target::Instructions => self.skill.instructions.as_bytes(),
            Target::File(file) => file.bytes(),
        }
    }

    /// The [`ReadRecord`] a successful serve records, known before serving, so a
    /// policy can bind an approval to the digest of what will be read.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let read = catalog.resolve("pdf", None).unwrap().read();
    /// assert_eq!((read.path, read.bytes), ("", catalog.lookup("pdf").unwrap().instructions.len()));
    /// ```
    pub fn read(&self) -> ReadRecord<'c> {
        let sha256 = match self.target {
            Target::Instructions => self.skill.instructions_sha256,
            Target::File(file) => file.sha256,
        };
        ReadRecord {
            name: self.skill.name,
            location: self.skill.location,
            path: self.path(),
            bytes: self.bytes().len(),
            sha256: Sha256(sha256),
            frontmatter_sha256: Sha256(self.skill.frontmatter_sha256),
        }
    }

    /// Whether serving would succeed: the instructions, text and images
    /// are served; other files are refused.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// assert!(!catalog.resolve("pdf", Some("assets/form.pdf")).unwrap().is_servable());
    /// ```
    pub fn is_servable(&self) -> bool {
        !matches!(
            self.target,
            Target::File(File {
                content: Content::Binary { .. },
                ..
            })
        )
    }
}

/// A successful call: the reply for the model and the read for the host.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let served = catalog.call("pdf", None).unwrap();
/// assert_eq!(served.reply.as_text(), Some(catalog.lookup("pdf").unwrap().instructions));
/// assert_eq!(served.read.path, "");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served<'c> {
    /// What the model gets.
    pub reply: Reply<'c>,
    /// What the host records.
    pub read: ReadRecord<'c>,
}

/// The reply part the model gets: text, or an image.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// use skills_core::Reply;
/// match catalog.call("pdf", Some("assets/logo.png")).unwrap().reply {
///     Reply::Image(image) => assert!(image.data_url().starts_with("data:image/png;base64,")),
///     _ => unreachable!(),
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reply<'c> {
    /// Text: the instructions, or a text file as it is.
    Text(&'c str),
    /// An image file.
    Image(Image<'c>),
}

impl<'c> Reply<'c> {
    /// The text, for a text reply.
    ///
    /// ```
    /// assert_eq!(skills_core::Reply::Text("hi").as_text(), Some("hi"));
    /// ```
    pub fn as_text(&self) -> Option<&'c str> {
        match *self {
            Reply::Text(text) => Some(text),
            Reply::Image(_) => None,
        }
    }

    /// The image, for an image reply.
    ///
    /// ```
    /// assert!(skills_core::Reply::Text("hi").as_image().is_none());
    /// ```
    pub fn as_image(&self) -> Option<Image<'c>> {
        match *self {
            Reply::Image(image) => Some(image),
            Reply::Text(_) => None,
        }
    }
}

/// An image to give the model, borrowed from the bundle; the base64 form
/// is computed only when asked for.
///
/// ```
/// let image = skills_core::Image { media_type: "image/gif", bytes: b"GIF89a" };
/// assert_eq!(image.base64(), "R0lGODlh");
/// assert_eq!(image.data_url(), "data:image/gif;base64,R0lGODlh");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Image<'c> {
    /// The media type, such as `image/png`.
    pub media_type: &'c str,
    /// The image file's bytes.
    pub bytes: &'c [u8],
}

impl Image<'_> {
    /// The bytes in standard, padded base64.
    ///
    /// ```
    /// let image = skills_core::Image { media_type: "image/png", bytes: &[0xff] };
    /// assert_eq!(image.base64(), "/w==");
    /// ```
    pub fn base64(&self) -> String {
        crate::encoding::base64::encode(self.bytes)
    }

    /// A `data:` URL: `data:<media type>;base64,<base64>`, the form an
    /// `input_image` part's `image_url` takes.
    ///
    /// ```
    /// let image = skills_core::Image { media_type: "image/png", bytes: b"" };
    /// assert_eq!(image.data_url(), "data:image/png;base64,");
    /// ```
    pub fn data_url(&self) -> String {
        let mut out = String::with_capacity(
            13 + self.media_type.len() + crate::encoding::base64::encoded_len(self.bytes.len()),
        );
        out.push_str("data:");
        out.push_str(self.media_type);
        out.push_str(";base64,");
        crate::encoding::base64::encode_into(self.bytes, &mut out);
        out
    }
}

/// The most skill names an unknown-skill error lists (see
/// [`ToolError::UnknownSkill`]): every name of a catalog this small, else
/// at most this many of the closest.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// assert!(catalog.len() <= skills_core::UNKNOWN_SKILL_NAMES);
/// let error = catalog.call("nope", None).unwrap_err().to_string();
/// assert_eq!(error, r#"unknown skill "nope"; available skills: pdf, git-rebase"#);
/// ```
pub const UNKNOWN_SKILL_NAMES: usize = 5;

/// Why a `skill` tool call failed. The [`Display`](fmt::Display) text is the
/// Go module's wording, to give the model as the tool's error output.
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let error = catalog.call("pfd", None).unwrap_err();
/// assert_eq!(error.to_string(), r#"unknown skill "pfd"; available skills: pdf, git-rebase"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolError {
    /// The arguments were not the tool's JSON object (from
    /// `Catalog::call_json`, `json` feature); the message follows `invalid arguments: `.
    InvalidArguments {
        /// What is wrong, for example `missing required property "name"`.
        message: String,
    },
    /// The path is not a relative path inside a skill; refused before the
    /// skill is looked up.
    InvalidPath {
        /// The path as given.
        path: String,
    },
    /// No listed skill has this name. The message stays short at any
    /// catalog size: it lists every name (in catalog order, the Go
    /// module's message) only when there are at most
    /// [`UNKNOWN_SKILL_NAMES`] skills, and otherwise that many names at
    /// most, the closest to the one given ([`crate::text::difflib`]), with how
    /// many skills there are.
    UnknownSkill {
        /// The name as given.
        name: String,
        /// The names the message lists: all of them when `listed.len() ==
        /// total`, else the closest ones, closest first (maybe none).
        listed: Vec<String>,
        /// How many skills the catalog lists.
        total: usize,
    },
    /// The skill has no file at this path.
    NoSuchFile {
        /// The skill's name.
        skill: String,
        /// The path as given.
        path: String,
        /// The skill's files, sorted.
        files: Vec<String>,
    },
    /// The skill is listed, but its part of the bundle does not decode
    /// (only from a catalog opened with [`Catalog::open`], which decodes a
    /// skill on first use).
    CorruptSkill {
        /// The skill's name.
        name: String,
        /// Why it does not decode.
        message: String,
    },
    /// The file is neither text nor an image.
    NotShowable {
        /// The path.
        path: String,
        /// Its size in bytes.
        size: usize,
        /// Its detected media type.
        media_type: String,
    },
}

/// What a [`ToolError`] says, with what it repeats of the call (the name,
/// the path, the message about the arguments) [`capped`] at
/// [`MAX_ECHO_BYTES`]: a caller that sends a 10 MB name gets a short error
/// back, whichever way it is shown. The lists of names and files stay
/// whole (the catalog bounds them, not the caller).
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let name = "x".repeat(10_000_000);
/// let error = catalog.call(&name, Some("../x")).unwrap_err();
/// assert!(error.to_string().len() < 1200);
/// let error = catalog.call(&name, None).unwrap_err();
/// assert!(error.to_string().len() < 1200);
/// assert!(error.to_string().ends_with("available skills: pdf, git-rebase"));
/// let error = catalog.call_json(&format!("{{\"name\": \"{name}\"}}")).unwrap_err();
/// assert!(error.to_string().len() < 1200);
/// ```
impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = |text: &str| {
            let text = capped(text);
            let mut out = String::with_capacity(text.len() + 2);
            push_go_quoted(&mut out, &text);
            out
        };
        match self {
            ToolError::InvalidArguments { message } => {
                write!(f, "invalid arguments: {}", capped(message))
            }
            ToolError::InvalidPath { path } => write!(
                f,
                "invalid path {}: must be a relative path inside the skill, as listed",
                quoted(path)
            ),
            ToolError::UnknownSkill {
                name,
                listed,
                total,
            } => {
                write!(f, "unknown skill {}; ", quoted(name))?;
                if listed.len() == *total {
                    f.write_str("available skills: ")?;
                    write_list(f, listed)
                } else if listed.is_empty() {
                    write!(f, "{total} skills are available; none has a close name")
                } else {
                    write!(f, "{total} skills are available; closest names: ")?;
                    write_list(f, listed)
                }
            }
            ToolError::NoSuchFile { skill, path, files } => {
                write!(
                    f,
                    "skill {} has no file {}; files: ",
                    quoted(skill),
                    quoted(path)
                )?;
                write_list(f, files)
            }
            ToolError::CorruptSkill { name, message } => {
                write!(f, "skill {} cannot be read: {message}", quoted(name))
            }
            ToolError::NotShowable {
                path,
                size,
                media_type,
            } => write!(
                f,
                "file {} is {size} bytes of {media_type}, which cannot be shown as text or an image",
                quoted(path)
            ),
        }
    }
}

impl core::error::Error for ToolError {}

/// The most bytes of the caller's own text (a name, a path, a message
/// about its arguments) that an error repeats: 1 KiB, so a model or client
/// that sends a huge name gets a short error back (see [`capped`]).
///
/// ```
/// assert_eq!(skills_core::serve::tool::MAX_ECHO_BYTES, 1024);
/// ```
pub const MAX_ECHO_BYTES: usize = 1024;

/// `text`, or its first [`MAX_ECHO_BYTES`] (cut at a character boundary)
/// followed by how much was left out: the one way an error repeats what it
/// was given, in the providers' tool results and the MCP server's replies.
///
/// ```
/// use skills_core::serve::tool::capped;
/// let long = "x".repeat(5000);
/// let echoed = capped(&long);
/// assert!(echoed.len() < 1100 && echoed.ends_with("… (3976 more bytes)"));
/// assert_eq!(capped("short"), "short");
/// ```
pub fn capped(text: &str) -> String {
    if text.len() <= MAX_ECHO_BYTES {
        return text.into();
    }
    let mut end = MAX_ECHO_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    alloc::format!("{}… ({} more bytes)", &text[..end], text.len() - end)
}

impl ToolError {
    /// This error as it is: its [`Display`](fmt::Display) caps what it
    /// repeats of the call already (the unknown name, the path, the
    /// message about the arguments, [`capped`]), whether this is called or
    /// not. Kept so that code written when capping was asked for still
    /// compiles and says the same.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let name = "x".repeat(10_000_000);
    /// let error = catalog.call(&name, None).unwrap_err().with_echo_capped();
    /// assert!(error.to_string().len() < 1200);
    /// assert!(error.to_string().ends_with("available skills: pdf, git-rebase"));
    /// ```
    pub fn with_echo_capped(self) -> Self {
        self
    }
}

/// `a, b, c`, or `none`.
fn write_list(f: &mut fmt::Formatter<'_>, items: &[String]) -> fmt::Result {
    if items.is_empty() {
        return f.write_str("none");
    }
    for (at, item) in items.iter().enumerate() {
        if at > 0 {
            f.write_str(", ")?;
        }
        f.write_str(item)?;
    }
    Ok(())
}

#[cfg(feature = "catalog")]
impl<'a> Catalog<'a> {
    /// The error for a call naming no listed skill, its list bounded
    /// ([`UNKNOWN_SKILL_NAMES`]).
    fn unknown_skill(&self, name: &str) -> ToolError {
        let total = self.len();
        let listed = if total <= UNKNOWN_SKILL_NAMES {
            self.names().map(String::from).collect()
        } else {
            crate::text::difflib::close_matches(name, self.names(), UNKNOWN_SKILL_NAMES)
                .into_iter()
                .map(String::from)
                .collect()
        };
        ToolError::UnknownSkill {
            name: name.into(),
            listed,
            total,
        }
    }

    /// Finds what a call with `name` and `path` would serve, without
    /// serving it: the claim step. A host's policy inspects the
    /// [`Resolution`] and, if it allows the read, passes it to
    /// [`serve`](Self::serve).
    ///
    /// No path, an empty path, or `SKILL.md` in any case (root only) mean
    /// the instructions. Any other path must be a valid relative path
    /// ([`crate::wire::path::is_valid_file_path`]); an invalid one is refused
    /// before the name is looked up. Then the skill must be listed under
    /// `name` exactly, and the file must be one of its files exactly.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let resolution = catalog.resolve("pdf", Some("reference.md"))?;
    /// assert_eq!(resolution.read().bytes, 14);
    /// let error = catalog.resolve("nope", Some("../secret")).unwrap_err();
    /// assert_eq!(error.to_string(), r#"invalid path "../secret": must be a relative path inside the skill, as listed"#);
    /// # Ok::<(), skills_core::ToolError>(())
    /// ```
    pub fn resolve<'c>(
        &'c self,
        name: &str,
        path: Option<&str>,
    ) -> Result<Resolution<'c>, ToolError> {
        let path = path.filter(|path| !path.is_empty() && !names_skill_file(path));
        if let Some(path) = path
            && !is_valid_file_path(path)
        {
            return Err(ToolError::InvalidPath { path: path.into() });
        }
        let Some(at) = self.index_of(name) else {
            return Err(self.unknown_skill(name));
        };
        let skill = self.skill_at(at).map_err(|error| ToolError::CorruptSkill {
            name: name.into(),
            message: alloc::string::ToString::to_string(&error),
        })?;
        let target = match path {
            None => Target::Instructions,
            Some(path) => match skill.file(path) {
                Some(file) => Target::File(file),
                None => {
                    return Err(ToolError::NoSuchFile {
                        skill: skill.name.into(),
                        path: path.into(),
                        files: skill
                            .files
                            .iter()
                            .map(|file| String::from(file.path))
                            .collect(),
                    });
                }
            },
        };
        Ok(Resolution { skill, target })
    }

    /// Serves what `resolution` names: the instructions or a text file as
    /// text, an image file as an image; any other file is refused with its
    /// size and media type. Nothing is copied: the reply borrows the bundle.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let resolution = catalog.resolve("pdf", Some("assets/form.pdf")).unwrap();
    /// assert_eq!(
    ///     catalog.serve(resolution).unwrap_err().to_string(),
    ///     r#"file "assets/form.pdf" is 8 bytes of application/pdf, which cannot be shown as text or an image"#,
    /// );
    /// ```
    pub fn serve<'c>(&self, resolution: Resolution<'c>) -> Result<Served<'c>, ToolError> {
        let reply = match resolution.target {
            Target::Instructions => Reply::Text(resolution.skill.instructions),
            Target::File(file) => match file.content {
                Content::Text(text) => Reply::Text(text),
                Content::Image { media_type, bytes } => Reply::Image(Image {
                    media_type,
                    bytes: bytes.0,
                }),
                Content::Binary { media_type, bytes } => {
                    return Err(ToolError::NotShowable {
                        path: file.path.into(),
                        size: bytes.len(),
                        media_type: media_type.into(),
                    });
                }
            },
        };
        Ok(Served {
            reply,
            read: resolution.read(),
        })
    }

    /// The `skill` tool: [`resolve`](Self::resolve), then
    /// [`serve`](Self::serve).
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let served = catalog.call("pdf", Some("reference.md"))?;
    /// assert_eq!(served.reply.as_text(), Some("Use pdfplumber"));
    /// let error = catalog.call("pdf", Some("missing.md")).unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     r#"skill "pdf" has no file "missing.md"; files: assets/form.pdf, assets/logo.png, reference.md"#,
    /// );
    /// # Ok::<(), skills_core::ToolError>(())
    /// ```
    pub fn call(&self, name: &str, path: Option<&str>) -> Result<Served<'_>, ToolError> {
        // A read of the instructions (the usual call) is served from the
        // skill's compact record (`catalog::Hot`): the same reply and read
        // as resolve and serve give, without building a resolution or
        // touching the decoded skill. Anything else, and every error,
        // takes the general way.
        if path.is_none_or(|path| path.is_empty() || names_skill_file(path))
            && let Some(served) = self.with_hot(name, |hot| Served {
                reply: Reply::Text(hot.instructions),
                read: ReadRecord {
                    name: hot.name,
                    location: hot.location,
                    path: "",
                    bytes: hot.instructions.len(),
                    sha256: Sha256(hot.instructions_sha256),
                    frontmatter_sha256: Sha256(hot.frontmatter_sha256),
                },
            })
        {
            return Ok(served);
        }
        let resolution = self.resolve(name, path)?;
        self.serve(resolution)
    }
}

#[cfg(feature = "catalog")]
impl<'a> Catalog<'a> {
    /// The `skill` tool's definition to give the model.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let tool = catalog.tool_definition();
    /// assert_eq!(tool.name, "skill");
    /// assert_eq!(tool.description, skills_core::TOOL_DESCRIPTION);
    /// assert!(tool.parameters.starts_with(r#"{"type":"object""#));
    /// ```
    pub fn tool_definition(&self) -> ToolDefinition<'a> {
        let (description, parameters) = self.tool_texts();
        ToolDefinition {
            name: TOOL_NAME,
            description,
            parameters,
        }
    }
}
