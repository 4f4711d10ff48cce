//! How a file is shown to the model: text, an image, or neither.
//!
//! Decided once, at build time, from the file's name and bytes:
//!
//! 1. An image is recognised by its magic bytes only (PNG, JPEG, GIF,
//!    WebP), whatever its name says.
//! 2. A file with a text extension (the Go module's list: `.md`, `.txt`,
//!    `.py`, `.json`, ... and the names `Makefile` and `Dockerfile`) is
//!    text when it is valid UTF-8.
//! 3. Otherwise, a known binary signature (PDF, ZIP, gzip, ...) makes it
//!    binary with that type; valid UTF-8 without NUL bytes is text; the
//!    rest is `application/octet-stream`.

/// What a file is, for the tool.
///
/// ```
/// use skills_build::unstable::media::{detect, Kind};
/// assert_eq!(detect("notes.md", b"# Notes"), Kind::Text);
/// assert_eq!(detect("logo", b"\x89PNG\r\n\x1a\n...."), Kind::Image("image/png"));
/// assert_eq!(detect("form.pdf", b"%PDF-1.7\n\xff"), Kind::Binary("application/pdf"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Valid UTF-8, served as text.
    Text,
    /// An image of this media type, served as an image part.
    Image(&'static str),
    /// Anything else, refused with this detected media type.
    Binary(&'static str),
}

/// Extensions (lowercased, with the dot) whose files are text when UTF-8;
/// a dotfile without an extension is looked up by its whole name.
const TEXT_EXTENSIONS: &[&str] = &[
    ".md",
    ".markdown",
    ".txt",
    ".text",
    ".rst",
    ".adoc",
    ".json",
    ".jsonl",
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".cfg",
    ".conf",
    ".xml",
    ".html",
    ".htm",
    ".svg",
    ".css",
    ".csv",
    ".tsv",
    ".py",
    ".sh",
    ".bash",
    ".zsh",
    ".fish",
    ".ps1",
    ".bat",
    ".go",
    ".rs",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".hpp",
    ".java",
    ".kt",
    ".js",
    ".mjs",
    ".cjs",
    ".ts",
    ".tsx",
    ".jsx",
    ".rb",
    ".php",
    ".sql",
    ".r",
    ".scala",
    ".swift",
    ".lua",
    ".pl",
    ".ex",
    ".exs",
    ".tex",
    ".bib",
    ".mk",
    ".diff",
    ".patch",
    ".env",
    ".gitignore",
];

/// Whole names that are text files.
const TEXT_NAMES: &[&str] = &["Makefile", "Dockerfile"];

/// Binary signatures: offset, magic bytes, media type.
const SIGNATURES: &[(usize, &[u8], &str)] = &[
    (0, b"%PDF-", "application/pdf"),
    (0, b"PK\x03\x04", "application/zip"),
    (0, b"PK\x05\x06", "application/zip"),
    (0, b"\x1f\x8b\x08", "application/gzip"),
    (0, b"BZh", "application/x-bzip2"),
    (0, b"\xfd7zXZ\x00", "application/x-xz"),
    (0, b"\x28\xb5\x2f\xfd", "application/zstd"),
    (0, b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed"),
    (0, b"Rar!\x1a\x07", "application/vnd.rar"),
    (257, b"ustar", "application/x-tar"),
    (0, b"\x00asm", "application/wasm"),
    (0, b"\x7fELF", "application/x-elf"),
    (0, b"SQLite format 3\x00", "application/vnd.sqlite3"),
    (0, b"BM", "image/bmp"),
    (0, b"\x00\x00\x01\x00", "image/x-icon"),
    (0, b"II*\x00", "image/tiff"),
    (0, b"MM\x00*", "image/tiff"),
    (0, b"OggS", "application/ogg"),
    (0, b"ID3", "audio/mpeg"),
    (0, b"fLaC", "audio/flac"),
    (4, b"ftyp", "video/mp4"),
    (0, b"\x1a\x45\xdf\xa3", "video/webm"),
    (0, b"wOFF", "font/woff"),
    (0, b"wOF2", "font/woff2"),
    (0, b"OTTO", "font/otf"),
    (0, b"\x00\x01\x00\x00\x00", "font/ttf"),
];

/// The image type of `bytes` by magic bytes, if one of the four the tool
/// serves as images. One implementation, skills-core's: the runtime sniffs
/// resources with it too, so a file the build serves as an image is one
/// the MCP resources call an image.
pub use skills_core::wire::derived::sniff_image;

/// The media type of a known binary signature.
pub fn sniff_binary(bytes: &[u8]) -> Option<&'static str> {
    SIGNATURES
        .iter()
        .find(|(offset, magic, _)| {
            bytes
                .get(*offset..)
                .is_some_and(|rest| rest.starts_with(magic))
        })
        .map(|(_, _, media_type)| *media_type)
}

/// The lowercased extension of the last path segment, with its dot; a
/// dotfile without another dot gives its whole name (`.gitignore`).
fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dot = name.rfind('.')?;
    Some(name[dot..].to_ascii_lowercase())
}

/// Whether the name says text.
pub fn has_text_name(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    TEXT_NAMES.contains(&name)
        || extension(path).is_some_and(|ext| TEXT_EXTENSIONS.contains(&ext.as_str()))
}

/// Decides how the file at `path` with `bytes` is shown, by the rules of
/// the `media` module, in their order.
///
/// ```
/// use skills_build::unstable::media::{detect, Kind};
/// assert_eq!(detect("data.bin", b"plain words"), Kind::Text);
/// assert_eq!(detect("data.bin", b"a\0b"), Kind::Binary("application/octet-stream"));
/// assert_eq!(detect("notes.txt", b"GIF89a...."), Kind::Image("image/gif"));
/// assert_eq!(detect("notes.txt", b"\xff\xfe"), Kind::Binary("application/octet-stream"));
/// ```
pub fn detect(path: &str, bytes: &[u8]) -> Kind {
    if let Some(image) = sniff_image(bytes) {
        return Kind::Image(image);
    }
    let utf8 = std::str::from_utf8(bytes).is_ok();
    if has_text_name(path) && utf8 {
        return Kind::Text;
    }
    if let Some(binary) = sniff_binary(bytes) {
        return Kind::Binary(binary);
    }
    if utf8 && !bytes.contains(&0) {
        return Kind::Text;
    }
    Kind::Binary("application/octet-stream")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions() {
        assert_eq!(extension("a/b.TAR.GZ").as_deref(), Some(".gz"));
        assert_eq!(extension(".gitignore").as_deref(), Some(".gitignore"));
        assert_eq!(extension("Makefile"), None);
        assert!(has_text_name("x/.env"));
    }

    #[test]
    fn text_names_with_binary_bytes() {
        assert_eq!(detect("a.md", b"%PDF-1.4 text"), Kind::Text);
        assert_eq!(
            detect("a.pdf", b"%PDF-1.4 text"),
            Kind::Binary("application/pdf")
        );
        assert_eq!(detect("empty", b""), Kind::Text);
        assert_eq!(detect("logo.png", b"not a png"), Kind::Text);
    }

    #[test]
    fn sniffs_images() {
        assert_eq!(
            crate::media::sniff_image(b"GIF89a\x01\x00"),
            Some("image/gif")
        );
        assert_eq!(
            crate::media::sniff_image(b"RIFF\0\0\0\0WEBPVP8 "),
            Some("image/webp")
        );
        assert_eq!(crate::media::sniff_image(b"hello"), None);
    }

    #[test]
    fn sniffs_binary_signatures() {
        assert_eq!(
            crate::media::sniff_binary(b"PK\x03\x04rest"),
            Some("application/zip")
        );
        assert_eq!(crate::media::sniff_binary(b"plain"), None);
    }

    #[test]
    fn names_that_say_text() {
        use crate::media::has_text_name;
        assert!(has_text_name("scripts/run.PY"));
        assert!(has_text_name("docker/Dockerfile"));
        assert!(!has_text_name("blob.bin"));
    }
}
