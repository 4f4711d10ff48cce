//! The rules a skill's frontmatter must follow.
//!
//! First the reference validator's checks, in its order and with its
//! wording, so that a skill it rejects is rejected here with the same
//! messages; then the specification's rules it does not check, as
//! problems of their own.

use crate::allowed_tools;
use crate::frontmatter::{Frontmatter, KNOWN_FIELDS, SkillDocument, shape};
use crate::printable::capped;
use crate::problem::{Code, Position, Problem};
use crate::rules::policy::Policy;
use crate::skill_name::{self, Flaw, MAX_NAME_CHARS};
use skills_core::text::pytext;
use skills_pycompat::unicode;
use skills_pycompat::yaml::{Entry, Value};

/// Longest description, in characters before stripping.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Longest compatibility note, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;
/// The body length past which the specification advises splitting a skill.
pub const ADVISED_MAX_BODY_LINES: usize = 500;

const START: Position = Position { line: 1, column: 1 };

/// Checks a skill file read from the directory named `dir_name` under a
/// [`Policy`]: the reference's checks first, in its order and wording, then
/// the specification's extra ones; they name their field and position but
/// not the file, which the caller knows. With `extensions`, agentskills-core's
/// extension fields `version`, `when_to_use` and `when_not_to_use` (checked
/// with its rules and wording, see [`crate::extension_fields`]) and a
/// `metadata.tags` list of strings are known keys (off by default: the
/// reference validator rejects them as unknown keys, and a skill that
/// passes here must pass there); the chosen hosts' fields are known keys,
/// type-checked with their rules (see [`crate::rules::hosts`]).
pub(crate) fn validate_with(doc: &SkillDocument, dir_name: &str, options: &Policy) -> Vec<Problem> {
    let fm = &doc.frontmatter;
    let hosts = options.hosts;
    let mut problems = Vec::new();
    let mut known = match options.extensions {
        true => crate::extension_fields::known_fields(),
        false => KNOWN_FIELDS.to_vec(),
    };
    if !hosts.is_empty() {
        known.extend(crate::rules::hosts::fields::read_keys(hosts));
        known.sort_unstable();
        known.dedup();
    }
    check_unknown_fields(fm, &known, hosts, &mut problems);
    check_name(fm, dir_name, &mut problems);
    check_description(fm, &mut problems);
    check_compatibility(fm, &mut problems);
    check_license(fm, &mut problems);
    check_metadata_with(fm, options, &mut problems);
    // The list form is the host's to check, when one reads it.
    if !crate::rules::hosts::fields::tools_list_read(fm, hosts) {
        check_allowed_tools(fm, &mut problems);
    }
    if options.extensions {
        let text_when_to_use = crate::rules::hosts::fields::when_to_use_text_read(fm, hosts);
        crate::extension_fields::check_fields(fm, text_when_to_use, &mut problems);
    }
    problems.extend(crate::rules::hosts::fields::check(
        doc,
        hosts,
        options.extensions,
    ));
    problems.extend(crate::rules::hosts::budget::entry(doc, hosts));
    problems.extend(crate::rules::hosts::sidecar::short_description(doc, hosts));
    check_body_length(doc, &mut problems);
    problems
}

fn at(entry: &Entry) -> Position {
    SkillDocument::position(entry.value.mark)
}

/// The reference's unknown-key check: one problem, at the first unknown
/// key, naming every unknown key (sorted) and the `known` ones (sorted, as
/// a Python list). The help line names the host that reads a key, or the
/// key a near miss meant ([`crate::rules::hosts::advice`]).
fn check_unknown_fields(
    fm: &Frontmatter,
    known: &[&str],
    hosts: crate::rules::hosts::Hosts,
    problems: &mut Vec<Problem>,
) {
    let mut unknown: Vec<&Entry> = fm
        .entries()
        .iter()
        .filter(|e| !known.contains(&e.key.as_str()))
        .collect();
    let Some(first) = unknown.first().copied() else {
        return;
    };
    unknown.sort_by(|a, b| a.key.cmp(&b.key));
    let names: Vec<&str> = unknown.iter().map(|e| e.key.as_str()).collect();
    problems.push(
        Problem::new(
            Code::UnknownField,
            format!(
                "Unexpected fields in frontmatter: {}. Only {} are allowed.",
                capped(&names.join(", ")),
                python_list(known)
            ),
        )
        .at(SkillDocument::position(first.key_mark))
        .with_hint(crate::rules::hosts::advice::unknown_keys_hint(
            &names, known, hosts,
        )),
    );
}

fn python_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// The text of a required field, or the reference's problem with it.
fn required_text<'a>(fm: &'a Frontmatter, field: &str) -> Result<(&'a str, Position), Problem> {
    let (missing, not_string) = match field {
        "name" => (Code::NameMissing, Code::NameNotString),
        _ => (Code::DescriptionMissing, Code::DescriptionNotString),
    };
    let Some(entry) = fm.get(field) else {
        let problem = Problem::new(
            missing,
            format!("Missing required field in frontmatter: {field}"),
        )
        .with_field(field)
        .at(START);
        return Err(match missing {
            Code::DescriptionMissing => problem.with_hint(
                "add `description:` to the frontmatter: what the skill does and when to use it, in a sentence or two (all a model reads before it picks the skill)",
            ),
            _ => problem,
        });
    };
    match &entry.value.value {
        Value::Str(text) if !pytext::strip(text).is_empty() => Ok((text, at(entry))),
        _ => Err(Problem::new(
            not_string,
            format!("Field '{field}' must be a non-empty string"),
        )
        .with_field(field)
        .at(at(entry))),
    }
}

fn check_name(fm: &Frontmatter, dir_name: &str, problems: &mut Vec<Problem>) {
    let (raw, pos) = match required_text(fm, "name") {
        Ok(found) => found,
        Err(problem) => return problems.push(problem),
    };
    let name = unicode::nfkc(pytext::strip(raw));
    let problem =
        |code: Code, message: String| Problem::new(code, message).with_field("name").at(pos);
    // Messages quote at most `MAX_ECHO_CHARS` of the name.
    let shown = capped(&name);
    // The reference's messages are its own; the help line is ours, once,
    // on the first flaw a better spelling mends, and always a valid name.
    // A valid name (the common case) needs no suggestion: none is made.
    let flaws = skill_name::flaws(&name);
    let dir = unicode::nfkc(dir_name);
    // The folder's name, when it is itself a valid name: a hint that
    // offers it needs no rename, one that offers another needs one.
    let valid_dir = skill_name::flaws(&dir).is_empty().then_some(dir.as_str());
    let mut hint = match flaws.is_empty() {
        true => None,
        false => name_hint(skill_name::suggestion(&name).as_deref(), valid_dir),
    };
    for flaw in flaws {
        let found = match flaw {
            Flaw::TooLong(chars) => {
                problems.push(problem(
                    Code::NameTooLong,
                    format!(
                        "Skill name '{shown}' exceeds {MAX_NAME_CHARS} character limit ({chars} chars)"
                    ),
                ));
                continue;
            }
            Flaw::NotLowercase => problem(
                Code::NameLowercase,
                format!("Skill name '{shown}' must be lowercase"),
            ),
            Flaw::HyphenAtEdge => problem(
                Code::NameHyphenEdge,
                "Skill name cannot start or end with a hyphen".to_string(),
            ),
            Flaw::ConsecutiveHyphens => problem(
                Code::NameConsecutiveHyphens,
                "Skill name cannot contain consecutive hyphens".to_string(),
            ),
            Flaw::InvalidCharacters => problem(
                Code::NameInvalidCharacters,
                format!(
                    "Skill name '{shown}' contains invalid characters. Only letters, digits, and hyphens are allowed."
                ),
            ),
        };
        problems.push(match hint.take() {
            Some(hint) => found.with_hint(hint),
            None => found,
        });
    }
    if dir != name {
        let valid_name = skill_name::flaws(&name).is_empty().then_some(name.as_str());
        problems.push(
            problem(
                Code::NameDirectoryMismatch,
                format!(
                    "Directory name '{}' must match skill name '{shown}'",
                    capped(dir_name)
                ),
            )
            .with_hint(mismatch_hint(valid_name, valid_dir)),
        );
    }
}

/// The help line of a name with flaws: the `suggestion` (the valid name
/// nearest it), and the folder's name when that is valid (`folder`), saying
/// which of them also needs the folder renamed, since the next build
/// requires the two to agree.
///
/// ```text
/// write it as 'pdf' (the folder's name)
/// write it as 'pdf' (the folder's name), or as 'pdf-tools' and rename the folder to match
/// write it as 'pdf-tools' and rename the folder to match
/// ```
fn name_hint(suggestion: Option<&str>, folder: Option<&str>) -> Option<String> {
    Some(match (suggestion, folder) {
        (Some(valid), Some(folder)) if valid == folder => {
            format!("write it as '{folder}' (the folder's name)")
        }
        (Some(valid), Some(folder)) => format!(
            "write it as '{folder}' (the folder's name), or as '{valid}' and rename the folder to match"
        ),
        (None, Some(folder)) => format!("write it as '{folder}' (the folder's name)"),
        (Some(valid), None) => format!("write it as '{valid}' and rename the folder to match"),
        (None, None) => return None,
    })
}

/// The help line of a name and a folder that differ: each valid one
/// offered, and what offering it asks for.
fn mismatch_hint(name: Option<&str>, folder: Option<&str>) -> String {
    match (name, folder) {
        (Some(name), Some(folder)) => {
            format!("rename the folder to '{name}', or write the name as '{folder}'")
        }
        (Some(name), None) => format!("rename the folder to '{name}'"),
        (None, Some(folder)) => format!("write the name as '{folder}', the folder's name"),
        (None, None) => "rename the directory or the skill so that they agree".to_string(),
    }
}

fn check_description(fm: &Frontmatter, problems: &mut Vec<Problem>) {
    let (text, pos) = match required_text(fm, "description") {
        Ok(found) => found,
        Err(problem) => return problems.push(problem),
    };
    let chars = text.chars().count();
    if chars > MAX_DESCRIPTION_CHARS {
        problems.push(
            Problem::new(
                Code::DescriptionTooLong,
                format!(
                    "Description exceeds {MAX_DESCRIPTION_CHARS} character limit ({chars} chars)"
                ),
            )
            .with_field("description")
            .at(pos),
        );
    }
}

fn check_compatibility(fm: &Frontmatter, problems: &mut Vec<Problem>) {
    let Some(entry) = fm.get("compatibility") else {
        return;
    };
    let problem = |code: Code, message: String| {
        Problem::new(code, message)
            .with_field("compatibility")
            .at(at(entry))
    };
    match &entry.value.value {
        Value::Str(text) => {
            let chars = text.chars().count();
            if chars > MAX_COMPATIBILITY_CHARS {
                problems.push(problem(Code::CompatibilityTooLong, format!(
                    "Compatibility exceeds {MAX_COMPATIBILITY_CHARS} character limit ({chars} chars)"
                )));
            }
        }
        _ => problems.push(problem(
            Code::CompatibilityNotString,
            "Field 'compatibility' must be a string".to_string(),
        )),
    }
}

fn check_license(fm: &Frontmatter, problems: &mut Vec<Problem>) {
    if let Some(entry) = fm.get("license")
        && !matches!(entry.value.value, Value::Str(_))
    {
        problems.push(
            Problem::new(
                Code::LicenseNotString,
                format!("license must be text, not {}", shape(&entry.value.value)),
            )
            .with_field("license")
            .at(at(entry)),
        );
    }
}

fn check_metadata_with(fm: &Frontmatter, options: &Policy, problems: &mut Vec<Problem>) {
    let Some(entry) = fm.get("metadata") else {
        return;
    };
    match &entry.value.value {
        // An empty `metadata:` reads as no metadata.
        Value::Str(text) if text.is_empty() => {}
        Value::Map(entries) => {
            for inner in entries {
                if options.extensions && crate::extension_fields::is_tag_list(inner) {
                    continue;
                }
                if !matches!(inner.value.value, Value::Str(_)) {
                    problems.push(
                        Problem::new(
                            Code::MetadataNotString,
                            format!(
                                "metadata must map strings to strings, but '{}' holds {}",
                                capped(&inner.key),
                                shape(&inner.value.value)
                            ),
                        )
                        .with_field("metadata")
                        .at(at(inner))
                        .with_hint("write the value as one string"),
                    );
                }
            }
        }
        other => problems.push(
            Problem::new(
                Code::MetadataNotMapping,
                format!(
                    "metadata must be a mapping of strings to strings, not {}",
                    shape(other)
                ),
            )
            .with_field("metadata")
            .at(at(entry)),
        ),
    }
}

fn check_allowed_tools(fm: &Frontmatter, problems: &mut Vec<Problem>) {
    let Some(entry) = fm.get("allowed-tools") else {
        return;
    };
    let problem = |code: Code, message: String| {
        Problem::new(code, message)
            .with_field("allowed-tools")
            .at(at(entry))
    };
    match &entry.value.value {
        Value::Str(text) => {
            if let Err(err) = allowed_tools::parse(text) {
                problems.push(problem(Code::AllowedToolsSyntax, err.to_string()));
            }
        }
        other => problems.push(
            problem(
                Code::AllowedToolsNotString,
                format!(
                    "allowed-tools must be a space-separated string, not {}",
                    shape(other)
                ),
            )
            .with_hint(match other {
                Value::Seq(_) => {
                    "write the tools on one line, separated by spaces; or, for Claude Code's list form, build for it: hosts = [\"claude-code\"] (--host claude-code) accepts a list"
                }
                _ => "write the tools on one line, separated by spaces",
            }),
        ),
    }
}

fn check_body_length(doc: &SkillDocument, problems: &mut Vec<Problem>) {
    let lines = doc.body().lines().count();
    if lines > ADVISED_MAX_BODY_LINES {
        let fence_line = doc.frontmatter_text.matches('\n').count() + 1;
        problems.push(
            Problem::new(Code::BodyTooLong, format!(
                "the body has {lines} lines; the specification advises keeping SKILL.md under {ADVISED_MAX_BODY_LINES}"
            ))
            .with_field("body")
            .at(Position {
                line: u32::try_from(fence_line + 1).unwrap_or(u32::MAX),
                column: 1,
            })
            .with_hint("move detail into files the instructions point to"),
        );
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn options_default_to_the_reference() {
        assert!(!crate::rules::Policy::default().extensions);
    }

    #[test]
    fn options_add_the_extension_fields() {
        use crate::{frontmatter::parse_text, rules::reference::validate_with};
        let doc =
            parse_text("---\nname: pdf\ndescription: Forms.\nversion: \"1.0\"\n---\n").unwrap();
        let on = crate::rules::Policy {
            extensions: true,
            ..Default::default()
        };
        assert!(
            validate_with(&doc, "pdf", &on)[0]
                .message
                .starts_with("version '1.0' is not valid semver.")
        );
        assert!(
            validate_with(&doc, "pdf", &Default::default())[0]
                .message
                .starts_with("Unexpected fields in frontmatter: version.")
        );
    }
}
