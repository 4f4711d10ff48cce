static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/bad-yaml");

fn main() {
    let _ = SKILLS.catalog();
}
