//! The HTTP/1.1 client the load examples share: keep-alive connections
//! POSTing MCP requests and reading each reply whole, over `std::net`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The new era's request envelope, for `params`.
pub const ENVELOPE: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// POSTs `body` to `/mcp` and reads the reply; returns its status and
/// body length. `close` asks the server to close after it.
pub fn request(
    stream: &mut BufReader<TcpStream>,
    addr: &str,
    body: &str,
    close: bool,
) -> std::io::Result<(u16, usize)> {
    let connection = if close { "Connection: close\r\n" } else { "" };
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n{connection}Content-Length: {}\r\n\r\n",
        body.len()
    );
    let socket = stream.get_mut();
    socket.write_all(head.as_bytes())?;
    socket.write_all(body.as_bytes())?;
    let mut line = String::new();
    if stream.read_line(&mut line)? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0;
    loop {
        line.clear();
        if stream.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        if let Some((name, value)) = trimmed.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body)?;
    Ok((status, length))
}

/// A new connection to `addr`, reads bounded by `timeout`.
pub fn connect(addr: &str, timeout: Duration) -> std::io::Result<BufReader<TcpStream>> {
    let stream = TcpStream::connect(addr)?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(timeout))?;
    Ok(BufReader::new(stream))
}

/// The `p`-quantile of sorted `values` (0 when empty).
pub fn quantile(sorted: &[u64], p: f64) -> u64 {
    sorted
        .get(((sorted.len().max(1) - 1) as f64 * p) as usize)
        .copied()
        .unwrap_or(0)
}
