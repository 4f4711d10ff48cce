//! `extract BUNDLE DIR`: every skill of a bundle file back as folders, byte
//! for byte, by the installer's writer (`skills_install`).

use std::path::Path;

use skills_install::Installer;

use crate::output::{Stream, write};
use crate::python::click::{Arg, CommandSpec, Invocation};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "extract",
    summary: "Write a bundle's skills back as folders.",
    about: "Every skill of BUNDLE (a file written by `skills build`) becomes DIR/NAME, with its skill file under the name it was read from and every file byte for byte (scripts executable). DIR is created when missing; a skill folder that is already there stops the command before anything is written.",
    exit_codes: &[
        (0, "Extracted"),
        (1, "The bundle cannot be read, or a folder is in the way"),
    ],
    args: &[
        Arg {
            metavar: "BUNDLE",
            many: false,
            must_exist: true,
        },
        Arg {
            metavar: "DIR",
            many: false,
            must_exist: false,
        },
    ],
    options: &[],
    run,
};

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let [bundle, dir] = call.args.as_slice() else {
        return 2;
    };
    // DIR is followed where it leads; what it leads to must be a folder
    // or nothing (a file or a device there is named, not written into).
    let found = skills_build::unstable::real_path::canonicalize(dir)
        .map_or(Ok(crate::atomic::Found::Nothing), |real| {
            crate::atomic::Found::at(&real)
        });
    match found {
        Ok(crate::atomic::Found::Nothing | crate::atomic::Found::Directory) => {}
        Ok(found) => {
            write(
                Stream::Err,
                &format!(
                    "error: cannot extract into {dir}: it is {}, not a folder; nothing was written\n",
                    found.describe()
                ),
            );
            return 1;
        }
        Err(error) => {
            write(
                Stream::Err,
                &format!("error: cannot extract into {dir}: {error}\n"),
            );
            return 1;
        }
    }
    let bytes = match crate::targets::read_file(bundle, 1) {
        Ok(bytes) => bytes,
        Err(code) => return code,
    };
    let catalog = match crate::targets::decode(&bytes, bundle, 1) {
        Ok(catalog) => catalog,
        Err(code) => return code,
    };
    match Installer::new(&catalog).extract(Path::new(dir)) {
        Ok(folders) => {
            let text: String = folders
                .iter()
                .map(|folder| format!("{}\n", folder.display()))
                .collect();
            write(Stream::Out, &text);
            let n = folders.len();
            write(
                Stream::Err,
                &format!(
                    "ok: extracted {n} skill{} into {dir}\n",
                    if n == 1 { "" } else { "s" }
                ),
            );
            0
        }
        Err(error) => {
            write(Stream::Err, &format!("error: {error}\n"));
            1
        }
    }
}
