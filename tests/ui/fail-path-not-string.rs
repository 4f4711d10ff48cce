// The path is a string literal; a bare word is not one.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(skills);

fn main() {
    let _ = SKILLS.catalog();
}
