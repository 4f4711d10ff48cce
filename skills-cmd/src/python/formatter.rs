//! Help text laid out by code, as click's `HelpFormatter` lays it out:
//! paragraphs filled to the width, and definition lists (options,
//! commands, exit codes) whose second column starts where the longest first
//! column ends (at most [`COL_MAX`] wide; a longer term puts its text on
//! the next line) and wraps under itself. No help text carries hand-made
//! line breaks or padding, so no column can drift.

/// The width click lays help out to (`min(terminal, 80) - 2`, as the
/// reference's recordings were made: not on a terminal).
pub const WIDTH: usize = 78;

/// The widest first column before a term's text moves to the next line.
pub const COL_MAX: usize = 30;

/// The spaces between a term and its text.
const COL_SPACING: usize = 2;

/// `text`'s words filled greedily into lines of at most `width`
/// characters (a longer word stands alone on its line).
pub fn fill(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let needed = if line.is_empty() {
            word.chars().count()
        } else {
            line.chars().count() + 1 + word.chars().count()
        };
        if needed > width && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Paragraphs (separated by blank lines) indented by `indent` and filled
/// to [`WIDTH`]; a paragraph with a line that starts with a space is kept
/// as written (an example, a list), each line indented.
pub fn paragraphs(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = Vec::new();
    for paragraph in text.split("\n\n") {
        let lines: Vec<String> = if paragraph.lines().any(|line| line.starts_with(' ')) {
            paragraph.lines().map(str::to_string).collect()
        } else {
            fill(paragraph, WIDTH.saturating_sub(indent))
        };
        let lines: Vec<String> = lines.iter().map(|line| format!("{pad}{line}")).collect();
        out.push(lines.join("\n"));
    }
    out.join("\n\n")
}

/// A definition list: each term at `indent`, its text in a column after
/// the longest term (at most [`COL_MAX`]), wrapped to [`WIDTH`]. Every
/// line ends with a newline.
pub fn definitions(rows: &[(String, String)], indent: usize) -> String {
    let longest = rows
        .iter()
        .map(|(term, _)| term.chars().count())
        .max()
        .unwrap_or(0);
    let first_col = longest.min(COL_MAX) + COL_SPACING;
    let text_width = WIDTH.saturating_sub(first_col + indent).max(10);
    let mut out = String::new();
    for (term, text) in rows {
        out.push_str(&" ".repeat(indent));
        out.push_str(term);
        if text.is_empty() {
            out.push('\n');
            continue;
        }
        let term_len = term.chars().count();
        if term_len <= first_col - COL_SPACING {
            out.push_str(&" ".repeat(first_col - term_len));
        } else {
            out.push('\n');
            out.push_str(&" ".repeat(first_col + indent));
        }
        let lines = fill(text, text_width);
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                out.push_str(&" ".repeat(first_col + indent));
            }
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_is_greedy_and_keeps_long_words() {
        assert_eq!(fill("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(fill("abcdefgh ij", 4), ["abcdefgh", "ij"]);
        assert!(fill("  ", 4).is_empty());
    }

    #[test]
    fn paragraphs_are_filled_unless_indented() {
        let text = "one two three\n\n  kept   as\n  written";
        assert_eq!(
            paragraphs(text, 2),
            "  one two three\n\n    kept   as\n    written"
        );
    }

    #[test]
    fn definitions_align_wrap_and_move_long_terms_down() {
        let rows = [
            (
                "-o, --output FILE".to_string(),
                "Where to write.".to_string(),
            ),
            ("--x".to_string(), "word ".repeat(20)),
            ("-".repeat(31), "After.".to_string()),
        ];
        let text = definitions(&rows, 2);
        let lines: Vec<&str> = text.lines().collect();
        // The longest term is capped at COL_MAX: texts start at 2 + 32.
        assert_eq!(
            lines[0],
            format!("  -o, --output FILE{}Where to write.", " ".repeat(15))
        );
        assert!(lines[1].starts_with("  --x") && lines[1].find("word") == Some(34));
        assert!(lines.iter().all(|line| line.chars().count() <= WIDTH));
        let long = lines.iter().position(|l| l.starts_with("  ---")).unwrap();
        assert_eq!(lines[long + 1], format!("{}After.", " ".repeat(34)));
    }
}
