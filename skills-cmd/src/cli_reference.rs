//! `docs/cli.md`'s reference section, generated from the commands'
//! declarations (the same [`CommandSpec`]s `--help` prints), so the docs
//! and the tool cannot disagree. The unit test compares the file with what
//! this renders; `SKILLS_BLESS=1` rewrites the section.
//!
//! [`CommandSpec`]: crate::python::click::CommandSpec

use crate::commands;

/// The line before the generated section.
pub const BEGIN: &str = "<!-- Generated from the commands' declarations by skills-cmd (cli_reference.rs); SKILLS_BLESS=1 cargo test -p skills-cmd cli_reference rewrites it. -->";

/// The line after it.
pub const END: &str = "<!-- End of the generated reference. -->";

/// The section: `skills --help`, then every command's `--help`, in the
/// order the group's help lists them.
pub fn render() -> String {
    let group = commands::group("skills".to_string());
    let mut out = String::new();
    out.push_str("### `skills --help`\n\n```text\n");
    out.push_str(&group.help());
    out.push_str("\n```\n");
    let mut commands = group.commands.clone();
    commands.sort_unstable_by_key(|command| command.name);
    for command in &commands {
        out.push_str(&format!(
            "\n### `skills {}`\n\n```text\n{}\n```\n",
            command.name,
            group.command_help(command)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_cli_md_is_the_help_the_tool_prints() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
        let text = std::fs::read_to_string(&path).unwrap();
        let start = text.find(BEGIN).expect("docs/cli.md has the BEGIN marker") + BEGIN.len();
        let end = text.find(END).expect("docs/cli.md has the END marker");
        let generated = format!("\n\n{}\n", render());
        if text[start..end] != generated && std::env::var_os("SKILLS_BLESS").is_some() {
            let updated = format!("{}{generated}{}", &text[..start], &text[end..]);
            std::fs::write(&path, updated).unwrap();
            return;
        }
        // The page's own list of commands, above, names every one.
        let prose = &text[..start];
        for command in commands::group("skills".to_string()).commands {
            let name = format!("`{}`", command.name);
            assert!(prose.contains(&name), "docs/cli.md does not list {name}");
        }
        assert!(
            text[start..end] == generated,
            "docs/cli.md's reference differs from --help; rerun with SKILLS_BLESS=1 and review the diff"
        );
    }

    #[test]
    fn every_help_line_fits_and_every_command_is_listed() {
        let text = render();
        for line in text.lines() {
            assert!(
                line.chars().count() <= crate::python::formatter::WIDTH,
                "too long: {line:?}"
            );
        }
        for command in commands::group("skills".to_string()).commands {
            assert!(text.contains(&format!("### `skills {}`", command.name)));
        }
    }
}
