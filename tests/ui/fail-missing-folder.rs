static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/no-such-folder");

fn main() {
    let _ = SKILLS.catalog();
}
