//! One request, answered: the health check, the endpoint's checks (host,
//! origin, token, method, media types, protocol version), the body read
//! within its size and time limits, and the JSON-RPC reply. hyper has
//! parsed the request (strictly) and writes the response.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Request, Response, StatusCode, Version};
use tokio::time::Instant;

use super::access::{Credentials, Gate};
use super::deadline::Clock;
use super::options::{ENDPOINT, HEALTH};
use crate::Server;
use crate::mirror::Mirrored;
use crate::wire::{Answer, Status};

/// A whole response body, handed to hyper in one frame.
#[derive(Debug, Default)]
pub(crate) struct Reply(Option<Bytes>);

impl Reply {
    fn new(bytes: impl Into<Bytes>) -> Self {
        Reply(Some(bytes.into()))
    }
}

impl Body for Reply {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.get_mut().0.take().map(|bytes| Ok(Frame::data(bytes))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.0.as_ref().map_or(0, |bytes| bytes.len() as u64))
    }
}

/// What every request of a listener is answered with.
#[derive(Debug)]
pub(crate) struct Endpoint {
    pub(crate) server: &'static Server<'static, 'static>,
    pub(crate) gate: Gate,
    pub(crate) max_body_bytes: usize,
    pub(crate) published: super::Published,
}

/// The bytes of the `503` a connection over the cap gets before it is
/// closed, unread.
pub(crate) fn busy_response() -> Vec<u8> {
    let body = error_body("the server is at its connection limit; try again");
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A transport-level error: a JSON-RPC error object without an id, as
/// MCP's HTTP transport answers one.
fn error_body(message: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": -32600, "message": message },
    })
    .to_string()
}

fn response(status: StatusCode, content_type: &'static str, body: Reply) -> Response<Reply> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    if !content_type.is_empty() {
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    response
}

fn error(status: StatusCode, message: &str) -> Response<Reply> {
    response(status, "application/json", Reply::new(error_body(message)))
}

fn empty(status: StatusCode) -> Response<Reply> {
    response(status, "", Reply::default())
}

trait Headed {
    fn with(self, name: header::HeaderName, value: &'static str) -> Self;
    /// The connection ends after this response.
    fn closing(self) -> Self;
}

impl Headed for Response<Reply> {
    fn with(mut self, name: header::HeaderName, value: &'static str) -> Self {
        self.headers_mut()
            .insert(name, HeaderValue::from_static(value));
        self
    }

    fn closing(self) -> Self {
        self.with(header::CONNECTION, "close")
    }
}

/// Answers `request`, keeping `clock` told: the request has started (its
/// body is due) and is answered (the connection waits again).
pub(crate) async fn answer(
    endpoint: &Endpoint,
    clock: &Clock,
    request: Request<Incoming>,
) -> Result<Response<Reply>, Infallible> {
    let body_due = clock.request_started();
    let response = route(endpoint, body_due, request).await;
    clock.request_answered();
    Ok(response)
}

const SERVER_METHODS: &str = "GET, HEAD, POST, OPTIONS";
const HEALTH_METHODS: &str = "GET, HEAD, OPTIONS";
const ENDPOINT_METHODS: &str = "POST, OPTIONS";

async fn route(
    endpoint: &Endpoint,
    body_due: Instant,
    request: Request<Incoming>,
) -> Response<Reply> {
    // RFC 9112 §3.2: one Host header, and an HTTP/1.1 request without one
    // (and without an absolute-form target) is a 400.
    let hosts = request.headers().get_all(header::HOST).iter().count();
    let absolute = request.uri().authority().is_some();
    if hosts > 1 || (hosts == 0 && !absolute && request.version() == Version::HTTP_11) {
        return error(StatusCode::BAD_REQUEST, "a request has one Host header").closing();
    }
    // `OPTIONS *`: what the server as a whole allows.
    if request.uri() == "*" {
        return match *request.method() {
            Method::OPTIONS => empty(StatusCode::NO_CONTENT).with(header::ALLOW, SERVER_METHODS),
            _ => error(StatusCode::BAD_REQUEST, "only OPTIONS applies to *").closing(),
        };
    }
    match request.uri().path() {
        HEALTH => health(request.method()),
        ENDPOINT => mcp(endpoint, body_due, request).await,
        path if path.starts_with(super::WELL_KNOWN) && !endpoint.published.is_empty() => {
            published(&endpoint.published, request.method(), path)
        }
        _ => error(
            StatusCode::NOT_FOUND,
            &format!("the MCP endpoint is {ENDPOINT}"),
        ),
    }
}

/// A file of the published tree (`published.rs`), as a response.
fn published(tree: &super::Published, method: &Method, path: &str) -> Response<Reply> {
    let served = tree.answer(method, path);
    let mut reply = response(served.status, served.content_type, Reply::new(served.body));
    if let Ok(length) = HeaderValue::from_str(&served.length.to_string()) {
        reply.headers_mut().insert(header::CONTENT_LENGTH, length);
    }
    match served.status {
        StatusCode::METHOD_NOT_ALLOWED => reply.with(header::ALLOW, super::published::METHODS),
        _ => reply,
    }
}

fn health(method: &Method) -> Response<Reply> {
    match *method {
        Method::GET | Method::HEAD => response(
            StatusCode::OK,
            "text/plain; charset=utf-8",
            Reply::new(Bytes::from_static(b"ok\n")),
        )
        .with(header::CACHE_CONTROL, "no-store"),
        Method::OPTIONS => empty(StatusCode::NO_CONTENT).with(header::ALLOW, HEALTH_METHODS),
        _ => error(StatusCode::METHOD_NOT_ALLOWED, "GET the health check")
            .with(header::ALLOW, HEALTH_METHODS),
    }
}

/// The authority a request names: its absolute-form target's, else its
/// `Host` header's (RFC 9112 §3.2.2).
fn authority(request: &Request<Incoming>) -> Option<&str> {
    match request.uri().authority() {
        Some(authority) => Some(authority.as_str()),
        None => request
            .headers()
            .get(header::HOST)
            .and_then(|host| host.to_str().ok()),
    }
}

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers
        .get(name)
        .map(|value| value.to_str().unwrap_or("\u{fffd}"))
}

async fn mcp(
    endpoint: &Endpoint,
    body_due: Instant,
    request: Request<Incoming>,
) -> Response<Reply> {
    let gate = &endpoint.gate;
    if !gate.host_allowed(authority(&request)) {
        return error(
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers for localhost only",
        );
    }
    let origin = request.headers().get(header::ORIGIN).cloned();
    if let Some(origin) = &origin
        && !origin
            .to_str()
            .is_ok_and(|origin| gate.origin_allowed(origin))
    {
        return error(
            StatusCode::FORBIDDEN,
            "requests from this origin are not served",
        );
    }
    let mut response = mcp_checked(endpoint, body_due, request).await;
    if let Some(origin) = origin {
        // A browser page from a served origin may read the reply.
        let headers = response.headers_mut();
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    }
    response
}

/// The endpoint, once host and origin are served.
async fn mcp_checked(
    endpoint: &Endpoint,
    body_due: Instant,
    request: Request<Incoming>,
) -> Response<Reply> {
    let headers = request.headers();
    if request.method() == Method::OPTIONS {
        // A browser's preflight carries no credentials.
        return empty(StatusCode::NO_CONTENT)
            .with(header::ALLOW, ENDPOINT_METHODS)
            .with(header::ACCESS_CONTROL_ALLOW_METHODS, ENDPOINT_METHODS)
            .with(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                "authorization, content-type, accept, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, last-event-id",
            )
            .with(header::ACCESS_CONTROL_MAX_AGE, "600");
    }
    match endpoint.gate.credentials(
        headers
            .get(header::AUTHORIZATION)
            .map(HeaderValue::as_bytes),
    ) {
        Credentials::Accepted => {}
        Credentials::Missing => {
            return error(StatusCode::UNAUTHORIZED, "this server needs a bearer token")
                .with(header::WWW_AUTHENTICATE, "Bearer realm=\"mcp\"");
        }
        Credentials::Wrong => {
            return error(StatusCode::UNAUTHORIZED, "the bearer token is not accepted").with(
                header::WWW_AUTHENTICATE,
                "Bearer realm=\"mcp\", error=\"invalid_token\"",
            );
        }
    }
    match *request.method() {
        Method::POST => {}
        Method::GET | Method::HEAD => {
            return error(
                StatusCode::METHOD_NOT_ALLOWED,
                "this server offers no server-to-client stream: POST requests",
            )
            .with(header::ALLOW, ENDPOINT_METHODS);
        }
        Method::DELETE => {
            return error(
                StatusCode::METHOD_NOT_ALLOWED,
                "this server is stateless: there is no session to end",
            )
            .with(header::ALLOW, ENDPOINT_METHODS);
        }
        _ => {
            return error(StatusCode::METHOD_NOT_ALLOWED, "only POST is served")
                .with(header::ALLOW, ENDPOINT_METHODS);
        }
    }
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or_default();
    let media = content_type.split(';').next().unwrap_or_default().trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the request body must be application/json",
        );
    }
    if let Some(accept) = header_str(headers, header::ACCEPT)
        && !accepts_json(accept)
    {
        return error(
            StatusCode::NOT_ACCEPTABLE,
            "the reply is application/json: accept it",
        );
    }
    // What the headers mirror of the body, checked against it by the
    // server (an unknown protocol version is answered there too, under the
    // request's id).
    let (head, body) = request.into_parts();
    let mirrored =
        |name: &'static str| header_str(&head.headers, header::HeaderName::from_static(name));
    let headers = Mirrored {
        protocol_version: mirrored("mcp-protocol-version"),
        method: mirrored("mcp-method"),
        name: mirrored("mcp-name"),
    };
    let body = match read_body(body, endpoint.max_body_bytes, body_due).await {
        Ok(body) => body,
        Err(refusal) => return refusal,
    };
    match endpoint.server.handle_http(body.trim_ascii(), &headers) {
        None => empty(StatusCode::ACCEPTED),
        Some(Answer { line, status }) => {
            let status = match status {
                Status::Ok => StatusCode::OK,
                // Not JSON, not a JSON-RPC message, or a 2026-07-28 request
                // refused as malformed.
                Status::BadRequest => StatusCode::BAD_REQUEST,
                Status::NotFound => StatusCode::NOT_FOUND,
            };
            response(status, "application/json", Reply::new(line))
        }
    }
}

/// The whole body, at most `limit` bytes, in by `due`; else the response
/// that refuses it (the connection then closes: what is left unread of the
/// body is not a request).
async fn read_body(body: Incoming, limit: usize, due: Instant) -> Result<Vec<u8>, Response<Reply>> {
    let too_large = || {
        error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the request body is over the {limit}-byte limit"),
        )
        .closing()
    };
    let declared = body.size_hint().exact();
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large());
    }
    let mut body = std::pin::pin!(body);
    let mut out = Vec::with_capacity(declared.map_or(0, |length| length as usize));
    loop {
        let frame = std::future::poll_fn(|cx| body.as_mut().poll_frame(cx));
        match tokio::time::timeout_at(due, frame).await {
            Err(_) => {
                return Err(error(
                    StatusCode::REQUEST_TIMEOUT,
                    "the request body did not arrive in time",
                )
                .closing());
            }
            Ok(None) => return Ok(out),
            Ok(Some(Err(_))) => {
                return Err(
                    error(StatusCode::BAD_REQUEST, "the request body is malformed").closing(),
                );
            }
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    if out.len() + data.len() > limit {
                        return Err(too_large());
                    }
                    out.extend_from_slice(&data);
                }
            }
        }
    }
}

/// Whether an `Accept` header admits an `application/json` reply.
fn accepts_json(accept: &str) -> bool {
    accept.split(',').any(|range| {
        let range = range.split(';').next().unwrap_or_default().trim();
        range.eq_ignore_ascii_case("application/json") || range == "application/*" || range == "*/*"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_ranges() {
        assert!(accepts_json("application/json, text/event-stream"));
        assert!(accepts_json("*/*"));
        assert!(accepts_json("Application/JSON;q=0.9"));
        assert!(!accepts_json("text/event-stream"));
    }

    #[test]
    fn the_busy_response_is_one_whole_http_response() {
        let bytes = busy_response();
        let text = String::from_utf8(bytes).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 "));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(body["error"]["code"], -32600);
    }
}
