//! `mcp SRC...` / `mcp --bundle FILE`: serve skills to an agent host over
//! MCP on stdin and stdout, or over HTTP with `--http` (skills-mcp-server).

use skills_build::diagnostic;
use skills_core::Catalog;
use skills_mcp_server::{DEFAULT_PAGE_SIZE, Options, Server, http, serve_server_stdio};

use crate::gate;
use crate::mapped::{BundleFile, open_bundle};
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Param, concat};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "mcp",
    short_help: "Serve skills to an agent host over MCP (stdio or HTTP).",
    help: "  Serve skills to an agent host over MCP (stdio, or HTTP with --http).\n\n  Compiles each SRC (a skill folder, a folder of skill folders or a\n  .skill/.zip archive, QUALIFIER=DIR as `build` takes it) in memory, or with --bundle maps the bundle file SRC (each skill read when first\n  served), then answers MCP on stdin\n  and stdout until the host closes stdin: the Skills extension's resources,\n  skills/list and skills/get, and the `skill` tool. Problems and warnings go\n  to stderr; a source with errors is not served (with --keep-going, the\n  skills with errors are left out and the rest served).\n\n  Exit codes:     0: The host closed the connection     1: Errors found     2: Usage error",
    options_help: &concat::<&str, 15>(&[
        &[
            "  --bundle                The one argument is a bundle file made by\n                          `skills build`: mapped, each skill read\n                          and checked when first served.",
            "  --page-size N           Skills per skills/list page (default 100).",
            "  --origin ORIGIN         Serve only skills signed for ORIGIN by a --trust\n                          key, and say so in each publication record.",
            "  --trust ID=KEY          A trusted public key, as `skills verify` takes it\n                          (repeatable).",
            "  --core-tools            Also offer agentskills-core's tools (get_skill_body,\n                          get_skill_section, get_skill_reference, ...).",
            "  --keep-going            Leave out the skills with errors and serve the rest\n                          (an error still when none is left).",
        ],
        gate::OPTIONS_HELP.split_at(3).1,
        &[
            "  --http ADDR             Serve MCP's Streamable HTTP (stateless, JSON\n                          replies) at http://ADDR/mcp instead of stdio, until\n                          SIGTERM or Ctrl-C; ADDR is HOST:PORT (port 0: any).\n                          GET /healthz answers 200 for load balancers.",
            "  --bearer-token-file FILE\n                          With --http: every request must carry\n                          `Authorization: Bearer TOKEN`, TOKEN the file's\n                          content (needed for a non-loopback ADDR, or\n                          --no-auth).",
            "  --no-auth               With --http on a non-loopback ADDR: serve anyone\n                          who reaches it, without a token.",
            "  --allow-origin ORIGIN   With --http: browser pages from ORIGIN may call the\n                          server (repeatable; loopback pages may on loopback).",
        ],
    ]),
    params: &concat::<Param, 17>(&[
        &[
            Param::Arg {
                metavar: "SRC...",
                many: true,
                must_exist: false,
            },
            Param::Flag { long: "--bundle" },
            Param::Flag {
                long: "--core-tools",
            },
            Param::Flag {
                long: "--keep-going",
            },
            Param::Opt {
                long: "--origin",
                choices: &[],
            },
            Param::Opt {
                long: "--trust",
                choices: &[],
            },
            Param::Opt {
                long: "--page-size",
                choices: &[],
            },
        ],
        gate::PARAMS.split_at(3).1,
        &[
            Param::Opt {
                long: "--http",
                choices: &[],
            },
            Param::Opt {
                long: "--bearer-token-file",
                choices: &[],
            },
            Param::Flag { long: "--no-auth" },
            Param::Opt {
                long: "--allow-origin",
                choices: &[],
            },
        ],
    ]),
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
    let bytes: BundleFile = match (call.flag("--bundle"), call.args.as_slice()) {
        // Mapped, not read: a replica starts at once, and a skill's bytes
        // are read from disk when it is first served.
        (true, [file]) => match open_bundle(file, 1) {
            Ok(bytes) => bytes,
            Err(code) => return code,
        },
        (true, _) => return usage_error("--bundle takes exactly one bundle file."),
        (false, _) => {
            // Sources read and judged as `check` reads them.
            let builder = match gate::builder(call) {
                Ok(builder) => builder,
                Err(message) => return usage_error(&message),
            };
            let outcome = builder.keep_going(call.flag("--keep-going")).run();
            gate::say_layouts(call, &outcome.sources);
            match outcome.result {
                Ok(compiled) => {
                    write(Stream::Err, &diagnostic::render_all(&compiled.warnings));
                    BundleFile::Read(compiled.bytes)
                }
                Err(error) => {
                    write(
                        Stream::Err,
                        &diagnostic::failure(&error.problems, "nothing served"),
                    );
                    return 1;
                }
            }
        }
    };
    // Served until the process exits: the HTTP transport borrows the
    // bundle for the rest of it.
    let bytes: &'static [u8] = Box::leak(Box::new(bytes));
    // Opened lazily: the header and the tables' bounds now, each skill
    // decoded and checked on its first use.
    let catalog = match Catalog::open(bytes) {
        Ok(catalog) => catalog,
        Err(error) => {
            write(
                Stream::Err,
                &format!("error: not a readable bundle: {error}\n"),
            );
            return 1;
        }
    };
    let options = Options {
        name: "skills".to_owned(),
        page_size,
        core_tools: call.flag("--core-tools"),
        ..Options::default()
    };
    let catalog: &'static Catalog<'static> = Box::leak(Box::new(catalog));
    let served = if call.option("--origin").is_some() {
        let policy = match crate::verify::policy(call) {
            Ok(policy) => policy,
            Err(message) => return usage_error(&message),
        };
        match Server::verified(catalog, options, &policy) {
            Ok(server) => match http {
                Some(http) => return serve_http(Box::leak(Box::new(server)), http),
                None => serve_server_stdio(server),
            },
            Err(error) => {
                write(Stream::Err, &format!("error: {error}\n"));
                return 1;
            }
        }
    } else if let Some(http) = http {
        // A replica answers at once: the listings are made by the first
        // request that needs them.
        return serve_http(Box::leak(Box::new(Server::lazy(catalog, options))), http);
    } else {
        serve_server_stdio(Server::lazy(catalog, options))
    };
    match served {
        Ok(()) => 0,
        Err(error) => {
            write(Stream::Err, &format!("error: {error}\n"));
            1
        }
    }
}

/// The token in the file `--bearer-token-file` names, read as every file a
/// user names is read: a regular file under the limit, checked before it is
/// opened and opened without blocking, so a named pipe or a device is
/// refused at once instead of hanging the start.
fn bearer_token(file: &str) -> Result<http::BearerToken, String> {
    let invalid = |why: String| format!("Invalid value for '--bearer-token-file': {why}.");
    let text = skills_build::read_limit::read_text_limited(
        std::path::Path::new(file),
        http::MAX_TOKEN_FILE_BYTES,
    )
    .map_err(|error| {
        invalid(format!(
            "cannot read the token file {}: {error}",
            skills_build::printable::printable(file)
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
fn serve_http(server: &'static Server<'static, 'static>, choice: HttpChoice<'_>) -> i32 {
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
    let options = http::HttpOptions::default();
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
