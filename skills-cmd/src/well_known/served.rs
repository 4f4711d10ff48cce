//! The published tree read for serving (`skills mcp --http --well-known
//! DIR`): every regular file under `DIR/.well-known/`, read once before
//! the listener opens; a symbolic link or special file there is refused,
//! not followed.

use std::path::Path;

use skills_build::unstable::read_limit::read_limited;
use skills_mcp_server::http::Published;

use super::fetch::MAX_BYTES;

/// The most files a tree may hold.
const MAX_FILES: usize = 100_000;

/// The files under `dir/.well-known/`.
///
/// # Errors
///
/// No `.well-known` folder, a link or special file in it, an unreadable
/// file, a name that is not UTF-8, or more than 100,000 files or 256 MiB
/// in all.
pub fn load(dir: &Path) -> Result<Published, String> {
    let root = dir.join(".well-known");
    match std::fs::symlink_metadata(&root) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(format!("{} is not a folder", root.display())),
        Err(error) => {
            return Err(format!(
                "{}: {error} (write it with `skills publish --well-known {}`)",
                root.display(),
                dir.display()
            ));
        }
    }
    let mut published = Published::default();
    let mut total = 0u64;
    let mut pending = vec![(root, ".well-known".to_string())];
    while let Some((folder, rel)) = pending.pop() {
        let entries = std::fs::read_dir(&folder)
            .map_err(|error| format!("cannot list {}: {error}", folder.display()))?;
        for entry in entries {
            let entry =
                entry.map_err(|error| format!("cannot list {}: {error}", folder.display()))?;
            let path = entry.path();
            let name = entry
                .file_name()
                .into_string()
                .map_err(|_| format!("{}: the name is not UTF-8", path.display()))?;
            let kind = entry
                .file_type()
                .map_err(|error| format!("{}: {error}", path.display()))?;
            let child = format!("{rel}/{name}");
            if kind.is_dir() {
                pending.push((path, child));
            } else if kind.is_file() {
                let bytes = read_limited(&path, MAX_BYTES - total.min(MAX_BYTES))
                    .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
                total += bytes.len() as u64;
                published.insert(&child, bytes);
                if published.len() > MAX_FILES {
                    return Err(format!(
                        "{} holds more than {MAX_FILES} files",
                        dir.display()
                    ));
                }
            } else {
                return Err(format!(
                    "{} is a symbolic link or special file; the tree is served from regular files only",
                    path.display()
                ));
            }
        }
    }
    Ok(published)
}
