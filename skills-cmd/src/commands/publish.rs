//! `publish --well-known DIR SRC...`: the well-known discovery index of
//! skills, with its artifacts, under DIR.

use std::path::Path;

use skills_build::unstable::discover::Listing;

use crate::gate;
use crate::gate::SOURCES;
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Opt};
use crate::well_known::publish::{ArchiveFormat, Skill, tree, write_tree};
use crate::well_known::{INDEX_DIR, INDEX_FILE};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "publish",
    summary: "Publish skills as a well-known discovery index (0.2.0) under a folder.",
    about: "Checks each SRC as `check` does (nothing is written when one has errors), then writes DIR/.well-known/agent-skills/index.json with one entry per skill, sorted by name: a skill that is one file as type skill-md (NAME/SKILL.md), any other as an archive holding its files at the root (NAME.tar.gz, or NAME.zip with --archive zip), each with the SHA-256 of the exact bytes written. Archives are deterministic (sorted entries, fixed dates and owners, modes 0644 or 0755), so the same skills give the same bytes. --legacy writes the 0.1 layout too (DIR/.well-known/skills/index.json and each file under NAME/) for older clients. Files already in DIR that this run does not write are left as they are; a folder on the way that is a symbolic link is refused. Serve DIR with `skills mcp --http ADDR --well-known DIR`, and check it with `skills verify --well-known DIR|URL`.",
    exit_codes: &[
        (0, "Published"),
        (
            1,
            "A source has errors (or warnings with --deny-warnings), or DIR could not be written",
        ),
        (2, "Usage error"),
    ],
    args: &[SOURCES],
    options: &[
        &[
            Opt::value(
                "--well-known",
                "DIR",
                "The folder to publish under (required).",
            ),
            Opt::choice(
                "--archive",
                &["tar.gz", "zip"],
                "The archive for skills of more than one file (default tar.gz).",
            ),
            Opt::flag(
                "--legacy",
                "Also write the 0.1 layout under .well-known/skills/.",
            ),
        ],
        gate::REPORT,
        &[gate::EXTENSIONS, gate::EXCLUDE],
        gate::READ,
    ],
    run,
};

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let Some(dir) = call.option("--well-known") else {
        return COMMAND.usage_error("Missing option '--well-known'.");
    };
    if call.args.is_empty() {
        return COMMAND.usage_error("Missing argument 'SRC...'.");
    }
    let builder = match gate::builder(call) {
        Ok(builder) => builder,
        Err(message) => return COMMAND.usage_error(&message),
    };
    let format = match call.option("--archive") {
        Some("zip") => ArchiveFormat::Zip,
        _ => ArchiveFormat::TarGz,
    };
    let deny = call.flag("--deny-warnings");
    let (outcome, found) = skills_build::unstable::run_keeping_skills(&builder);
    let failed = outcome.failed(deny);
    if failed {
        let summary = gate::summary("checked", &outcome, failed, deny);
        gate::print("publish", call, &outcome, failed, &summary, Vec::new());
        return 1;
    }
    let mut skills = Vec::new();
    for skill in found
        .iter()
        .filter(|s| matches!(s.listing, Listing::Listed(_)))
    {
        match Skill::of(skill) {
            Ok(skill) => skills.push(skill),
            Err(message) => {
                write(Stream::Err, &format!("error: {message}\n"));
                return 1;
            }
        }
    }
    let published = match tree(&skills, format, call.flag("--legacy")) {
        Ok(published) => published,
        Err(message) => {
            write(Stream::Err, &format!("error: {message}\n"));
            return 1;
        }
    };
    if let Err(message) = write_tree(Path::new(dir), &published.files) {
        write(Stream::Err, &format!("error: {message}\n"));
        return 1;
    }
    let index = Path::new(dir).join(INDEX_DIR).join(INDEX_FILE);
    let count = published.entries.len();
    let last = format!(
        "ok: published {count} skill{} in {} ({} files written)\n",
        if count == 1 { "" } else { "s" },
        index.display(),
        published.files.len()
    );
    let extra = vec![(
        "index".to_string(),
        skills_core::encoding::json::Json::Str(index.display().to_string()),
    )];
    gate::print("publish", call, &outcome, false, &last, extra);
    0
}
