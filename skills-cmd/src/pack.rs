//! `pack DIR [-o FILE]`: a `.skill` archive of a skill folder.

use std::path::{Path, PathBuf};

use crate::packing::pack;
use skills_build::diagnostic;

use crate::output::{Stream, write};
use crate::python::click::{CommandSpec, Invocation, Param};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "pack",
    short_help: "Write a .skill archive of a skill folder.",
    help: "  Write a .skill archive of a skill folder.\n\n  The archive holds the folder's files as FOLDER/PATH, deflated, as the Claude\n  packager writes them, without __pycache__, node_modules, *.pyc and\n  .DS_Store. Entries are sorted and timestamps fixed, so the same folder\n  gives the same bytes. A folder that fails `skills check` is refused and\n  nothing is written.\n\n  Exit codes:     0: Archive written     1: The folder has errors",
    options_help: &["  -o, --output FILE  Where to write (default: ./FOLDER.skill)."],
    params: &[
        Param::Arg {
            metavar: "DIR",
            many: false,
            must_exist: true,
        },
        Param::Opt {
            long: "-o",
            choices: &[],
        },
        Param::Opt {
            long: "--output",
            choices: &[],
        },
    ],
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
                .or_else(|| call.option("-o"))
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(format!("{}.skill", packed.folder)));
            let mut text = diagnostic::render_all(&packed.warnings);
            if let Err(error) = crate::atomic::write(&output, &packed.bytes) {
                text.push_str(&format!(
                    "error: cannot write {}: {error}\n",
                    output.display()
                ));
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
