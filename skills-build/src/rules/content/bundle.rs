//! The rules over a compiled bundle: what `skills audit` does with a
//! bundle file, where the skills are no longer folders but the bytes a
//! program embeds and serves. Each skill's file is put back together as
//! the bundle serves it, and every file is read as it was embedded, so the
//! findings are those its folders would give (bar the skill file's bytes,
//! when the bundle holds them rebuilt rather than as written).

use skills_core::trust::revision::skill_file_pieces;
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
        let skill_file_bytes = skill_file_pieces(skill).concat();
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
