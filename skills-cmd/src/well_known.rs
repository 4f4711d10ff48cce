//! The well-known discovery index (agentskills.io's 0.2.0, the Cloudflare
//! RFC): `/.well-known/agent-skills/index.json` lists each skill with its
//! name, description, type (`skill-md` for a skill that is one file,
//! `archive` for the rest), a URL resolved against the index's, and the
//! SHA-256 of the artifact's exact bytes. Archives hold the skill's files
//! at their root. The 0.1 layout (`/.well-known/skills/index.json` and
//! each file under `/.well-known/skills/NAME/`) is written beside it on
//! request, for older clients.
//!
//! [`publish`] makes the tree in memory from skills as read; [`verify`]
//! checks a published tree, on disk or served, against its artifacts.

pub mod fetch;
pub mod publish;
#[cfg(feature = "mcp")]
pub mod served;
pub mod verify;

use skills_core::encoding::json::{Json, Style};

/// The 0.2.0 index's `$schema`.
pub const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// Where the 0.2.0 index and its artifacts live, under the origin's root.
pub const INDEX_DIR: &str = ".well-known/agent-skills";

/// Where the 0.1 layout lives.
pub const LEGACY_DIR: &str = ".well-known/skills";

/// The index's file name, in both layouts.
pub const INDEX_FILE: &str = "index.json";

/// The longest description an entry may carry (the Agent Skills limit).
pub const MAX_DESCRIPTION: usize = 1024;

/// What an index entry points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The skill's `SKILL.md`, alone.
    SkillMd,
    /// An archive of the skill's files at its root.
    Archive,
}

impl Kind {
    /// The value of the entry's `type`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SkillMd => "skill-md",
            Kind::Archive => "archive",
        }
    }
}

/// One entry of a 0.2.0 index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The skill's name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// What `url` points at.
    pub kind: Kind,
    /// The artifact, relative to the index.
    pub url: String,
    /// `sha256:<hex>` of the artifact's bytes.
    pub digest: String,
}

/// Whether `name` is a name the index may list: 1 to 64 of `a-z`, `0-9`
/// and `-`, neither first nor last a hyphen, no two hyphens in a row (the
/// Agent Skills rule, which clients apply to entries).
///
/// ```ignore
/// assert!(is_index_name("pdf-tools"));
/// assert!(!is_index_name("Pdf") && !is_index_name("a--b") && !is_index_name("team:pdf"));
/// ```
pub fn is_index_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let hash = skills_core::sha256::digest(bytes);
    let mut text = String::from("sha256:");
    for byte in hash {
        text.push_str(&format!("{byte:02x}"));
    }
    text
}

/// The 0.2.0 index of `entries` (in the order given), keys sorted, two
/// spaces of indent, UTF-8 as is, a final newline.
pub fn index_json(entries: &[Entry]) -> Vec<u8> {
    let skills = entries
        .iter()
        .map(|entry| {
            Json::Object(vec![
                ("description".into(), Json::Str(entry.description.clone())),
                ("digest".into(), Json::Str(entry.digest.clone())),
                ("name".into(), Json::Str(entry.name.clone())),
                ("type".into(), Json::Str(entry.kind.as_str().into())),
                ("url".into(), Json::Str(entry.url.clone())),
            ])
        })
        .collect();
    let index = Json::Object(vec![
        ("$schema".into(), Json::Str(SCHEMA.into())),
        ("skills".into(), Json::Array(skills)),
    ]);
    (index.to_text(Style::indented(2).with_ascii(false)) + "\n").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_names_follow_the_agent_skills_rule() {
        assert!(is_index_name("pdf-tools") && is_index_name("a1"));
        for bad in ["", "Pdf", "a--b", "-a", "a-", "team:pdf", &"a".repeat(65)] {
            assert!(!is_index_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_digest_is_sha256_of_the_bytes_in_lower_hex() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
