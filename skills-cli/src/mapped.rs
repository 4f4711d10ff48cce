//! A bundle file mapped into memory, for the commands that serve or show
//! one (`mcp --bundle`, `inspect`): a replica starts at once, whatever the
//! bundle's size, and the pages of a skill are read from disk when the
//! skill is first used (the runtime opens a bundle lazily and decodes one
//! skill per first call), so a server's memory is what it serves, not the
//! whole file.
//!
//! Mapping a file is the one `unsafe` operation of the workspace (every
//! other crate forbids it, and the workspace denies it): `memmap2::Mmap`
//! hands out a `&[u8]` over memory the kernel fills from the file, which
//! Rust cannot prove stays unchanged. It is sound enough here because:
//!
//! - the mapping is private and read-only: nothing in this process writes
//!   through it;
//! - every byte is treated as untrusted input (the decoder never panics on
//!   any bytes and checks bounds), so another process changing the file
//!   under us gives wrong answers, not undefined behaviour in our code;
//! - a file truncated under us makes reads past its new end raise SIGBUS,
//!   which ends the process: the failure a replica's supervisor sees when
//!   its bundle is replaced in place, which deployments avoid by writing a
//!   new file and renaming it over the old one (`skills build` does: the
//!   old mapping keeps the old file).
//!
//! Anything other than a non-empty regular file (a pipe, a terminal, an
//! empty file) is read into memory instead, with the same limits as any
//! bundle read: a mapping of those either fails or would not stay put.

#![allow(unsafe_code)]

use std::path::Path;

use skills_build::unstable::read_limit::{ReadLimitError, open_limited, read_limited};

use crate::targets::MAX_BUNDLE_FILE_BYTES;

/// A bundle's bytes: mapped from its file, or read.
#[derive(Debug)]
pub enum BundleFile {
    /// A non-empty regular file, mapped.
    Mapped(memmap2::Mmap),
    /// Anything else, read.
    Read(Vec<u8>),
}

impl std::ops::Deref for BundleFile {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            BundleFile::Mapped(map) => map,
            BundleFile::Read(bytes) => bytes,
        }
    }
}

impl BundleFile {
    /// Maps the file at `path`, or reads it (see the module documentation).
    pub fn open(path: &Path) -> Result<BundleFile, ReadLimitError> {
        let (file, meta) = open_limited(path, MAX_BUNDLE_FILE_BYTES)?;
        if !meta.is_file() || meta.len() == 0 {
            drop(file);
            return read_limited(path, MAX_BUNDLE_FILE_BYTES).map(BundleFile::Read);
        }
        // SAFETY: a private, read-only mapping of a regular file this
        // process never writes; its bytes are decoded as untrusted input,
        // and a truncation under us ends the process with SIGBUS (see the
        // module documentation for why that is acceptable).
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(ReadLimitError::Io)?;
        Ok(BundleFile::Mapped(map))
    }
}

/// The bundle file at `path`, mapped or read, or the error printed and
/// `failure` as the status.
pub fn open_bundle(path: &str, failure: i32) -> Result<BundleFile, i32> {
    BundleFile::open(Path::new(path))
        .map_err(|error| crate::targets::cannot_read(path, &error, failure))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_mapped_and_the_rest_read() {
        let dir = std::env::temp_dir().join(format!("skills-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bundle.bin");
        std::fs::write(&file, b"SKB\0bytes").unwrap();
        let mapped = BundleFile::open(&file).unwrap();
        assert!(matches!(mapped, BundleFile::Mapped(_)));
        assert_eq!(&*mapped, b"SKB\0bytes");
        let empty = dir.join("empty.bin");
        std::fs::write(&empty, b"").unwrap();
        assert!(
            matches!(BundleFile::open(&empty).unwrap(), BundleFile::Read(bytes) if bytes.is_empty())
        );
        assert!(BundleFile::open(&dir.join("missing.bin")).is_err());
        assert!(BundleFile::open(&dir).is_err(), "a directory is refused");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
