//! JSON-RPC over stdio as MCP frames it: one message a line. Reading is
//! bounded (a line over the limit is skipped to its end and answered with
//! an error), replies are written whole, and every text the server echoes
//! back from a request is capped.

use std::io::{self, BufRead};

use serde_json::Value;

/// The default largest request line, newline excluded (1 MiB): a longer
/// line is skipped and answered with `Invalid Request` under its id, and
/// the next line is served ([`Options::max_request_bytes`](crate::Options)
/// changes it).
///
/// ```
/// use skills_mcp_server::{DEFAULT_MAX_REQUEST_BYTES, Server};
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let mut server = Server::new(&catalog, Default::default()).unwrap();
/// let padding = "x".repeat(DEFAULT_MAX_REQUEST_BYTES);
/// let input = format!(
///     "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"pad\":\"{padding}\"}}\n\
///      {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}}\n"
/// );
/// let mut output = Vec::new();
/// server.serve(input.as_bytes(), &mut output)?;
/// let replies = String::from_utf8(output)?;
/// let mut lines = replies.lines();
/// assert!(lines.next().unwrap().contains(r#""id":1,"error":{"code":-32600"#));
/// assert_eq!(lines.next(), Some(r#"{"jsonrpc":"2.0","id":2,"result":{}}"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 1 << 20;

// The most bytes of a request's own text that an error message repeats,
// and the one helper that caps it: skills-core's, which the providers' tool
// results use too (tests/it/stdio.rs checks the server's echoes).
pub use skills_core::serve::tool::{MAX_ECHO_BYTES, capped};

/// JSON-RPC error codes the server answers with.
pub(crate) mod code {
    /// Not JSON.
    pub(crate) const PARSE_ERROR: i64 = -32700;
    /// JSON, but not a request (or too large to read).
    pub(crate) const INVALID_REQUEST: i64 = -32600;
    /// No such method (in this era).
    pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
    /// Parameters missing or of the wrong type.
    pub(crate) const INVALID_PARAMS: i64 = -32602;
    /// The server could not make the reply (a catalog it cannot serve).
    pub(crate) const INTERNAL_ERROR: i64 = -32603;
    /// An HTTP header that mirrors the body is missing or differs from it
    /// (SEP-2243's `HeaderMismatch`).
    pub(crate) const HEADER_MISMATCH: i64 = -32020;
    /// The protocol version asked for is not served.
    pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// The HTTP status a reply goes out with on the Streamable HTTP transport
/// (stdio has none): the 2026-07-28 revision answers a malformed request
/// (its `_meta`, its headers, its protocol version) with `400` and a method
/// it does not serve with `404`, each with the JSON-RPC error in the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// `200 OK`: a result, or an error about what the request asked.
    Ok,
    /// `400 Bad Request`.
    BadRequest,
    /// `404 Not Found`.
    NotFound,
}

/// A reply line and the status it goes out with over HTTP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    pub(crate) line: String,
    pub(crate) status: Status,
}

/// A JSON-RPC error reply's `error` member.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
    pub(crate) code: i64,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
}

impl RpcError {
    pub(crate) fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub(crate) fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The reference's answer to parameters of the wrong shape.
    pub(crate) fn invalid_params() -> Self {
        RpcError::new(code::INVALID_PARAMS, "Invalid request parameters").with_data(Value::from(""))
    }

    /// The reference's answer to a method it does not serve (in this era).
    pub(crate) fn method_not_found(method: &str) -> Self {
        RpcError::new(code::METHOD_NOT_FOUND, "Method not found")
            .with_data(Value::from(capped(method)))
    }

    /// The answer to a Skills extension method on an `initialize`-era
    /// connection, which does not serve it (as the reference does not):
    /// the reference's `Method not found`, with a `data` that says what to
    /// do instead.
    pub(crate) fn skills_need_modern_era(method: &str) -> Self {
        RpcError::new(code::METHOD_NOT_FOUND, "Method not found").with_data(serde_json::json!({
            "method": capped(method),
            "hint": "the Skills extension (skills/list, skills/get) is served to 2026-07-28 clients: \
                     send server/discover, then each request with the io.modelcontextprotocol/protocolVersion \
                     envelope in params._meta, not the initialize handshake (the MCP Inspector: \
                     --protocol-era modern); resources/list, resources/read and the skill tool \
                     serve the same skills on this connection",
        }))
    }
}

/// A request's `id` as the JSON text the reply repeats: exactly as the
/// client wrote it when it is a number (an integer beyond 64 bits, `-0`, a
/// fraction or an exponent would not survive a trip through `f64`), as
/// serde_json writes it otherwise.
///
/// `message` is the whole request the id was parsed from. Integers that
/// fit 64 bits are written back exactly by serde_json already, so only the
/// rare other numbers cost a scan of the message for the id's text
/// ([`leading_id`]), used when it names the number serde_json parsed.
pub(crate) fn id_text(id: &Value, message: &[u8]) -> String {
    match id {
        Value::Number(number) if number.is_f64() => {
            let written = leading_id(message);
            match serde_json::from_str::<Value>(&written) {
                Ok(Value::Number(scanned)) if scanned.as_f64() == number.as_f64() => written,
                _ => id.to_string(),
            }
        }
        _ => id.to_string(),
    }
}

/// A reply line: `{"jsonrpc":"2.0","id":ID,"result":RESULT}` with `id`
/// and `result` already JSON.
pub(crate) fn result_line(id: &str, result: &str) -> String {
    let mut out = String::with_capacity(40 + id.len() + result.len());
    out.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
    out.push_str(id);
    out.push_str(",\"result\":");
    out.push_str(result);
    out.push('}');
    out
}

/// An error reply line, `id` already JSON.
pub(crate) fn error_line(id: &str, error: &RpcError) -> String {
    let mut body = serde_json::Map::new();
    body.insert("code".into(), Value::from(error.code));
    body.insert("message".into(), Value::from(error.message.as_str()));
    if let Some(data) = &error.data {
        body.insert("data".into(), data.clone());
    }
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{},\"error\":{}}}",
        id,
        Value::Object(body)
    )
}

/// One line read from the client.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The input ended (before any byte of a new line).
    End,
    /// A whole line, in the buffer, newline stripped.
    Complete,
    /// A line longer than the limit: its first `limit` bytes are in the
    /// buffer, the rest was skipped up to and including its newline.
    TooLong,
}

/// Reads the next line into `buffer` (cleared first), never holding more
/// than `limit` bytes of it.
pub(crate) fn read_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Line> {
    buffer.clear();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(if !read_any {
                Line::End
            } else if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
        read_any = true;
        let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], Some(at)),
            None => (available, None),
        };
        if !too_long {
            let room = limit - buffer.len();
            if chunk.len() > room {
                buffer.extend_from_slice(&chunk[..room]);
                too_long = true;
            } else {
                buffer.extend_from_slice(chunk);
            }
        }
        let used = found_newline.map_or(chunk.len(), |at| at + 1);
        input.consume(used);
        if found_newline.is_some() {
            if buffer.last() == Some(&b'\r') && !too_long {
                buffer.pop();
            }
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

/// The `id` of a request from its text, or the start of it, as JSON text
/// (a number as the client wrote it): the last top-level `"id"` member with
/// a number or string value before the cut, as a parsed object keeps the
/// last of two. So a client whose request was too large to read gets its
/// error under the id it waits on, and a number id is repeated as written.
/// `null` when none is found.
pub(crate) fn leading_id(prefix: &[u8]) -> String {
    let mut found = None;
    let mut depth = 0usize;
    let mut at = 0usize;
    let mut expect_key = false;
    while at < prefix.len() {
        match prefix[at] {
            b'{' => {
                depth += 1;
                expect_key = depth == 1;
                at += 1;
            }
            b'[' => {
                depth += 1;
                at += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                at += 1;
            }
            b',' => {
                expect_key = depth == 1;
                at += 1;
            }
            b'"' => {
                let start = at;
                at += 1;
                while at < prefix.len() && prefix[at] != b'"' {
                    at += if prefix[at] == b'\\' { 2 } else { 1 };
                }
                at += 1;
                let is_id_key =
                    expect_key && prefix.get(start..at.min(prefix.len())) == Some(b"\"id\"");
                expect_key = false;
                if is_id_key {
                    let rest = &prefix[at.min(prefix.len())..];
                    let rest = trim_start(rest);
                    if let Some(rest) = rest.strip_prefix(b":") {
                        found = Some(id_value(trim_start(rest)));
                    }
                }
            }
            _ => at += 1,
        }
    }
    found.unwrap_or_else(|| "null".to_owned())
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[skip..]
}

/// A JSON number (as written) or string at the start of `bytes`, else
/// `null`.
fn id_value(bytes: &[u8]) -> String {
    let end = if bytes.first() == Some(&b'"') {
        let mut at = 1;
        while at < bytes.len() && bytes[at] != b'"' {
            at += if bytes[at] == b'\\' { 2 } else { 1 };
        }
        at + 1
    } else {
        bytes
            .iter()
            .take_while(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
            .count()
    };
    let token = bytes.get(..end).unwrap_or_default();
    match serde_json::from_slice::<Value>(token) {
        Ok(Value::Number(_)) => String::from_utf8_lossy(token).into_owned(),
        Ok(value @ Value::String(_)) => value.to_string(),
        _ => "null".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<(Line, Vec<u8>)> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        let mut buffer = Vec::new();
        loop {
            let line = read_line(&mut reader, &mut buffer, limit).unwrap();
            if line == Line::End {
                return out;
            }
            out.push((line, buffer.clone()));
        }
    }

    #[test]
    fn lines_are_bounded_and_the_rest_skipped() {
        let got = lines(b"short\nmuch too long a line\r\nok\r\nlast", 8);
        assert_eq!(
            got,
            [
                (Line::Complete, b"short".to_vec()),
                (Line::TooLong, b"much too".to_vec()),
                (Line::Complete, b"ok".to_vec()),
                (Line::Complete, b"last".to_vec()),
            ]
        );
    }

    #[test]
    fn the_id_is_found_at_the_start_of_a_cut_request() {
        assert_eq!(
            leading_id(br#"{"jsonrpc":"2.0","id":42,"params":{"uri":"xxxx"#),
            "42"
        );
        assert_eq!(leading_id(br#"{"params":{"id":1,"x":"#), "null");
        assert_eq!(
            leading_id(br#"{"method":"a","id" : "q\"7","params":"#),
            r#""q\"7""#
        );
        assert_eq!(leading_id(br#"{"method":"\"id\":3"#), "null");
        assert_eq!(leading_id(b"garbage"), "null");
        assert_eq!(
            leading_id(br#"{"id":123456789012345678901234567890,"x":"#),
            "123456789012345678901234567890"
        );
        assert_eq!(leading_id(br#"{"id":-0,"x":"#), "-0");
    }

    #[test]
    fn numeric_ids_are_repeated_as_written() {
        let cases = [
            r#"{"id":123456789012345678901234567890}"#,
            r#"{"id":-0}"#,
            r#"{"id":1.10}"#,
            r#"{"id":1e2}"#,
            r#"{"id":-1.5E-3,"method":"x"}"#,
            r#"{"id":1,"id":2.50}"#,
        ];
        let expected = [
            "123456789012345678901234567890",
            "-0",
            "1.10",
            "1e2",
            "-1.5E-3",
            "2.50",
        ];
        for (case, expected) in cases.iter().zip(expected) {
            let value: Value = serde_json::from_str(case).unwrap();
            assert_eq!(id_text(&value["id"], case.as_bytes()), expected, "{case}");
        }
        let value: Value = serde_json::from_str(r#"{"id":7}"#).unwrap();
        assert_eq!(id_text(&value["id"], br#"{"id":7}"#), "7");
        assert_eq!(id_text(&Value::Null, b""), "null");
    }

    #[test]
    fn echoes_are_cut_at_character_boundaries() {
        let text = "é".repeat(600);
        let echoed = capped(&text);
        assert!(echoed.starts_with(&"é".repeat(512)));
        assert!(echoed.ends_with("… (176 more bytes)"));
    }
}
