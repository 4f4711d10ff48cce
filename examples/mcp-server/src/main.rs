//! The smallest program that turns a skills folder into an MCP server.
//!
//! The skills are validated and embedded at compile time; the binary reads
//! nothing from disk and serves them on stdin and stdout to any MCP host:
//! the Skills extension's resources, `skills/list` and `skills/get`, and
//! the `skill` tool. Register the built binary in the host's MCP
//! configuration (see the README).
//!
//! ```text
//! cargo build --release -p mcp-server    # target/release/mcp-server
//! ```

use skills_runtime::Embedded;

// In your own crate: `include_skills!("skills")`, relative to Cargo.toml.
static SKILLS: Embedded = skills_runtime::include_skills!("../../testdata/skills");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let catalog = SKILLS.catalog()?;
    skills_mcp_server::serve_stdio(catalog, Default::default())?;
    Ok(())
}
