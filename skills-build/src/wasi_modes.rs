//! Executable bits under WASI, which has no file modes.
//!
//! A folder read by the `wasm32-wasip1` build cannot see which of its
//! files are executable, so its bundle would record none and differ from
//! the native binary's for the same folder. The npm package's launcher
//! (`packaging/npm/lib/run.js`) reads the modes on the host, for the
//! folders named on the command line, and passes the real paths of the
//! executable regular files in `SKILLS_WASI_EXECUTABLES`, one a line (a
//! name holding a line break is refused as `file-name-control` anyway). A
//! file is then executable when its real path is listed. Without
//! the variable (another WASI runtime) a folder carries no modes, as on
//! Windows, and the installer falls back to the path rule.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The variable the launcher sets.
const VARIABLE: &str = "SKILLS_WASI_EXECUTABLES";

/// The executable files the launcher listed, read once; `None` when it
/// listed none (the variable is unset).
fn listed() -> Option<&'static BTreeSet<PathBuf>> {
    static LISTED: OnceLock<Option<BTreeSet<PathBuf>>> = OnceLock::new();
    LISTED
        .get_or_init(|| {
            let value = std::env::var(VARIABLE).ok()?;
            Some(
                value
                    .split('\n')
                    .filter(|path| !path.is_empty())
                    .map(PathBuf::from)
                    .collect(),
            )
        })
        .as_ref()
}

/// Whether the file at `real` (its real path) is executable, as the host
/// said; `None` when the host said nothing of modes.
pub(crate) fn executable(real: &Path) -> Option<bool> {
    listed().map(|set| set.contains(real))
}
