// Without skills-runtime's `archive` feature, an archive source is refused
// with an error naming the feature.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/archive/report-writer.skill");

fn main() {
    let _ = SKILLS.catalog();
}
