//! A published well-known tree (`skills publish --well-known`) served
//! beside the endpoint, so one replica is both the MCP server and the
//! discovery index's origin: `GET` and `HEAD` of a path under
//! [`PREFIX`] answer its bytes with the type the discovery index asks for
//! (`index.json` as `application/json`, `SKILL.md` as `text/markdown`,
//! archives as `application/gzip` or `application/zip`), a missing one
//! `404`, another method `405`. The files are held in memory, read before
//! the listener opens, like everything else the server answers.

use std::collections::BTreeMap;

use skills_core::encoding::percent::unquote;

/// The paths the tree is served under.
pub const PREFIX: &str = "/.well-known/";

/// The files of a published tree, by their path under the origin's root.
///
/// ```
/// use skills_mcp_server::http::Published;
/// let mut tree = Published::default();
/// tree.insert(".well-known/agent-skills/index.json", b"{}".to_vec());
/// assert_eq!(tree.len(), 1);
/// assert!(tree.get("/.well-known/agent-skills/index.json").is_some());
/// assert!(tree.get("/.well-known/agent-skills/nothing").is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Published {
    files: BTreeMap<String, Vec<u8>>,
}

impl Published {
    /// Adds the file at `path` (`/`-separated, under the origin's root,
    /// such as `.well-known/agent-skills/index.json`).
    pub fn insert(&mut self, path: &str, bytes: Vec<u8>) {
        self.files
            .insert(format!("/{}", path.trim_start_matches('/')), bytes);
    }

    /// How many files it holds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether it holds none (then nothing under [`PREFIX`] is served).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The bytes served at the request path `path` (percent-encoded as
    /// sent).
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        let path = unquote(path)?;
        self.files.get(&path).map(Vec::as_slice)
    }
}

/// The `Content-Type` a file of the tree is served with, by its name.
///
/// ```
/// use skills_mcp_server::http::content_type;
/// assert_eq!(content_type("/.well-known/agent-skills/index.json"), "application/json");
/// assert_eq!(content_type("/.well-known/agent-skills/pdf/SKILL.md"), "text/markdown; charset=utf-8");
/// assert_eq!(content_type("/.well-known/agent-skills/pdf.tar.gz"), "application/gzip");
/// ```
pub fn content_type(path: &str) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    if name.ends_with(".json") {
        "application/json"
    } else if name.ends_with(".md") {
        "text/markdown; charset=utf-8"
    } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        "application/gzip"
    } else if name.ends_with(".zip") {
        "application/zip"
    } else if name.ends_with(".txt") {
        "text/plain; charset=utf-8"
    } else {
        "application/octet-stream"
    }
}

/// What a request under [`PREFIX`] is answered with; the transport turns
/// it into a response.
#[derive(Debug)]
pub(crate) struct Served {
    pub(crate) status: hyper::StatusCode,
    pub(crate) content_type: &'static str,
    /// The body of a `GET` (a `HEAD`'s is empty, its length the `GET`'s).
    pub(crate) body: hyper::body::Bytes,
    pub(crate) length: usize,
}

/// The methods a file of the tree answers.
pub(crate) const METHODS: &str = "GET, HEAD";

impl Published {
    /// Answers `method` on `path`.
    pub(crate) fn answer(&self, method: &hyper::Method, path: &str) -> Served {
        use hyper::{Method, StatusCode};
        let text = |status, message: &str| Served {
            status,
            content_type: "text/plain; charset=utf-8",
            length: message.len() + 1,
            body: hyper::body::Bytes::from(format!("{message}\n")),
        };
        if !matches!(*method, Method::GET | Method::HEAD) {
            return text(
                StatusCode::METHOD_NOT_ALLOWED,
                "GET or HEAD a published file",
            );
        }
        let Some(bytes) = self.get(path) else {
            return text(StatusCode::NOT_FOUND, "no such published file");
        };
        Served {
            status: StatusCode::OK,
            content_type: content_type(path),
            length: bytes.len(),
            body: match *method {
                Method::HEAD => hyper::body::Bytes::new(),
                _ => hyper::body::Bytes::copy_from_slice(bytes),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::{Method, StatusCode};

    #[test]
    fn get_and_head_answer_a_file_with_its_type_and_anything_else_is_404_or_405() {
        let mut tree = Published::default();
        tree.insert(
            ".well-known/agent-skills/index.json",
            b"{\"skills\":[]}".to_vec(),
        );
        tree.insert(".well-known/skills/pdf/r\u{e9}sum\u{e9}.md", b"x".to_vec());
        let get = tree.answer(&Method::GET, "/.well-known/agent-skills/index.json");
        assert_eq!(
            (get.status, get.content_type),
            (StatusCode::OK, "application/json")
        );
        assert_eq!(&get.body[..], b"{\"skills\":[]}");
        let head = tree.answer(&Method::HEAD, "/.well-known/agent-skills/index.json");
        assert_eq!(
            (head.status, head.body.len(), head.length),
            (StatusCode::OK, 0, 13)
        );
        let encoded = tree.answer(&Method::GET, "/.well-known/skills/pdf/r%C3%A9sum%C3%A9.md");
        assert_eq!(
            (encoded.status, encoded.content_type),
            (StatusCode::OK, "text/markdown; charset=utf-8")
        );
        assert_eq!(
            tree.answer(&Method::GET, "/.well-known/agent-skills/nope")
                .status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            tree.answer(
                &Method::GET,
                "/.well-known/agent-skills/../agent-skills/index.json"
            )
            .status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            tree.answer(&Method::POST, "/.well-known/agent-skills/index.json")
                .status,
            StatusCode::METHOD_NOT_ALLOWED
        );
    }
}
