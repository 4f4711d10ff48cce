// Warnings do not fail a build, and show: each is a compiler warning at the
// macro's path naming the file, line and rule (the type error below fails
// this case, so that the output is recorded).
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/audit-warnings");

fn main() {
    let _: () = SKILLS;
}
