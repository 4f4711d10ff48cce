//! `mcp SRC...` / `mcp --bundle FILE`: serve skills to an agent host over
//! MCP on stdin and stdout (skills-mcp-server).

use skills_build::diagnostic;
use skills_core::Catalog;
use skills_mcp_server::{DEFAULT_PAGE_SIZE, Options, Server, serve_server_stdio, serve_stdio};

use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Param, concat};
use crate::targets::read_file;

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "mcp",
    short_help: "Serve skills to an agent host over MCP (stdio or HTTP).",
    help: "  Serve skills to an agent host over MCP (stdio, or HTTP with --http).\n\n  Compiles each SRC (a skill folder, a folder of skill folders or a\n  .skill/.zip archive, QUALIFIER=DIR as `build` takes it) in memory, or with --bundle reads the bundle file SRC once, then answers MCP on stdin\n  and stdout until the host closes stdin: the Skills extension's resources,\n  skills/list and skills/get, and the `skill` tool. Problems and warnings go\n  to stderr; a source with errors is not served (with --keep-going, the\n  skills with errors are left out and the rest served).\n\n  Exit codes:     0: The host closed the connection     1: Errors found     2: Usage error",
    options_help: &concat::<&str, 12>(&[
        &[
            "  --bundle                The one argument is a bundle file made by\n                          `skills build`: read once, then served.",
            "  --page-size N           Skills per skills/list page (default 100).",
            "  --origin ORIGIN         Serve only skills signed for ORIGIN by a --trust\n                          key, and say so in each publication record.",
            "  --trust ID=KEY          A trusted public key, as `skills verify` takes it\n                          (repeatable).",
            "  --core-tools            Also offer agentskills-core's tools (get_skill_body,\n                          get_skill_section, get_skill_reference, ...).",
            "  --keep-going            Leave out the skills with errors and serve the rest\n                          (an error still when none is left).",
        ],
        gate::OPTIONS_HELP.split_at(2).1,
        &[
            "  --http ADDR             Serve MCP's Streamable HTTP (stateless, JSON\n                          replies) at http://ADDR/mcp instead of stdio, until\n                          killed; ADDR is a loopback HOST:PORT (port 0: any).",
        ],
    ]),
    params: &concat::<Param, 14>(&[
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
        gate::PARAMS.split_at(2).1,
        &[Param::Opt {
            long: "--http",
            choices: &[],
        }],
    ]),
};

fn usage_error(message: &str) -> i32 {
    COMMAND.usage_error(message)
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
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
    let bytes = match (call.flag("--bundle"), call.args.as_slice()) {
        (true, [file]) => match read_file(file, 1) {
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
                    compiled.bytes
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
    let catalog = match Catalog::from_bytes(&bytes) {
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
    let served = if call.option("--origin").is_some() {
        let policy = match crate::verify::policy(call) {
            Ok(policy) => policy,
            Err(message) => return usage_error(&message),
        };
        match Server::verified(&catalog, options, &policy) {
            Ok(server) => match call.option("--http") {
                Some(addr) => return serve_http(&server, addr),
                None => serve_server_stdio(server),
            },
            Err(error) => {
                write(Stream::Err, &format!("error: {error}\n"));
                return 1;
            }
        }
    } else if let Some(addr) = call.option("--http") {
        return match Server::new(&catalog, options) {
            Ok(server) => serve_http(&server, addr),
            Err(error) => {
                write(Stream::Err, &format!("error: {error}\n"));
                1
            }
        };
    } else {
        serve_stdio(&catalog, options)
    };
    match served {
        Ok(()) => 0,
        Err(error) => {
            write(Stream::Err, &format!("error: {error}\n"));
            1
        }
    }
}

/// Serves over Streamable HTTP on the loopback `addr` until the process is
/// killed; says where on stderr once listening.
fn serve_http(server: &Server<'_, '_>, addr: &str) -> i32 {
    use skills_mcp_server::http;
    let listener = match http::bind_loopback(addr) {
        Ok(listener) => listener,
        Err(error) => {
            write(Stream::Err, &format!("error: {error}\n"));
            return 1;
        }
    };
    let shown = listener
        .local_addr()
        .map_or_else(|_| addr.to_owned(), |addr| addr.to_string());
    write(
        Stream::Err,
        &format!("skills mcp: serving http://{shown}{}\n", http::ENDPOINT),
    );
    let stop = std::sync::atomic::AtomicBool::new(false);
    match http::serve(server, listener, &http::HttpOptions::default(), &stop) {
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
