//! MCP's Streamable HTTP transport, stateless, over `std::net`.
//!
//! Each `POST` to the endpoint (`/mcp`) carries one JSON-RPC message and
//! is answered on its own ([`Server::handle_stateless`]): a request with
//! `200` and one `application/json` reply, a notification or a client's
//! response with `202 Accepted` and no body. No session is kept, so no
//! `Mcp-Session-Id` is ever issued (one sent is ignored) and any number of
//! replicas behind a load balancer serve one bundle file alike. No
//! server-to-client stream is offered: `GET` (and `DELETE`, there being no
//! session to end) is `405 Method Not Allowed`. A `MCP-Protocol-Version`
//! header naming a version this server does not speak is `400`.
//!
//! The server is small on purpose: a bounded pool of threads, each serving
//! one connection at a time with HTTP/1.1 keep-alive; a bounded queue of
//! accepted connections (a full queue is answered `503` at once); bounded
//! request heads and bodies (`431`, `413`); an idle timeout. It listens on
//! loopback only ([`bind_loopback`]): put a reverse proxy or an
//! orchestrator's ingress in front to serve others. A request `Origin`
//! other than a loopback one is refused (`403`), against DNS rebinding.
//!
//! ```no_run
//! let bytes = std::fs::read("skills.bin")?;
//! let catalog = skills_core::Catalog::from_bytes(&bytes)?;
//! let server = skills_mcp_server::Server::new(&catalog, Default::default())?;
//! let listener = skills_mcp_server::http::bind_loopback("127.0.0.1:8080")?;
//! let stop = std::sync::atomic::AtomicBool::new(false);
//! skills_mcp_server::http::serve(&server, listener, &Default::default(), &stop)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use crate::{HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION, Server};

/// The endpoint's path: MCP messages are `POST`ed here; any other path is
/// `404 Not Found`, with a body that names this one.
///
/// ```
/// use std::io::{Read, Write};
/// use skills_mcp_server::http::{self, ENDPOINT};
/// # let bytes = skills_core::__doc_bundle();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let server = skills_mcp_server::Server::new(&catalog, Default::default()).unwrap();
/// let listener = http::bind_loopback("127.0.0.1:0")?;
/// let addr = listener.local_addr()?;
/// let stop = std::sync::atomic::AtomicBool::new(false);
/// let options = http::HttpOptions { threads: 2, ..Default::default() };
/// std::thread::scope(|scope| {
///     let serving = scope.spawn(|| http::serve(&server, listener, &options, &stop));
///     let post = |path: &str| {
///         let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
///         let mut stream = std::net::TcpStream::connect(addr).unwrap();
///         write!(stream, "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()).unwrap();
///         let mut reply = String::new();
///         stream.read_to_string(&mut reply).unwrap();
///         reply
///     };
///     assert!(post(ENDPOINT).starts_with("HTTP/1.1 200 "));
///     let elsewhere = post("/other");
///     assert!(elsewhere.starts_with("HTTP/1.1 404 ") && elsewhere.contains(ENDPOINT));
///     http::stop(&stop, addr);
///     serving.join().unwrap()
/// })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const ENDPOINT: &str = "/mcp";

/// How the HTTP transport serves: the defaults are 64 threads, a queue of
/// 1024 waiting connections, heads up to 16 KiB, bodies up to 1 MiB and a
/// 10 s idle timeout. A host behind a proxy that already bounds bodies, on
/// a small machine, might serve with fewer threads:
///
/// ```no_run
/// use std::time::Duration;
/// use skills_mcp_server::http::{self, HttpOptions};
/// let options = HttpOptions {
///     threads: 8,
///     max_body_bytes: 256 * 1024,
///     idle_timeout: Duration::from_secs(30),
///     ..HttpOptions::default()
/// };
/// # let bytes = skills_core::__doc_bundle();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let server = skills_mcp_server::Server::new(&catalog, Default::default())?;
/// let listener = http::bind_loopback("127.0.0.1:8080")?;
/// http::serve(&server, listener, &options, &std::sync::atomic::AtomicBool::new(false))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Threads serving connections (at least 1): the most connections
    /// served at once.
    pub threads: usize,
    /// Accepted connections waiting for a thread; one more is answered
    /// `503 Service Unavailable` and closed.
    pub queue: usize,
    /// The largest request head (request line and headers).
    pub max_head_bytes: usize,
    /// The largest request body (default: the stdio transport's largest
    /// line, [`crate::DEFAULT_MAX_REQUEST_BYTES`]).
    pub max_body_bytes: usize,
    /// How long a connection may sit idle, or a read or write stall,
    /// before it is closed.
    pub idle_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            threads: 64,
            queue: 1024,
            max_head_bytes: 16 * 1024,
            max_body_bytes: crate::DEFAULT_MAX_REQUEST_BYTES,
            idle_timeout: Duration::from_secs(10),
        }
    }
}

/// Why the HTTP transport cannot start.
#[derive(Debug)]
#[non_exhaustive]
pub enum HttpError {
    /// The address is not `HOST:PORT`, or does not resolve.
    Address(String),
    /// The address is not a loopback one.
    NotLoopback(SocketAddr),
    /// Binding failed.
    Bind(SocketAddr, io::Error),
}

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HttpError::Address(addr) => write!(
                f,
                "{addr:?} is not an address to listen on: give HOST:PORT, such as 127.0.0.1:8080"
            ),
            HttpError::NotLoopback(addr) => write!(
                f,
                "{addr} is not a loopback address: the HTTP transport listens on 127.0.0.1 or [::1] only (put a proxy in front to serve others)"
            ),
            HttpError::Bind(addr, error) => write!(f, "cannot listen on {addr}: {error}"),
        }
    }
}

impl std::error::Error for HttpError {}

/// A listener on `addr`, which must be a loopback address (`127.0.0.1:0`
/// picks a free port).
///
/// ```
/// let listener = skills_mcp_server::http::bind_loopback("127.0.0.1:0").unwrap();
/// assert!(listener.local_addr().unwrap().ip().is_loopback());
/// assert!(skills_mcp_server::http::bind_loopback("0.0.0.0:0").is_err());
/// ```
pub fn bind_loopback(addr: &str) -> Result<TcpListener, HttpError> {
    let resolved: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|_| HttpError::Address(addr.to_owned()))?
        .collect();
    let Some(first) = resolved.first().copied() else {
        return Err(HttpError::Address(addr.to_owned()));
    };
    if let Some(outside) = resolved.iter().find(|a| !a.ip().is_loopback()) {
        return Err(HttpError::NotLoopback(*outside));
    }
    TcpListener::bind(first).map_err(|error| HttpError::Bind(first, error))
}

/// Stops a [`serve`] running on `addr` with the flag `stop`: sets the flag
/// and wakes the accepting thread. Connections being served finish their
/// request; idle ones close at their timeout.
pub fn stop(flag: &AtomicBool, addr: SocketAddr) {
    flag.store(true, Ordering::SeqCst);
    let _ = TcpStream::connect_timeout(&addr, Duration::from_secs(1));
}

/// Serves `server` on `listener` until `stop` is set (see [`stop`]), with
/// `options.threads` threads; returns once every thread has finished.
pub fn serve(
    server: &Server<'_, '_>,
    listener: TcpListener,
    options: &HttpOptions,
    stop: &AtomicBool,
) -> io::Result<()> {
    let (queue, waiting) = mpsc::sync_channel::<TcpStream>(options.queue.max(1));
    let waiting = Mutex::new(waiting);
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1) {
            std::thread::Builder::new()
                .name("mcp-http".into())
                .stack_size(512 * 1024)
                .spawn_scoped(scope, || {
                    loop {
                        let next = waiting
                            .lock()
                            .unwrap_or_else(|poisoned| poisoned.into_inner())
                            .recv();
                        let Ok(stream) = next else { break };
                        // A connection's failure is its own: a reset, a
                        // timeout. The thread serves the next one.
                        let _ = connection(server, stream, options, stop);
                    }
                })?;
        }
        for stream in listener.incoming() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let stream = match stream {
                Ok(stream) => stream,
                // Out of descriptors and the like: wait a little, go on.
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            };
            match queue.try_send(stream) {
                Ok(()) => {}
                Err(mpsc::TrySendError::Full(stream)) => {
                    let _ = busy(stream);
                }
                Err(mpsc::TrySendError::Disconnected(_)) => break,
            }
        }
        drop(queue);
        Ok(())
    })
}

fn busy(mut stream: TcpStream) -> io::Result<()> {
    stream.set_write_timeout(Some(Duration::from_secs(1)))?;
    let response = Response::error(503, "the server is busy; try again").header("Retry-After", "1");
    stream.write_all(&response.bytes(true))
}

/// One request, as far as this transport reads it.
#[derive(Debug)]
struct Request {
    method: String,
    target: String,
    /// Header names lowercased, in order.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// The client asked to close after this request (or speaks HTTP/1.0
    /// without keep-alive).
    close: bool,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// A response to write.
#[derive(Debug)]
struct Response {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Response {
    fn json(status: u16, body: String) -> Self {
        Response {
            status,
            headers: vec![("Content-Type", "application/json".into())],
            body: body.into_bytes(),
        }
    }

    /// A transport-level error: a JSON-RPC error object without an id, as
    /// MCP's HTTP transport answers one.
    fn error(status: u16, message: &str) -> Self {
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": -32600, "message": message },
        });
        Response::json(status, body.to_string())
    }

    fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_owned()));
        self
    }

    fn bytes(&self, close: bool) -> Vec<u8> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n", self.body.len()));
        if close {
            head.push_str("Connection: close\r\n");
        }
        head.push_str("\r\n");
        let mut out = head.into_bytes();
        out.extend_from_slice(&self.body);
        out
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Serves one connection: requests one after another (keep-alive) until
/// the client closes, asks to close, idles past the timeout, or sends what
/// cannot be read.
fn connection(
    server: &Server<'_, '_>,
    stream: TcpStream,
    options: &HttpOptions,
    stop: &AtomicBool,
) -> io::Result<()> {
    stream.set_read_timeout(Some(options.idle_timeout))?;
    stream.set_write_timeout(Some(options.idle_timeout))?;
    stream.set_nodelay(true)?;
    let mut reader = BufReader::with_capacity(16 * 1024, stream.try_clone()?);
    let mut writer = BufWriter::with_capacity(64 * 1024, stream);
    loop {
        let (response, close) = match read_request(&mut reader, options) {
            Ok(None) => return Ok(()),
            Ok(Some(request)) => (respond(server, &request), request.close),
            Err(Unreadable::Io(error)) => return Err(error),
            Err(Unreadable::Http(response)) => (response, true),
        };
        let close = close || stop.load(Ordering::SeqCst);
        writer.write_all(&response.bytes(close))?;
        writer.flush()?;
        if close {
            return Ok(());
        }
    }
}

enum Unreadable {
    /// The connection failed or timed out: nothing to answer.
    Io(io::Error),
    /// The request is malformed or over a limit: answer this, then close.
    Http(Response),
}

impl From<io::Error> for Unreadable {
    fn from(error: io::Error) -> Self {
        Unreadable::Io(error)
    }
}

/// The next request, or `None` when the client closed between requests.
fn read_request(
    reader: &mut BufReader<TcpStream>,
    options: &HttpOptions,
) -> Result<Option<Request>, Unreadable> {
    let mut head = Vec::new();
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            // Idle between requests: close quietly.
            Err(error)
                if head.is_empty()
                    && matches!(
                        error.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
            {
                return Ok(None);
            }
            Err(error) => return Err(error.into()),
        };
        if available.is_empty() {
            return match head.is_empty() {
                true => Ok(None),
                false => Err(io::Error::from(io::ErrorKind::UnexpectedEof).into()),
            };
        }
        // Look for the blank line, from a little before the new bytes.
        let before = head.len();
        // At most one byte past the limit: enough to know it is over.
        let take = available.len().min(options.max_head_bytes + 1 - before);
        head.extend_from_slice(&available[..take]);
        let from = before.saturating_sub(3);
        if let Some(end) = find(&head[from..], b"\r\n\r\n").map(|at| from + at + 4) {
            reader.consume(end - before);
            head.truncate(end);
            break;
        }
        reader.consume(take);
        if head.len() > options.max_head_bytes {
            return Err(Unreadable::Http(Response::error(
                431,
                &format!("the request head is over {} bytes", options.max_head_bytes),
            )));
        }
    }
    let bad = |message: &str| Unreadable::Http(Response::error(400, message));
    let text = std::str::from_utf8(&head).map_err(|_| bad("the request head is not UTF-8"))?;
    let mut lines = text.split("\r\n");
    let line = lines.next().unwrap_or_default();
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("the request line is not METHOD TARGET HTTP/1.1"));
    };
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(bad("only HTTP/1.1 (and 1.0) is served")),
    };
    let mut headers = Vec::new();
    for line in lines.filter(|line| !line.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad("a header line without a colon"));
        };
        if name.is_empty() || name.contains([' ', '\t']) {
            return Err(bad("a malformed header name"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let mut request = Request {
        method: method.to_owned(),
        target: target.to_owned(),
        headers,
        body: Vec::new(),
        close: false,
    };
    let connection = request
        .header("connection")
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    request.close = if http10 {
        !connection.contains("keep-alive")
    } else {
        connection.contains("close")
    };
    if request.header("transfer-encoding").is_some() {
        return Err(Unreadable::Http(Response::error(
            501,
            "chunked request bodies are not accepted: send Content-Length",
        )));
    }
    let length = match request.header("content-length") {
        None if request.method == "POST" => {
            return Err(Unreadable::Http(Response::error(
                411,
                "a POST needs a Content-Length",
            )));
        }
        None => 0,
        Some(value) => value
            .parse::<usize>()
            .map_err(|_| bad("Content-Length is not a number"))?,
    };
    if length > options.max_body_bytes {
        return Err(Unreadable::Http(Response::error(
            413,
            &format!(
                "the request body is {length} bytes, over the {}-byte limit",
                options.max_body_bytes
            ),
        )));
    }
    request.body = vec![0; length];
    reader.read_exact(&mut request.body)?;
    Ok(Some(request))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Whether an `Origin` is one of this machine's (the transport listens on
/// loopback; a page from elsewhere must not reach it through the browser).
fn loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = match rest.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => rest.split([':', '/']).next().unwrap_or_default(),
    };
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether an `Accept` header admits an `application/json` reply.
fn accepts_json(accept: &str) -> bool {
    accept.split(',').any(|range| {
        let range = range.split(';').next().unwrap_or_default().trim();
        range.eq_ignore_ascii_case("application/json") || range == "application/*" || range == "*/*"
    })
}

fn respond(server: &Server<'_, '_>, request: &Request) -> Response {
    let path = request.target.split('?').next().unwrap_or_default();
    if path != ENDPOINT {
        return Response::error(404, &format!("the MCP endpoint is {ENDPOINT}"));
    }
    if let Some(origin) = request.header("origin")
        && !loopback_origin(origin)
    {
        return Response::error(403, "requests from this origin are not served");
    }
    match request.method.as_str() {
        "POST" => {}
        "GET" => {
            return Response::error(
                405,
                "this server offers no server-to-client stream: POST requests",
            )
            .header("Allow", "POST");
        }
        "DELETE" => {
            return Response::error(405, "this server is stateless: there is no session to end")
                .header("Allow", "POST");
        }
        _ => return Response::error(405, "only POST is served").header("Allow", "POST"),
    }
    let content_type = request.header("content-type").unwrap_or_default();
    let media = content_type.split(';').next().unwrap_or_default().trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return Response::error(415, "the request body must be application/json");
    }
    if let Some(accept) = request.header("accept")
        && !accepts_json(accept)
    {
        return Response::error(406, "the reply is application/json: accept it");
    }
    if let Some(version) = request.header("mcp-protocol-version")
        && version != MODERN_PROTOCOL_VERSION
        && !HANDSHAKE_PROTOCOL_VERSIONS.contains(&version)
    {
        let supported: Vec<&str> = HANDSHAKE_PROTOCOL_VERSIONS
            .iter()
            .copied()
            .chain([MODERN_PROTOCOL_VERSION])
            .collect();
        return Response::error(
            400,
            &format!(
                "unsupported MCP-Protocol-Version {:?}; supported: {}",
                crate::capped(version),
                supported.join(", ")
            ),
        );
    }
    let body = request.body.trim_ascii();
    match server.handle_stateless(body) {
        None => Response {
            status: 202,
            headers: Vec::new(),
            body: Vec::new(),
        },
        // Not JSON, or not a JSON-RPC message: the transport's 400.
        Some(reply) if reply.starts_with("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\"") => {
            Response::json(400, reply)
        }
        Some(reply) => Response::json(200, reply),
    }
}

#[cfg(test)]
mod tests {
    use super::{accepts_json, loopback_origin};

    #[test]
    fn origins_and_accept_ranges() {
        for origin in [
            "http://localhost:3000",
            "http://127.0.0.1",
            "https://[::1]:8443",
        ] {
            assert!(loopback_origin(origin), "{origin}");
        }
        for origin in [
            "http://evil.example",
            "http://localhost.evil.example",
            "null",
            "http://10.0.0.1",
        ] {
            assert!(!loopback_origin(origin), "{origin}");
        }
        assert!(accepts_json("application/json, text/event-stream"));
        assert!(accepts_json("*/*"));
        assert!(!accepts_json("text/event-stream"));
    }
}
