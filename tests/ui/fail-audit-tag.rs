// Unicode tag characters hide text a model reads: an error, located (tag-character).
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/audit-tag");

fn main() {
    let _ = SKILLS.catalog();
}
