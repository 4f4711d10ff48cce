// The same skill builds for Claude Code (and, with several hosts, the
// fields one of them ignores are only noted). Its evals/ folder is left
// out of the bundle unless `keep_evals = true`; the host keys stay in the
// frontmatter the bundle serves.
static CLAUDE: skills_runtime::Embedded =
    skills_runtime::include_skills!("ui-skills/claude-code", hosts = ["claude-code"]);
static SEVERAL: skills_runtime::Embedded = skills_runtime::include_skills!(
    "ui-skills/claude-code",
    hosts = ["claude-code", "codex", "vscode"],
    keep_evals = true
);

fn main() {
    let catalog = CLAUDE.catalog().expect("the embedded bundle decodes");
    let skill = catalog.lookup("deploy-helper").expect("listed");
    assert!(skill.files.is_empty(), "evals/ is left out");
    assert!(skill.frontmatter.contains("model: sonnet"));
    assert!(catalog.call("deploy-helper", Some("evals/evals.json")).is_err());
    let several = SEVERAL.catalog().expect("the embedded bundle decodes");
    let kept = several.lookup("deploy-helper").expect("listed");
    let paths: Vec<&str> = kept.files.iter().map(|file| file.path).collect();
    assert_eq!(paths, ["evals/evals.json"]);
}
