// A source that holds no skill is a compile error naming what was looked for.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/no-skills");

fn main() {
    let _ = SKILLS.catalog();
}
