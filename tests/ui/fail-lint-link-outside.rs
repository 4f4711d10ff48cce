// A link out of the skill folder fails the build at the link (link-outside-skill).
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/lint-link-outside");

fn main() {
    let _ = SKILLS.catalog();
}
