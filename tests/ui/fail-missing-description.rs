static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/missing-description");

fn main() {
    let _ = SKILLS.catalog();
}
