//! Where a compilation's bundle goes: held in memory (a `Vec<u8>`, what
//! the macro and build scripts embed), or streamed into a file as each
//! skill is encoded ([`BundleFile`], what `skills build` writes), so a
//! registry's bundle never sits in memory whole.
//!
//! Both end in the one [`BundleWriter`]: in memory it holds the encodings
//! and moves the layout's head in front of them; streamed, each encoding
//! goes to a scratch file beside the output as it is made, the writer
//! keeps only names, ends and digests, and at the end the head, the
//! scratch file's bytes (copied by the kernel) and the tail make the
//! bundle file: the same bytes either way.

use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use skills_core::wire::bundle::{Bundle, Signature};
use skills_core::wire::writer::BundleWriter;

/// Where a compilation's encodings go, and what it ends as.
pub(crate) trait BundleSink {
    /// The finished bundle.
    type Bundle;

    /// The writer keeping the names, ends and digests (for the count of
    /// skills and the revision).
    fn writer(&self) -> &BundleWriter<'static>;

    /// Takes the next skill, listed as `name`, its encoding and digest.
    fn push(&mut self, name: &str, detail: &[u8], digest: [u8; 32]) -> Result<(), String>;

    /// The bundle, with the `revision` and `signatures`.
    fn finish(
        self,
        revision: [u8; 32],
        signatures: &[Signature<'_>],
    ) -> Result<Self::Bundle, String>;
}

impl BundleSink for BundleWriter<'static> {
    type Bundle = Vec<u8>;

    fn writer(&self) -> &BundleWriter<'static> {
        self
    }

    fn push(&mut self, name: &str, detail: &[u8], digest: [u8; 32]) -> Result<(), String> {
        self.push_encoded(name, detail, digest)
            .map_err(|error| error.to_string())
    }

    fn finish(self, revision: [u8; 32], signatures: &[Signature<'_>]) -> Result<Vec<u8>, String> {
        BundleWriter::finish(self, revision, signatures).map_err(|error| error.to_string())
    }
}

/// A bundle written to a temporary file beside its destination, by a
/// streamed compilation ([`Builder::run_to_file`](crate::Builder::run_to_file)):
/// [`persist`](Self::persist) puts it in place; dropped without that, the
/// file is removed, so a build that is refused afterwards (say, for a
/// warning under `--deny-warnings`) leaves nothing behind and the
/// destination untouched.
///
/// ```
/// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
/// let out = std::env::temp_dir().join(format!("bundle-file-doc-{}.bin", std::process::id()));
/// let builder = skills_build::Builder::new().source(skills);
/// let refused = builder.run_to_file(&out, &mut |_| {}).result.unwrap().bytes;
/// drop(refused); // not persisted: nothing is left
/// assert!(!out.exists());
/// let kept = builder.run_to_file(&out, &mut |_| {}).result.unwrap().bytes;
/// kept.persist().unwrap();
/// assert!(out.exists());
/// # std::fs::remove_file(&out).unwrap();
/// ```
#[derive(Debug)]
pub struct BundleFile {
    /// The temporary file, until persisted.
    temporary: Option<PathBuf>,
    /// Where [`persist`](Self::persist) puts it.
    destination: PathBuf,
    len: u64,
    skills: usize,
}

impl BundleFile {
    /// The bundle's size in bytes.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// # let out = std::env::temp_dir().join(format!("bundle-len-doc-{}.bin", std::process::id()));
    /// let builder = skills_build::Builder::new().source(skills);
    /// let streamed = builder.run_to_file(&out, &mut |_| {}).result.unwrap().bytes;
    /// let held = builder.compile().unwrap().bytes;
    /// assert_eq!(streamed.len(), held.len() as u64);
    /// ```
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the bundle has no bytes (never: a bundle has a header).
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// # let out = std::env::temp_dir().join(format!("bundle-empty-doc-{}.bin", std::process::id()));
    /// let builder = skills_build::Builder::new().source(skills);
    /// assert!(!builder.run_to_file(&out, &mut |_| {}).result.unwrap().bytes.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many skills it lists.
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// # let out = std::env::temp_dir().join(format!("bundle-skills-doc-{}.bin", std::process::id()));
    /// let builder = skills_build::Builder::new().source(skills);
    /// assert_eq!(builder.run_to_file(&out, &mut |_| {}).result.unwrap().bytes.skills(), 3);
    /// ```
    pub fn skills(&self) -> usize {
        self.skills
    }

    /// Renames the temporary file over the destination (one atomic step:
    /// a reader sees the old bundle or the new one, never a part).
    ///
    /// ```
    /// # let skills = concat!(env!("CARGO_MANIFEST_DIR"), "/doc-skills");
    /// let out = std::env::temp_dir().join(format!("bundle-persist-doc-{}.bin", std::process::id()));
    /// std::fs::write(&out, "the old bundle").unwrap();
    /// let builder = skills_build::Builder::new().source(skills);
    /// let streamed = builder.run_to_file(&out, &mut |_| {}).result.unwrap().bytes;
    /// assert_eq!(std::fs::read(&out).unwrap(), b"the old bundle"); // untouched until...
    /// streamed.persist().unwrap();
    /// assert_eq!(std::fs::read(&out).unwrap(), builder.compile().unwrap().bytes);
    /// # std::fs::remove_file(&out).unwrap();
    /// ```
    pub fn persist(mut self) -> std::io::Result<()> {
        match self.temporary.take() {
            Some(temporary) => std::fs::rename(&temporary, &self.destination).inspect_err(|_| {
                let _ = std::fs::remove_file(&temporary);
            }),
            None => Ok(()),
        }
    }
}

impl Drop for BundleFile {
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            let _ = std::fs::remove_file(temporary);
        }
    }
}

/// A path beside `destination`, named after it with `suffix` and this
/// process's id (its tag under WASI), so two builds of one output do not
/// share it.
fn beside(destination: &Path, suffix: &str) -> PathBuf {
    let mut name = destination
        .file_name()
        .map(|name| name.to_os_string())
        .unwrap_or_else(|| "bundle".into());
    name.push(format!(".{suffix}-{}", crate::process_tag::process_tag()));
    destination.with_file_name(name)
}

/// Removes a file when dropped, unless told it is gone.
struct Scratch {
    path: Option<PathBuf>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The streamed sink: encodings to a scratch file beside the destination.
pub(crate) struct FileSink {
    writer: BundleWriter<'static>,
    encodings: BufWriter<File>,
    scratch: Scratch,
    destination: PathBuf,
}

impl FileSink {
    /// A sink for a bundle that will go to `destination`: its scratch
    /// file is created (and truncated) beside it now.
    pub(crate) fn create(destination: &Path) -> Result<Self, String> {
        let path = beside(destination, "encodings");
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|error| format!("cannot write {}: {error}", destination.display()))?;
        Ok(FileSink {
            writer: BundleWriter::new(&Bundle::default()),
            encodings: BufWriter::with_capacity(1 << 20, file),
            scratch: Scratch { path: Some(path) },
            destination: destination.to_path_buf(),
        })
    }
}

impl BundleSink for FileSink {
    type Bundle = BundleFile;

    fn writer(&self) -> &BundleWriter<'static> {
        &self.writer
    }

    fn push(&mut self, name: &str, detail: &[u8], digest: [u8; 32]) -> Result<(), String> {
        self.encodings
            .write_all(detail)
            .map_err(|error| format!("cannot write {}: {error}", self.destination.display()))?;
        self.writer
            .push_written(name, detail.len(), digest)
            .map_err(|error| error.to_string())
    }

    fn finish(
        self,
        revision: [u8; 32],
        signatures: &[Signature<'_>],
    ) -> Result<BundleFile, String> {
        let skills = self.writer.len();
        let around = self
            .writer
            .finish_around(revision, signatures)
            .map_err(|error| error.to_string())?;
        let cannot =
            |error: std::io::Error| format!("cannot write {}: {error}", self.destination.display());
        let scratch = self.scratch;
        let mut encodings = self
            .encodings
            .into_inner()
            .map_err(|error| cannot(error.into_error()))?;
        encodings.rewind().map_err(cannot)?;
        let temporary = beside(&self.destination, "partial");
        // From here on, the partial file is removed if anything fails.
        let mut bundle = BundleFile {
            temporary: Some(temporary.clone()),
            destination: self.destination.clone(),
            len: 0,
            skills,
        };
        let mut out = File::create(&temporary).map_err(cannot)?;
        out.write_all(&around.head)
            .and_then(|()| std::io::copy(&mut encodings, &mut out))
            .and_then(|_| out.write_all(&around.tail))
            .map_err(cannot)?;
        drop(encodings);
        drop(scratch);
        bundle.len = out.metadata().map_err(cannot)?.len();
        Ok(bundle)
    }
}
