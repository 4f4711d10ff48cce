// An error cannot be allowed: naming an error's rule is itself an error.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/valid", allow = ["name-lowercase"]);

fn main() {
    let _ = SKILLS.catalog();
}
