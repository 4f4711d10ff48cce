//! `build SRC... -o FILE`: compile skills into a bundle file, through the
//! same pipeline as `check`, a build script's `Builder` and
//! `include_skills!`.

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
    about: "Each SRC is a skill folder (it holds SKILL.md), a folder of skill folders, or a .skill/.zip archive of either; a source with no skill is an error. Sources are searched in order: the first to offer a name wins it, and a later skill of that name is shadowed (a warning). Write a source as QUALIFIER=DIR to list such a skill as QUALIFIER:NAME instead.\n\nAny problem that is an error (or a warning, with --deny-warnings) fails the build, every problem is printed, and no file is written. With --keep-going the skills with errors are left out instead: every problem is printed, the valid skills are written, and FILE.report.json lists the skills left out and why.",
    exit_codes: &[
        (0, "Bundle written (warnings and notes allowed)"),
        (
            1,
            "Errors found, or warnings with --deny-warnings; nothing written",
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
