//! What `sign` and `verify` act on: one bundle file, or skill sources.

use std::path::Path;

use skills_build::unstable::read_limit::{ReadLimitError, read_limited};

use crate::output::{Stream, write};

/// The arguments of a command that takes a bundle or skill directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Targets<'a> {
    /// One bundle file.
    Bundle(&'a str),
    /// One or more skill sources: skill folders, folders of skills,
    /// archives.
    Dirs(&'a [String]),
}

impl<'a> Targets<'a> {
    /// Sorts the arguments out, or says (as a usage error) why they mix.
    pub fn of(args: &'a [String]) -> Result<Targets<'a>, &'static str> {
        // A skill source: a directory, a `.skill`/`.zip` archive, or a
        // path that does not exist (reported as every command reports it).
        let dirs = args
            .iter()
            .map(Path::new)
            .filter(|path| {
                path.is_dir() || skills_build::unstable::archive::is_archive(path) || !path.exists()
            })
            .count();
        match (dirs, args) {
            (0, [bundle]) => Ok(Targets::Bundle(bundle)),
            (0, _) => Err("Give one bundle file, or skill directories."),
            (n, _) if n == args.len() => Ok(Targets::Dirs(args)),
            _ => Err("Give one bundle file, or skill directories, not both."),
        }
    }
}

/// The most bytes a bundle file given to `inspect`, `sign` or `verify` may
/// hold: far more than any bundle of skills within the per-skill limits is
/// likely to need, and a bound on what a device or sparse file can cost.
pub const MAX_BUNDLE_FILE_BYTES: u64 = 1 << 30;

/// The text of the file at `path`, read as `read_limited` reads it (a
/// regular file under `limit` bytes, opened without blocking), when it is
/// UTF-8: a key, a token file.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String, ReadLimitError> {
    let bytes = read_limited(path, limit)?;
    String::from_utf8(bytes).map_err(|_| {
        ReadLimitError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// The bytes of `path`, or the error printed and `failure` as the status.
/// A special file is refused before it is opened; nothing past
/// [`MAX_BUNDLE_FILE_BYTES`] is read.
pub fn read_file(path: &str, failure: i32) -> Result<Vec<u8>, i32> {
    read_limited(Path::new(path), MAX_BUNDLE_FILE_BYTES)
        .map_err(|error| cannot_read(path, &error, failure))
}

/// `bytes` decoded as a catalog, or the error printed (`name` says which
/// bundle) and `failure` as the status.
#[cfg(feature = "installer")]
pub fn decode<'b>(
    bytes: &'b [u8],
    name: &str,
    failure: i32,
) -> Result<skills_core::Catalog<'b>, i32> {
    skills_core::Catalog::from_bytes(bytes).map_err(|error| {
        write(
            Stream::Err,
            &format!("error: {name} does not decode: {error}\n"),
        );
        failure
    })
}

/// Prints that `path` cannot be read, and why; gives `failure` back as
/// the status.
pub fn cannot_read(path: &str, error: &dyn std::fmt::Display, failure: i32) -> i32 {
    write(
        Stream::Err,
        &format!("error: cannot read {path}: {error}\n"),
    );
    failure
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_must_be_utf8() {
        let dir = skills_test_support::tree::scratch("targets", "text");
        let path = dir.join("bin");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(super::read_text_limited(&path, 10).is_err());
        std::fs::write(&path, "ok").unwrap();
        assert_eq!(super::read_text_limited(&path, 10).unwrap(), "ok");
    }

    use super::*;

    #[test]
    fn sorts_bundles_from_directories() {
        let here = std::env!("CARGO_MANIFEST_DIR").to_string();
        let file = format!("{here}/Cargo.toml");
        assert_eq!(
            Targets::of(std::slice::from_ref(&file)),
            Ok(Targets::Bundle(&file))
        );
        let dirs = [here.clone(), format!("{here}/src")];
        assert_eq!(Targets::of(&dirs), Ok(Targets::Dirs(&dirs)));
        assert!(Targets::of(&[file.clone(), here]).is_err());
        assert!(Targets::of(&[file.clone(), file]).is_err());
    }
}
