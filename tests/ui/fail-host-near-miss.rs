// `user-invokable` is VS Code's spelling; under claude-code it is an
// unknown key, and the help says whose spelling is whose.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/host-near-miss", hosts = ["claude-code"]);

fn main() {
    let _ = SKILLS.catalog();
}
