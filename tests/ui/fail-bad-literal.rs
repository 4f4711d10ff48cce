// A value of the wrong kind is refused where it stands.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/valid", max_file_size = "1 MiB");

fn main() {
    let _ = SKILLS.catalog();
}
