// An error of the audit or the lints is lowered only by naming it.
static NOTES: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/audit-bidi", allow = "bidi-control");
static LINKS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/lint-link-broken", allow = ["link-broken"]);

fn main() {
    assert!(NOTES.catalog().unwrap().lookup("notes").is_some());
    assert!(LINKS.catalog().unwrap().lookup("notes").is_some());
}
