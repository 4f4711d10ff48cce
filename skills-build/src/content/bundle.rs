//! The rules over a compiled bundle: what `skills audit` does with a
//! bundle file, where the skills are no longer folders but the bytes a
//! program embeds and serves. Each skill's file is put back together from
//! its frontmatter and the body the `skill` tool serves (the stored
//! instructions, not the skill file's bytes a bundle may keep beside
//! them), and every file is read as it was embedded, so the findings are
//! those of what a model is given. That the recorded digests match the
//! bytes is the caller's to check first (`skills audit` does, with
//! `skills_core::trust::verify::rehash_skill`).

use skills_core::wire::bundle::Bundle;

use super::check;
use super::skill::{File, Skill};
use crate::problem::{Code, Problem};

/// The rules not in `allowed` over every skill of the bundle `bytes`,
/// whose file is named `location`: each skill's files are located as
/// `<location>/<name>/<path>`. Returns how many skills were read and the
/// problems, or why the bytes are no bundle.
///
/// ```
/// let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
/// let bundle = skills_build::Builder::new().source(skills).compile().unwrap().bytes;
/// let (count, problems) = skills_build::unstable::content::check_bundle(&bundle, "skills.bin", &[]).unwrap();
/// assert_eq!((count, problems.len()), (3, 0));
/// assert!(skills_build::unstable::content::check_bundle(b"not a bundle", "x.bin", &[]).is_err());
/// ```
pub fn check_bundle(
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
        let document = crate::frontmatter::parse(&skill_file_bytes).ok();
        let files: Vec<File<'_>> = skill
            .files
            .iter()
            .map(|file| File {
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
        let view = Skill {
            skill_file: skill.skill_file.as_str(),
            file_location: &file_location,
            folder_location: &folder,
            bytes: &skill_file_bytes,
            document: document.as_ref(),
            files: &files,
        };
        problems.extend(
            check(&view, allowed)
                .into_iter()
                .map(|problem| problem.of_skill(index)),
        );
    }
    Problem::sort(&mut problems);
    Ok((bundle.skills.len(), problems))
}
