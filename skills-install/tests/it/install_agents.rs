//! The installer's agent table is the reference table, row for row: the
//! recorded copy of the notes (`testdata/agents/agents.md`, made by
//! `scripts/record/agents.sh`), and the notes themselves when they sit
//! beside the repository (`../shared/reference/agents.md`).

use std::path::Path;

use skills_install::agents::{AGENTS, Agent, OVERRIDES};

/// Every agent of the markdown table, in order: (name, id, project, user).
fn table(text: &str) -> Vec<(String, String, String, String)> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| Agent | id | Project directory | User directory |`
        if cells.len() != 6 || !cells[2].starts_with('`') {
            continue;
        }
        let names: Vec<&str> = cells[1].split(',').map(str::trim).collect();
        let ids: Vec<&str> = cells[2]
            .split(',')
            .map(|id| id.trim().trim_matches('`'))
            .collect();
        assert_eq!(names.len(), ids.len(), "row {line:?}");
        let dir = |cell: &str| cell.trim_matches('`').trim_end_matches('/').to_string();
        for (name, id) in names.iter().zip(ids) {
            rows.push((
                name.to_string(),
                id.to_string(),
                dir(cells[3]),
                dir(cells[4]),
            ));
        }
    }
    rows
}

fn ours() -> Vec<(String, String, String, String)> {
    AGENTS
        .iter()
        .map(
            |Agent {
                 id,
                 name,
                 project_dir,
                 user_dir,
                 ..
             }| {
                (
                    name.to_string(),
                    id.to_string(),
                    project_dir.to_string(),
                    user_dir.to_string(),
                )
            },
        )
        .collect()
}

fn check(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let rows = table(&text);
    assert!(
        rows.len() > 30,
        "{}: the table was not found",
        path.display()
    );
    assert_eq!(ours(), rows, "{} and agents.rs differ", path.display());
    // The overrides the notes name are the ones applied.
    for over in OVERRIDES {
        assert!(
            text.contains(&format!("`{}` replaces `{}`", over.var, over.replaces)),
            "{} does not say {} replaces {}",
            path.display(),
            over.var,
            over.replaces
        );
    }
}

#[test]
fn the_table_is_the_recorded_reference() {
    check(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/agents/agents.md"));
}

#[test]
fn the_recorded_copy_is_current() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/agents.md");
    if shared.is_file() {
        check(&shared);
    }
}

#[test]
fn ids_are_unique_and_plain() {
    let mut ids: Vec<&str> = AGENTS.iter().map(|a| a.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), AGENTS.len());
    assert!(ids.iter().all(|id| {
        id.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    }));
}
