//! A CLI that carries a skill about itself and installs it into the coding
//! agents its users run: `ship-skills skill install` (then `status`,
//! `uninstall`, `list`), through the `clap` feature of skills-runtime.
//! Every other command first refreshes the copies it installed, so an
//! upgraded ship-skills brings its agents' skills up to date by itself.
//!
//! ```text
//! $ ship-skills skill install --dry-run
//! $ ship-skills skill install --agent cursor --scope user
//! $ ship-skills skill status --check
//! $ ship-skills prompt
//! ```

use clap::{Parser, Subcommand};
use skills_runtime::Embedded;
use skills_runtime::install::{Installer, SkillCommand};

/// The skills this tool ships: validated at compile time, embedded.
#[cfg(not(feature = "v2"))]
static SKILLS: Embedded = skills_runtime::include_skills!("../../testdata/skills");

/// The skills of the tool's second version (feature `v2`): `pdf-forms`
/// revised and `release-notes` new, then `git-rebase` as it was.
#[cfg(feature = "v2")]
static SKILLS: Embedded = skills_runtime::include_skills!(
    "../../testdata/skills-v2",
    source = "../../testdata/skills/git-rebase"
);

/// The folders the skills are built from, relative to this crate.
#[cfg(not(feature = "v2"))]
const SOURCES: &[&str] = &["../../testdata/skills"];
#[cfg(feature = "v2")]
const SOURCES: &[&str] = &[
    "../../testdata/skills-v2",
    "../../testdata/skills/git-rebase",
];

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
    let installer = Installer::new(&SKILLS)
        .tool_name("ship-skills")
        .version(env!("CARGO_PKG_VERSION"))
        // Run in its own repository, `skill install --agent all --force`
        // refuses an agent's folder that is one of these.
        .sources(
            SOURCES
                .iter()
                .map(|path| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)),
        );
    if !matches!(cli.command, Command::Skill(_)) {
        // The copies this tool installed, brought up to date when it was
        // upgraded (a copy the user edited is kept, and said so once);
        // never fails, and costs one read per scope when nothing changed.
        // `skill ...` itself shows and manages the copies as they are.
        installer.refresh();
    }
    let code = match cli.command {
        Command::Skill(command) => installer.run_command(&command),
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
