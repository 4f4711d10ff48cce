// A bidirectional override in a skill fails the build, located (bidi-control).
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/audit-bidi");

fn main() {
    let _ = SKILLS.catalog();
}
