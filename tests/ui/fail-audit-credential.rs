// A token in a .env file fails the build (credential); the fixture is written at test time.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-generated/audit-credential");

fn main() {
    let _ = SKILLS.catalog();
}
