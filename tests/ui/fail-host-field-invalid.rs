// Under a profile, each mistyped host field is its own located error.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/host-mistyped", hosts = "claude-code");

fn main() {
    let _ = SKILLS.catalog();
}
