//! `inspect FILE`: what a bundle holds.

use skills_core::trust::revision::Revision;
use skills_core::wire::bundle::{Content, Signature, Skill};
use skills_core::{Catalog, FORMAT_VERSION, Sha256};

use skills_build::unstable::printable::printable;

use crate::output::{Stream, write, write_stdout};
use crate::python::click::{Arg, CommandSpec, Invocation};
use crate::targets::read_file;

/// The command's declaration.
pub const COMMAND: CommandSpec = CommandSpec {
    name: "inspect",
    summary: "Show what a bundle file holds.",
    about: "Prints the format version, the catalog texts' sizes, and for each skill its name, location, instructions and files with sizes, media kinds and SHA-256 digests in hex. Signature records are shown as what they claim: inspect checks no signature (`skills verify` does).",
    exit_codes: &[(0, "Success"), (1, "Not a readable bundle")],
    args: &[Arg {
        metavar: "FILE",
        many: false,
        must_exist: true,
    }],
    options: &[],
    run,
};

fn kind(content: &Content<'_>) -> String {
    match content {
        Content::Text(_) => "text".to_string(),
        Content::Image { media_type, .. } => format!("image {}", printable(media_type)),
        Content::Binary { media_type, .. } => format!("binary {}", printable(media_type)),
    }
}

fn describe_skill(skill: &Skill<'_>, out: &mut String) {
    let line = |out: &mut String, text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(out, format!("\nskill {}", printable(skill.name)));
    line(out, format!("  location: {}", printable(skill.location)));
    line(
        out,
        format!("  description: {}", printable(skill.description)),
    );
    if let Some(license) = skill.license {
        line(out, format!("  license: {}", printable(license)));
    }
    if let Some(compatibility) = skill.compatibility {
        line(
            out,
            format!("  compatibility: {}", printable(compatibility)),
        );
    }
    if let Some(tools) = skill.allowed_tools {
        line(out, format!("  allowed-tools: {}", printable(tools)));
    }
    for (key, value) in &skill.metadata {
        line(
            out,
            format!("  metadata {}: {}", printable(key), printable(value)),
        );
    }
    line(
        out,
        format!(
            "  {}: body {} bytes, instructions {} bytes, sha256 {}",
            skill.skill_file.as_str(),
            skill.body_len,
            skill.instructions.len(),
            Sha256(skill.instructions_sha256)
        ),
    );
    line(
        out,
        format!("  frontmatter sha256 {}", Sha256(skill.frontmatter_sha256)),
    );
    line(out, format!("  revision: {}", Revision(skill.revision)));
    signature_lines(&skill.signatures, "  ", out);
    if skill.files.is_empty() {
        line(out, "  files: none".to_string());
        return;
    }
    line(out, format!("  files: {}", skill.files.len()));
    for file in &skill.files {
        line(
            out,
            format!(
                "    {}  {} bytes  {}  sha256 {}",
                printable(file.path),
                file.size(),
                kind(&file.content),
                Sha256(file.sha256)
            ),
        );
    }
}

/// One line per signature record: key id, origin, and the signature in
/// base64, as the record's claim, not as fact. Inspecting checks no
/// signature (it holds no key), and the revisions leave the records out (so
/// that signing does not change them), so anyone can rewrite a record's key
/// id or origin, or add one. `skills verify` accepts a record by a key it
/// trusts only for its own `--origin`, over which the signature is checked,
/// so once a bundle verifies, each trusted record's key id and origin are
/// the ones signed.
fn signature_lines(signatures: &[Signature<'_>], indent: &str, out: &mut String) {
    for signature in signatures {
        out.push_str(&format!(
            "{indent}claimed signature: key {} origin {} {}  (unchecked here: `skills verify --origin ORIGIN --trust KEY=PUBLIC_KEY` checks it)\n",
            printable(signature.key_id),
            printable(signature.origin),
            skills_core::encoding::base64::encode(signature.signature.0)
        ));
    }
}

/// Runs the command.
pub fn run(call: &Invocation) -> i32 {
    let Some(path) = call.args.first() else {
        return 2;
    };
    let bytes = match read_file(path, 1) {
        Ok(bytes) => bytes,
        Err(status) => return status,
    };
    let catalog = match Catalog::from_bytes(&bytes) {
        Ok(catalog) => catalog,
        Err(error) => {
            write(
                Stream::Err,
                &format!(
                    "error: {} is not a readable skills bundle: {}\n",
                    printable(path),
                    printable(&error.to_string())
                ),
            );
            return 1;
        }
    };
    let bundle = catalog.bundle();
    // As the header says: a bundle of the previous format is read too.
    let version = bytes
        .get(4..6)
        .map_or(FORMAT_VERSION, |v| u16::from_le_bytes([v[0], v[1]]));
    let mut out = format!(
        "bundle {}: {} bytes, format version {version}\nprompt: {} bytes{}\nusage: {} bytes\ntool description and schema: {} bytes\nskills: {}\n",
        printable(path),
        bytes.len(),
        catalog.prompt().len(),
        match bundle.prompt {
            Some(_) => "",
            None => " (rendered from the skills, not stored)",
        },
        bundle.usage.len(),
        bundle.tool_description.len() + bundle.tool_schema.len(),
        bundle.skills.len()
    );
    out.push_str(&format!(
        "revision: {}  (covers the texts and every skill; not the signature records)\n",
        Revision(bundle.revision)
    ));
    signature_lines(&bundle.signatures, "", &mut out);
    for skill in &bundle.skills {
        describe_skill(skill, &mut out);
    }
    write_stdout(&out);
    0
}
