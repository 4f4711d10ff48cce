//! Skills that hold fake secrets, written at test time from parts, so that
//! no file of the repository looks like a leaked key to a secret scanner;
//! they look like one to the audit, which is the point. Used by the macro's
//! UI tests and the audit's CLI recordings.

use std::path::Path;

/// A random-looking text of `len` characters (no real key or token).
pub fn noise(len: usize) -> String {
    let alphabet = b"q7Rz2Kp9WmX4vN8bT3hJ6cY5gL1dF0sA";
    (0..len)
        .map(|i| char::from(alphabet[(i * 7 + i / 3) % alphabet.len()]))
        .collect()
}

/// Writes `audit-private-key/deploy` (an OpenSSH private key block under
/// `keys/`) and `audit-credential/deploy` (a GitHub token in `.env`) under
/// `root`.
pub fn write_fixtures(root: &Path) {
    let skill = "---\nname: deploy\ndescription: Deploys the site. Use when the user asks to ship.\n---\n# Deploy\n\nRun `keys/` and `.env` setup first.\n";
    let label = ["OPENSSH", "PRIVATE", "KEY"].join(" ");
    let key = format!(
        "-----BEGIN {label}-----\n{}\n{}\n{}\n-----END {label}-----\n",
        noise(70),
        noise(70),
        noise(40)
    );
    let token = format!("GITHUB_TOKEN={}_{}\n", "ghp", noise(36));
    for (dir, file, bytes) in [
        ("audit-private-key/deploy", "keys/id_ed25519", key),
        ("audit-credential/deploy", ".env", token),
    ] {
        let skill_dir = root.join(dir);
        let path = skill_dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).expect("create a fixture folder");
        std::fs::write(skill_dir.join("SKILL.md"), skill).expect("write a fixture");
        std::fs::write(&path, bytes).expect("write a fixture");
    }
}
