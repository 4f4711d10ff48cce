//! The instructions text: what a read of a skill serves, the body followed
//! by the list of its files with their sizes. The compiler calls
//! [`render`] so the bundle holds exactly the Go module's shape.

use alloc::string::String;
use core::fmt::Write;

/// Renders the instructions text for `body` and the skill's files, given
/// as `(path, size in bytes)` in the order to list them (the bundle's
/// order: sorted by path in byte order).
///
/// The body comes verbatim, then a newline if it does not end with one,
/// then an empty line and `files:`, then ` none` or one `- path (N bytes)`
/// line per file, and a final newline.
///
/// ```
/// use skills_core::wire::instructions::render;
/// assert_eq!(render("Do the minimal thing.", []), "Do the minimal thing.\n\nfiles: none\n");
/// assert_eq!(
///     render("# PDF\n", [("reference.md", 38), ("scripts/extract.py", 30)]),
///     "# PDF\n\nfiles:\n- reference.md (38 bytes)\n- scripts/extract.py (30 bytes)\n",
/// );
/// ```
pub fn render<'f>(body: &str, files: impl IntoIterator<Item = (&'f str, u64)>) -> String {
    let mut out = String::with_capacity(body.len() + 16);
    out.push_str(body);
    if !body.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("\nfiles:");
    let mut files = files.into_iter().peekable();
    if files.peek().is_none() {
        out.push_str(" none\n");
        return out;
    }
    out.push('\n');
    for (path, size) in files {
        // Writing into a String cannot fail.
        let _ = writeln!(out, "- {path} ({size} bytes)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_body() {
        assert_eq!(render("", []), "\n\nfiles: none\n");
        assert_eq!(render("\n", [("a", 0)]), "\n\nfiles:\n- a (0 bytes)\n");
    }

    #[test]
    fn go_module_example() {
        let body = "\n# PDF processing\n\n1. Extract.\n2. Report the tables.\n";
        let files = [
            ("assets/blob.bin", 1024),
            ("assets/logo.png", 73),
            ("assets/notes", 30),
            ("reference.md", 38),
            ("scripts/extract.py", 30),
        ];
        assert_eq!(
            render(body, files),
            "\n# PDF processing\n\n1. Extract.\n2. Report the tables.\n\nfiles:\n- assets/blob.bin (1024 bytes)\n- assets/logo.png (73 bytes)\n- assets/notes (30 bytes)\n- reference.md (38 bytes)\n- scripts/extract.py (30 bytes)\n"
        );
    }
}
