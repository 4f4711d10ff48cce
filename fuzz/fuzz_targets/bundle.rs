//! Any bytes as a bundle: decoding must refuse or accept without a panic,
//! and an accepted catalog must serve every call it can be asked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_core::Catalog;

fuzz_target!(|data: &[u8]| {
    // The lazy opening, then the full one; both must agree on acceptance
    // of what they check.
    if let Ok(lazy) = Catalog::open(data) {
        let _ = lazy.check();
        for name in lazy.names() {
            let _ = lazy.call(name, None);
        }
        // Listings a page at a time, through the listing order.
        for position in 0..=lazy.len() {
            if let Some(at) = lazy.listed(position) {
                let _ = lazy.with_skill(at, |skill| skill.files.len());
            }
        }
    }
    let Ok(catalog) = Catalog::from_bytes(data) else {
        return;
    };
    let _ = catalog.system_prompt();
    let _ = catalog.tool_definition();
    let _ = catalog.manifest(None);
    let _ = catalog.manifest(Some("skills"));
    for skill in catalog.skills() {
        assert!(catalog.lookup(skill.name).is_some());
        let _ = catalog.outline(skill.name);
        let _ = catalog.call(skill.name, None);
        let _ = catalog.call(skill.name, Some("SKILL.md"));
        for file in &skill.files {
            if let Ok(served) = catalog.call(skill.name, Some(file.path)) {
                let _ = served.reply.as_text();
            }
        }
        let _ = catalog.call(skill.name, Some("missing/file.md"));
    }
    let _ = catalog.call("", None);
    let _ = catalog.call("../x", Some("../../etc/passwd"));
});
