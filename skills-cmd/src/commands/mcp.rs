//! `mcp SRC...` / `mcp --bundle FILE`: serve skills to an agent host over
//! MCP on stdin and stdout, or over HTTP with `--http` (skills-mcp-server).

use skills_build::diagnostic;
use skills_build::unstable::printable::printable;
use skills_core::Catalog;
use skills_core::serve::paged::PagedBundle;
use skills_mcp_server::{
    Caching, DEFAULT_PAGE_SIZE, Options, ServeError, Server, http, serve_server_stdio,
};

use super::verify;
use crate::bundle_file::BundleFile;
use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Opt};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "mcp",
    summary: "Serve skills to an agent host over MCP (stdio or HTTP).",
    about: "Compiles each SRC (a skill folder, a folder of skill folders or a .skill/.zip archive, QUALIFIER=DIR as `build` takes it) in memory, or with --bundle reads the bundle file SRC a skill at a time (each skill read when first listed or served), then answers MCP on stdin and stdout (or over HTTP with --http) until the host closes stdin: the Skills extension's resources, skills/list and skills/get, and the `skill` tool. Problems and warnings go to stderr; a source with errors is not served (with --keep-going, the skills with errors are left out and the rest served).",
    exit_codes: &[
        (0, "The host closed the connection (or, with --http, the server was stopped)"),
        (1, "Errors found"),
    ],
    args: &[gate::SOURCES],
    options: &[
        &[
            Opt::flag(
                "--bundle",
                "The one argument is a bundle file made by `skills build`: each skill read and checked when first listed or served.",
            ),
            Opt::value(
                "--page-size",
                "N",
                "Entries per page of skills/list, resources/list and resources/directory/read (default 100).",
            ),
            Opt::value(
                "--public-cache-ttl",
                "MS",
                "Let clients and shared caches keep the new era's results for MS milliseconds (cacheScope public, ttlMs MS), for skills that do not change while served, such as a published bundle (default: private, 0).",
            ),
            verify::ORIGIN.help(
                "Serve only skills signed for ORIGIN by a --trust key, and say so in each publication record.",
            ),
            verify::TRUST
                .help("A trusted public key, as `skills verify` takes it (repeatable)."),
            Opt::flag(
                "--core-tools",
                "Also offer agentskills-core's tools (get_skill_body, get_skill_section, get_skill_reference, ...).",
            ),
            Opt::flag(
                "--keep-going",
                "Leave out the skills with errors and serve the rest (an error still when none is left).",
            ),
            gate::ALLOW,
            gate::EXTENSIONS,
            gate::EXCLUDE,
        ],
        gate::READ,
        &[
            Opt::value(
                "--http",
                "ADDR",
                "Serve MCP's Streamable HTTP (stateless, JSON replies) at http://ADDR/mcp instead of stdio, until SIGTERM or Ctrl-C; ADDR is HOST:PORT (port 0: any). GET /healthz answers 200 for load balancers.",
            ),
            Opt::value(
                "--bearer-token-file",
                "FILE",
                "With --http: every request must carry `Authorization: Bearer TOKEN`, TOKEN the file's content (needed for a non-loopback ADDR, or --no-auth).",
            ),
            Opt::flag(
                "--no-auth",
                "With --http on a non-loopback ADDR: serve anyone who reaches it, without a token.",
            ),
            Opt::value(
                "--allow-origin",
                "ORIGIN",
                "With --http: browser pages from ORIGIN may call the server (repeatable; loopback pages may on loopback).",
            ),
            Opt::value(
                "--well-known",
                "DIR",
                "With --http: also serve the tree `skills publish --well-known DIR` wrote, under /.well-known/ (GET and HEAD, no token needed: it is public), so one replica is the MCP server and the discovery index's origin.",
            ),
        ],
    ],
    run,
};

fn usage_error(message: &str) -> i32 {
    COMMAND.usage_error(message)
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let http = match HttpChoice::from_call(call) {
        Ok(http) => http,
        Err(message) => return usage_error(&message),
    };
    let page_size = match call.option("--page-size") {
        None => DEFAULT_PAGE_SIZE,
        Some(text) => match text.parse::<usize>() {
            Ok(size) if size > 0 => size,
            _ => {
                return usage_error(&format!(
                    "Invalid value for '--page-size': {text:?} is not a positive number."
                ));
            }
        },
    };
    let caching = match call.option("--public-cache-ttl") {
        None => Caching::default(),
        Some(text) => match text.parse::<u64>() {
            Ok(ttl_ms) => Caching {
                public: true,
                ttl_ms,
            },
            Err(_) => {
                return usage_error(&format!(
                    "Invalid value for '--public-cache-ttl': {text:?} is not a number of milliseconds."
                ));
            }
        },
    };
    let options = Options {
        name: "skills".to_owned(),
        page_size,
        core_tools: call.flag("--core-tools"),
        caching,
        ..Options::default()
    };
    let server = match (call.flag("--bundle"), call.args.as_slice()) {
        (true, [file]) => bundle_server(call, file, options),
        (true, _) => return usage_error("--bundle takes exactly one bundle file."),
        (false, _) => sources_server(call, options),
    };
    let server = match server {
        Ok(server) => server,
        Err(code) => return code,
    };
    // Served until the process exits: the HTTP transport borrows the
    // server for the rest of it.
    let published = match (call.option("--well-known"), &http) {
        (None, _) => http::Published::default(),
        (Some(_), None) => return usage_error("--well-known goes with --http."),
        (Some(dir), Some(_)) => match crate::well_known::served::load(std::path::Path::new(dir)) {
            Ok(published) => published,
            Err(message) => {
                return usage_error(&format!("Invalid value for '--well-known': {message}"));
            }
        },
    };
    let served = match http {
        Some(http) => return serve_http(keep(server), http, published),
        None => serve_server_stdio(server),
    };
    match served {
        Ok(()) => 0,
        Err(error) => {
            write(Stream::Err, &format!("error: {error}\n"));
            1
        }
    }
}

/// Kept until the process exits (the catalog borrows it, the server the
/// catalog, for as long as it serves).
fn keep<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

/// A bundle that does not open, said, and the status.
fn not_readable(error: &skills_core::DecodeError) -> i32 {
    write(
        Stream::Err,
        &format!("error: not a readable bundle: {error}\n"),
    );
    1
}

/// A server that cannot serve, said, and the status.
fn not_served(error: &ServeError) -> i32 {
    write(Stream::Err, &format!("error: {error}\n"));
    1
}

/// The server of the bundle file at `path`, read a skill at a time: a
/// replica answers at once, and reads a skill's bytes when it first lists
/// or serves the skill. With `--origin`, the file is read whole and
/// verified first, and then each skill is served only if its bytes are the
/// ones verified (pinned by their SHA-256), whatever happens to the file.
fn bundle_server(
    call: &Invocation,
    path: &str,
    options: Options,
) -> Result<Server<'static, 'static>, i32> {
    let file = BundleFile::open(path, 1)?;
    if call.option("--origin").is_none() {
        let len = file.len();
        let paged = keep(PagedBundle::open(file, len).map_err(|e| not_readable(&e))?);
        let catalog = keep(Catalog::paged(paged).map_err(|e| not_readable(&e))?);
        return Ok(Server::lazy(catalog, options));
    }
    let bytes = file.read_all(path, 1)?;
    let policy = verify::policy(call).map_err(|message| usage_error(&message))?;
    let verified = policy.verify_bytes(&bytes).map_err(|error| {
        let hint = verify::origin_hint(&error, &bytes, policy.origin());
        let code = not_served(&ServeError::Verify(error));
        if let Some(hint) = hint {
            write(Stream::Err, &format!("  = help: {}\n", printable(&hint)));
        }
        code
    })?;
    let paged =
        keep(PagedBundle::pinned(file.checked_by_pins(), &bytes).map_err(|e| not_readable(&e))?);
    let catalog = keep(Catalog::paged(paged).map_err(|e| not_readable(&e))?);
    Server::from_verified(catalog, options, &policy, &verified).map_err(|e| not_served(&e))
}

/// The server of the sources named, compiled in memory and judged as
/// `check` judges them.
fn sources_server(call: &Invocation, options: Options) -> Result<Server<'static, 'static>, i32> {
    let builder = gate::builder(call).map_err(|message| usage_error(&message))?;
    let outcome = builder.keep_going(call.flag("--keep-going")).run();
    gate::say_layouts(call, &outcome.sources);
    let bytes = match outcome.result {
        Ok(compiled) => {
            let lister = format!("skills check {}", call.args.join(" "));
            write(
                Stream::Err,
                &gate::render_quietly(&compiled.warnings, gate::verbose(call), &lister),
            );
            keep(compiled.bytes)
        }
        Err(error) => {
            write(
                Stream::Err,
                &diagnostic::failure(&error.problems, "nothing served"),
            );
            return Err(1);
        }
    };
    // Opened lazily: the header and the tables' bounds now, each skill
    // decoded and checked on its first use.
    let catalog = keep(Catalog::open(bytes).map_err(|e| not_readable(&e))?);
    if call.option("--origin").is_none() {
        // A replica answers at once: every reply is made when asked for.
        return Ok(Server::lazy(catalog, options));
    }
    let policy = verify::policy(call).map_err(|message| usage_error(&message))?;
    Server::verified(catalog, options, &policy).map_err(|e| not_served(&e))
}

/// The token in the file `--bearer-token-file` names, read as every file a
/// user names is read: a regular file under the limit, checked before it is
/// opened and opened without blocking, so a named pipe or a device is
/// refused at once instead of hanging the start.
fn bearer_token(file: &str) -> Result<http::BearerToken, String> {
    let invalid = |why: String| format!("Invalid value for '--bearer-token-file': {why}.");
    let text =
        crate::targets::read_text_limited(std::path::Path::new(file), http::MAX_TOKEN_FILE_BYTES)
            .map_err(|error| {
            invalid(format!(
                "cannot read the token file {}: {error}",
                skills_build::unstable::printable::printable(file)
            ))
        })?;
    http::BearerToken::new(text.trim()).map_err(|error| invalid(error.to_string()))
}

/// What `--http` and the options beside it ask for.
struct HttpChoice<'c> {
    addr: &'c str,
    access: http::Access,
}

impl<'c> HttpChoice<'c> {
    /// `None` for stdio; an error for HTTP options without `--http`, or a
    /// token and `--no-auth` together, or a token file that holds no token.
    fn from_call(call: &'c Invocation) -> Result<Option<Self>, String> {
        let token_file = call.option("--bearer-token-file");
        let no_auth = call.flag("--no-auth");
        let origins = call.values("--allow-origin");
        let Some(addr) = call.option("--http") else {
            return match (token_file.is_some(), no_auth, origins.is_empty()) {
                (false, false, true) => Ok(None),
                _ => {
                    Err("--bearer-token-file, --no-auth and --allow-origin go with --http.".into())
                }
            };
        };
        let auth = match (token_file, no_auth) {
            (Some(_), true) => {
                return Err(
                    "--bearer-token-file and --no-auth exclude each other: choose one.".into(),
                );
            }
            (Some(file), false) => http::Auth::Bearer(bearer_token(file)?),
            (None, true) => http::Auth::NoAuth,
            (None, false) => http::Auth::LoopbackOnly,
        };
        let mut allowed_origins = Vec::new();
        for origin in origins {
            let well_formed = origin.split_once("://").is_some_and(|(scheme, host)| {
                matches!(scheme, "http" | "https")
                    && !host.trim_end_matches('/').is_empty()
                    && !host.trim_end_matches('/').contains('/')
            });
            if !well_formed {
                return Err(format!(
                    "Invalid value for '--allow-origin': {origin:?} is not an origin such as https://console.example.com."
                ));
            }
            allowed_origins.push(origin.to_owned());
        }
        Ok(Some(HttpChoice {
            addr,
            access: http::Access {
                auth,
                allowed_origins,
            },
        }))
    }
}

/// Serves over Streamable HTTP until SIGTERM or SIGINT; says where on
/// stderr once listening.
fn serve_http(
    server: &'static Server<'static, 'static>,
    choice: HttpChoice<'_>,
    published: http::Published,
) -> i32 {
    let bound = match http::bind(choice.addr, choice.access) {
        Ok(bound) => bound,
        Err(http::HttpError::NeedsAuth(addr)) => {
            return usage_error(&format!(
                "--http {}: {addr} is not a loopback address. Serving other hosts needs a choice: --bearer-token-file FILE (every request carries the token) or --no-auth (anyone who reaches the port is served).",
                choice.addr
            ));
        }
        Err(error) => {
            write(Stream::Err, &format!("error: {error}\n"));
            return 1;
        }
    };
    write(
        Stream::Err,
        &format!("skills mcp: serving {}\n", bound.url()),
    );
    let options = http::HttpOptions {
        published,
        ..http::HttpOptions::default()
    };
    match http::serve(server, bound, &options, &http::Shutdown::on_signals()) {
        Ok(()) => 0,
        Err(error) => {
            write(
                Stream::Err,
                &format!("error: MCP HTTP transport: {error}\n"),
            );
            1
        }
    }
}
