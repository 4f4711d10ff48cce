//! `inspect FILE`: what a bundle holds.

use skills_core::trust::revision::Revision;
use skills_core::wire::bundle::{Content, Signature, Skill};
use skills_core::{Catalog, FORMAT_VERSION, Sha256};

use skills_build::unstable::printable::printable;

use crate::output::{Stream, write, write_stdout};
use crate::python::click::{Arg, CommandSpec, Invocation, Opt};
use crate::targets::read_file;
use skills_core::encoding::json::{Json, Style};

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
    options: &[&[Opt::choice(
        "--format",
        &["human", "json"],
        "Lines for people (default), or one JSON document with the same facts (sizes in bytes, digests and revisions in hex, signature records as claimed).",
    )]],
    run,
};

fn int(n: usize) -> Json {
    Json::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn text(value: &str) -> Json {
    Json::Str(value.to_string())
}

fn optional(value: Option<&str>) -> Json {
    value.map_or(Json::Null, text)
}

/// Signature records as JSON: what each claims (unchecked here).
fn signatures_json(signatures: &[Signature<'_>]) -> Json {
    Json::Array(
        signatures
            .iter()
            .map(|signature| {
                Json::Object(vec![
                    ("key_id".into(), text(signature.key_id)),
                    ("origin".into(), text(signature.origin)),
                    (
                        "signature".into(),
                        Json::Str(skills_core::encoding::base64::encode(signature.signature.0)),
                    ),
                ])
            })
            .collect(),
    )
}

/// One skill as JSON: the facts [`describe_skill`] prints.
fn skill_json(skill: &Skill<'_>) -> Json {
    let files = skill
        .files
        .iter()
        .map(|file| {
            Json::Object(vec![
                ("path".into(), text(file.path)),
                ("bytes".into(), int(file.size())),
                ("kind".into(), Json::Str(kind(&file.content))),
                ("sha256".into(), Json::Str(Sha256(file.sha256).to_string())),
            ])
        })
        .collect();
    Json::Object(vec![
        ("name".into(), text(skill.name)),
        ("location".into(), text(skill.location)),
        ("description".into(), text(skill.description)),
        ("license".into(), optional(skill.license)),
        ("compatibility".into(), optional(skill.compatibility)),
        ("allowed_tools".into(), optional(skill.allowed_tools)),
        (
            "metadata".into(),
            Json::Object(
                skill
                    .metadata
                    .iter()
                    .map(|(key, value)| (key.to_string(), text(value)))
                    .collect(),
            ),
        ),
        ("skill_file".into(), text(skill.skill_file.as_str())),
        ("body_bytes".into(), int(skill.body_len)),
        ("instructions_bytes".into(), int(skill.instructions.len())),
        (
            "instructions_sha256".into(),
            Json::Str(Sha256(skill.instructions_sha256).to_string()),
        ),
        (
            "frontmatter_sha256".into(),
            Json::Str(Sha256(skill.frontmatter_sha256).to_string()),
        ),
        (
            "revision".into(),
            Json::Str(Revision(skill.revision).to_string()),
        ),
        ("signatures".into(), signatures_json(&skill.signatures)),
        ("files".into(), Json::Array(files)),
    ])
}

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
    if call.option("--format") == Some("json") {
        let json = Json::Object(vec![
            ("path".into(), text(path)),
            ("bytes".into(), int(bytes.len())),
            ("format_version".into(), Json::Int(i64::from(version))),
            ("prompt_bytes".into(), int(catalog.prompt().len())),
            ("prompt_stored".into(), Json::Bool(bundle.prompt.is_some())),
            ("usage_bytes".into(), int(bundle.usage.len())),
            (
                "tool_bytes".into(),
                int(bundle.tool_description.len() + bundle.tool_schema.len()),
            ),
            (
                "revision".into(),
                Json::Str(Revision(bundle.revision).to_string()),
            ),
            ("signatures".into(), signatures_json(&bundle.signatures)),
            (
                "skills".into(),
                Json::Array(bundle.skills.iter().map(skill_json).collect()),
            ),
        ]);
        write_stdout(&(json.to_text(Style::indented(2)) + "\n"));
        return 0;
    }
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
