//! The slow-client load test of `skills mcp --http`, both halves in one
//! run: first quiet, then with SLOW slow or silent sockets held open (half
//! send part of a request head and then a byte a second, half send
//! nothing; any the server closes at its deadlines is opened again, as an
//! attacker would). In each half, CLIENTS keep-alive clients send
//! `resources/read` requests for SECONDS (throughput and latency), while a
//! prober opens a new connection every PROBE_MS and times one request on it
//! (how soon a new client is answered). It prints both halves, their
//! ratio, and a verdict: new clients answered within a second, and
//! throughput at least half the quiet figure. Exit status 1 when the
//! verdict fails.
//!
//!     cargo run --release -p skills-mcp-server --example http_slow_clients -- \
//!         127.0.0.1:PORT [CLIENTS SECONDS SLOW PROBE_MS]
//!
//! The files read are the server's own: its `resources/list`, asked once
//! at the start, read in a fixed walk.
//!
//! Bounded: at most 64 clients, 60 seconds a half, 2000 slow sockets.

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[path = "support/client.rs"]
mod client;

/// What one half measured.
#[derive(Debug, Default)]
struct Half {
    requests: usize,
    errors: usize,
    seconds: f64,
    latencies_us: Vec<u64>,
    probes_ms: Vec<u64>,
    probe_failures: usize,
}

impl Half {
    fn rps(&self) -> f64 {
        self.requests as f64 / self.seconds
    }

    fn show(&self, name: &str, extra: &str) {
        println!(
            "{name}: rps={:.0} p50_us={} p99_us={} errors={} | new clients: probes={} p50_ms={} p99_ms={} max_ms={} failed={}{extra}",
            self.rps(),
            client::quantile(&self.latencies_us, 0.5),
            client::quantile(&self.latencies_us, 0.99),
            self.errors,
            self.probes_ms.len(),
            client::quantile(&self.probes_ms, 0.5),
            client::quantile(&self.probes_ms, 0.99),
            self.probes_ms.last().copied().unwrap_or(0),
            self.probe_failures,
        );
    }
}

/// CLIENTS keep-alive clients and a prober, for `seconds`.
fn measure(
    addr: &str,
    uris: &[String],
    clients: usize,
    seconds: u64,
    probe_every: Duration,
) -> Half {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut half = Half::default();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..clients)
            .map(|at| {
                scope.spawn(move || {
                    let (mut latencies, mut errors) = (Vec::new(), 0);
                    let mut stream = client::connect(addr, Duration::from_secs(10)).ok();
                    let mut i = at;
                    while Instant::now() < deadline {
                        i += clients;
                        let Some(open) = stream.as_mut() else {
                            errors += 1;
                            std::thread::sleep(Duration::from_millis(10));
                            stream = client::connect(addr, Duration::from_secs(10)).ok();
                            continue;
                        };
                        let body = read(i, uris);
                        let start = Instant::now();
                        match client::request(open, addr, &body, false) {
                            Ok((200, _)) => latencies.push(start.elapsed().as_micros() as u64),
                            Ok(_) => errors += 1,
                            Err(_) => {
                                errors += 1;
                                stream = client::connect(addr, Duration::from_secs(10)).ok();
                            }
                        }
                    }
                    (latencies, errors)
                })
            })
            .collect();
        let prober = scope.spawn(move || {
            let (mut probes, mut failures, mut i) = (Vec::new(), 0, 0);
            while Instant::now() < deadline {
                i += 1;
                let start = Instant::now();
                let answered =
                    client::connect(addr, Duration::from_secs(10)).and_then(|mut stream| {
                        client::request(&mut stream, addr, &read(i, uris), true)
                    });
                match answered {
                    Ok((200, _)) => probes.push(start.elapsed().as_millis() as u64),
                    _ => failures += 1,
                }
                std::thread::sleep(probe_every.saturating_sub(start.elapsed()));
            }
            (probes, failures)
        });
        for worker in workers {
            let (latencies, errors) = worker.join().expect("a client thread");
            half.requests += latencies.len();
            half.latencies_us.extend(latencies);
            half.errors += errors;
        }
        let (probes, failures) = prober.join().expect("the prober");
        half.probes_ms = probes;
        half.probe_failures = failures;
    });
    half.seconds = started.elapsed().as_secs_f64();
    half.latencies_us.sort_unstable();
    half.probes_ms.sort_unstable();
    half
}

/// The `i`-th request of a fixed walk over `uris`.
fn read(i: usize, uris: &[String]) -> String {
    let uri = serde_json::Value::from(uris[(i * 7919) % uris.len()].as_str());
    format!(
        r#"{{"jsonrpc":"2.0","id":{i},"method":"resources/read","params":{{"uri":{uri},{}}}}}"#,
        client::ENVELOPE
    )
}

/// Every resource URI the server lists.
fn resource_uris(addr: &str) -> Vec<String> {
    use std::io::{BufRead, Read, Write};
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"resources/list","params":{{{}}}}}"#,
        client::ENVELOPE
    );
    let mut stream = client::connect(addr, Duration::from_secs(30)).expect("connect to the server");
    write!(
        stream.get_mut(),
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("send resources/list");
    let mut line = String::new();
    while stream.read_line(&mut line).expect("a reply") > 2 {
        line.clear();
    }
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).expect("the reply body");
    let reply: serde_json::Value = serde_json::from_slice(&reply).expect("a JSON reply");
    reply["result"]["resources"]
        .as_array()
        .expect("a resources/list result")
        .iter()
        .filter_map(|resource| resource["uri"].as_str().map(str::to_owned))
        .collect()
}

/// One slow socket: `trickle` ones have sent part of a head and send a
/// byte a second; the others are silent.
fn open_slow(addr: &str, trickle: bool) -> Option<TcpStream> {
    let mut stream = TcpStream::connect(addr).ok()?;
    if trickle {
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            .ok()?;
    }
    stream.set_nonblocking(true).ok()?;
    Some(stream)
}

/// Whether the server closed `stream` (end of stream or an error).
fn closed(stream: &mut TcpStream) -> bool {
    use std::io::Read;
    let mut byte = [0; 64];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(error) => error.kind() != std::io::ErrorKind::WouldBlock,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |at: usize, default: u64| -> u64 {
        args.get(at)
            .map(|text| text.parse().expect("a number"))
            .unwrap_or(default)
    };
    let Some(addr) = args.first() else {
        eprintln!("usage: http_slow_clients ADDR [CLIENTS SECONDS SLOW PROBE_MS]");
        std::process::exit(2);
    };
    let clients = number(1, 8).clamp(1, 64) as usize;
    let seconds = number(2, 10).clamp(1, 60);
    let slow = number(3, 600).min(2000) as usize;
    let probe_every = Duration::from_millis(number(4, 50).max(1));
    let uris = resource_uris(addr);
    assert!(!uris.is_empty(), "the server lists no resources");
    println!(
        "settings: clients={clients} (keep-alive, one request in flight each) seconds={seconds} a half, slow_sockets={slow} (half a partial head then a byte a second, half silent; reopened when closed), a new client every {} ms, requests: resources/read over the {} resources the server lists",
        probe_every.as_millis(),
        uris.len()
    );

    let quiet = measure(addr, &uris, clients, seconds, probe_every);
    quiet.show("quiet", "");

    let stop = AtomicBool::new(false);
    let (open_now, open_min, reopened) = (
        AtomicUsize::new(0),
        AtomicUsize::new(usize::MAX),
        AtomicUsize::new(0),
    );
    let measuring = AtomicBool::new(false);
    let loaded = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut sockets: Vec<Option<TcpStream>> =
                (0..slow).map(|at| open_slow(addr, at % 2 == 0)).collect();
            let mut last_trickle = Instant::now();
            while !stop.load(Ordering::SeqCst) {
                let trickle_now = last_trickle.elapsed() >= Duration::from_secs(1);
                for (at, socket) in sockets.iter_mut().enumerate() {
                    let gone = match socket.as_mut() {
                        None => true,
                        Some(stream) => {
                            closed(stream)
                                || (trickle_now && at % 2 == 0 && stream.write_all(b"a").is_err())
                        }
                    };
                    if gone {
                        if socket.is_some() {
                            reopened.fetch_add(1, Ordering::SeqCst);
                        }
                        *socket = open_slow(addr, at % 2 == 0);
                    }
                }
                if trickle_now {
                    last_trickle = Instant::now();
                }
                let open = sockets.iter().filter(|s| s.is_some()).count();
                open_now.store(open, Ordering::SeqCst);
                if measuring.load(Ordering::SeqCst) {
                    open_min.fetch_min(open, Ordering::SeqCst);
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let started = Instant::now();
        while open_now.load(Ordering::SeqCst) < slow {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the slow sockets did not open"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        measuring.store(true, Ordering::SeqCst);
        let half = measure(addr, &uris, clients, seconds, probe_every);
        stop.store(true, Ordering::SeqCst);
        half
    });
    let min_open = open_min.load(Ordering::SeqCst);
    loaded.show(
        "slow",
        &format!(
            " | slow sockets open: min={} reopened={}",
            if min_open == usize::MAX {
                slow
            } else {
                min_open
            },
            reopened.load(Ordering::SeqCst)
        ),
    );

    let ratio = loaded.rps() / quiet.rps();
    let worst_ms = loaded.probes_ms.last().copied().unwrap_or(u64::MAX);
    let answered = loaded.probe_failures == 0 && !loaded.probes_ms.is_empty() && worst_ms < 1000;
    let kept = ratio >= 0.5;
    println!(
        "ratio: throughput slow/quiet = {ratio:.2}; new-client latency max {} ms quiet, {worst_ms} ms slow",
        quiet.probes_ms.last().copied().unwrap_or(0)
    );
    println!(
        "verdict: {} (new clients answered within 1 s: {}; throughput at least half the quiet figure: {})",
        if answered && kept { "pass" } else { "FAIL" },
        if answered { "yes" } else { "no" },
        if kept { "yes" } else { "no" },
    );
    if !(answered && kept) {
        std::process::exit(1);
    }
}
