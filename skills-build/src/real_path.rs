//! A path's real, absolute form (links resolved), on every target the
//! command builds for.
//!
//! On `wasm32-wasip1` the standard library resolves a path component by
//! component from the root or, for a relative path, from the working
//! directory; the sandbox pre-opens the working directory only, so every
//! absolute path fails at its first component (`/work` of
//! `/work/project/skills`) though the file is reachable. An absolute path
//! inside the working directory is resolved from there instead, as the
//! relative path it is; anything else stays as the standard library has it.

use std::io;
use std::path::{Path, PathBuf};

/// [`std::fs::canonicalize`], which also resolves an absolute path inside
/// the working directory under WASI.
///
/// ```
/// # let dir = env!("CARGO_MANIFEST_DIR");
/// let real = skills_build::unstable::real_path::canonicalize(dir).unwrap();
/// assert_eq!(real, std::fs::canonicalize(dir).unwrap());
/// ```
pub fn canonicalize(path: impl AsRef<Path>) -> io::Result<PathBuf> {
    let path = path.as_ref();
    #[cfg(target_os = "wasi")]
    if path.is_absolute()
        && let Ok(cwd) = std::env::current_dir()
        && let Ok(inside) = path.strip_prefix(&cwd)
    {
        let relative = if inside.as_os_str().is_empty() {
            Path::new(".")
        } else {
            inside
        };
        return std::fs::canonicalize(relative);
    }
    std::fs::canonicalize(path)
}
