static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("/srv/skills");

fn main() {
    let _ = SKILLS.catalog();
}
