// The audit's warnings (shell-unrestricted, pipe-to-shell, html-comment, invisible-character, executable-embedded) fail the build with deny_warnings.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/audit-warnings", deny_warnings = true);

fn main() {
    let _ = SKILLS.catalog();
}
