//! Serves the skills that `build.rs` compiled into this binary.
//!
//! With no arguments, prints what a host puts in the system prompt and the
//! `skill` tool's definition. Otherwise each argument is one tool call's
//! JSON arguments, as a model would send them; `-` reads one call per line
//! from standard input.
//!
//! ```text
//! cargo run -p serve-skills
//! cargo run -p serve-skills -- '{"name":"pdf-forms"}'
//! cargo run -p serve-skills -- '{"name":"pdf-forms","path":"reference.md"}'
//! echo '{"name":"git-rebase"}' | cargo run -p serve-skills -- -
//! ```

use std::io::{BufRead, Write};
use std::process::ExitCode;

use skills_runtime::{Catalog, Embedded, Reply};

/// The bundle `build.rs` wrote into `OUT_DIR`.
static SKILLS: Embedded = skills_runtime::include_bundle!("skills.bin");

/// Answers one call: the reply on `out` (stdout), the read record on
/// stderr, or the error text the model would get (what it repeats of the
/// call capped at 1 KiB by the error's own `Display`). Returns whether the
/// call succeeded.
fn answer(catalog: &Catalog<'_>, arguments: &str, out: &mut dyn Write) -> bool {
    let written = match catalog.call_json(arguments) {
        Ok(served) => {
            let shown = match served.reply {
                Reply::Text(text) => write!(out, "{text}"),
                Reply::Image(image) => writeln!(
                    out,
                    "[image {}, {} bytes]\n{}",
                    image.media_type,
                    image.bytes.len(),
                    image.data_url()
                ),
                // `Reply` is non-exhaustive: a later release may add kinds.
                _ => writeln!(out, "[a reply of a kind this example does not know]"),
            };
            let read = served.read;
            eprintln!(
                "read: skill {} ({}) path {:?}, {} bytes, sha256 {}",
                read.name, read.location, read.path, read.bytes, read.sha256
            );
            shown.map(|()| true)
        }
        // A host returns this text to the model as the tool's error.
        Err(error) => writeln!(out, "error: {error}").map(|()| false),
    };
    match written.and_then(|ok| out.flush().map(|()| ok)) {
        Ok(ok) => ok,
        Err(error) => {
            eprintln!("error: cannot write to standard output: {error}");
            false
        }
    }
}

fn main() -> ExitCode {
    let catalog = match SKILLS.catalog() {
        Ok(catalog) => catalog,
        Err(error) => {
            eprintln!("error: the embedded skills do not decode: {error}");
            return ExitCode::FAILURE;
        }
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        let tool = catalog.tool_definition();
        println!("{}\n", catalog.system_prompt());
        println!(
            "tool {}: {}\nparameters: {}",
            tool.name, tool.description, tool.parameters
        );
        return ExitCode::SUCCESS;
    }
    let mut ok = true;
    for arg in &args {
        if arg == "-" {
            for line in std::io::stdin().lock().lines() {
                match line {
                    Ok(line) if line.trim().is_empty() => {}
                    Ok(line) => ok &= answer(catalog, &line, &mut std::io::stdout().lock()),
                    Err(error) => {
                        eprintln!("error: cannot read standard input: {error}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        } else {
            ok &= answer(catalog, arg, &mut std::io::stdout().lock());
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 40, item 7: a 10 MB name comes back as a short error, the
    /// skills' names whole.
    #[test]
    fn a_huge_name_gets_a_short_error() {
        let catalog = SKILLS.catalog().unwrap();
        let call = format!("{{\"name\": \"{}\"}}", "x".repeat(10_000_000));
        let mut out = Vec::new();
        assert!(!answer(catalog, &call, &mut out));
        let text = String::from_utf8(out).unwrap();
        assert!(text.len() < 1500, "{} bytes", text.len());
        assert!(text.starts_with("error: unknown skill \"xxx"), "{text}");
        assert!(text.contains("more bytes)"), "{text}");
        assert!(text.contains("pdf-forms"), "{text}");
    }

    /// Issue 40, item 8: the build.rs route the documentation shows in two
    /// halves (`Builder::new().source("skills").emit()` in build.rs, then
    /// `include_bundle!("skills.bin")`) is this program's, which the tests
    /// build and serve from: each half, wherever the docs show it, is the
    /// line this example compiles.
    #[test]
    fn the_documented_build_route_is_this_example() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let build_rs = include_str!("../build.rs");
        let main_rs = include_str!("main.rs");
        let emit = "skills_build::Builder::new().source(\"skills\").emit();";
        let include = "::include_bundle!(\"skills.bin\");";
        assert!(build_rs.contains(emit));
        assert!(main_rs.contains(&format!("skills_runtime{include}")));
        for doc in [
            "README.md",
            "docs/embedding.md",
            "skills-build/src/lib.rs",
            "skills-build/src/builder.rs",
            "skills-core/src/lib.rs",
        ] {
            let text = std::fs::read_to_string(format!("{root}/{doc}")).unwrap();
            let shown: Vec<&str> = text
                .lines()
                .filter(|line| line.contains("include_bundle!(\""))
                .collect();
            assert!(!shown.is_empty(), "{doc} shows no include_bundle! half");
            for line in shown {
                // The runtime's macro is skills-core's, re-exported.
                assert!(
                    line.contains(&format!("skills_runtime{include}"))
                        || line.contains(&format!("skills_core{include}"))
                        || line.contains("include_bundle!(\"agent-skills.bin\")"),
                    "{doc}: {line}"
                );
            }
            // A build.rs half shown as such ("// build.rs" on its own, or
            // "// build.rs, in `fn main`:").
            if text.contains("// build.rs\n") || text.contains("// build.rs, in") {
                assert!(
                    text.contains(emit),
                    "{doc}: its build.rs half is not {emit}"
                );
            }
        }
    }
}
