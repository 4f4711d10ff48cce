//! What the server's behaviour tests share: the bundle of the workspace's
//! `testdata/skills`, compiled the way a build script compiles it.

use std::path::Path;

/// `testdata/skills` compiled into bundle bytes.
pub fn testdata_bundle() -> Vec<u8> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/skills"));
    skills_build::Builder::new()
        .source(root)
        .compile()
        .expect("testdata/skills compiles")
        .bytes
}
