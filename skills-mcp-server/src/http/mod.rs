//! MCP's Streamable HTTP transport, stateless, on hyper (the `http`
//! feature).
//!
//! Each `POST` to the endpoint ([`ENDPOINT`], `/mcp`) carries one JSON-RPC
//! message and is answered on its own ([`Server::handle_stateless`]): a
//! request with `200` and one `application/json` reply, a notification or
//! a client's response with `202 Accepted` and no body. No session is
//! kept, so no `Mcp-Session-Id` is ever issued (one sent is ignored), and
//! any number of replicas serving one bundle answer every request alike
//! (cursors and the catalog generation come from the bundle). No
//! server-to-client stream is offered: `GET` (and `DELETE`, there being no
//! session to end) is `405`. A `MCP-Protocol-Version` header naming a
//! version this server does not speak is `400` (-32022, under the request's
//! id). A 2026-07-28 request follows that revision's rules: an incomplete
//! `_meta` envelope is `400` (-32602); `MCP-Protocol-Version`,
//! `Mcp-Method` and `Mcp-Name` must be sent and equal what they mirror of
//! the body (SEP-2243; `400`, -32020); a method the revision removed or
//! does not know is `404` (-32601). `GET /healthz`
//! ([`HEALTH`]) is `200` for load balancers.
//!
//! HTTP itself is hyper's: strict parsing (one `Content-Length`, digits
//! only; chunked bodies; a malformed or ambiguous framing is a `400`, and a
//! request with both `Transfer-Encoding` and `Content-Length` is read as
//! chunked and its connection closed after the reply), `HEAD`, `OPTIONS`
//! and absolute-form targets. Around it: deadlines for a connection's
//! every state, a cap on open connections answered with `503`, body and
//! head limits (`413`, `431`), a lingering close so a refused client sees
//! its response, and a graceful stop ([`Shutdown`], SIGTERM and SIGINT).
//!
//! Who may call: on a loopback address, a `Host` other than a loopback
//! name is refused (`421`) and so is an `Origin` other than a loopback or
//! allowed one (`403`), against DNS rebinding. Beyond loopback, [`bind`]
//! insists on a choice: a bearer token ([`Auth::Bearer`]: `401` without
//! it) or none ([`Auth::NoAuth`]).
//!
//! The server lives as long as the serving: it is borrowed for `'static`,
//! which a compiled-in bundle gives as it is (`SKILLS.catalog()`) and a
//! bundle file read at startup gets by leaking it (the process serves
//! until it exits).
//!
//! ```no_run
//! use skills_mcp_server::{Server, http};
//! let bytes: &'static [u8] = std::fs::read("skills.bin")?.leak();
//! let catalog = Box::leak(Box::new(skills_core::Catalog::from_bytes(bytes)?));
//! let server = Box::leak(Box::new(Server::new(catalog, Default::default())?));
//! let bound = http::bind("127.0.0.1:8080", Default::default())?;
//! eprintln!("serving {}", bound.url());
//! http::serve(server, bound, &Default::default(), &http::Shutdown::on_signals())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod access;
mod deadline;
mod options;
// The published well-known tree served beside the endpoint (issue 45).
mod published;
mod respond;

use std::future::Future;
use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::Poll;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpStream;
use tokio::sync::Notify;

pub use access::{Access, Auth, BearerToken, MAX_TOKEN_FILE_BYTES, MIN_TOKEN_CHARS, TokenError};
pub use options::{ENDPOINT, HEALTH, HttpOptions};
pub use published::{PREFIX as WELL_KNOWN, Published, content_type};

use crate::Server;
use access::Gate;
use deadline::{Clock, Guarded, Limits};
use respond::Endpoint;

/// Why the HTTP transport cannot start.
#[derive(Debug)]
#[non_exhaustive]
pub enum HttpError {
    /// The address is not `HOST:PORT`, or does not resolve.
    Address(String),
    /// The address is beyond loopback and [`Auth::LoopbackOnly`] was asked
    /// for: serving the network needs a bearer token or an explicit
    /// [`Auth::NoAuth`].
    NeedsAuth(SocketAddr),
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
            HttpError::NeedsAuth(addr) => write!(
                f,
                "{addr} is not a loopback address: serving other hosts needs a bearer token, or an explicit choice of no authentication"
            ),
            HttpError::Bind(addr, error) => write!(f, "cannot listen on {addr}: {error}"),
        }
    }
}

impl std::error::Error for HttpError {}

/// A listening socket with the access rules its requests pass: what
/// [`bind`] gives and [`serve`] serves.
#[derive(Debug)]
pub struct Bound {
    listener: std::net::TcpListener,
    local: SocketAddr,
    gate: Gate,
}

impl Bound {
    /// The address listened on (with the port picked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The endpoint's URL: `http://HOST:PORT/mcp`.
    ///
    /// ```
    /// let bound = skills_mcp_server::http::bind("127.0.0.1:0", Default::default())?;
    /// assert!(bound.url().starts_with("http://127.0.0.1:") && bound.url().ends_with("/mcp"));
    /// # Ok::<(), skills_mcp_server::http::HttpError>(())
    /// ```
    pub fn url(&self) -> String {
        format!("http://{}{ENDPOINT}", self.local)
    }
}

/// Listens on `addr` (`HOST:PORT`; port 0 picks a free one) for requests
/// that `access` admits. An address beyond loopback (`0.0.0.0:8080`, a
/// pod's address) needs [`Auth::Bearer`] or [`Auth::NoAuth`]; with the
/// default [`Auth::LoopbackOnly`] it is refused before anything listens.
///
/// ```
/// use skills_mcp_server::http::{self, Access, Auth, HttpError};
/// let local = http::bind("127.0.0.1:0", Access::default())?;
/// assert!(local.local_addr().ip().is_loopback());
/// assert!(matches!(http::bind("0.0.0.0:0", Access::default()), Err(HttpError::NeedsAuth(_))));
/// let open = Access { auth: Auth::NoAuth, ..Access::default() };
/// assert!(http::bind("0.0.0.0:0", open).is_ok());
/// # Ok::<(), HttpError>(())
/// ```
pub fn bind(addr: &str, access: Access) -> Result<Bound, HttpError> {
    let resolved: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|_| HttpError::Address(addr.to_owned()))?
        .collect();
    let Some(first) = resolved.first().copied() else {
        return Err(HttpError::Address(addr.to_owned()));
    };
    let loopback = resolved.iter().all(|a| a.ip().is_loopback());
    if !loopback && matches!(access.auth, Auth::LoopbackOnly) {
        let outside = resolved.iter().find(|a| !a.ip().is_loopback());
        return Err(HttpError::NeedsAuth(*outside.unwrap_or(&first)));
    }
    let listener =
        std::net::TcpListener::bind(first).map_err(|error| HttpError::Bind(first, error))?;
    let local = listener
        .local_addr()
        .map_err(|error| HttpError::Bind(first, error))?;
    Ok(Bound {
        listener,
        local,
        gate: Gate::new(access, loopback),
    })
}

/// Stops a running [`serve`]: no connection is accepted after
/// [`Shutdown::stop`], requests in flight are answered, idle connections
/// are closed, and `serve` returns once every connection has ended. Clones
/// stop the same server.
///
/// ```
/// let shutdown = skills_mcp_server::http::Shutdown::new();
/// let handle = shutdown.clone();
/// handle.stop();
/// assert!(shutdown.is_stopped());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Shutdown {
    state: Arc<ShutdownState>,
    signals: bool,
}

#[derive(Debug, Default)]
struct ShutdownState {
    stopped: AtomicBool,
    notify: Notify,
}

impl Shutdown {
    /// A handle that stops when [`stop`](Self::stop) is called.
    pub fn new() -> Self {
        Shutdown::default()
    }

    /// A handle that also stops on SIGTERM or SIGINT (Ctrl-C) sent to the
    /// process, once [`serve`] runs: what a container's or an
    /// orchestrator's stop sends.
    pub fn on_signals() -> Self {
        Shutdown {
            signals: true,
            ..Shutdown::default()
        }
    }

    /// Stops the server (see [`Shutdown`]).
    pub fn stop(&self) {
        self.state.stopped.store(true, Ordering::SeqCst);
        self.state.notify.notify_waiters();
    }

    /// Whether [`stop`](Self::stop) was called (or a signal came).
    pub fn is_stopped(&self) -> bool {
        self.state.stopped.load(Ordering::SeqCst)
    }

    /// Resolves once the server is stopping.
    async fn stopping(&self) {
        let notified = self.state.notify.notified();
        let mut notified = pin!(notified);
        notified.as_mut().enable();
        if self.is_stopped() {
            return;
        }
        notified.await;
    }
}

/// How long a closed connection is still read (and what it sends thrown
/// away) so that a client still sending sees the response rather than a
/// reset.
const LINGER: Duration = Duration::from_secs(1);
/// The most bytes read during a lingering close.
const LINGER_BYTES: usize = 1 << 20;
/// The most connections over the cap being answered `503` at once; more
/// are closed unanswered.
const MAX_REFUSING: usize = 64;

/// What the accepting loop and the connections share.
#[derive(Debug)]
struct Shared {
    endpoint: Endpoint,
    http: http1::Builder,
    limits: Limits,
    max_connections: usize,
    shutdown: Shutdown,
    open: AtomicUsize,
    refusing: AtomicUsize,
    all_closed: Notify,
}

/// Counts a connection open until dropped.
struct Open(Arc<Shared>);

impl Drop for Open {
    fn drop(&mut self) {
        if self.0.open.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.all_closed.notify_waiters();
        }
    }
}

/// Serves `server` on `bound` until `shutdown` stops it (or, for
/// [`Shutdown::on_signals`], SIGTERM or SIGINT comes); returns once every
/// connection has ended, requests in flight answered.
///
/// ```
/// use std::io::{Read, Write};
/// use skills_mcp_server::http;
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let bytes: &'static [u8] = bytes.leak();
/// let catalog = Box::leak(Box::new(skills_core::Catalog::from_bytes(bytes)?));
/// let server = Box::leak(Box::new(skills_mcp_server::Server::new(catalog, Default::default())?));
/// let bound = http::bind("127.0.0.1:0", Default::default())?;
/// let addr = bound.local_addr();
/// let shutdown = http::Shutdown::new();
/// std::thread::scope(|scope| {
///     let serving = scope.spawn(|| http::serve(server, bound, &Default::default(), &shutdown));
///     let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
///     let mut stream = std::net::TcpStream::connect(addr)?;
///     write!(stream, "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())?;
///     let mut reply = String::new();
///     stream.read_to_string(&mut reply)?;
///     assert!(reply.starts_with("HTTP/1.1 200 OK"));
///     shutdown.stop();
///     serving.join().unwrap()
/// })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn serve(
    server: &'static Server<'static, 'static>,
    bound: Bound,
    options: &HttpOptions,
    shutdown: &Shutdown,
) -> io::Result<()> {
    let runtime = match options.threads {
        0 | 1 => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?,
        threads => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .thread_name("mcp-http")
            .enable_all()
            .build()?,
    };
    let limits = Limits {
        idle: options.idle_timeout,
        head: options.head_timeout,
        request: options.request_timeout,
    };
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        // hyper's own head deadline, from the wait for a head (ours, in
        // `deadline`, is the same and runs first).
        .header_read_timeout(limits.idle + limits.head)
        .max_buf_size(options.max_head_bytes.max(8192))
        .keep_alive(true);
    let shared = Arc::new(Shared {
        endpoint: Endpoint {
            server,
            gate: bound.gate,
            max_body_bytes: options.max_body_bytes,
            published: options.published.clone(),
        },
        http,
        limits,
        max_connections: options.max_connections.max(1),
        shutdown: shutdown.clone(),
        open: AtomicUsize::new(0),
        refusing: AtomicUsize::new(0),
        all_closed: Notify::new(),
    });
    bound.listener.set_nonblocking(true)?;
    runtime.block_on(accept(shared, bound.listener))
}

/// Accepts connections until the server stops, then waits for the open
/// ones to end.
async fn accept(shared: Arc<Shared>, listener: std::net::TcpListener) -> io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let mut signals = Signals::new(shared.shutdown.signals)?;
    {
        let mut stopping = pin!(shared.shutdown.stopping());
        loop {
            let next = std::future::poll_fn(|cx| {
                if stopping.as_mut().poll(cx).is_ready() || signals.poll(cx) {
                    return Poll::Ready(None);
                }
                listener.poll_accept(cx).map(Some)
            })
            .await;
            match next {
                None => break,
                Some(Ok((stream, _))) => admit(&shared, stream),
                // Out of descriptors and the like: the connections being
                // served end in time; wait a little, go on.
                Some(Err(_)) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }
    shared.shutdown.stop();
    drop(listener);
    loop {
        let closed = shared.all_closed.notified();
        let mut closed = pin!(closed);
        closed.as_mut().enable();
        if shared.open.load(Ordering::SeqCst) == 0 {
            return Ok(());
        }
        closed.await;
    }
}

/// Serves a new connection, or answers it `503` when the cap is reached.
fn admit(shared: &Arc<Shared>, stream: TcpStream) {
    if shared.open.load(Ordering::SeqCst) >= shared.max_connections {
        if shared.refusing.fetch_add(1, Ordering::SeqCst) < MAX_REFUSING {
            let shared = shared.clone();
            tokio::spawn(async move {
                let mut stream = stream;
                let _ = stream.try_write(&respond::busy_response());
                linger(&mut stream).await;
                shared.refusing.fetch_sub(1, Ordering::SeqCst);
            });
        } else {
            shared.refusing.fetch_sub(1, Ordering::SeqCst);
        }
        return;
    }
    shared.open.fetch_add(1, Ordering::SeqCst);
    let open = Open(shared.clone());
    tokio::spawn(connection(open, stream));
}

/// One connection: hyper serves it through the deadline guard until it
/// ends (the client closes, a deadline passes, the server stops), then it
/// is closed with a linger.
async fn connection(open: Open, mut stream: TcpStream) {
    let shared = &open.0;
    let _ = stream.set_nodelay(true);
    let clock = Arc::new(Clock::new(shared.limits));
    {
        let io = TokioIo::new(Guarded::new(&mut stream, clock.clone()));
        let service = hyper::service::service_fn(|request| {
            let clock = clock.clone();
            let shared = shared.clone();
            async move { respond::answer(&shared.endpoint, &clock, request).await }
        });
        let mut serving = pin!(shared.http.serve_connection(io, service));
        let mut stopping = pin!(shared.shutdown.stopping());
        let mut graceful = false;
        let _ = std::future::poll_fn(|cx| {
            if !graceful && stopping.as_mut().poll(cx).is_ready() {
                // Answer the request in flight, if any, then close.
                serving.as_mut().graceful_shutdown();
                graceful = true;
            }
            serving.as_mut().poll(cx)
        })
        .await;
    }
    linger(&mut stream).await;
}

/// Closes `stream` for writing, then reads and drops what the client still
/// sends, until it closes too or for [`LINGER`] at most: a client whose
/// request was refused before it was read whole gets the response rather
/// than a reset that may discard it.
async fn linger(stream: &mut TcpStream) {
    use tokio::io::AsyncWrite;
    let _ = std::future::poll_fn(|cx| std::pin::Pin::new(&mut *stream).poll_shutdown(cx)).await;
    let until = tokio::time::Instant::now() + LINGER;
    let mut buffer = [0u8; 2048];
    let mut dropped = 0;
    while dropped < LINGER_BYTES {
        match tokio::time::timeout_at(until, stream.readable()).await {
            Ok(Ok(())) => {}
            _ => return,
        }
        match stream.try_read(&mut buffer) {
            Ok(0) => return,
            Ok(read) => dropped += read,
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
}

/// SIGTERM and SIGINT, when asked for.
struct Signals {
    #[cfg(unix)]
    listening: Option<[tokio::signal::unix::Signal; 2]>,
}

impl Signals {
    fn new(wanted: bool) -> io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listening = match wanted {
                true => Some([
                    signal(SignalKind::terminate())?,
                    signal(SignalKind::interrupt())?,
                ]),
                false => None,
            };
            Ok(Signals { listening })
        }
        #[cfg(not(unix))]
        {
            let _ = wanted;
            Ok(Signals {})
        }
    }

    /// Whether a signal came.
    fn poll(&mut self, cx: &mut std::task::Context<'_>) -> bool {
        #[cfg(unix)]
        if let Some(signals) = &mut self.listening {
            return signals
                .iter_mut()
                .any(|signal| signal.poll_recv(cx).is_ready());
        }
        let _ = cx;
        false
    }
}
