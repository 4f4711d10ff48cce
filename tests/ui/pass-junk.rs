// Junk (.DS_Store, a Vim swap file, __pycache__/) is left out, not
// fatal; `keep_junk = true` embeds it like any other file.
static TIDY: skills_runtime::Embedded = skills_runtime::include_skills!("ui-skills/junk");
static KEPT: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/junk", keep_junk = true);

fn main() {
    let catalog = TIDY.catalog().expect("the embedded bundle decodes");
    let served = catalog.call("tidy", None).expect("the instructions are served");
    let skills_runtime::Reply::Text(text) = served.reply else {
        panic!("instructions are text");
    };
    assert_eq!(text, "Keep it tidy.\n\nfiles:\n- notes.md (6 bytes)\n");
    let kept = KEPT.catalog().expect("the embedded bundle decodes");
    let skill = kept.lookup("tidy").expect("listed");
    let paths: Vec<&str> = skill.files.iter().map(|file| file.path).collect();
    assert_eq!(
        paths,
        [
            ".DS_Store",
            ".notes.md.swp",
            "__pycache__/x.cpython-311.pyc",
            "notes.md"
        ]
    );
}
