// Under codex, agents/openai.yaml is checked (a colour without #, an icon
// that is not there, a bool that is not one) and so is the length of
// metadata.short-description.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/codex-sidecar", hosts = ["codex"]);

fn main() {
    let _ = SKILLS.catalog();
}
