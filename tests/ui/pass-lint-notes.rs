// Notes never fail a build, not even with deny_warnings: url-raw-ip,
// url-paste-site, base64-blob, file-unmentioned, description-without-when,
// reference-without-toc.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/lint-notes", deny_warnings = true);

fn main() {
    assert!(SKILLS.catalog().unwrap().lookup("misc").is_some());
}
