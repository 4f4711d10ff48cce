//! Where a published tree is read from for `skills verify --well-known`:
//! a folder (the output of `skills publish`) or an `http://` origin on a
//! loopback address (this command carries no TLS; an `https://` or remote
//! origin is refused by name). Both answer a request path with a status,
//! a content type and bytes, so one check reads either.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use skills_build::unstable::read_limit::read_limited;

/// The largest response or file read (the archive reader's limit).
pub const MAX_BYTES: u64 = 256 << 20;

/// What a request path answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status (a folder answers 200 or 404).
    pub status: u16,
    /// The `Content-Type`, when there was one (a folder's is the server's
    /// for the name).
    pub content_type: Option<String>,
    /// The body.
    pub bytes: Vec<u8>,
}

/// A published tree's origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A folder holding `.well-known/`.
    Dir(PathBuf),
    /// `http://HOST:PORT` on a loopback address, and the path the target
    /// named before `/.well-known/` (usually empty).
    Http {
        /// `HOST:PORT` as given.
        authority: String,
        /// The path prefix (no trailing `/`).
        base: String,
    },
}

/// The host of an authority `host[:port]` (`[v6]:port` included).
pub(crate) fn host_of(authority: &str) -> &str {
    match authority.rfind(':') {
        Some(at) if !authority.ends_with(']') => &authority[..at],
        _ => authority,
    }
}

/// Whether `host` is `localhost` or a loopback IP literal (`[::1]` in
/// brackets or not).
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl Origin {
    /// The origin `target` names: a URL when it starts with a scheme, a
    /// folder otherwise.
    pub fn parse(target: &str) -> Result<Origin, String> {
        if let Some(rest) = target.strip_prefix("http://") {
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            if !is_loopback_host(host_of(authority)) {
                return Err(format!(
                    "{target}: only loopback origins (127.0.0.0/8, [::1], localhost) are read over plain HTTP; for another host, verify the folder `skills publish` wrote"
                ));
            }
            let base = path.split("/.well-known/").next().unwrap_or("");
            return Ok(Origin::Http {
                authority: authority.to_string(),
                base: base.trim_end_matches('/').to_string(),
            });
        }
        if target.contains("://") {
            return Err(format!(
                "{target}: only http:// loopback URLs are read (this command has no TLS); verify the folder `skills publish` wrote"
            ));
        }
        Ok(Origin::Dir(PathBuf::from(target)))
    }

    /// Where `path` (absolute, `/.well-known/...`) is, for messages.
    pub fn show(&self, path: &str) -> String {
        match self {
            Origin::Dir(dir) => dir.join(path.trim_start_matches('/')).display().to_string(),
            Origin::Http { authority, base } => format!("http://{authority}{base}{path}"),
        }
    }

    /// `GET path` (or with `head`, `HEAD path`).
    pub fn request(&self, path: &str, head: bool) -> Result<Answer, String> {
        match self {
            Origin::Dir(dir) => read_in(dir, path, head),
            Origin::Http { authority, base } => http(authority, &format!("{base}{path}"), head),
        }
    }
}

/// A file of the folder, refusing a path that climbs out or passes through
/// a symbolic link: 404 for what is not there.
fn read_in(dir: &Path, path: &str, head: bool) -> Result<Answer, String> {
    let rel = path.trim_start_matches('/');
    if let Some(why) = crate::packing::untar::unsafe_path(rel) {
        return Err(format!("{path}: {why}"));
    }
    let mut at = dir.to_path_buf();
    for part in rel.split('/') {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!("{} is a symbolic link, not followed", at.display()));
            }
            Ok(_) => {}
            Err(_) => {
                return Ok(Answer {
                    status: 404,
                    content_type: None,
                    bytes: Vec::new(),
                });
            }
        }
    }
    let bytes = match head {
        true => Vec::new(),
        false => read_limited(&at, MAX_BYTES)
            .map_err(|error| format!("cannot read {}: {error}", at.display()))?,
    };
    Ok(Answer {
        status: 200,
        // A folder has no media types: only HTTP answers have theirs checked.
        content_type: None,
        bytes,
    })
}

/// One HTTP/1.1 request, `Connection: close`, the reply read to its end
/// (by `Content-Length`, else to the close), within [`MAX_BYTES`] and 30 s
/// of silence.
fn http(authority: &str, path: &str, head: bool) -> Result<Answer, String> {
    let url = format!("http://{authority}{path}");
    let fail = |error: std::io::Error| format!("{url}: {error}");
    let mut stream = TcpStream::connect(authority).map_err(fail)?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(fail)?;
    let method = if head { "HEAD" } else { "GET" };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nAccept: */*\r\nConnection: close\r\n\r\n"
    )
    .map_err(fail)?;
    let mut reply = Vec::new();
    stream
        .take(MAX_BYTES + 64 * 1024)
        .read_to_end(&mut reply)
        .map_err(fail)?;
    let end = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| format!("{url}: the reply has no complete head"))?;
    let head_text = String::from_utf8_lossy(&reply[..end]).into_owned();
    let mut lines = head_text.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse::<u16>().ok())
        .ok_or_else(|| format!("{url}: the reply has no status line"))?;
    let mut content_type = None;
    let mut length = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-type" => content_type = Some(value.to_string()),
            "content-length" => length = value.parse::<usize>().ok(),
            "transfer-encoding" if !value.eq_ignore_ascii_case("identity") => {
                return Err(format!(
                    "{url}: a {value} body is not read; the server sends files with a length"
                ));
            }
            _ => {}
        }
    }
    let mut bytes = reply[end + 4..].to_vec();
    if !head && let Some(length) = length {
        if bytes.len() < length {
            return Err(format!("{url}: the body ends before its Content-Length"));
        }
        bytes.truncate(length);
    }
    Ok(Answer {
        status,
        content_type,
        bytes,
    })
}
