//! A program that ships built-in ("system") skills in its binary and
//! writes them, on every start, into a folder of its own:
//! `$APP_HOME/skills/.system/<name>/`, where its own loader (or a model's
//! file tools) reads them. This is what a coding agent's CLI does with
//! its system skills; here it is `include_skills!` plus
//! [`Installer::into_folder`](skills_runtime::install::Installer::into_folder),
//! in place of `include_dir!`, a marker file and hand-written copying.
//!
//! ```text
//! $ APP_HOME=/tmp/app system-skills          # writes (or refreshes) the skills, lists them
//! $ system-skills --app-home /tmp/app --replace
//! $ system-skills --app-home /tmp/app status
//! ```
//!
//! Every start: new and changed skills are written, skills this version
//! no longer carries are removed, a copy the user edited is kept and said
//! so once (with `--replace`: moved aside to `<name>.user-1/` first), a
//! start killed half way is finished or undone by the next, and a start
//! with nothing to do reads one record. Skills an earlier, marker-file
//! version of the program wrote are adopted where they hold exactly what
//! is embedded.

use std::path::PathBuf;
use std::process::ExitCode;

use skills_runtime::Embedded;
use skills_runtime::install::{Folder, FolderPolicy, Installer, Refreshed};

/// The program's built-in skills. Their notes, references, templates and
/// icons are found by the program's own loader and the model's file list,
/// not named in each SKILL.md, so the `file-unmentioned` note (one per such
/// file) is allowed by name.
static SKILLS: Embedded = skills_runtime::include_skills!("skills", allow = ["file-unmentioned"]);

/// The skills of the program's next release, for the example's upgrade
/// tests (`--next-release`): `skill-creator` revised, `release-notes`
/// dropped, the other four as they are.
static NEXT_RELEASE: Embedded = skills_runtime::include_skills!(
    "skills-v2",
    source = "skills/skill-installer",
    source = "skills/plan-review",
    source = "skills/image-notes",
    source = "skills/openai-docs",
    allow = ["file-unmentioned"]
);

/// What the command line asks for.
#[derive(Debug, Default)]
struct Options {
    app_home: Option<PathBuf>,
    replace: bool,
    next_release: bool,
    status: bool,
}

fn parse(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--app-home" => {
                let dir = args.next().ok_or("--app-home needs a folder")?;
                options.app_home = Some(PathBuf::from(dir));
            }
            "--replace" => options.replace = true,
            "--next-release" => options.next_release = true,
            "status" => options.status = true,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

/// `--app-home`, else `APP_HOME`, else `~/.system-skills`.
fn app_home(options: &Options) -> Result<PathBuf, String> {
    if let Some(dir) = &options.app_home {
        return Ok(dir.clone());
    }
    if let Some(dir) = std::env::var_os("APP_HOME") {
        return Ok(PathBuf::from(dir));
    }
    std::env::home_dir()
        .map(|home| home.join(".system-skills"))
        .ok_or_else(|| "no APP_HOME and no home directory".to_string())
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("system-skills: {message}");
            return ExitCode::from(2);
        }
    };
    let home = match app_home(&options) {
        Ok(home) => home,
        Err(message) => {
            eprintln!("system-skills: {message}");
            return ExitCode::from(2);
        }
    };
    let (skills, version) = match options.next_release {
        false => (&SKILLS, "1.0.0"),
        true => (&NEXT_RELEASE, "1.1.0"),
    };
    let policy = match options.replace {
        true => FolderPolicy::Replace,
        false => FolderPolicy::Keep,
    };
    let folder = Installer::new(skills)
        .tool_name("system-skills")
        .version(version)
        .into_folder(home.join("skills").join(".system"))
        .policy(policy);
    // The start: one line on stderr for what changed, said once.
    let outcome = match folder.refresh_to(&mut std::io::stderr()) {
        Ok(outcome) => outcome,
        Err(error) => {
            eprintln!("system-skills: the system skills were not refreshed: {error}");
            return ExitCode::FAILURE;
        }
    };
    if options.status {
        return print_status(&folder);
    }
    // The rest of the program: here, the skills its loader finds (from
    // the catalog: a start with nothing to do reads no installed file).
    let kept: Vec<&str> = match &outcome {
        Refreshed::Applied { kept, .. } => kept
            .iter()
            .filter(|kept| kept.aside.is_none())
            .map(|kept| kept.name.as_str())
            .collect(),
        _ => Vec::new(),
    };
    let Ok(catalog) = skills.catalog() else {
        eprintln!("system-skills: the embedded skills do not decode");
        return ExitCode::FAILURE;
    };
    for name in catalog.names() {
        let note = if kept.contains(&name) {
            "  (your edit, kept)"
        } else {
            ""
        };
        println!("{name}{note}");
    }
    ExitCode::SUCCESS
}

/// `status`: every skill in the folder and its state.
fn print_status(folder: &Folder<'_>) -> ExitCode {
    match folder.status() {
        Ok(status) => {
            for dir in &status.dirs {
                for skill in &dir.skills {
                    println!("{}  {}", skill.name, skill.state);
                }
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("system-skills: {error}");
            ExitCode::FAILURE
        }
    }
}
