// Two sources with a skill of the same name and no qualifier: the second
// would vanish silently, so the macro refuses.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/valid", source = "ui-skills/valid-again");

fn main() {
    let _ = SKILLS.catalog();
}
