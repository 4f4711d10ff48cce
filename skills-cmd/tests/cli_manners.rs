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

const COMMANDS: &[&str] = &[
    "validate",
    "read-properties",
    "to-prompt",
    "check",
    "build",
    "inspect",
    "catalog",
    "outline",
    "keygen",
    "sign",
    "verify",
    "revision",
    "install",
    "status",
    "uninstall",
    "extract",
];

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
    for command in COMMANDS {
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
        let lines: Vec<&str> = after.lines().take_while(|line| !line.is_empty()).collect();
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
