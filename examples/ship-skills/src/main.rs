//! A CLI that carries a skill about itself and installs it into the coding
//! agents its users run: `ship-skills skill install` (then `status`,
//! `uninstall`, `list`), through the `clap` feature of skills-runtime.
//!
//! ```text
//! $ ship-skills skill install --dry-run
//! $ ship-skills skill install --agent cursor --scope user
//! $ ship-skills skill status
//! ```

use clap::{Parser, Subcommand};
use skills_runtime::Embedded;
use skills_runtime::install::{Installer, SkillCommand};

/// The skills this tool ships: validated at compile time, embedded.
static SKILLS: Embedded = skills_runtime::include_skills!("../../testdata/skills");

/// A tool that ships Agent Skills inside its binary.
#[derive(Debug, Parser)]
#[command(name = "ship-skills", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Install this tool's skills where coding agents read them.
    #[command(subcommand)]
    Skill(SkillCommand),
    /// Print the system prompt that lists the skills.
    Prompt,
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Skill(command) => Installer::new(&SKILLS)
            .tool_name("ship-skills")
            .version(env!("CARGO_PKG_VERSION"))
            .run_command(&command),
        Command::Prompt => match SKILLS.catalog() {
            Ok(catalog) => {
                println!("{}", catalog.system_prompt());
                0
            }
            Err(error) => {
                eprintln!("error: {error}");
                1
            }
        },
    };
    std::process::exit(code);
}
