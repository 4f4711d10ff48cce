//! A scripted OpenAI-compatible endpoint on 127.0.0.1, for tests of a whole
//! tool loop without the network: it answers the n-th request with the n-th
//! scripted reply, records every request (path, authorization, JSON body),
//! and stops once the script is played. HTTP/1.1 on a std `TcpListener`,
//! one request a connection (`Connection: close`), bodies by
//! `Content-Length` or chunked.
//!
//! Used by `skills-rig`'s loop tests and `skills-rig/examples/rig-agent`'s CLI test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// One request the endpoint received.
#[derive(Debug, Clone)]
pub struct Request {
    /// The request line's method and target, such as `POST /v1/chat/completions`.
    pub line: String,
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
    /// The body, parsed as JSON (`Value::Null` if it was not JSON).
    pub body: Value,
}

/// A running endpoint.
#[derive(Debug)]
pub struct Endpoint {
    address: SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Endpoint {
    /// Starts serving `script` on a free port of 127.0.0.1. A request past
    /// the script is answered `500` with a message saying so.
    pub fn start(script: Vec<Value>) -> Endpoint {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let address = listener.local_addr().expect("local address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        thread::spawn(move || {
            let mut replies = script.into_iter();
            // One more connection than the script, to answer an extra request.
            for _ in 0..=replies.len() {
                let Ok((stream, _)) = listener.accept() else {
                    return;
                };
                let reply = replies.next();
                let done = reply.is_none();
                serve(stream, reply, &recorded);
                if done {
                    return;
                }
            }
        });
        Endpoint { address, requests }
    }

    /// The base URL of the OpenAI-style API: `http://127.0.0.1:<port>/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.address)
    }

    /// The requests received so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

/// Reads one request from `stream`, records it in `recorded`, then answers
/// it with `reply` (or a 500). The request is recorded before the reply is
/// written, so a client that has read its answer finds its request in
/// [`Endpoint::requests`].
fn serve(stream: TcpStream, reply: Option<Value>, recorded: &Mutex<Vec<Request>>) -> Option<()> {
    // A client that stops sending fails its test rather than hanging it.
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut length = None;
    let mut chunked = false;
    let mut authorization = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 || header == "\r\n" {
            break;
        }
        let (name, value) = header.trim_end().split_once(':')?;
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "authorization" => authorization = Some(value.to_string()),
            _ => {}
        }
    }
    let body = if chunked {
        read_chunked(&mut reader)?
    } else {
        let mut body = vec![0; length.unwrap_or(0)];
        reader.read_exact(&mut body).ok()?;
        body
    };
    recorded.lock().unwrap().push(Request {
        line: line.trim_end().to_string(),
        authorization,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    });
    let (status, reply) = match reply {
        Some(reply) => ("200 OK", reply),
        None => (
            "500 Internal Server Error",
            json!({"error": {"message": "the scripted endpoint has no more replies"}}),
        ),
    };
    let reply = reply.to_string();
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
        reply.len()
    )
    .ok()?;
    stream.flush().ok()
}

/// A chunked body, its chunks joined.
fn read_chunked(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).ok()?;
        let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
        let mut chunk = vec![0; size + 2]; // the chunk and its CRLF
        reader.read_exact(&mut chunk).ok()?;
        if size == 0 {
            return Some(body);
        }
        body.extend_from_slice(&chunk[..size]);
    }
}

/// A Chat Completions reply whose assistant message calls `skill` once per
/// entry of `calls` (id, arguments).
pub fn tool_calls(calls: &[(&str, Value)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|(id, arguments)| {
            json!({"id": id, "type": "function",
                   "function": {"name": "skill", "arguments": arguments.to_string()}})
        })
        .collect();
    json!({
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "tool_calls",
                     "message": {"role": "assistant", "content": null, "tool_calls": tool_calls}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    })
}

/// A Chat Completions reply that answers with `text`.
pub fn answer(text: &str) -> Value {
    json!({
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": "scripted",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    })
}

/// A message's text: its `content` string, or its text parts joined.
pub fn text_of(message: &Value) -> String {
    match &message["content"] {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// The `tool` messages of a Chat Completions request, as (tool_call_id, message).
pub fn tool_messages(request: &Request) -> Vec<(String, Value)> {
    request.body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|message| message["role"] == "tool")
        .map(|message| {
            (
                message["tool_call_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                message.clone(),
            )
        })
        .collect()
}
