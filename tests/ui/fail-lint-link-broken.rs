// A link to a file the skill does not hold fails the build at the link (link-broken).
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/lint-link-broken");

fn main() {
    let _ = SKILLS.catalog();
}
