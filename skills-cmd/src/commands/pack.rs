//! `pack DIR [-o FILE]`: a `.skill` archive of a skill folder.

use std::path::{Path, PathBuf};

use crate::packing::pack;
use skills_build::diagnostic;

use crate::output::{Stream, write};
use crate::python::click::{Arg, CommandSpec, Invocation, Opt};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "pack",
    summary: "Write a .skill archive of a skill folder.",
    about: "The archive holds the folder's files as FOLDER/PATH, deflated, as the Claude packager writes them, without __pycache__, node_modules, *.pyc and .DS_Store. Entries are sorted and timestamps fixed, so the same folder gives the same bytes. A folder that fails `skills check` is refused and nothing is written.",
    exit_codes: &[(0, "Archive written"), (1, "The folder has errors")],
    args: &[Arg {
        metavar: "DIR",
        many: false,
        must_exist: true,
    }],
    options: &[&[Opt::value(
        "--output",
        "FILE",
        "Where to write (default: ./FOLDER.skill).",
    )
    .short("-o")]],
    run,
};

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let Some(dir) = call.args.first() else {
        return 2;
    };
    match pack(Path::new(dir)) {
        Err(error) => {
            let what = format!("{dir} was not packed");
            write(Stream::Err, &diagnostic::failure(&error.problems, &what));
            1
        }
        Ok(packed) => {
            let output = call
                .option("--output")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(format!("{}.skill", packed.folder)));
            let mut text = crate::gate::render_quietly(
                &packed.warnings,
                false,
                &format!("skills check {dir}"),
            );
            if let Err(error) = crate::atomic::write(&output, &packed.bytes) {
                text.push_str(&format!("error: {error}\n"));
                write(Stream::Err, &text);
                return 1;
            }
            let files = packed.files.len();
            text.push_str(&format!(
                "packed {files} file{} of {} into {} ({} bytes)\n",
                if files == 1 { "" } else { "s" },
                packed.folder,
                output.display(),
                packed.bytes.len()
            ));
            write(Stream::Err, &text);
            0
        }
    }
}
