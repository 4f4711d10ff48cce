//! The audit's secret rules over a file that is no skill's: a plugin's
//! `mcp.json`, whose `env` and `headers` values every client that loads
//! the plugin reads. The rules are the audit's own ([`super::secrets`]),
//! run over the text as given, so what they find is located in it.

use super::findings::Findings;
use super::position::Located;
use super::scan;
use super::secrets;
use super::skill::{Skill, TextFile};
use crate::problem::{Position, Problem};

/// The private keys and credentials the audit finds in `text`, a file
/// named `path` (its last segment decides whether it reads as a `.env`
/// file) and located as `location` in the problems.
///
/// ```
/// use skills_build::unstable::content::secrets_in;
/// let token = concat!("ghp_", "Zq8Yw3Lm0Pn4Rt7Vx1Bc5Df9Gh2Jk6Ms0Qa7");
/// let found = secrets_in("plugin/mcp.json", "mcp.json", &format!("{{\"t\": \"{token}\"}}"));
/// assert_eq!(found[0].code.as_str(), "credential");
/// assert_eq!(found[0].file.as_deref(), Some("plugin/mcp.json"));
/// assert!(secrets_in("mcp.json", "mcp.json", "{\"X-Tenant\": \"public\"}").is_empty());
/// ```
pub fn secrets_in(location: &str, path: &str, text: &str) -> Vec<Problem> {
    let skill = Skill {
        skill_file: path,
        file_location: location,
        folder_location: "",
        bytes: &[],
        document: None,
        files: &[],
    };
    let file = TextFile {
        path,
        text: Located::new(text, Position { line: 1, column: 1 }),
        skill_file: false,
        marks: scan::marks(text.as_bytes()),
    };
    let mut findings = Findings::new(&[]);
    secrets::private_keys(&skill, &file, &mut findings);
    secrets::credentials(&skill, &file, &mut findings);
    findings.problems
}
