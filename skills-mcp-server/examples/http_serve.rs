//! Serves a bundle file over the HTTP transport with a chosen number of
//! runtime threads, on a free loopback port, until SIGTERM or SIGINT: what
//! `skills mcp --http 127.0.0.1:0 --bundle FILE` does with its default of a
//! thread per core, for comparing runtimes (scripts/bench/http.sh). The
//! first line on stderr is the CLI's.
//!
//!     cargo run --release -p skills-mcp-server --features http --example http_serve -- FILE THREADS

use skills_mcp_server::{Server, http};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, threads] = args.as_slice() else {
        eprintln!("usage: http_serve BUNDLE_FILE THREADS");
        std::process::exit(2);
    };
    let bytes: &'static [u8] = std::fs::read(file)?.leak();
    let catalog = Box::leak(Box::new(skills_core::Catalog::from_bytes(bytes)?));
    let server = Box::leak(Box::new(Server::new(catalog, Default::default())?));
    let bound = http::bind("127.0.0.1:0", Default::default())?;
    eprintln!("skills mcp: serving {}", bound.url());
    let options = http::HttpOptions {
        threads: threads.parse()?,
        ..Default::default()
    };
    http::serve(server, bound, &options, &http::Shutdown::on_signals())?;
    Ok(())
}
