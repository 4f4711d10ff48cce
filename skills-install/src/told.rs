//! What a refresh told the user: the installed copies it left as they are
//! because the user changed them, each with the embedded revision it did
//! not put over them. Kept in the scope's state folder, the user's own
//! ([`state`](crate::state)), so each is told once per new version and
//! never again; never in the project, where a repository could carry a
//! file that silences the warning or sets it off.
//!
//! The file (`<tool>.<scope>.told.json`) is read as every state file is
//! (no link followed, no pipe, a size cap); what it holds is only compared
//! with what a refresh found, never joined to a path. One that cannot be
//! read counts as empty: at worst a warning is given again.

use std::collections::BTreeSet;
use std::ffi::OsStr;

use serde::{Deserialize, Serialize};

use crate::dir::Dir;
use crate::ops::Ops;
use crate::scope::Scope;
use crate::state::transaction_prefix;

/// The value of the file's `format` key.
const FORMAT: &str = "skills-install-told-v1";

/// The most bytes the file may hold.
const CAP: u64 = 4 << 20;

/// One copy left as the user changed it: its folder (as the record keys
/// it), the skill's folder name, and the embedded revision not put over
/// it (empty for a skill no longer embedded).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct Left {
    pub path: String,
    pub skill: String,
    pub revision: String,
}

/// The file as stored.
#[derive(Serialize, Deserialize)]
struct Stored {
    format: String,
    left: BTreeSet<Left>,
}

/// The file's name for `tool` in `scope`, in the scope's state folder.
pub(crate) fn file_name(tool: &str, scope: Scope) -> String {
    format!("{}told.json", transaction_prefix(tool, scope))
}

/// The copies told of, from the file `name` in the state folder `state`
/// (none when there is no file, or it cannot be read).
pub(crate) fn read(state: &Dir, name: &str) -> BTreeSet<Left> {
    let Ok(Some(bytes)) = state.read_capped(OsStr::new(name), CAP) else {
        return BTreeSet::new();
    };
    match serde_json::from_slice::<Stored>(&bytes) {
        Ok(stored) if stored.format == FORMAT => stored.left,
        _ => BTreeSet::new(),
    }
}

/// Keeps `left` as the copies told of in the file `name` of the state
/// folder `state` (removing the file when there are none). Called under
/// the scope's lock.
pub(crate) fn write(state: &Dir, name: &str, left: &BTreeSet<Left>) -> std::io::Result<()> {
    if left.is_empty() {
        return match state.remove_file(OsStr::new(name)) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        };
    }
    let stored = Stored {
        format: FORMAT.to_string(),
        left: left.clone(),
    };
    // Strings and sets of them always serialize.
    let text = serde_json::to_string_pretty(&stored).unwrap_or_default() + "\n";
    Ops::default().replace_file(state, OsStr::new(name), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_anything_else_is_empty() {
        let path = std::env::temp_dir().join(format!("install-told-{}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        let dir = Dir::open(&std::fs::canonicalize(&path).unwrap()).unwrap();
        let name = file_name("my tool", Scope::User);
        assert_eq!(name, "my-tool.user.told.json");
        assert!(read(&dir, &name).is_empty());
        let left: BTreeSet<Left> = [Left {
            path: ".claude/skills".into(),
            skill: "pdf".into(),
            revision: "sha256:00".into(),
        }]
        .into();
        write(&dir, &name, &left).unwrap();
        assert_eq!(read(&dir, &name), left);
        let file = path.join(&name);
        std::fs::write(&file, b"{\"format\": \"other\", \"left\": []}").unwrap();
        assert!(read(&dir, &name).is_empty());
        std::fs::write(&file, b"not json").unwrap();
        assert!(read(&dir, &name).is_empty());
        write(&dir, &name, &BTreeSet::new()).unwrap();
        assert!(!file.exists());
        write(&dir, &name, &BTreeSet::new()).unwrap();
        std::fs::remove_dir_all(&path).unwrap();
    }
}
