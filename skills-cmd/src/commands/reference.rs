//! `validate`, `read-properties` and `to-prompt`: the reference command
//! line's three commands, with its output byte for byte.

use std::path::{Path, PathBuf};

use crate::properties::Properties;
use crate::skill_dir;
use skills_build::problem::Rule;
use skills_build::unstable::frontmatter::{self, Metadata};
use skills_core::features::prompt::{PromptEntry, render_available_skills};

use crate::output::{Stream, echo};
use crate::python::click::{Arg, CommandSpec, Invocation};
use skills_core::encoding::json::{Json, Style};
use skills_pycompat::pathlib::PyPath;

const SKILL_PATH: Arg = Arg {
    metavar: "SKILL_PATH",
    many: false,
    must_exist: true,
};

/// The three commands as the reference declares them: under the drop-in
/// name their help is the reference's, byte for byte (`testdata/reference/
/// cli-help-*`).
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "validate",
        summary: "Validate a skill directory.",
        about: "Checks that the skill has a valid SKILL.md with proper frontmatter, correct naming conventions, and required fields.",
        exit_codes: &[(0, "Valid skill"), (1, "Validation errors found")],
        args: &[SKILL_PATH],
        options: &[],
        run: |call| validate(&call.args[0]),
    },
    CommandSpec {
        name: "read-properties",
        summary: "Read and print skill properties as JSON.",
        about: "Parses the YAML frontmatter from SKILL.md and outputs the properties as JSON.",
        exit_codes: &[(0, "Success"), (1, "Parse error")],
        args: &[SKILL_PATH],
        options: &[],
        run: |call| read_properties(&call.args[0]),
    },
    CommandSpec {
        name: "to-prompt",
        summary: "Generate <available_skills> XML for agent prompts.",
        about: "Accepts one or more skill directories.",
        exit_codes: &[(0, "Success"), (1, "Error")],
        args: &[Arg {
            metavar: "SKILL_PATHS...",
            many: true,
            must_exist: true,
        }],
        options: &[],
        run: |call: &Invocation| to_prompt(&call.args),
    },
];

/// `validate SKILL_PATH`.
pub fn validate(arg: &str) -> i32 {
    let path = PyPath::new(arg).skill_dir();
    let errors: Vec<String> = skill_dir::validate_dir(&path.to_path())
        .into_iter()
        .filter(|p| p.is_error() && p.rule() == Rule::Reference)
        .map(|p| p.message)
        .collect();
    if errors.is_empty() {
        echo(Stream::Out, &format!("Valid skill: {path}"));
        return 0;
    }
    echo(Stream::Err, &format!("Validation failed for {path}:"));
    for error in errors {
        echo(Stream::Err, &format!("  - {error}"));
    }
    1
}

/// A skill read the way `read-properties` and `to-prompt` read one.
struct Read {
    file: PathBuf,
    document: frontmatter::SkillDocument,
}

fn read(dir: &Path, shown: &str) -> Result<Read, String> {
    let file =
        skill_dir::find_skill_file(dir).ok_or_else(|| format!("SKILL.md not found in {shown}"))?;
    let bytes = skill_dir::read_skill_file(&file).map_err(|error| error.to_string())?;
    let document = frontmatter::parse(&bytes).map_err(|e| e.to_string())?;
    Ok(Read { file, document })
}

fn fail(message: &str) -> i32 {
    echo(Stream::Err, &format!("Error: {message}"));
    1
}

/// `read-properties SKILL_PATH`.
pub fn read_properties(arg: &str) -> i32 {
    let path = PyPath::new(arg).skill_dir();
    let skill = match read(&path.to_path(), &path.to_string()) {
        Ok(skill) => skill,
        Err(message) => return fail(&message),
    };
    let props = match Properties::read(&skill.document.frontmatter) {
        Ok(props) => props,
        Err(problem) => return fail(&problem.message),
    };
    let mut object = vec![
        ("name".to_string(), Json::Str(props.name.to_string())),
        (
            "description".to_string(),
            Json::Str(props.description.to_string()),
        ),
    ];
    for (key, value) in [
        ("license", props.license),
        ("compatibility", props.compatibility),
        ("allowed-tools", props.allowed_tools),
    ] {
        if let Some(value) = value {
            object.push((key.to_string(), crate::python::json::value_json(value)));
        }
    }
    if let Some(metadata) = &props.metadata {
        let json = match metadata {
            Metadata::Map(pairs) => Json::Object(
                pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::Str(v.clone())))
                    .collect(),
            ),
            Metadata::Other(value) => crate::python::json::value_json(value),
        };
        object.push(("metadata".to_string(), json));
    }
    echo(
        Stream::Out,
        &Json::Object(object).to_text(Style::indented(2)),
    );
    0
}

/// `to-prompt SKILL_PATHS...`.
pub fn to_prompt(args: &[String]) -> i32 {
    // (name, description, location) of each skill, in argument order.
    let mut listed: Vec<(String, String, String)> = Vec::with_capacity(args.len());
    for arg in args {
        let path = PyPath::new(arg).skill_dir().to_path();
        let dir = skills_build::unstable::real_path::canonicalize(&path)
            .or_else(|_| std::path::absolute(&path))
            .unwrap_or(path);
        let skill = match read(&dir, &dir.display().to_string()) {
            Ok(skill) => skill,
            Err(message) => return fail(&message),
        };
        match Properties::read(&skill.document.frontmatter) {
            Ok(props) => listed.push((
                props.name.to_string(),
                props.description.to_string(),
                skill.file.display().to_string(),
            )),
            Err(problem) => return fail(&problem.message),
        }
    }
    let entries = listed
        .iter()
        .map(|(name, description, location)| PromptEntry {
            name,
            description,
            location,
        });
    echo(Stream::Out, &render_available_skills(entries));
    0
}
