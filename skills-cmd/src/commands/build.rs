//! `build SRC... -o FILE`: compile skills into a bundle file, through the
//! same pipeline as `check`, a build script's `Builder` and
//! `include_skills!`; with `--check`, whether FILE (a bundle committed
//! beside a program's code) is what the sources compile to.

use crate::gate;
use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Opt};
use skills_core::encoding::json::{Json, Style};

/// `-o, --output FILE`.
const OUTPUT: Opt =
    Opt::value(
    "--output",
    "FILE",
    "Where to write the bundle (required): a file is replaced whole, a device such as /dev/null or a named pipe written through; a directory is refused.",
)
.short("-o");

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "build",
    summary: "Compile skills into a bundle file.",
    about: "Each SRC is a skill folder (it holds SKILL.md) a folder of skill folders, or a .skill/.zip archive of either; a source with no skill is an error. Sources are searched in order: the first to offer a name wins it, and a later skill of that name is shadowed (a warning). Write a source as QUALIFIER=DIR to list such a skill as QUALIFIER:NAME instead.\n\nAny problem that is an error (or a warning, with --deny-warnings) fails the build, every problem is printed, and no file is written. With --keep-going the skills with errors are left out instead: every problem is printed, the valid skills are written, and FILE.report.json lists the skills left out and why.\n\nWith --check nothing is written: the sources are compiled and compared with FILE, a bundle committed beside a program's code and embedded with Embedded::new(include_bytes!(..)), so that CI or a pre-commit hook fails when it is missing or stale (docs/embedding.md).",
    exit_codes: &[
        (
            0,
            "Bundle written (warnings and notes allowed); with --check, FILE is current",
        ),
        (
            1,
            "Errors found, or warnings with --deny-warnings; nothing written. With --check, also FILE missing or stale",
        ),
        (
            3,
            "--keep-going: bundle written, but skills left out (or warnings denied)",
        ),
    ],
    args: &[gate::SOURCES],
    options: &[
        &[
            OUTPUT,
            Opt::value(
                "--location-base",
                "BASE",
                "Print locations as BASE/DIR/SKILL.md instead of skill://NAME/SKILL.md.",
            ),
        ],
        gate::REPORT,
        &[gate::EXTENSIONS, gate::EXCLUDE],
        gate::READ,
        &[
            Opt::flag(
                "--keep-going",
                "Leave out the skills with errors, write the rest and FILE.report.json (exit 3 when any was left out).",
            ),
            Opt::value(
                "--threads",
                "N",
                "Threads that read, validate and compile (default: every core; the bundle is the same for any N).",
            ),
            Opt::flag(
                "--check",
                "Write nothing: exit 1 unless FILE holds exactly the bundle the sources compile to, saying what differs.",
            ),
        ],
    ],
    run,
};

/// The exit status of a `--keep-going` build that wrote a bundle but found
/// problems.
pub const EXIT_KEPT_GOING: i32 = 3;

/// Where `--keep-going` writes its report: beside the bundle.
pub fn report_path(output: &str) -> String {
    format!("{output}.report.json")
}

fn usage_error(message: &str) -> i32 {
    COMMAND.usage_error(message)
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let Some(output) = call.option("--output") else {
        return usage_error("Missing option '-o' / '--output'.");
    };
    let mut builder = match gate::builder(call) {
        Ok(builder) => builder,
        Err(message) => return usage_error(&message),
    };
    let keep_going = call.flag("--keep-going");
    if let Some(threads) = call.option("--threads") {
        match threads.parse::<usize>() {
            Ok(threads) if threads > 0 => builder = builder.threads(threads),
            _ => {
                return usage_error(&format!(
                    "Invalid value for '--threads': {threads:?} is not a positive number."
                ));
            }
        }
    }
    let deny = call.flag("--deny-warnings");
    if call.flag("--check") {
        if keep_going {
            return usage_error(
                "--check compares FILE with a build that leaves nothing out; drop --keep-going.",
            );
        }
        return check(call, &builder, output, deny);
    }
    // What is at the output decides how it is written (a regular file is
    // replaced, /dev/null written through, a directory refused), before
    // anything is compiled.
    let destination = match crate::atomic::Output::resolve(std::path::Path::new(output)) {
        Ok(destination) => destination,
        Err(error) => {
            write(Stream::Err, &format!("error: {error}\n"));
            return 1;
        }
    };
    if keep_going && destination.is_through() {
        return usage_error(&format!(
            "--keep-going writes {} beside the bundle, and {output} is not a file; give a file path.",
            report_path(output)
        ));
    }
    let staged = match destination.stage() {
        Ok(staged) => staged,
        Err(error) => {
            write(
                Stream::Err,
                &format!("error: cannot write {output}: {error}\n"),
            );
            return 1;
        }
    };
    let mut progress = crate::progress::Progress::on_stderr();
    // The bundle streams into a file beside the output as it is compiled,
    // and is put in place only when the build is not refused.
    let mut outcome = builder
        .keep_going(keep_going)
        .run_to_file(&staged.path, &mut |read| progress.update(read))
        .map_bundle(Some);
    progress.finish();
    let mut failed = outcome.failed(deny);
    // What was written: the bundle's size and how many skills it lists.
    let mut written: Option<(u64, usize)> = None;
    let mut write_error = None;
    let streamed = match (failed && !keep_going, &mut outcome.result) {
        (false, Ok(compiled)) => compiled.bytes.take(),
        _ => None,
    };
    if let Some(bundle) = streamed {
        let (len, listed) = (bundle.len(), bundle.skills());
        let wrote = destination
            .finish(&staged, || bundle.persist())
            .map_err(|error| format!("cannot write {output}: {error}"))
            .and_then(|()| match keep_going {
                true => {
                    let report = crate::report::keep_going(&outcome, output, listed);
                    let text = report.to_text(Style::indented(2)) + "\n";
                    crate::atomic::write(report_path(output).as_ref(), text.as_bytes())
                        .map_err(|error| error.to_string())
                }
                false => Ok(()),
            });
        match wrote {
            Ok(()) => written = Some((len, listed)),
            Err(error) => {
                write_error = Some(format!("error: {error}\n"));
                failed = true;
            }
        }
    }
    let last = match (&written, &write_error) {
        (Some((len, listed)), _) => {
            let dropped = outcome.dropped().len();
            format!(
                "{}: wrote {output}: {listed} skill{}, {len} bytes ({}){}\n",
                if failed { "error" } else { "ok" },
                if *listed == 1 { "" } else { "s" },
                skills_build::diagnostic::count(outcome.problems()),
                match keep_going {
                    true => format!(
                        "; {dropped} skill{} left out, listed in {}",
                        if dropped == 1 { "" } else { "s" },
                        report_path(output)
                    ),
                    false => String::new(),
                }
            )
        }
        (None, Some(error)) => error.clone(),
        (None, None) => {
            let summary = gate::summary("found", &outcome, failed, deny);
            format!(
                "error: no bundle written: {}",
                summary.strip_prefix("error: ").unwrap_or(&summary)
            )
        }
    };
    let mut extra = vec![
        (
            "output".to_string(),
            written.map_or(Json::Null, |_| Json::Str(output.to_string())),
        ),
        (
            "bytes".to_string(),
            written.map_or(Json::Null, |(len, _)| {
                Json::Int(i64::try_from(len).unwrap_or(i64::MAX))
            }),
        ),
    ];
    if keep_going {
        extra.push(("dropped".to_string(), crate::report::dropped(&outcome)));
    }
    gate::print("build", call, &outcome, failed, &last, extra);
    match (failed, written.is_some()) {
        (false, _) => 0,
        (true, true) => EXIT_KEPT_GOING,
        (true, false) => 1,
    }
}

/// What `--check` found FILE to be.
#[derive(Debug, PartialEq, Eq)]
enum Freshness {
    /// FILE holds the bundle the sources compile to, byte for byte.
    Current,
    /// There is no FILE.
    Missing,
    /// FILE could not be read.
    Unreadable(String),
    /// FILE differs from the bundle the sources compile to: what differs.
    Stale(String),
}

impl Freshness {
    /// The word `--format json` reports as `check`.
    fn as_str(&self) -> &'static str {
        match self {
            Freshness::Current => "current",
            Freshness::Missing => "missing",
            Freshness::Unreadable(_) => "unreadable",
            Freshness::Stale(_) => "stale",
        }
    }
}

/// Whether `committed` (the bytes at `path`) is `compiled`, and if not,
/// what differs, skill by skill where both decode.
fn freshness(compiled: &[u8], path: &std::path::Path) -> Freshness {
    let committed = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Freshness::Missing,
        Err(error) => return Freshness::Unreadable(error.to_string()),
    };
    if committed == compiled {
        return Freshness::Current;
    }
    Freshness::Stale(difference(compiled, &committed))
}

/// What differs between the bundle the sources compile to and the
/// committed one, in words: the skills changed, added and removed, else
/// the records around them.
fn difference(compiled: &[u8], committed: &[u8]) -> String {
    use skills_core::Catalog;
    let old = match Catalog::from_bytes(committed) {
        Ok(old) => old,
        Err(error) => {
            return format!(
                "it is not a bundle this version reads ({error}), and the sources compile to format {}",
                skills_core::FORMAT_VERSION
            );
        }
    };
    let Ok(new) = Catalog::from_bytes(compiled) else {
        return "the sources compile to other bytes".to_string();
    };
    let mut changed = Vec::new();
    let mut added = Vec::new();
    for skill in new.skills() {
        match old.lookup(skill.name) {
            Some(before) if before == skill => {}
            Some(_) => changed.push(skill.name),
            None => added.push(skill.name),
        }
    }
    let removed: Vec<&str> = old
        .names()
        .filter(|name| new.lookup(name).is_none())
        .collect();
    let mut parts = Vec::new();
    for (names, what) in [(changed, "changed"), (added, "added"), (removed, "removed")] {
        if !names.is_empty() {
            parts.push(format!(
                "{} {what} ({})",
                skills_noun(names.len()),
                listed(&names)
            ));
        }
    }
    if parts.is_empty() {
        return "its skills are the sources' skills, but the records around them differ (the options, such as --location-base, or the signatures)".to_string();
    }
    parts.join(", ")
}

/// `1 skill`, `3 skills`.
fn skills_noun(count: usize) -> String {
    format!("{count} skill{}", if count == 1 { "" } else { "s" })
}

/// Up to five names, then how many more.
fn listed(names: &[&str]) -> String {
    const SHOWN: usize = 5;
    let mut text = names[..names.len().min(SHOWN)].join(", ");
    if names.len() > SHOWN {
        text.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    text
}

/// `--check`: compiles the sources in memory and compares the bundle with
/// `output`, writing nothing. Exit 0 when it is current, else 1 with what
/// differs (or the problems that kept the sources from compiling).
fn check(call: &Invocation, builder: &skills_build::Builder, output: &str, deny: bool) -> i32 {
    let mut progress = crate::progress::Progress::on_stderr();
    let outcome = builder.run_with_progress(&mut |read| progress.update(read));
    progress.finish();
    let failed = outcome.failed(deny);
    let freshness = match (&outcome.result, failed) {
        (Ok(compiled), false) => Some(freshness(&compiled.bytes, std::path::Path::new(output))),
        _ => None,
    };
    let rebuild =
        format!("run the same `skills build` without --check to write it, and commit {output}");
    let last = match &freshness {
        Some(Freshness::Current) => format!(
            "ok: {output} is current: {}, {} bytes ({})\n",
            skills_noun(outcome.skills),
            std::fs::metadata(output).map_or(0, |meta| meta.len()),
            skills_build::diagnostic::count(outcome.problems())
        ),
        Some(Freshness::Missing) => {
            format!("error: {output} does not exist; {rebuild}\n")
        }
        Some(Freshness::Unreadable(error)) => {
            format!("error: cannot read {output}: {error}\n")
        }
        Some(Freshness::Stale(what)) => format!(
            "error: {output} is stale: it is not what the sources compile to: {what}; {rebuild}\n"
        ),
        None => {
            let summary = gate::summary("found", &outcome, failed, deny);
            format!(
                "error: nothing compared with {output}: {}",
                summary.strip_prefix("error: ").unwrap_or(&summary)
            )
        }
    };
    let current = freshness == Some(Freshness::Current);
    let extra = vec![
        ("output".to_string(), Json::Str(output.to_string())),
        (
            "check".to_string(),
            freshness
                .as_ref()
                .map_or(Json::Null, |found| Json::Str(found.as_str().to_string())),
        ),
    ];
    gate::print("build", call, &outcome, !current, &last, extra);
    if current { 0 } else { 1 }
}

#[cfg(test)]
mod tests {
    use crate::gate::split_source;

    #[test]
    fn qualifier_syntax() {
        assert_eq!(split_source("team=x/skills"), (Some("team"), "x/skills"));
        assert_eq!(split_source("a/b=c"), (None, "a/b=c"));
        assert_eq!(split_source("skills"), (None, "skills"));
    }
}
