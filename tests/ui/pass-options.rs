// Every option at once: a qualified second source, a location base, an
// exclude rule, a size limit and allowed rules (a list, and one string);
// literals as Rust spells them (a raw string, an escape, underscores and a
// suffix).
static SKILLS: skills_runtime::Embedded = skills_runtime::include_skills!(
    r"ui-skills/valid",
    source = "ui-skills/valid-\x61gain" as r#"more"#,
    location_base = "/opt/skills",
    exclude = "*.tmp",
    max_file_size = 65_536u64,
    allow = ["junk-skipped", "body-too-long",],
    allow = "skill-shadowed",
);

fn main() {
    let catalog = SKILLS.catalog().expect("the embedded bundle decodes");
    assert_eq!(catalog.names().collect::<Vec<_>>(), ["hello", "more:hello"]);
    assert!(catalog.prompt().contains("/opt/skills/hello/SKILL.md"));
}
