//! What the HTTP transport serves where, and its limits: the paths, the
//! connection cap, the size limits and the deadlines.

use std::time::Duration;

/// The endpoint's path: MCP messages are `POST`ed here; any other path but
/// [`HEALTH`] (and, when [`HttpOptions::published`] holds a tree, the
/// paths under `/.well-known/`) is `404 Not Found`, with a body that names
/// this one.
///
/// ```
/// assert_eq!(skills_mcp_server::http::ENDPOINT, "/mcp");
/// ```
pub const ENDPOINT: &str = "/mcp";

/// The health check's path: `GET` (or `HEAD`) answers `200 OK` with the
/// body `ok`, without authentication and whatever the `Host` or `Origin`,
/// for a load balancer's or an orchestrator's readiness checks. It says
/// the process accepts connections and has its catalog: everything it
/// serves was computed before the listener opened.
///
/// ```
/// assert_eq!(skills_mcp_server::http::HEALTH, "/healthz");
/// ```
pub const HEALTH: &str = "/healthz";

/// How the HTTP transport serves. The defaults suit a replica behind a
/// load balancer: a runtime thread per core the process may use, at most
/// 4096 connections open (one
/// more is answered `503`), request heads up to 16 KiB and bodies up to
/// 1 MiB, and three deadlines, each of which closes the connection:
///
/// - `idle_timeout` (10 s): a connection with no request under way (just
///   opened, or after a reply) must start its next request within it, and
///   a reply the client does not read stalls at most this long;
/// - `head_timeout` (10 s): the request line and headers, from the
///   request's first byte;
/// - `request_timeout` (30 s): the whole request, head and body, from its
///   first byte; a body not in by then is answered `408`.
///
/// So a slow or silent client costs a little memory until its deadline,
/// never a thread: the others are served meanwhile.
///
/// ```
/// use std::time::Duration;
/// use skills_mcp_server::http::HttpOptions;
/// let options = HttpOptions {
///     max_connections: 512,
///     max_body_bytes: 256 * 1024,
///     idle_timeout: Duration::from_secs(30),
///     ..HttpOptions::default()
/// };
/// assert!(options.threads >= 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpOptions {
    /// Threads running the server (at least 1; default: the cores this
    /// process may use, container CPU quotas included). With 1, every
    /// connection is served on the calling thread; on 2 cores, 2 threads
    /// served 1.3 to 1.5 times the requests a second of 1 (docs/mcp.md).
    pub threads: usize,
    /// The most connections open at once; one more is answered
    /// `503 Service Unavailable` (with `Retry-After`) and closed. Keep it
    /// below the process's limit of open files (`ulimit -n`).
    pub max_connections: usize,
    /// The largest request head (request line and headers): a larger one is
    /// answered `431`. At least 8 KiB (hyper's smallest buffer).
    pub max_head_bytes: usize,
    /// The largest request body (default: the stdio transport's largest
    /// line, [`crate::DEFAULT_MAX_REQUEST_BYTES`]): a larger one is answered
    /// `413` and the connection closed.
    pub max_body_bytes: usize,
    /// How long a connection may wait with no request under way, or stall
    /// while its reply is written.
    pub idle_timeout: Duration,
    /// How long a request head may take from its first byte.
    pub head_timeout: Duration,
    /// How long a whole request (head and body) may take from its first
    /// byte.
    pub request_timeout: Duration,
    /// A published well-known tree to serve under `/.well-known/`
    /// (default: none, and such paths are `404`).
    pub published: super::Published,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            max_connections: 4096,
            max_head_bytes: 16 * 1024,
            max_body_bytes: crate::DEFAULT_MAX_REQUEST_BYTES,
            idle_timeout: Duration::from_secs(10),
            head_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            published: super::Published::default(),
        }
    }
}
