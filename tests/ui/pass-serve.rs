// The shortest path to a served tool call: embed, open, call.
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/valid");

fn main() {
    let catalog = SKILLS.catalog().expect("the embedded bundle decodes");
    assert_eq!(catalog.names().collect::<Vec<_>>(), ["hello"]);
    assert!(catalog.prompt().contains("<location>\nskill://hello/SKILL.md\n</location>"));
    let served = catalog.call("hello", None).expect("the instructions are served");
    let skills_runtime::Reply::Text(text) = served.reply else {
        panic!("instructions are text");
    };
    assert_eq!(
        text,
        "\nSay hello, then ask how you can help.\n\nfiles:\n- greetings.md (52 bytes)\n"
    );
    let file = catalog.call("hello", Some("greetings.md")).expect("the file is served");
    assert_eq!(file.read.bytes, 52);
}
