//! The shortest path from `cargo new` to a served tool call.
//!
//! `include_skills!` validates every skill at compile time (an invalid one
//! is a compile error naming the file and line) and embeds them. At run
//! time nothing is read from disk.
//!
//! ```text
//! cargo run -p hello-skills                                  # prompt, tool, one call
//! cargo run -p hello-skills -- '{"name":"pdf-forms","path":"reference.md"}'
//! ```

use skills_runtime::{Embedded, Reply};

// In your own crate: `include_skills!("skills")`, relative to Cargo.toml.
static SKILLS: Embedded = skills_runtime::include_skills!("../../testdata/skills");

fn main() -> std::process::ExitCode {
    let catalog = match SKILLS.catalog() {
        Ok(catalog) => catalog,
        Err(error) => {
            eprintln!("the embedded skills do not decode: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let call = std::env::args().nth(1);
    if call.is_none() {
        // What the model sees: the system prompt and the tool it may call.
        println!("{}\n", catalog.system_prompt());
        let tool = catalog.tool_definition();
        println!(
            "tool: {}\n{}\n{}\n",
            tool.name, tool.description, tool.parameters
        );
    }
    let arguments = call.unwrap_or_else(|| r#"{"name":"git-rebase"}"#.to_string());
    println!("call: {arguments}");
    match catalog.call_json(&arguments) {
        Ok(served) => {
            match served.reply {
                Reply::Text(text) => println!("{text}"),
                Reply::Image(image) => {
                    println!("[image {}, {} bytes]", image.media_type, image.bytes.len())
                }
                // `Reply` is non-exhaustive: a later release may add kinds.
                _ => println!("[a reply of a kind this example does not know]"),
            }
            // A call without a path reads the skill's instructions: the
            // record's path is empty then, and the line names the skill alone.
            let read = &served.read;
            let what = match read.path {
                "" => read.name.to_string(),
                path => format!("{} {path}", read.name),
            };
            println!(
                "read: {what} ({} bytes, sha256 {})",
                read.bytes, read.sha256
            );
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
