// agentskills-core's extension fields, accepted on request.
static SKILLS: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/extensions", extensions = true);

fn main() {
    let catalog = SKILLS.catalog().expect("the embedded bundle decodes");
    let skill = catalog.lookup("release-notes").expect("listed");
    assert_eq!(skill.version, Some("1.4.0"));
}
