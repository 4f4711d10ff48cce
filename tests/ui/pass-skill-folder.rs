// A skill folder (it holds SKILL.md) as the source gives one skill, named
// after the folder, as `skills check` and `skills build` read it.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/valid/hello");

fn main() {
    let catalog = SKILLS.catalog().expect("the embedded bundle decodes");
    assert_eq!(catalog.names().collect::<Vec<_>>(), ["hello"]);
    let file = catalog.call("hello", Some("greetings.md")).expect("the file is served");
    assert_eq!(file.read.bytes, 52);
}
