// Without `extensions = true`, the extension fields are unknown keys, as the
// reference validator says.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/extensions");

fn main() {
    let _ = SKILLS.catalog();
}
