//! The commands, one module each, and the program that offers them: every
//! command's name, help, arguments and options are declared once, in its
//! [`CommandSpec`], which the parser, `--help` and `docs/cli.md`
//! ([`crate::cli_reference`]) all read.

pub mod audit;
pub mod build;
pub mod catalog;
pub mod check;
#[cfg(feature = "installer")]
pub mod extract;
pub mod fmt;
pub mod inspect;
#[cfg(feature = "installer")]
pub mod install;
// Not under WASI: it has no permission bits to keep a secret key private.
#[cfg(not(target_os = "wasi"))]
pub mod keygen;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod new;
pub mod pack;
pub mod plugin;
pub mod publish;
pub mod reference;
pub mod revision;
pub mod sign;
pub mod verify;

use crate::python::click::{CommandSpec, GroupSpec};

/// Name under which the tool stands in for the reference command line.
pub const DROP_IN_NAME: &str = "agentskills";

/// The tool's own commands, after the reference's three.
const OWN: &[CommandSpec] = &[
    check::COMMAND,
    audit::COMMAND,
    build::COMMAND,
    inspect::COMMAND,
    catalog::COMMAND,
    catalog::OUTLINE,
    #[cfg(not(target_os = "wasi"))]
    keygen::COMMAND,
    sign::COMMAND,
    verify::COMMAND,
    revision::COMMAND,
    #[cfg(feature = "mcp")]
    mcp::COMMAND,
    pack::COMMAND,
    publish::COMMAND,
    plugin::COMMAND,
    fmt::COMMAND,
    new::COMMAND,
    #[cfg(feature = "installer")]
    install::INSTALL,
    #[cfg(feature = "installer")]
    install::STATUS,
    #[cfg(feature = "installer")]
    install::UNINSTALL,
    #[cfg(feature = "installer")]
    extract::COMMAND,
];

/// The program invoked as `prog`: under [`DROP_IN_NAME`], the reference's
/// three commands with its help and version line; under any other name,
/// every command, with the tool's manners (`-h`, `-V`, `help COMMAND`).
pub fn group(prog: String) -> GroupSpec {
    if prog == DROP_IN_NAME {
        return GroupSpec {
            prog,
            version_line: "agentskills, version 0.1.1".to_string(),
            description: "Reference library for Agent Skills.",
            commands: reference::COMMANDS.to_vec(),
            manners: false,
        };
    }
    GroupSpec {
        version_line: format!("{prog}, version {}", env!("CARGO_PKG_VERSION")),
        prog,
        description: "Validate, inspect and compile Agent Skills.",
        commands: reference::COMMANDS.iter().chain(OWN).copied().collect(),
        manners: true,
    }
}
