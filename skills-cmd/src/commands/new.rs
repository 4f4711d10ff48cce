//! `new NAME [DIR]`: a new skill folder, `DIR/NAME/SKILL.md`, valid, with
//! a placeholder description (which `check` refuses until it is replaced)
//! and a body to fill in.

use std::io::Write;
use std::path::Path;

use crate::canonical::{format, spelling};
use skills_build::diagnostic;
use skills_build::unstable::content::DESCRIPTION_PLACEHOLDER;
use skills_build::unstable::frontmatter;
use skills_build::unstable::validate::validate;

use crate::output::{Stream, write};
use crate::python::click::{Arg, CommandSpec, Invocation};

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "new",
    summary: "Create a skill folder with a SKILL.md to fill in.",
    about: "Writes DIR/NAME/SKILL.md (DIR defaults to the current directory): the name, a placeholder description to replace with what the skill does and when to use it, and a body skeleton. The file is in `skills fmt` form; `skills check` fails on the placeholder description (description-placeholder) until it is replaced. A NAME the validator refuses is refused with its message, and an existing folder is never touched.",
    exit_codes: &[(0, "Created"), (1, "Refused")],
    args: &[Arg {
        metavar: "NAME [DIR]",
        many: true,
        must_exist: false,
    }],
    options: &[],
    run,
};

/// The skill file for `name`, in canonical form.
fn skill_file(name: &str) -> Result<String, String> {
    let spelled = spelling(name).map_err(|e| e.to_string())?;
    let text = format!(
        "---\nname: {spelled}\ndescription: Says what the {name} skill does and when to use it. {DESCRIPTION_PLACEHOLDER}, such as \"Fills PDF forms from a JSON file. Use when the user asks to fill in a PDF form.\"\n---\n\n# {name}\n\n## When to use\n\n- The situations this skill is for, and the ones it is not.\n\n## Instructions\n\n1. The first step.\n2. The next step.\n\n## Files\n\nName the files beside this one that the steps use (`scripts/`, `references/`,\n`assets/`), so they are read only when needed.\n"
    );
    let canonical = format(text.as_bytes()).map_err(|e| e.to_string())?;
    String::from_utf8(canonical).map_err(|e| e.to_string())
}

fn refuse(text: &str) -> i32 {
    write(Stream::Err, text);
    1
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let (name, dir) = match call.args.as_slice() {
        [name] => (name.as_str(), "."),
        [name, dir] => (name.as_str(), dir.as_str()),
        _ => {
            return COMMAND
                .usage_error("Got unexpected extra arguments; give a NAME and at most one DIR.");
        }
    };
    let text = match skill_file(name) {
        Ok(text) => text,
        Err(error) => {
            return refuse(&format!(
                "error: cannot write a skill named {name:?}: {error}\n"
            ));
        }
    };
    // The validator's verdict on the file as it would be written, in the
    // folder it would be written to.
    let problems = match frontmatter::parse(text.as_bytes()) {
        Ok(doc) => validate(&doc, name),
        Err(error) => return refuse(&format!("error: {error}\n")),
    };
    let folder = Path::new(dir).join(name);
    let errors: Vec<_> = problems.iter().filter(|p| p.is_error()).collect();
    if !errors.is_empty() {
        let mut out = diagnostic::render_all(errors);
        out.push_str(&format!("error: {} was not created\n", folder.display()));
        return refuse(&out);
    }
    match crate::atomic::Found::at(&folder) {
        Ok(crate::atomic::Found::Nothing) => {}
        Ok(found) => {
            return refuse(&format!(
                "error: {} already exists ({}); nothing was written\n",
                folder.display(),
                found.describe()
            ));
        }
        Err(error) => {
            return refuse(&format!(
                "error: cannot create {}: {error}\n",
                folder.display()
            ));
        }
    }
    if let Err(error) = std::fs::create_dir_all(&folder) {
        return refuse(&format!(
            "error: cannot create {}: {error}\n",
            folder.display()
        ));
    }
    let file = folder.join("SKILL.md");
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&file)
        .and_then(|mut out| out.write_all(text.as_bytes()));
    if let Err(error) = written {
        let _ = std::fs::remove_file(&file);
        let _ = std::fs::remove_dir(&folder);
        return refuse(&format!(
            "error: cannot write {}: {error}\n",
            file.display()
        ));
    }
    write(
        Stream::Err,
        &format!(
            "created {}: fill in its description and body, then run `skills check {}`\n",
            file.display(),
            folder.display()
        ),
    );
    0
}
