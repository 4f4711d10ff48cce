static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/invalid-name");

fn main() {
    // No follow-on error: the macro still gives an `Embedded`.
    let _ = SKILLS.catalog();
}
