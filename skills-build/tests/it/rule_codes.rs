//! The rule codes are documented: `docs/rule-codes.md` holds the table of
//! every code with its rule book, severity and meaning, exactly as
//! `Code::table()` renders it. Adding, renaming or rewording a rule without
//! updating the docs fails here; `SKILLS_BLESS=1` rewrites the table.
//!
//! That every rule has a code and no two share one is the unit test
//! `problem::tests::every_code_is_kebab_case_and_unique` (and the type:
//! a `Problem` cannot be made without a `Code`).

use skills_build::problem::Code;

use crate::support;

const BEGIN: &str = "<!-- rule codes: begin -->\n";
const END: &str = "<!-- rule codes: end -->\n";

#[test]
fn the_docs_list_every_code_with_its_meaning() {
    let path = support::workspace().join("docs/rule-codes.md");
    let text = std::fs::read_to_string(&path).expect("docs/rule-codes.md");
    let start = text.find(BEGIN).expect("begin marker") + BEGIN.len();
    let end = text.find(END).expect("end marker");
    let table = Code::table();
    if text[start..end] != table && std::env::var_os("SKILLS_BLESS").is_some() {
        let fixed = format!("{}{table}{}", &text[..start], &text[end..]);
        std::fs::write(&path, fixed).unwrap();
        return;
    }
    assert_eq!(
        &text[start..end],
        table,
        "docs/rule-codes.md is out of date; rerun with SKILLS_BLESS=1"
    );
    for code in Code::ALL {
        assert_eq!(
            text.matches(&format!("| `{}` |", code.as_str())).count(),
            1,
            "{code} is documented once"
        );
    }
}
