// Warnings do not fail a build (deny_warnings makes them: see
// fail-audit-warnings-denied and fail-lint-warnings-denied).
static TOOLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/audit-warnings");
static GUIDE: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/lint-warnings");

fn main() {
    assert!(TOOLS.catalog().unwrap().lookup("tools").is_some());
    assert!(GUIDE.catalog().unwrap().lookup("guide").is_some());
}
