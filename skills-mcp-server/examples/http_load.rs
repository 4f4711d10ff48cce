//! A small load generator for `skills mcp --http`: CLIENTS connections
//! (keep-alive, one request in flight each) for SECONDS, each POSTing
//! `skills/list` pages (new era, a cursor per request) or `resources/read`
//! of a skill file (by a fixed walk over the names in the file
//! `HTTP_LOAD_NAMES`), then requests/s and the p50/p99 latency. Bounded:
//! at most 256 clients and 120 seconds.
//!
//!     HTTP_LOAD_NAMES=names.txt cargo run --release -p skills-mcp-server --example http_load -- \
//!         127.0.0.1:PORT skills-list|resources-read CLIENTS SECONDS PAGE_SIZE

use std::time::{Duration, Instant};

#[path = "support/client.rs"]
mod client;

/// The request body a load client sends for its `i`-th request: a
/// `skills/list` page (by a fixed walk over the pages) or a
/// `resources/read` of a skill's SKILL.md (by a fixed walk over `names`).
fn body(kind: &str, i: usize, names: &[String], page_size: usize) -> String {
    match kind {
        "skills-list" => {
            let pages = names.len().div_ceil(page_size.max(1)).max(1);
            let cursor = match (i * 7919) % pages {
                0 => String::new(),
                n => format!(r#""cursor":"skills-page-{}","#, n * page_size),
            };
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"skills/list","params":{{{cursor}{}}}}}"#,
                client::ENVELOPE
            )
        }
        _ => {
            let name = &names[(i * 7919) % names.len()];
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"resources/read","params":{{"uri":"skill://{name}/SKILL.md",{}}}}}"#,
                client::ENVELOPE
            )
        }
    }
}

fn connect(addr: &str) -> std::io::BufReader<std::net::TcpStream> {
    client::connect(addr, Duration::from_secs(10)).expect("connect to the server")
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
                        let body = body(kind, i, names, page_size);
                        let start = Instant::now();
                        match client::request(&mut stream, addr, &body, false) {
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
    let at = |p: f64| client::quantile(&sorted, p);
    println!(
        "kind={kind} clients={clients} seconds={elapsed:.1} requests={} errors={errors} rps={:.0} p50_us={:.0} p99_us={:.0} mean_reply_bytes={}",
        sorted.len(),
        sorted.len() as f64 / elapsed,
        at(0.50) as f64 / 1000.0,
        at(0.99) as f64 / 1000.0,
        bytes / sorted.len().max(1)
    );
}
