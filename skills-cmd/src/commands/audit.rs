//! `audit SRC...`: the audit rules alone (hidden or reordering Unicode,
//! secrets, downloads piped into a shell, hidden comments, unrestricted
//! shell grants, executables, raw-address and paste-site URLs, base64
//! blobs), over skill folders, folders of skills, archives and bundle
//! files, as diagnostics, JSON, GitHub workflow commands or SARIF.
//!
//! An audit finds known patterns; it proves nothing. Its words say so:
//! "findings", never "safe" or "clean".

use std::path::Path;

use skills_build::problem::{Code, Problem, Rule};
use skills_build::unstable::{content, frontmatter};
use skills_core::wire::bundle::Bundle;

use crate::gate;
use crate::python::click::{CommandSpec, Invocation};
use crate::report::Counted;

/// The command's declaration: `check`'s options, but `--extensions` (the
/// audit does not judge the frontmatter's form).
pub const COMMAND: CommandSpec = CommandSpec {
    name: "audit",
    summary: "Report what makes skills unsafe to ship (findings, not proof).",
    about: "Each SRC is a skill folder, a folder of skill folders, a .skill or .zip archive, or a bundle file written by `skills build`. Runs the audit rules alone: bidirectional controls and tag characters, private keys and credentials (errors); invisible characters inside words, HTML comments, downloads piped into a shell, unrestricted Bash grants, Claude Code hook commands, embedded executables (warnings); URLs to raw IP addresses or paste sites, long base64 blobs (notes). A bundle file's recorded digests are checked first, and a bundle changed after its build is refused; its skills are audited as the `skill` tool serves them. docs/audit.md says what each rule finds and what it cannot. An audit finds known patterns; finding none proves nothing.",
    exit_codes: &[
        (0, "No error-level findings (warnings and notes allowed)"),
        (
            1,
            "Error-level findings, or warnings with --deny-warnings; or a source that cannot be read",
        ),
    ],
    args: &[gate::SOURCES],
    options: &[gate::AUDIT_REPORT, gate::EXCLUDE_GROUP, gate::READ],
    run,
};

/// Whether `problem` belongs in an audit: an audit rule's finding, or a
/// source the audit could not read.
fn of_audit(problem: &Problem) -> bool {
    problem.rule() == Rule::Audit
        || (problem.rule() == Rule::Build && problem.is_error())
        || gate::unreadable(problem.code)
}

/// Whether `path` is a bundle file rather than a source: a file that is
/// not an archive.
fn is_bundle_file(path: &str) -> bool {
    let path = Path::new(path);
    path.is_file() && !skills_build::unstable::archive::is_archive(path)
}

/// The skills of the bundle `bytes` (the file `location`) whose recorded
/// digests do not match their bytes, each as a `bundle-digest-mismatch`
/// error: every file's, the instructions' (the text the `skill` tool
/// serves), the frontmatter's, the skill file's and the revision. Bytes
/// that are no bundle give none (the audit says so itself).
fn altered_skills(bytes: &[u8], location: &str) -> Vec<Problem> {
    let Ok(bundle) = skills_core::wire::bundle::Bundle::decode(bytes) else {
        return Vec::new();
    };
    bundle
        .skills
        .iter()
        .filter_map(|skill| {
            let check = skills_core::trust::verify::rehash_skill(skill).err()?;
            Some(
                Problem::new(
                    Code::BundleDigestMismatch,
                    format!(
                        "the skill {:?}: {check}; the audit reads only what a program would serve",
                        skills_build::unstable::printable::printable(skill.name)
                    ),
                )
                .with_hint("rebuild the bundle from its sources (`skills build`), and audit that")
                .with_file(location.to_string()),
            )
        })
        .collect()
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let (bundles, sources): (Vec<String>, Vec<String>) = call
        .args
        .iter()
        .cloned()
        .partition(|arg| is_bundle_file(arg));
    // The bundle files are read here; the rest are the pipeline's sources.
    let sources_call = Invocation {
        args: sources,
        ..call.clone()
    };
    let mut builder = match gate::builder(&sources_call) {
        Ok(builder) => builder,
        Err(message) => return COMMAND.usage_error(&message),
    };
    // The lint rules are not the audit's: they do not run.
    for code in Code::ALL.iter().filter(|code| code.rule() == Rule::Lint) {
        builder = builder.allow(code.as_str());
    }
    let allowed: Vec<Code> = call
        .values("--allow")
        .into_iter()
        .filter_map(Code::from_str)
        .collect();
    let mut problems = Vec::new();
    let mut skills = 0;
    let mut sources_read = Vec::new();
    if !sources_call.args.is_empty() || bundles.is_empty() {
        let reading = skills_build::unstable::read(&builder);
        problems.extend(reading.discovery.problems.into_iter().filter(of_audit));
        skills += reading.discovery.skills.len();
        sources_read = reading.discovery.sources;
    }
    for bundle in &bundles {
        let bytes = match crate::targets::read_file(bundle, 1) {
            Ok(bytes) => bytes,
            Err(code) => return code,
        };
        // A bundle changed after its build is refused, not audited: its
        // digests are what a program checks before it serves it.
        let altered = altered_skills(&bytes, bundle);
        if !altered.is_empty() {
            problems.extend(altered);
            continue;
        }
        match check_bundle(&bytes, bundle, &allowed) {
            Ok((count, found)) => {
                skills += count;
                problems.extend(found.into_iter().filter(|p| p.rule() == Rule::Audit));
                sources_read.push(skills_build::SourceReport {
                    location: bundle.to_string(),
                    layout: Some(skills_build::Layout::Collection),
                    skills: count,
                });
            }
            Err(error) => problems.push(
                Problem::new(
                    Code::SourceUnreadable,
                    format!(
                        "{bundle} is neither a skill folder, an archive nor a bundle file: {error}"
                    ),
                )
                .with_file(bundle.to_string()),
            ),
        }
    }
    Problem::sort(&mut problems);
    let deny = call.flag("--deny-warnings");
    let failed = problems.iter().any(Problem::is_error)
        || (deny
            && problems
                .iter()
                .any(|p| p.severity == skills_build::problem::Severity::Warning));
    let summary = gate::summary_of("audited", &problems, skills, failed, deny)
        .replace("no problems", "no findings");
    let counted = Counted {
        problems: &problems,
        sources: &sources_read,
        skills,
    };
    gate::print_counted("audit", call, &counted, failed, &summary, Vec::new());
    i32::from(failed)
}

/// The audit's rules over a compiled bundle: what `skills audit` does with
/// a bundle file, where the skills are no longer folders but the bytes a
/// program embeds and serves. Each skill's file is put back together from
/// its frontmatter and the body the `skill` tool serves (the stored
/// instructions, not the skill file's bytes a bundle may keep beside
/// them), and every file is read as it was embedded, so the findings are
/// those of what a model is given. That the recorded digests match the
/// bytes is checked first ([`altered_skills`], with
/// `skills_core::trust::verify::rehash_skill`).
///
/// The rules not in `allowed` over every skill of the bundle `bytes`,
/// whose file is named `location`: each skill's files are located as
/// `<location>/<name>/<path>`. Returns how many skills were read and the
/// problems, or why the bytes are no bundle.
fn check_bundle(
    bytes: &[u8],
    location: &str,
    allowed: &[Code],
) -> Result<(usize, Vec<Problem>), String> {
    let bundle = Bundle::decode(bytes).map_err(|error| error.to_string())?;
    let mut problems = Vec::new();
    for (index, skill) in bundle.skills.iter().enumerate() {
        // The text the `skill` tool serves: the body of the instructions.
        let skill_file_bytes = [
            b"---\n".as_slice(),
            skill.frontmatter.as_bytes(),
            b"---\n",
            skill.body().as_bytes(),
        ]
        .concat();
        let document = frontmatter::parse(&skill_file_bytes).ok();
        let files: Vec<content::File<'_>> = skill
            .files
            .iter()
            .map(|file| content::File {
                path: file.path,
                bytes: file.bytes(),
            })
            .collect();
        let folder = format!(
            "{}/{}",
            location.trim_end_matches('/'),
            skill.name.replace(':', "/")
        );
        let file_location = format!("{folder}/{}", skill.skill_file.as_str());
        let view = content::Skill {
            skill_file: skill.skill_file.as_str(),
            file_location: &file_location,
            folder_location: &folder,
            bytes: &skill_file_bytes,
            document: document.as_ref(),
            files: &files,
        };
        problems.extend(
            content::check(&view, allowed)
                .into_iter()
                .map(|problem| problem.of_skill(index)),
        );
    }
    Problem::sort(&mut problems);
    Ok((bundle.skills.len(), problems))
}
