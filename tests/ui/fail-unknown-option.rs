static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/valid", colour = "blue");

fn main() {
    let _ = SKILLS.catalog();
}
