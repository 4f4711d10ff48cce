//! The Streamable HTTP transport as a client meets it, over a real
//! loopback socket and without Python: JSON replies to POSTs, 202 for
//! notifications, no session, 405 for GET and DELETE, the status codes for
//! a bad version, media type, origin, size or path, keep-alive, many
//! clients at once, and the same answers as the stdio transport.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::Value;
use skills_core::Catalog;
use skills_mcp_server::http::{self, HttpOptions};
use skills_mcp_server::{Options, Server};

mod support;
use support::testdata_bundle as bundle;

/// A reply: status, headers (names lowercased), body.
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

/// Sends `raw` on `stream` and reads one response.
fn exchange(stream: &mut BufReader<TcpStream>, raw: &[u8]) -> Reply {
    stream.get_mut().write_all(raw).unwrap();
    let mut line = String::new();
    stream.read_line(&mut line).unwrap();
    let status = line.split(' ').nth(1).unwrap().parse().unwrap();
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
        .map(|(_, value)| value.parse().unwrap())
        .expect("every response has a Content-Length");
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    Reply {
        status,
        headers,
        body,
    }
}

fn connect(addr: SocketAddr) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    BufReader::new(stream)
}

fn post(body: &str, extra: &str) -> Vec<u8> {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// Runs `test` against a server on a free loopback port, then stops it.
fn with_server(options: HttpOptions, test: impl FnOnce(SocketAddr, &Server<'_, '_>)) {
    let bytes = bundle();
    let catalog = Catalog::from_bytes(&bytes).unwrap();
    let server = Server::new(&catalog, Options::default()).unwrap();
    let listener = http::bind_loopback("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let serving = scope.spawn(|| http::serve(&server, listener, &options, &stop));
        // Stop the server whatever the test does, so a failure is reported
        // rather than the scope waiting on the server forever.
        let tested = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| test(addr, &server)));
        http::stop(&stop, addr);
        serving.join().unwrap().unwrap();
        if let Err(panic) = tested {
            std::panic::resume_unwind(panic);
        }
    });
}

fn quick() -> HttpOptions {
    HttpOptions {
        threads: 8,
        idle_timeout: Duration::from_millis(500),
        ..HttpOptions::default()
    }
}

#[test]
fn requests_get_json_replies_and_notifications_202_on_one_connection() {
    with_server(quick(), |addr, server| {
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
            server
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
        let reply = exchange(
            &mut client,
            &post(modern, "MCP-Protocol-Version: 2026-07-28\r\n"),
        );
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
    });
}

#[test]
fn the_transport_refuses_what_it_does_not_serve() {
    with_server(quick(), |addr, _| {
        let status = |raw: &[u8]| exchange(&mut connect(addr), raw);
        let get = status(b"GET /mcp HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
        assert_eq!((get.status, get.header("allow")), (405, Some("POST")));
        let delete = status(b"DELETE /mcp HTTP/1.1\r\nHost: x\r\nMcp-Session-Id: s\r\n\r\n");
        assert_eq!(delete.status, 405);
        let version = status(&post(INITIALIZE, "MCP-Protocol-Version: 1999-01-01\r\n"));
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
        assert_eq!(status(wrong_path.as_bytes()).status, 404);
        let text = String::from_utf8(post(INITIALIZE, ""))
            .unwrap()
            .replace("Content-Type: application/json", "Content-Type: text/plain");
        assert_eq!(status(text.as_bytes()).status, 415);
        let sse_only = String::from_utf8(post(INITIALIZE, "")).unwrap().replace(
            "Accept: application/json, text/event-stream",
            "Accept: text/event-stream",
        );
        assert_eq!(status(sse_only.as_bytes()).status, 406);
        let foreign = status(&post(INITIALIZE, "Origin: http://evil.example\r\n"));
        assert_eq!(foreign.status, 403);
        let local = status(&post(INITIALIZE, "Origin: http://localhost:6274\r\n"));
        assert_eq!(local.status, 200);
        let not_json = status(&post("{not json", ""));
        assert_eq!(
            (not_json.status, not_json.json()["error"]["code"].clone()),
            (400, Value::from(-32700))
        );
        let chunked = status(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        assert_eq!(chunked.status, 501);
        let no_length =
            status(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\r\n");
        assert_eq!(no_length.status, 411);
        let garbage = status(b"HELLO\r\n\r\n");
        assert_eq!(garbage.status, 400);
    });
}

#[test]
fn heads_and_bodies_are_bounded() {
    let options = HttpOptions {
        max_head_bytes: 1024,
        max_body_bytes: 4096,
        ..quick()
    };
    with_server(options, |addr, _| {
        let big_header = format!("X-Pad: {}\r\n", "a".repeat(2000));
        let reply = exchange(&mut connect(addr), &post(INITIALIZE, &big_header));
        assert_eq!(reply.status, 431);
        assert_eq!(reply.header("connection"), Some("close"));
        // A body over the limit is refused from its Content-Length, unread.
        let raw = format!(
            "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            1 << 30
        );
        let reply = exchange(&mut connect(addr), raw.as_bytes());
        assert_eq!(reply.status, 413);
        // A head that never ends is cut at the limit, not buffered forever.
        let mut client = connect(addr);
        let endless = "X-Long: ".to_string() + &"b".repeat(1500);
        let reply = exchange(
            &mut client,
            format!("POST /mcp HTTP/1.1\r\n{endless}").as_bytes(),
        );
        assert_eq!(reply.status, 431);
        // And the server still serves.
        assert_eq!(
            exchange(&mut connect(addr), &post(INITIALIZE, "")).status,
            200
        );
    });
}

#[test]
fn many_clients_at_once_each_get_their_own_answers() {
    with_server(quick(), |addr, _| {
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
    });
}

#[test]
fn only_loopback_addresses_are_listened_on() {
    let error = http::bind_loopback("0.0.0.0:0").unwrap_err();
    assert!(
        error.to_string().contains("not a loopback address"),
        "{error}"
    );
    assert!(http::bind_loopback("no-port").is_err());
    assert!(
        http::bind_loopback("[::1]:0").is_ok() || std::net::TcpListener::bind("[::1]:0").is_err()
    );
}
