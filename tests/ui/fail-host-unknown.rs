// A host id that names no profile, at its literal.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/valid", hosts = ["claude-code", "claud"]);

fn main() {
    let _ = SKILLS.catalog();
}
