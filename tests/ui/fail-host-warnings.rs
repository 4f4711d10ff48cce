// The hosts' warnings (a model Claude Code does not document, a listing
// entry past Claude Code's cap, a catalog past Codex's budget) show beside
// the error that fails the build.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(
    "ui-skills/host-warnings",
    hosts = ["claude-code", "codex"]
);

fn main() {
    let _ = SKILLS.catalog();
}
