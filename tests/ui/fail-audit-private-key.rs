// A private key block in a skill's files fails the build (private-key); the fixture is written at test time.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-generated/audit-private-key");

fn main() {
    let _ = SKILLS.catalog();
}
