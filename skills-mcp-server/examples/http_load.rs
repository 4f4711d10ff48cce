//! A small load generator for `skills mcp --http`: CLIENTS connections
//! (keep-alive, one request in flight each) for SECONDS, each POSTing
//! `skills/list` pages (new era, a cursor per request) or `resources/read`
//! of a skill file (by a fixed walk over the names in the file
//! `HTTP_LOAD_NAMES`), then requests/s and the p50/p99 latency. Bounded:
//! at most 256 clients and 120 seconds.
//!
//!     HTTP_LOAD_NAMES=names.txt cargo run --release -p skills-mcp-server --example http_load -- \
//!         127.0.0.1:PORT skills-list|resources-read CLIENTS SECONDS PAGE_SIZE

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const ENVELOPE: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// POSTs `body` and reads the reply; returns its status and body length.
fn request(
    stream: &mut BufReader<TcpStream>,
    addr: &str,
    body: &str,
) -> std::io::Result<(u16, usize)> {
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let socket = stream.get_mut();
    socket.write_all(head.as_bytes())?;
    socket.write_all(body.as_bytes())?;
    let mut line = String::new();
    stream.read_line(&mut line)?;
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

fn connect(addr: &str) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(addr).expect("connect to the server");
    stream.set_nodelay(true).ok();
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok();
    BufReader::new(stream)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [addr, kind, clients, seconds, page_size] = args.as_slice() else {
        eprintln!("usage: http_load ADDR skills-list|resources-read CLIENTS SECONDS PAGE_SIZE");
        std::process::exit(2);
    };
    let clients: usize = clients.parse::<usize>().expect("CLIENTS").clamp(1, 256);
    let seconds: u64 = seconds.parse::<u64>().expect("SECONDS").clamp(1, 120);
    let page_size: usize = page_size.parse::<usize>().expect("PAGE_SIZE").max(1);
    let names_file = std::env::var("HTTP_LOAD_NAMES")
        .expect("HTTP_LOAD_NAMES: a file of skill names, one a line");
    let names: Vec<String> = std::fs::read_to_string(names_file)
        .expect("the names file")
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(!names.is_empty(), "no skill names");
    let pages = names.len().div_ceil(page_size);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let (latencies, bytes, errors) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..clients)
            .map(|client| {
                let names = &names;
                scope.spawn(move || {
                    let mut stream = connect(addr);
                    let (mut latencies, mut bytes, mut errors) = (Vec::new(), 0usize, 0usize);
                    let mut i = client;
                    while Instant::now() < deadline {
                        i += clients;
                        let body = match kind.as_str() {
                            "skills-list" => {
                                let cursor = match (i * 7919) % pages {
                                    0 => String::new(),
                                    n => format!(r#""cursor":"skills-page-{}","#, n * page_size),
                                };
                                format!(
                                    r#"{{"jsonrpc":"2.0","id":{i},"method":"skills/list","params":{{{cursor}{ENVELOPE}}}}}"#
                                )
                            }
                            _ => {
                                let name = &names[(i * 7919) % names.len()];
                                format!(
                                    r#"{{"jsonrpc":"2.0","id":{i},"method":"resources/read","params":{{"uri":"skill://{name}/SKILL.md",{ENVELOPE}}}}}"#
                                )
                            }
                        };
                        let start = Instant::now();
                        match request(&mut stream, addr, &body) {
                            Ok((200, length)) => {
                                latencies.push(start.elapsed().as_nanos() as u64);
                                bytes += length;
                            }
                            Ok(_) => errors += 1,
                            Err(_) => {
                                errors += 1;
                                stream = connect(addr);
                            }
                        }
                    }
                    (latencies, bytes, errors)
                })
            })
            .collect();
        let mut all = Vec::new();
        let (mut bytes, mut errors) = (0, 0);
        for worker in workers {
            let (l, b, e) = worker.join().expect("a client thread");
            all.extend(l);
            bytes += b;
            errors += e;
        }
        (all, bytes, errors)
    });
    let elapsed = started.elapsed().as_secs_f64();
    let mut sorted = latencies;
    sorted.sort_unstable();
    let at = |p: f64| {
        sorted
            .get(((sorted.len().max(1) - 1) as f64 * p) as usize)
            .copied()
            .unwrap_or(0)
    };
    println!(
        "kind={kind} clients={clients} seconds={elapsed:.1} requests={} errors={errors} rps={:.0} p50_us={:.0} p99_us={:.0} mean_reply_bytes={}",
        sorted.len(),
        sorted.len() as f64 / elapsed,
        at(0.50) as f64 / 1000.0,
        at(0.99) as f64 / 1000.0,
        bytes / sorted.len().max(1)
    );
}
