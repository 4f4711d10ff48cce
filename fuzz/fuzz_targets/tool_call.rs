//! Any arguments to the `skill` tool of a real catalog: the model's JSON,
//! and a name and path given directly. Every call must answer (a reply or
//! an error) without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_core::Catalog;

/// The documentation's example bundle (skills-core/doc-bundles).
static BUNDLE: &[u8] = include_bytes!("../../skills-core/doc-bundles/example.bin");

fuzz_target!(|data: &[u8]| {
    let catalog = Catalog::from_bytes(BUNDLE).expect("the documentation bundle opens");
    let text = String::from_utf8_lossy(data);
    if let Ok(served) = catalog.call_json(&text) {
        let _ = served.reply.as_text();
    }
    // NAME NUL PATH, or just NAME.
    let (name, path) = match text.split_once('\0') {
        Some((name, path)) => (name, Some(path)),
        None => (&*text, None),
    };
    let _ = catalog.call(name, path);
    let _ = catalog.outline(name);
});
