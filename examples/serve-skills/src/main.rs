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

use std::io::BufRead;
use std::process::ExitCode;

use skills_runtime::{Catalog, Embedded, Reply};

/// The bundle `build.rs` wrote into `OUT_DIR`.
static SKILLS: Embedded = skills_runtime::include_bundle!("skills.bin");

/// Answers one call: the reply on stdout, the read record on stderr, or
/// the error text the model would get. Returns whether the call succeeded.
fn answer(catalog: &Catalog<'_>, arguments: &str) -> bool {
    match catalog.call_json(arguments) {
        Ok(served) => {
            match served.reply {
                Reply::Text(text) => print!("{text}"),
                Reply::Image(image) => println!(
                    "[image {}, {} bytes]\n{}",
                    image.media_type,
                    image.bytes.len(),
                    image.data_url()
                ),
                // `Reply` is non-exhaustive: a later release may add kinds.
                _ => println!("[a reply of a kind this example does not know]"),
            }
            let read = served.read;
            eprintln!(
                "read: skill {} ({}) path {:?}, {} bytes, sha256 {}",
                read.name, read.location, read.path, read.bytes, read.sha256
            );
            true
        }
        Err(error) => {
            // A host returns this text to the model as the tool's error.
            println!("error: {error}");
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
                    Ok(line) => ok &= answer(catalog, &line),
                    Err(error) => {
                        eprintln!("error: cannot read standard input: {error}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        } else {
            ok &= answer(catalog, arg);
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
