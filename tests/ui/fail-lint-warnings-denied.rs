// The lints' warnings (body-too-many-tokens, home-path, reference-too-deep) fail the build with deny_warnings.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/lint-warnings", deny_warnings = true);

fn main() {
    let _ = SKILLS.catalog();
}
