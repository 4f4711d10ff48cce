//! `include_skills!` over a `.skill` archive, with skills-runtime's
//! `archive` feature on: the archive compiles into the very bundle its
//! unpacked folder gives, byte for byte.
//!
//! The trybuild crate beside this one (`tests/`) keeps the feature off, for
//! its case that an archive without the feature is refused with an error
//! naming the feature; this crate is the passing case, in the same
//! `cargo test --workspace`. Its fixtures are the committed archive that
//! Anthropic's packager layout gives (`testdata/archive/`, made by
//! `testdata/archive/claude_package.py`) and the folder it was packed from.

#[cfg(test)]
mod tests {
    use skills_runtime::Embedded;

    static FROM_ARCHIVE: Embedded =
        skills_runtime::include_skills!("../../testdata/archive/report-writer.skill");
    static FROM_FOLDER: Embedded =
        skills_runtime::include_skills!("../../testdata/archive/skills/report-writer");
    static FROM_PARENT: Embedded = skills_runtime::include_skills!("../../testdata/archive/skills");

    #[test]
    fn an_archive_gives_the_bundle_of_its_folder() {
        assert!(!FROM_ARCHIVE.bytes().is_empty());
        assert_eq!(FROM_ARCHIVE.bytes(), FROM_FOLDER.bytes());
        assert_eq!(FROM_ARCHIVE.bytes(), FROM_PARENT.bytes());
    }

    #[test]
    fn the_archived_skill_is_served() {
        let catalog = FROM_ARCHIVE.catalog().expect("the embedded bundle decodes");
        assert_eq!(catalog.names().collect::<Vec<_>>(), ["report-writer"]);
        let file = catalog
            .call("report-writer", Some("references/style.md"))
            .expect("a file packed in the archive is served");
        assert!(file.read.bytes > 0);
    }
}
