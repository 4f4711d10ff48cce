// A Claude Code skill straight from Claude Code's documentation, without a
// host profile: the reference's unknown-key error, with a help line that
// names the host that reads the keys instead of advising `metadata:`.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/claude-code");

fn main() {
    let _ = SKILLS.catalog();
}
