//! `build SRC... -o FILE`: compile skill directories into a bundle file.

use std::path::Path;

use skills_build::Builder;
use skills_build::diagnostic;
use skills_build::filter::Glob;
use skills_core::Catalog;

use crate::args::{CommandSpec, Invocation, Param};
use crate::output::{Stream, write};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "build",
    short_help: "Compile skill directories into a bundle file.",
    help: "  Compile skill directories into a bundle file.\n\n  Each SRC is a directory whose subdirectories holding a SKILL.md are skills.\n  Sources are searched in order: the first to offer a name wins it, and a\n  later skill of that name is shadowed (a warning). Write a source as\n  QUALIFIER=DIR to list such a skill as QUALIFIER:NAME instead.\n\n  Any problem that is an error fails the build, every problem is printed,\n  and no file is written.\n\n  Exit codes:     0: Bundle written (warnings allowed)     1: Errors found     2: Usage error",
    options_help: &[
        "  -o, --output FILE       Where to write the bundle (required).",
        "  --location-base BASE    Print locations as BASE/DIR/SKILL.md instead of\n                          skill://NAME/SKILL.md.",
        "  --exclude PATTERN       Skip matching files and directories (repeatable;\n                          `*`, `?`, `**`; without `/` it matches a name at any\n                          depth).",
        "  --max-file-size BYTES   The largest file embedded (default 16777216).",
    ],
    params: &[
        Param::Arg {
            metavar: "SRC...",
            many: true,
            must_exist: false,
        },
        Param::Opt {
            long: "-o",
            choices: &[],
        },
        Param::Opt {
            long: "--output",
            choices: &[],
        },
        Param::Opt {
            long: "--location-base",
            choices: &[],
        },
        Param::Opt {
            long: "--exclude",
            choices: &[],
        },
        Param::Opt {
            long: "--max-file-size",
            choices: &[],
        },
    ],
};

/// `QUALIFIER=DIR` or `DIR`: an argument naming an existing path is
/// always a plain directory.
fn split_source(arg: &str) -> (Option<&str>, &str) {
    if Path::new(arg).exists() {
        return (None, arg);
    }
    match arg.split_once('=') {
        Some((qualifier, dir)) if !qualifier.contains('/') => (Some(qualifier), dir),
        _ => (None, arg),
    }
}

fn usage_error(message: &str) -> i32 {
    write(
        Stream::Err,
        &format!(
            "Usage: skills build [OPTIONS] SRC...\nTry 'skills build --help' for help.\n\nError: {message}\n"
        ),
    );
    2
}

/// Runs the command: the same compilation a build script's `Builder` does.
pub fn run(call: &Invocation) -> i32 {
    let Some(output) = call.option("--output").or_else(|| call.option("-o")) else {
        return usage_error("Missing option '-o' / '--output'.");
    };
    let mut builder = Builder::new();
    if let Some(max) = call.option("--max-file-size") {
        match max.parse::<u64>() {
            Ok(max) => builder = builder.max_file_size(max),
            Err(_) => {
                return usage_error(&format!(
                    "Invalid value for '--max-file-size': {max:?} is not a number of bytes."
                ));
            }
        }
    }
    for (name, pattern) in &call.options {
        if *name == "--exclude" {
            if let Err(error) = Glob::new(pattern) {
                return usage_error(&error.to_string());
            }
            builder = builder.exclude(pattern.as_str());
        }
    }
    if let Some(base) = call.option("--location-base") {
        builder = builder.location_base(base);
    }
    for arg in &call.args {
        builder = match split_source(arg) {
            (Some(qualifier), dir) => builder.qualified_source(dir, qualifier),
            (None, dir) => builder.source(dir),
        };
    }
    match builder.compile() {
        Ok(compiled) => {
            let mut text = String::new();
            for warning in &compiled.warnings {
                text.push_str(&diagnostic::render(warning));
            }
            if let Err(error) = std::fs::write(output, &compiled.bytes) {
                text.push_str(&format!("error: cannot write {output}: {error}\n"));
                write(Stream::Err, &text);
                return 1;
            }
            let listed = Catalog::open(&compiled.bytes).map_or(0, |catalog| catalog.len());
            text.push_str(&format!(
                "ok: wrote {output}: {listed} skill{}, {} bytes ({})\n",
                if listed == 1 { "" } else { "s" },
                compiled.bytes.len(),
                diagnostic::count(&compiled.warnings)
            ));
            write(Stream::Err, &text);
            0
        }
        Err(error) => {
            let mut text = String::new();
            for problem in &error.problems {
                text.push_str(&diagnostic::render(problem));
            }
            text.push_str(&format!(
                "error: no bundle written: {}\n",
                diagnostic::count(&error.problems)
            ));
            write(Stream::Err, &text);
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualifier_syntax() {
        assert_eq!(split_source("team=x/skills"), (Some("team"), "x/skills"));
        assert_eq!(split_source("a/b=c"), (None, "a/b=c"));
        assert_eq!(split_source("skills"), (None, "skills"));
    }
}
