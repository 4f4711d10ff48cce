//! The `skills` command line's manners: `-h`/`--help`, `-V`/`--version`,
//! `skills help [COMMAND]`, exit codes as lines in every command's help.
//! Under the name `agentskills` none of this exists (the reference's own
//! behaviour, recorded under `testdata/reference/`, is checked by
//! `reference_cli`); one case here shows the two names differ.

use std::process::Command;

fn run(program: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(program).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn skills(args: &[&str]) -> (i32, String, String) {
    run(env!("CARGO_BIN_EXE_skills"), args)
}

/// Every command `skills --help` lists (but `help`).
fn commands() -> Vec<String> {
    let (_, help, _) = skills(&["--help"]);
    let listed = help.split("\nCommands:\n").nth(1).unwrap();
    let names: Vec<String> = listed
        .lines()
        .take_while(|line| !line.is_empty())
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    names
}

#[test]
fn help_and_version_have_short_forms_and_exit_zero() {
    let (code, help, err) = skills(&["--help"]);
    assert_eq!((code, err.as_str()), (0, ""));
    for args in [&["-h"][..], &["help"]] {
        assert_eq!(skills(args), (0, help.clone(), String::new()), "{args:?}");
    }
    assert!(
        help.contains("  -h, --help     Show this message and exit.\n"),
        "{help}"
    );
    assert!(
        help.contains("\n  help             Show the help of the tool or of COMMAND.\n"),
        "{help}"
    );
    let version = skills(&["--version"]);
    assert_eq!(version.0, 0);
    assert_eq!(
        version.1,
        format!("skills, version {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(skills(&["-V"]), version);
    let (code, _, err) = skills(&["help", "nope"]);
    assert_eq!(code, 2);
    assert!(err.ends_with("Error: No such command 'nope'.\n"), "{err}");
}

#[test]
fn every_command_has_short_help_and_lists_its_exit_codes_as_lines() {
    for command in &commands() {
        let command = command.as_str();
        let long = skills(&[command, "--help"]);
        assert_eq!(long.0, 0, "{command}");
        assert_eq!(skills(&[command, "-h"]), long, "{command} -h");
        assert_eq!(skills(&["help", command]), long, "help {command}");
        let text = long.1;
        assert!(text.contains("  -h, --help"), "{command}: {text}");
        let after = text
            .split("\n  Exit codes:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{command}: no exit codes paragraph:\n{text}"));
        // A code's text wraps under itself: continuation lines are deeper.
        let lines: Vec<&str> = after
            .lines()
            .take_while(|line| !line.is_empty())
            .filter(|line| !line.starts_with("     "))
            .collect();
        assert!(lines.len() >= 2, "{command}: {lines:?}");
        for line in &lines {
            let (code, what) = line
                .trim_start()
                .split_once("  ")
                .unwrap_or_else(|| panic!("{command}: {line:?}"));
            assert!(line.starts_with("    "), "{command}: {line:?}");
            assert!(
                code.parse::<u8>().is_ok() && !what.is_empty(),
                "{command}: {line:?}"
            );
        }
        assert!(
            lines.iter().any(|l| l.trim_start().starts_with("2  ")),
            "{command}: no usage status"
        );
    }
}

#[test]
fn the_drop_in_name_keeps_the_reference_manners() {
    let dir = std::env::temp_dir().join(format!("skills-manners-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("agentskills");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_skills"), &link).unwrap();
    let program = link.to_str().unwrap();
    let (code, out, err) = run(program, &["-h"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.ends_with("Error: No such option '-h'.\n"), "{err}");
    let (code, _, err) = run(program, &["help"]);
    assert_eq!(code, 2);
    assert!(err.ends_with("Error: No such command 'help'.\n"), "{err}");
    let (_, out, _) = run(program, &["validate", "--help"]);
    assert!(
        out.contains("  Exit codes:     0: Valid skill     1: Validation errors found\n"),
        "{out}"
    );
}

/// The options each command's help offers: `status` only reports, so it
/// offers nothing that writes; no command's help speaks of embedding what
/// it only reads.
#[test]
fn each_command_offers_only_its_own_options() {
    let options = |command: &str| -> Vec<String> {
        let (_, text, _) = skills(&[command, "--help"]);
        text.split("\nOptions:\n")
            .nth(1)
            .unwrap()
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("-").map(|_| line))
            .flat_map(|line| line.split([' ', ',']).map(str::to_string))
            .filter(|word| word.starts_with("--"))
            .collect()
    };
    let writes = ["--dry-run", "--force", "--link", "--copy"];
    let status = options("status");
    for option in writes {
        assert!(
            !status.iter().any(|o| o == option),
            "status offers {option}"
        );
        assert!(
            options("install").iter().any(|o| o == option),
            "install lacks {option}"
        );
    }
    assert!(status.iter().any(|o| o == "--check"));
    let uninstall = options("uninstall");
    for option in ["--dry-run", "--force"] {
        assert!(
            uninstall.iter().any(|o| o == option),
            "uninstall lacks {option}"
        );
    }
    for option in ["--link", "--copy", "--check"] {
        assert!(
            !uninstall.iter().any(|o| o == option),
            "uninstall offers {option}"
        );
    }
    for command in commands() {
        let (_, text, _) = skills(&[&command, "--help"]);
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for embedding in [
            "largest file embedded",
            "Embed .DS_Store",
            "Embed each skill",
        ] {
            assert!(!words.contains(embedding), "{command}: {embedding}");
        }
    }
}

/// The help is laid out by code: no line is wider than 78 columns, and in
/// each options list every description starts in one column.
#[test]
fn help_columns_line_up_and_fit() {
    for command in commands() {
        let (_, text, _) = skills(&[&command, "--help"]);
        for line in text.lines() {
            assert!(line.chars().count() <= 78, "{command}: {line:?}");
        }
        let options = text.split("\nOptions:\n").nth(1).unwrap();
        let mut columns = std::collections::BTreeSet::new();
        for line in options.lines() {
            let text_start = if line.starts_with("  -") {
                // The description after the term, if on the same line.
                let term_end = line[2..].find("  ").map(|i| i + 2);
                term_end.map(|end| end + line[end..].len() - line[end..].trim_start().len())
            } else {
                Some(line.len() - line.trim_start().len())
            };
            columns.extend(text_start);
        }
        assert_eq!(columns.len(), 1, "{command}: {columns:?}\n{text}");
    }
}
