//! The `skills` command-line tool.
fn main() {}
