//! The Streamable HTTP transport as a client meets it, over real loopback
//! sockets and without Python: JSON replies to POSTs, 202 for
//! notifications, no session, 405 for GET and DELETE, the status codes for
//! a bad version, media type, origin, host, token, size or path; strict
//! HTTP; the health check; the deadlines and the connection cap; slow and
//! silent clients that do not stop others; a graceful stop; and two
//! replicas that answer alike.
//!
//! No test asserts how long anything takes: a test that waits for the
//! server to do something (close a connection) waits for it to happen,
//! with a bound far above any deadline, and fails only if it never does.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;
use skills_core::Catalog;
use skills_mcp_server::http::{self, Access, Auth, BearerToken, HttpOptions, Shutdown};
use skills_mcp_server::{Options, Server};

use crate::support;
use support::testdata_bundle as bundle;

/// A reply: status, headers (names lowercased), body.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

/// Reads one response from `stream`; `head_only` for a reply to `HEAD`.
fn read_reply(stream: &mut BufReader<TcpStream>, head_only: bool) -> Reply {
    let mut line = String::new();
    stream.read_line(&mut line).unwrap();
    let status = line
        .split(' ')
        .nth(1)
        .unwrap_or_else(|| panic!("a status line, not {line:?}"))
        .parse()
        .unwrap();
    let mut headers = Vec::new();
    loop {
        line.clear();
        stream.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap();
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .map_or(0, |(_, value)| value.parse().unwrap());
    let mut body = vec![0; if head_only { 0 } else { length }];
    stream.read_exact(&mut body).unwrap();
    Reply {
        status,
        headers,
        body,
    }
}

/// Sends `raw` on `stream` and reads one response.
fn exchange(stream: &mut BufReader<TcpStream>, raw: &[u8]) -> Reply {
    stream.get_mut().write_all(raw).unwrap();
    read_reply(stream, false)
}

fn connect(addr: SocketAddr) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    BufReader::new(stream)
}

/// One request on a new connection.
fn once(addr: SocketAddr, raw: &[u8]) -> Reply {
    exchange(&mut connect(addr), raw)
}

fn post(body: &str, extra: &str) -> Vec<u8> {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A 2026-07-28 request: with the headers that mirror its body
/// (`MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` where the method
/// has one), as the revision's clients send them.
fn modern_post(body: &str) -> Vec<u8> {
    let message: Value = serde_json::from_str(body).expect("a JSON request");
    let method = message["method"].as_str().expect("a method");
    let mut extra = format!("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n");
    let member = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => "",
    };
    if let Some(name) = message["params"].get(member).and_then(Value::as_str) {
        extra.push_str(&format!("Mcp-Name: {name}\r\n"));
    }
    post(body, &extra)
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// A server over testdata/skills with `options`, made once per options
/// (the transport borrows it for the rest of the process).
fn server_with(options: Options) -> &'static Server<'static, 'static> {
    let bytes: &'static [u8] = bundle().leak();
    let catalog = Box::leak(Box::new(Catalog::from_bytes(bytes).unwrap()));
    Box::leak(Box::new(Server::new(catalog, options).unwrap()))
}

fn server() -> &'static Server<'static, 'static> {
    static SERVER: OnceLock<&'static Server<'static, 'static>> = OnceLock::new();
    SERVER.get_or_init(|| server_with(Options::default()))
}

/// Runs `test` against `server` on a free loopback port with `access`,
/// then stops it and checks it stopped cleanly.
fn with_server_on(
    server: &'static Server<'static, 'static>,
    options: HttpOptions,
    access: Access,
    test: impl FnOnce(SocketAddr),
) {
    let bound = http::bind("127.0.0.1:0", access).unwrap();
    let addr = bound.local_addr();
    let shutdown = Shutdown::new();
    std::thread::scope(|scope| {
        let serving = scope.spawn(|| http::serve(server, bound, &options, &shutdown));
        // Stop the server whatever the test does, so a failure is reported
        // rather than the scope waiting on the server forever.
        let tested = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| test(addr)));
        shutdown.stop();
        serving.join().unwrap().unwrap();
        if let Err(panic) = tested {
            std::panic::resume_unwind(panic);
        }
    });
}

fn with_server(options: HttpOptions, test: impl FnOnce(SocketAddr)) {
    with_server_on(server(), options, Access::default(), test)
}

/// Short deadlines, for the tests that wait for them.
fn quick() -> HttpOptions {
    HttpOptions {
        idle_timeout: Duration::from_millis(300),
        head_timeout: Duration::from_millis(300),
        request_timeout: Duration::from_millis(600),
        ..HttpOptions::default()
    }
}

/// Waits until `stream` is closed by the server (end of stream or a reset)
/// and returns what came before; fails if it stays open far past any
/// deadline of these tests.
fn closed_by_server(stream: &mut TcpStream) -> Vec<u8> {
    let started = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut seen = Vec::new();
    let mut buffer = [0; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return seen,
            Ok(read) => seen.extend_from_slice(&buffer[..read]),
            Err(error)
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return seen,
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the server never closed the connection"
        );
    }
}

#[test]
fn requests_get_json_replies_and_notifications_202_on_one_connection() {
    with_server(HttpOptions::default(), |addr| {
        let mut client = connect(addr);
        let reply = exchange(&mut client, &post(INITIALIZE, ""));
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(
            reply.header("mcp-session-id"),
            None,
            "stateless: no session"
        );
        assert_eq!(reply.json()["result"]["protocolVersion"], "2025-11-25");
        // The same answer as the stdio transport gives, byte for byte.
        assert_eq!(
            reply.body,
            server()
                .handle_stateless(INITIALIZE.as_bytes())
                .unwrap()
                .into_bytes()
        );
        let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let reply = exchange(
            &mut client,
            &post(note, "MCP-Protocol-Version: 2025-11-25\r\n"),
        );
        assert_eq!((reply.status, reply.body.len()), (202, 0));
        // Still the same connection (keep-alive), and no state needed: a
        // request without initialize is answered.
        let read = r#"{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"skill://pdf-forms/reference.md"}}"#;
        let reply = exchange(&mut client, &post(read, "Mcp-Session-Id: ignored\r\n"));
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["id"], "r");
        let text = reply.json()["result"]["contents"][0]["text"].clone();
        let file = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/skills/pdf-forms/reference.md"
        ))
        .unwrap();
        assert_eq!(text, file.as_str());
        let modern = r#"{"jsonrpc":"2.0","id":5,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let reply = exchange(&mut client, &modern_post(modern));
        assert_eq!(reply.json()["result"]["supportedVersions"][0], "2026-07-28");
        // An unknown method is a JSON-RPC error under its id, status 200.
        let reply = exchange(
            &mut client,
            &post(r#"{"jsonrpc":"2.0","id":9,"method":"nope"}"#, ""),
        );
        assert_eq!(
            (reply.status, reply.json()["error"]["code"].clone()),
            (200, Value::from(-32601))
        );
        // Ids come back as sent, over HTTP too.
        let reply = exchange(
            &mut client,
            &post(
                r#"{"jsonrpc":"2.0","id":123456789012345678901234567890.50,"method":"tools/list"}"#,
                "",
            ),
        );
        assert!(
            reply.body.starts_with(
                br#"{"jsonrpc":"2.0","id":123456789012345678901234567890.50,"result""#
            )
        );
        // A chunked body is read as well as a counted one.
        let chunked = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{INITIALIZE}\r\n0\r\n\r\n",
            INITIALIZE.len()
        );
        let reply = exchange(&mut client, chunked.as_bytes());
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["id"], 1);
    });
}

#[test]
fn the_transport_refuses_what_it_does_not_serve() {
    with_server(HttpOptions::default(), |addr| {
        let get = once(
            addr,
            b"GET /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n",
        );
        assert_eq!(
            (get.status, get.header("allow")),
            (405, Some("POST, OPTIONS"))
        );
        let delete = once(
            addr,
            b"DELETE /mcp HTTP/1.1\r\nHost: localhost\r\nMcp-Session-Id: s\r\n\r\n",
        );
        assert_eq!(delete.status, 405);
        let version = once(
            addr,
            &post(INITIALIZE, "MCP-Protocol-Version: 1999-01-01\r\n"),
        );
        assert_eq!(version.status, 400);
        assert!(
            version.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains("1999-01-01")
        );
        let wrong_path = String::from_utf8(post(INITIALIZE, ""))
            .unwrap()
            .replacen("/mcp", "/api", 1);
        let wrong_path = once(addr, wrong_path.as_bytes());
        assert_eq!(wrong_path.status, 404);
        assert!(String::from_utf8_lossy(&wrong_path.body).contains("/mcp"));
        let text = String::from_utf8(post(INITIALIZE, ""))
            .unwrap()
            .replace("Content-Type: application/json", "Content-Type: text/plain");
        assert_eq!(once(addr, text.as_bytes()).status, 415);
        let sse_only = String::from_utf8(post(INITIALIZE, "")).unwrap().replace(
            "Accept: application/json, text/event-stream",
            "Accept: text/event-stream",
        );
        assert_eq!(once(addr, sse_only.as_bytes()).status, 406);
        let not_json = once(addr, &post("{not json", ""));
        assert_eq!(
            (not_json.status, not_json.json()["error"]["code"].clone()),
            (400, Value::from(-32700))
        );
        let no_body = once(
            addr,
            b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\r\n",
        );
        assert_eq!(no_body.status, 400);
        assert_eq!(once(addr, b"HELLO\r\n\r\n").status, 400);
    });
}

#[test]
fn http_framing_is_strict() {
    with_server(HttpOptions::default(), |addr| {
        let head = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let len = body.len();
        for (case, extra) in [
            (
                "two lengths",
                format!("Content-Length: {len}\r\nContent-Length: {}\r\n", len + 1),
            ),
            ("a signed length", format!("Content-Length: +{len}\r\n")),
            (
                "a length with a space inside",
                format!("Content-Length: {} 0\r\n", len),
            ),
            ("a hex length", format!("Content-Length: 0x{len:x}\r\n")),
            (
                "a coding other than chunked last",
                "Transfer-Encoding: chunked, gzip\r\n".to_owned(),
            ),
            (
                "an unknown coding",
                "Transfer-Encoding: xchunked\r\n".to_owned(),
            ),
            (
                "a space before the colon",
                format!("Content-Length : {len}\r\n"),
            ),
            (
                "a folded header",
                format!("Content-Length: {len}\r\nX-Folded: a\r\n b\r\n"),
            ),
        ] {
            let raw = format!("{head}{extra}\r\n{body}");
            let mut client = connect(addr);
            let reply = exchange(&mut client, raw.as_bytes());
            assert_eq!(reply.status, 400, "{case}");
            // And nothing after it is read as another request.
            assert!(
                closed_by_server(client.get_mut()).is_empty(),
                "{case}: the connection closes"
            );
        }
        // Transfer-Encoding in HTTP/1.0 is not framing a 1.0 server knows.
        let old = format!(
            "POST /mcp HTTP/1.0\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{len:x}\r\n{body}\r\n0\r\n\r\n"
        );
        assert_eq!(once(addr, old.as_bytes()).status, 400);
        // The same length twice is one length (RFC 9112 allows it).
        let twice = format!("{head}Content-Length: {len}\r\nContent-Length: {len}\r\n\r\n{body}");
        assert_eq!(once(addr, twice.as_bytes()).status, 200);
        // Both framings: read as chunked, and the connection closed after
        // the reply, so what the length would have framed (a smuggled
        // request) is never answered.
        let smuggled = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";
        let raw = format!(
            "{head}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n{len:x}\r\n{body}\r\n0\r\n\r\n{smuggled}"
        );
        let mut client = connect(addr);
        let reply = exchange(&mut client, raw.as_bytes());
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["id"], 1);
        assert_eq!(reply.header("connection"), Some("close"));
        assert!(closed_by_server(client.get_mut()).is_empty());
        // One Host, and HTTP/1.1 needs it.
        let no_host = format!(
            "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n{body}"
        );
        assert_eq!(once(addr, no_host.as_bytes()).status, 400);
        let two_hosts = format!("{head}Host: localhost\r\nContent-Length: {len}\r\n\r\n{body}");
        assert_eq!(once(addr, two_hosts.as_bytes()).status, 400);
    });
}

#[test]
fn head_options_and_absolute_targets_are_answered_as_http_says() {
    with_server(HttpOptions::default(), |addr| {
        let mut client = connect(addr);
        client
            .get_mut()
            .write_all(b"HEAD /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .unwrap();
        let head = read_reply(&mut client, true);
        assert_eq!(head.status, 200);
        // No body came: the next response follows at once on the same
        // connection.
        let health = exchange(
            &mut client,
            b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
        );
        assert_eq!((health.status, health.body.as_slice()), (200, &b"ok\n"[..]));
        assert_eq!(head.header("content-length"), Some("3"));
        let star = exchange(
            &mut client,
            b"OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n",
        );
        assert_eq!(
            (star.status, star.header("allow")),
            (204, Some("GET, HEAD, POST, OPTIONS"))
        );
        let options = exchange(
            &mut client,
            b"OPTIONS /mcp HTTP/1.1\r\nHost: localhost\r\n\r\n",
        );
        assert_eq!(
            (options.status, options.header("allow")),
            (204, Some("POST, OPTIONS"))
        );
        client
            .get_mut()
            .write_all(b"HEAD /mcp HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .unwrap();
        assert_eq!(read_reply(&mut client, true).status, 405);
        // An absolute-form target: its authority is the host checked, and
        // its path the one routed.
        let body = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
        let absolute = format!(
            "POST http://{addr}/mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let reply = exchange(&mut client, absolute.as_bytes());
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["id"], 3);
        let elsewhere = absolute.replace(&format!("http://{addr}/"), "http://evil.example/");
        assert_eq!(exchange(&mut client, elsewhere.as_bytes()).status, 421);
    });
}

#[test]
fn the_health_check_answers_without_credentials_or_checks() {
    let token = BearerToken::new("health-check-token-0123").unwrap();
    let access = Access {
        auth: Auth::Bearer(token),
        ..Access::default()
    };
    with_server_on(server(), HttpOptions::default(), access, |addr| {
        let reply = once(
            addr,
            b"GET /healthz HTTP/1.1\r\nHost: anything.example\r\nOrigin: http://evil.example\r\n\r\n",
        );
        assert_eq!((reply.status, reply.body.as_slice()), (200, &b"ok\n"[..]));
        assert_eq!(
            once(
                addr,
                b"POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"
            )
            .status,
            405
        );
    });
}

#[test]
fn a_bearer_token_is_asked_for_and_checked() {
    let token = "0123456789abcdef-token";
    let access = Access {
        auth: Auth::Bearer(BearerToken::new(token).unwrap()),
        ..Access::default()
    };
    with_server_on(server(), HttpOptions::default(), access, |addr| {
        let missing = once(addr, &post(INITIALIZE, ""));
        assert_eq!(missing.status, 401);
        assert_eq!(
            missing.header("www-authenticate"),
            Some("Bearer realm=\"mcp\"")
        );
        let wrong = once(
            addr,
            &post(
                INITIALIZE,
                "Authorization: Bearer 0123456789abcdef-tokeN\r\n",
            ),
        );
        assert_eq!(wrong.status, 401);
        assert!(
            wrong
                .header("www-authenticate")
                .unwrap()
                .contains("error=\"invalid_token\"")
        );
        assert!(!String::from_utf8_lossy(&wrong.body).contains(token));
        let basic = once(
            addr,
            &post(INITIALIZE, "Authorization: Basic dXNlcjpwYXNz\r\n"),
        );
        assert_eq!(basic.status, 401);
        let right = once(
            addr,
            &post(INITIALIZE, &format!("Authorization: Bearer {token}\r\n")),
        );
        assert_eq!(right.status, 200);
        assert_eq!(right.json()["result"]["protocolVersion"], "2025-11-25");
        // A method the endpoint does not serve is a 401 too, without the
        // token: nothing is said to a client that has not shown it.
        let get = once(addr, b"GET /mcp HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assert_eq!(get.status, 401);
    });
}

#[test]
fn on_loopback_host_and_origin_are_checked() {
    let access = Access {
        allowed_origins: vec!["https://console.example.com".into()],
        ..Access::default()
    };
    with_server_on(server(), HttpOptions::default(), access, |addr| {
        // DNS rebinding: a page's own domain, resolved to 127.0.0.1.
        let rebound = String::from_utf8(post(INITIALIZE, ""))
            .unwrap()
            .replace("Host: 127.0.0.1", "Host: evil.example:8080");
        assert_eq!(once(addr, rebound.as_bytes()).status, 421);
        for host in ["localhost", "127.0.0.1:9", "[::1]:8080"] {
            let raw = String::from_utf8(post(INITIALIZE, ""))
                .unwrap()
                .replace("Host: 127.0.0.1", &format!("Host: {host}"));
            assert_eq!(once(addr, raw.as_bytes()).status, 200, "{host}");
        }
        let foreign = once(addr, &post(INITIALIZE, "Origin: http://evil.example\r\n"));
        assert_eq!(foreign.status, 403);
        let local = once(addr, &post(INITIALIZE, "Origin: http://localhost:6274\r\n"));
        assert_eq!(local.status, 200);
        let trusted = once(
            addr,
            &post(INITIALIZE, "Origin: https://console.example.com\r\n"),
        );
        assert_eq!(trusted.status, 200);
        assert_eq!(
            trusted.header("access-control-allow-origin"),
            Some("https://console.example.com")
        );
        let preflight = once(
            addr,
            b"OPTIONS /mcp HTTP/1.1\r\nHost: localhost\r\nOrigin: https://console.example.com\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type, authorization\r\n\r\n",
        );
        assert_eq!(preflight.status, 204);
        assert_eq!(
            preflight.header("access-control-allow-origin"),
            Some("https://console.example.com")
        );
        assert!(
            preflight
                .header("access-control-allow-headers")
                .unwrap()
                .contains("authorization")
        );
        let untrusted_preflight = once(
            addr,
            b"OPTIONS /mcp HTTP/1.1\r\nHost: localhost\r\nOrigin: https://other.example.com\r\nAccess-Control-Request-Method: POST\r\n\r\n",
        );
        assert_eq!(untrusted_preflight.status, 403);
    });
}

#[test]
fn heads_and_bodies_are_bounded() {
    let options = HttpOptions {
        max_head_bytes: 8192,
        max_body_bytes: 4096,
        ..HttpOptions::default()
    };
    with_server(options, |addr| {
        let big_header = format!("X-Pad: {}\r\n", "a".repeat(10_000));
        let mut client = connect(addr);
        let reply = exchange(&mut client, &post(INITIALIZE, &big_header));
        assert_eq!(reply.status, 431);
        // A body over the limit is refused from its Content-Length, unread,
        // and the client sees the 413 although it is still sending.
        let mut client = connect(addr);
        let raw = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            1 << 20
        );
        client.get_mut().write_all(raw.as_bytes()).unwrap();
        // Part of the body follows; the server refuses and closes.
        let _ = client.get_mut().write_all(&vec![b' '; 64 * 1024]);
        let reply = read_reply(&mut client, false);
        assert_eq!(reply.status, 413);
        assert_eq!(reply.header("connection"), Some("close"));
        // A chunked body is cut when it passes the limit.
        let chunk = "x".repeat(3000);
        let raw = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nbb8\r\n{chunk}\r\nbb8\r\n{chunk}\r\n0\r\n\r\n"
        );
        assert_eq!(once(addr, raw.as_bytes()).status, 413);
        // And the server still serves.
        assert_eq!(once(addr, &post(INITIALIZE, "")).status, 200);
    });
}

#[test]
fn every_state_of_a_connection_has_a_deadline() {
    with_server(quick(), |addr| {
        // Silent from the start.
        let mut silent = TcpStream::connect(addr).unwrap();
        assert!(closed_by_server(&mut silent).is_empty());
        // Idle after a reply (keep-alive).
        let mut idle = connect(addr);
        assert_eq!(exchange(&mut idle, &post(INITIALIZE, "")).status, 200);
        assert!(closed_by_server(idle.get_mut()).is_empty());
        // A head sent a byte at a time, too slowly: closed before it ends.
        let mut slow_head = TcpStream::connect(addr).unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: {}\r\n",
            "z".repeat(400)
        );
        let mut sent = 0;
        let started = Instant::now();
        for byte in head.bytes() {
            if slow_head.write_all(&[byte]).is_err() {
                break;
            }
            sent += 1;
            std::thread::sleep(Duration::from_millis(20));
            assert!(started.elapsed() < Duration::from_secs(60), "never closed");
        }
        assert!(sent < head.len(), "the whole slow head was taken");
        // A body that does not come: 408, then closed.
        let mut slow_body = connect(addr);
        slow_body
            .get_mut()
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
            .unwrap();
        let reply = read_reply(&mut slow_body, false);
        assert_eq!(reply.status, 408);
        assert!(closed_by_server(slow_body.get_mut()).is_empty());
        // And the server still serves.
        assert_eq!(once(addr, &post(INITIALIZE, "")).status, 200);
    });
}

#[test]
fn over_the_connection_cap_a_client_gets_503() {
    let options = HttpOptions {
        max_connections: 4,
        // Long enough that the held connections stay open for the test.
        idle_timeout: Duration::from_secs(120),
        ..HttpOptions::default()
    };
    with_server(options, |addr| {
        let mut held: Vec<BufReader<TcpStream>> = (0..4).map(|_| connect(addr)).collect();
        // The held connections are served (one request each proves it).
        for client in &mut held {
            assert_eq!(exchange(client, &post(INITIALIZE, "")).status, 200);
        }
        let mut over = connect(addr);
        let reply = exchange(&mut over, &post(INITIALIZE, ""));
        assert_eq!(reply.status, 503);
        assert_eq!(reply.header("retry-after"), Some("1"));
        assert!(closed_by_server(over.get_mut()).is_empty());
        // Once one closes, new clients are served again.
        held.pop();
        let started = Instant::now();
        loop {
            if once(addr, &post(INITIALIZE, "")).status == 200 {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "never served again"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    });
}

/// The attack that stopped the thread-per-connection server: many clients
/// that send part of a head, or nothing, and wait. A new client is still
/// answered while they are all open.
#[test]
fn slow_and_silent_clients_do_not_stop_others() {
    let options = HttpOptions {
        idle_timeout: Duration::from_secs(120),
        head_timeout: Duration::from_secs(120),
        ..HttpOptions::default()
    };
    with_server(options, |addr| {
        let mut slow = Vec::new();
        for at in 0..300 {
            let mut stream = TcpStream::connect(addr).unwrap();
            if at % 2 == 0 {
                stream
                    .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                    .unwrap();
            }
            slow.push(stream);
        }
        let mut client = connect(addr);
        assert_eq!(exchange(&mut client, &post(INITIALIZE, "")).status, 200);
        assert_eq!(
            once(addr, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").status,
            200
        );
        drop(slow);
    });
}

#[test]
fn many_clients_at_once_each_get_their_own_answers() {
    with_server(
        HttpOptions {
            threads: 2,
            ..HttpOptions::default()
        },
        |addr| {
            std::thread::scope(|scope| {
                for client in 0..32 {
                    scope.spawn(move || {
                    let mut stream = connect(addr);
                    for round in 0..20 {
                        let id = client * 1000 + round;
                        let body = format!(
                            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"skill","arguments":{{"name":"pdf-forms"}}}}}}"#
                        );
                        let reply = exchange(&mut stream, &post(&body, ""));
                        assert_eq!(reply.status, 200);
                        let json = reply.json();
                        assert_eq!(json["id"], id);
                        assert_eq!(json["result"]["isError"], false);
                    }
                });
                }
            });
        },
    );
}

/// Stopping: the request in flight is answered, nothing new is accepted,
/// and `serve` returns.
#[test]
fn a_stop_answers_the_request_in_flight_then_ends() {
    let bound = http::bind("127.0.0.1:0", Access::default()).unwrap();
    let addr = bound.local_addr();
    let shutdown = Shutdown::new();
    std::thread::scope(|scope| {
        let serving =
            scope.spawn(|| http::serve(server(), bound, &HttpOptions::default(), &shutdown));
        let mut idle = connect(addr);
        assert_eq!(exchange(&mut idle, &post(INITIALIZE, "")).status, 200);
        let mut in_flight = connect(addr);
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
            INITIALIZE.len()
        );
        in_flight.get_mut().write_all(head.as_bytes()).unwrap();
        // hyper says 100 Continue once the body is asked for: the request
        // is being served.
        let mut line = String::new();
        in_flight.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 100 "), "{line}");
        in_flight.read_line(&mut line).unwrap();
        shutdown.stop();
        // The idle connection is closed; new ones are refused once the
        // listener is gone.
        assert!(closed_by_server(idle.get_mut()).is_empty());
        let started = Instant::now();
        while TcpStream::connect(addr).is_ok() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "still accepting"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        in_flight
            .get_mut()
            .write_all(INITIALIZE.as_bytes())
            .unwrap();
        let reply = read_reply(&mut in_flight, false);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["result"]["protocolVersion"], "2025-11-25");
        assert!(closed_by_server(in_flight.get_mut()).is_empty());
        serving.join().unwrap().unwrap();
    });
}

/// Two replicas serving one bundle, each its own decoding of it (as two
/// processes would have), and a client that alternates between them
/// through a whole `skills/list` paging, a whole `resources/list` paging
/// and a `resources/read` of every file listed: each reply is the one the other replica gives to the same
/// request, byte for byte, so a cursor from one is good at the other.
#[test]
fn two_replicas_answer_alike_to_a_client_alternating_between_them() {
    let page = || Options {
        page_size: 1,
        ..Options::default()
    };
    let (one, two) = (server_with(page()), server_with(page()));
    let envelope = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    with_server_on(one, HttpOptions::default(), Access::default(), |first| {
        with_server_on(two, HttpOptions::default(), Access::default(), |second| {
            let mut replicas = [connect(first), connect(second)];
            let mut turn = 0;
            // Asks the next replica in turn, and the other one the same,
            // and checks they agree.
            let mut ask = |body: String| -> Value {
                let raw = modern_post(&body);
                let reply = exchange(&mut replicas[turn % 2], &raw);
                let other = exchange(&mut replicas[(turn + 1) % 2], &raw);
                turn += 1;
                assert_eq!(reply.status, 200);
                assert_eq!(reply.body, other.body, "the replicas differ on {body}");
                reply.json()
            };
            // Every page of a listing: each page's result.
            let mut walk = |method: &str| -> Vec<Value> {
                let mut pages = Vec::new();
                let mut cursor: Option<String> = None;
                loop {
                    let cursor_member = cursor
                        .as_ref()
                        .map(|c| format!(r#""cursor":{},"#, Value::from(c.as_str())))
                        .unwrap_or_default();
                    let listed = ask(format!(
                        r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{cursor_member}{envelope}}}}}"#
                    ));
                    let result = listed["result"].clone();
                    cursor = result
                        .get("nextCursor")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    pages.push(result);
                    if cursor.is_none() {
                        return pages;
                    }
                }
            };
            let pages = walk("skills/list");
            let generations: std::collections::BTreeSet<String> = pages
                .iter()
                .map(|page| page["_meta"]["io.agentskills/catalog"]["generation"].to_string())
                .collect();
            let uris: Vec<String> = pages
                .iter()
                .flat_map(|page| page["skills"].as_array().unwrap().clone())
                .flat_map(|skill| skill["resources"].as_array().unwrap().clone())
                .map(|resource| resource["uri"].as_str().unwrap().to_owned())
                .collect();
            // resources/list, a page at a time, alternating too: the same
            // files in the same order (skills in URI order, each one's
            // files in path order).
            let listed_uris: Vec<String> = walk("resources/list")
                .iter()
                .flat_map(|page| {
                    let resources = page["resources"].as_array().unwrap();
                    assert_eq!(resources.len(), 1, "pages of one");
                    resources.clone()
                })
                .map(|resource| resource["uri"].as_str().unwrap().to_owned())
                .collect();
            assert_eq!(listed_uris, uris);
            assert!(
                pages.len() >= 3,
                "a paging of several pages: {}",
                pages.len()
            );
            assert_eq!(generations.len(), 1, "one catalog generation");
            for (at, uri) in uris.iter().enumerate() {
                let read = ask(format!(
                    r#"{{"jsonrpc":"2.0","id":{at},"method":"resources/read","params":{{"uri":{},{envelope}}}}}"#,
                    Value::from(uri.as_str())
                ));
                assert_eq!(read["result"]["contents"][0]["uri"], uri.as_str());
            }
        });
    });
}

/// The 2026-07-28 envelope, `_meta`'s members as text, with `version`.
fn envelope_with(version: &str) -> String {
    format!(
        r#""io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientInfo":{{"name":"t","version":"1"}},"io.modelcontextprotocol/clientCapabilities":{{}}"#
    )
}

fn request(id: u64, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}}}}}"#)
}

/// `(status, error code, id)` of a reply.
fn refusal(reply: &Reply) -> (u16, Value, Value) {
    let body = reply.json();
    (
        reply.status,
        body["error"]["code"].clone(),
        body["id"].clone(),
    )
}

#[test]
fn sep_2575_a_request_with_an_incomplete_envelope_is_400_and_invalid_params() {
    with_server(HttpOptions::default(), |addr| {
        let capabilities = r#""io.modelcontextprotocol/clientCapabilities":{}"#;
        let version = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28""#;
        for (id, params) in [
            (101, String::new()),
            (102, format!(r#""_meta":{{{capabilities}}}"#)),
            (104, format!(r#""_meta":{{{version}}}"#)),
        ] {
            let body = request(id, "server/discover", &params);
            let reply = once(addr, &modern_post(&body));
            assert_eq!(
                refusal(&reply),
                (400, Value::from(-32602), Value::from(id)),
                "{body}"
            );
        }
        // clientInfo is a SHOULD: a request without it is served.
        let body = request(
            105,
            "server/discover",
            &format!(r#""_meta":{{{version},{capabilities}}}"#),
        );
        let reply = once(addr, &modern_post(&body));
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["result"]["supportedVersions"][0], "2026-07-28");
    });
}

#[test]
fn sep_2575_removed_and_unknown_methods_are_404_and_method_not_found() {
    with_server(HttpOptions::default(), |addr| {
        let meta = format!(r#""_meta":{{{}}}"#, envelope_with("2026-07-28"));
        for method in [
            "initialize",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
            "unknown/method",
        ] {
            let reply = once(addr, &modern_post(&request(500, method, &meta)));
            assert_eq!(
                refusal(&reply),
                (404, Value::from(-32601), Value::from(500)),
                "{method}"
            );
        }
        // The initialize era is served as before, errors with 200.
        let reply = once(addr, &post(INITIALIZE, ""));
        assert_eq!(reply.status, 200);
        let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
        let reply = once(addr, &post(ping, "MCP-Protocol-Version: 2025-11-25\r\n"));
        assert_eq!(
            (reply.status, reply.json()["result"].clone()),
            (200, serde_json::json!({}))
        );
    });
}

/// A request whose envelope and `MCP-Protocol-Version` header both name
/// `version`, answered.
fn at_version(addr: SocketAddr, id: u64, method: &str, version: &str) -> Reply {
    let body = request(
        id,
        method,
        &format!(r#""_meta":{{{}}}"#, envelope_with(version)),
    );
    let raw = String::from_utf8(modern_post(&body)).unwrap().replace(
        "MCP-Protocol-Version: 2026-07-28",
        &format!("MCP-Protocol-Version: {version}"),
    );
    once(addr, raw.as_bytes())
}

#[test]
fn sep_2575_an_unsupported_version_is_400_with_the_versions_supported_under_the_request_id() {
    with_server(HttpOptions::default(), |addr| {
        let reply = at_version(addr, 301, "server/discover", "v999.0.0");
        assert_eq!(
            refusal(&reply),
            (400, Value::from(-32022), Value::from(301))
        );
        let data = &reply.json()["error"]["data"];
        assert_eq!(data["supported"], serde_json::json!(["2026-07-28"]));
        assert_eq!(data["requested"], "v999.0.0");
        // An initialize-era version in the envelope (the header agreeing)
        // is the same error, as on stdio.
        let reply = at_version(addr, 303, "tools/list", "2025-11-25");
        assert_eq!(
            refusal(&reply),
            (400, Value::from(-32022), Value::from(303))
        );
        assert_eq!(reply.json()["error"]["data"]["requested"], "2025-11-25");
    });
}

#[test]
fn sep_2575_a_version_header_other_than_the_body_is_400_header_mismatch() {
    with_server(HttpOptions::default(), |addr| {
        let body = request(
            302,
            "server/discover",
            &format!(r#""_meta":{{{}}}"#, envelope_with("v999.0.0")),
        );
        let reply = once(addr, &modern_post(&body));
        assert_eq!(
            refusal(&reply),
            (400, Value::from(-32020), Value::from(302))
        );
        // And a 2026-07-28 request without the header.
        let body = request(
            306,
            "tools/list",
            &format!(r#""_meta":{{{}}}"#, envelope_with("2026-07-28")),
        );
        let reply = once(addr, &post(&body, "Mcp-Method: tools/list\r\n"));
        assert_eq!(
            refusal(&reply),
            (400, Value::from(-32020), Value::from(306))
        );
    });
}

#[test]
fn sep_2243_the_method_and_name_headers_must_match_the_body() {
    with_server(HttpOptions::default(), |addr| {
        let meta = format!(r#""_meta":{{{}}}"#, envelope_with("2026-07-28"));
        let version = "MCP-Protocol-Version: 2026-07-28\r\n";
        let list = request(100, "tools/list", &meta);
        let call = request(
            102,
            "tools/call",
            &format!(r#""name":"skill","arguments":{{"name":"pdf-forms"}},{meta}"#),
        );
        let read = request(
            103,
            "resources/read",
            &format!(r#""uri":"skill://pdf-forms/reference.md",{meta}"#),
        );
        let refused = [
            (&list, "Mcp-Method: prompts/list\r\n"),
            (&list, ""),
            (&list, "Mcp-Method: TOOLS/LIST\r\n"),
            (&list, "Mcp-Method: tools/list\r\nMcp-Name: skill\r\n"),
            (
                &call,
                "Mcp-Method: tools/call\r\nMcp-Name: wrong_tool_name\r\n",
            ),
            (&call, "Mcp-Method: tools/call\r\n"),
            (
                &read,
                "Mcp-Method: resources/read\r\nMcp-Name: skill://pdf-forms/SKILL.md\r\n",
            ),
        ];
        for (body, headers) in refused {
            let reply = once(addr, &post(body, &format!("{version}{headers}")));
            assert_eq!(reply.status, 400, "{headers:?}");
            assert_eq!(reply.json()["error"]["code"], -32020, "{headers:?}");
            assert_eq!(
                reply.json()["id"],
                serde_json::from_str::<Value>(body).unwrap()["id"]
            );
        }
        let served = [
            (&list, "mcp-method: tools/list\r\n"),
            (&list, "MCP-METHOD: tools/list\r\n"),
            (&call, "Mcp-Method: tools/call\r\nMcp-Name:   skill  \r\n"),
            (
                &call,
                "Mcp-Method: tools/call\r\nMcp-Name: =?base64?c2tpbGw=?=\r\n",
            ),
            (
                &read,
                "Mcp-Method: resources/read\r\nMcp-Name: skill://pdf-forms/reference.md\r\n",
            ),
        ];
        for (body, headers) in served {
            let reply = once(addr, &post(body, &format!("{version}{headers}")));
            assert_eq!(reply.status, 200, "{headers:?}");
            assert!(reply.json().get("result").is_some(), "{headers:?}");
        }
    });
}

#[test]
fn sep_2164_an_unknown_resource_is_invalid_params_naming_the_uri() {
    with_server(HttpOptions::default(), |addr| {
        let meta = format!(r#""_meta":{{{}}}"#, envelope_with("2026-07-28"));
        let uri = "test://nonexistent-resource-for-conformance-testing";
        let body = request(7, "resources/read", &format!(r#""uri":"{uri}",{meta}"#));
        let reply = once(addr, &modern_post(&body));
        assert_eq!(refusal(&reply), (200, Value::from(-32602), Value::from(7)));
        assert_eq!(reply.json()["error"]["data"]["uri"], uri);
        assert!(reply.json().get("result").is_none());
    });
}
