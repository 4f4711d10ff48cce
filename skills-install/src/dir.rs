//! An open folder, and everything the installer reads or changes inside
//! one.
//!
//! A path is looked up again at every call: a folder on the way swapped
//! for a link between the check and the use sends the call somewhere
//! else. So the installer opens each folder it works in once, every part
//! of its path without following a link (`O_DIRECTORY | O_NOFOLLOW`), and
//! does every create, rename, link and removal relative to that open
//! folder (`mkdirat`, `renameat`, `linkat`, `unlinkat`, `openat` with
//! `O_NOFOLLOW`), one name at a time. Whatever is swapped afterwards, the
//! calls stay in the folder that was opened and checked; a link where a
//! folder was expected makes the call fail instead of being followed.
//!
//! On Unix this is [`rustix`]'s safe system calls. Elsewhere (Windows) a
//! [`Dir`] keeps the folder's path and each call checks that no part of
//! what it names is a link before acting on it by path: the same refusals,
//! but a folder swapped between the check and the call is not caught
//! (`docs/hostile-input.md` says so).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The most levels [`Dir::remove_all`] goes down: a tree deeper than that
/// was not made by the installer, and is left (with an error) rather than
/// walked with one open folder per level.
const MAX_DEPTH: usize = 256;

/// An open folder: its handle, and the path it was opened at (for
/// messages; never looked up again on Unix).
#[derive(Debug)]
pub(crate) struct Dir {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
    path: PathBuf,
}

/// Which file a name stood for: its device and inode (where the system
/// has them), so a run can tell later whether what it finds is what it
/// left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Identity {
    pub dev: u64,
    pub ino: u64,
}

/// What a name in a folder is, links not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A regular file of this size.
    File { size: u64 },
    /// A folder.
    Dir,
    /// A symbolic link.
    Link,
    /// A pipe, a socket, a device.
    Other,
}

/// A name's kind and identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    pub kind: Kind,
    pub id: Option<Identity>,
}

/// The error for a link where the installer expected a folder or a file.
pub(crate) fn is_a_link(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is a link, and the installer follows no link here",
            path.display()
        ),
    )
}

/// Refuses a name that is not one plain part of a path.
fn plain(name: &OsStr) -> io::Result<&OsStr> {
    let mut parts = Path::new(name).components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(part)), None) if part == name => Ok(name),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not one plain name", Path::new(name).display()),
        )),
    }
}

impl Dir {
    /// The path the folder was opened at.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of `name` in it, for messages.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }

    /// Opens the folder at the absolute `path` (canonical: no `.` or `..`),
    /// every part of it without following a link: a link anywhere on the
    /// way is an error.
    pub fn open(path: &Path) -> io::Result<Dir> {
        let (root, rest) = match path.components().next() {
            Some(Component::Prefix(prefix)) => (
                PathBuf::from(prefix.as_os_str()).join(std::path::MAIN_SEPARATOR_STR),
                path.components().skip(2).collect::<PathBuf>(),
            ),
            Some(Component::RootDir) => (PathBuf::from("/"), path.components().skip(1).collect()),
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} is not an absolute path", path.display()),
                ));
            }
        };
        Dir::root(&root)?.open_dirs(&rest)
    }

    /// Opens the folders of the relative `path` below this one, one part
    /// at a time, following no link.
    pub fn open_dirs(&self, path: &Path) -> io::Result<Dir> {
        let mut dir = self.try_clone()?;
        for part in path.components() {
            match part {
                Component::Normal(name) => dir = dir.open_dir(name)?,
                Component::CurDir => {}
                _ => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{} is not a plain relative path", path.display()),
                    ));
                }
            }
        }
        Ok(dir)
    }

    /// The names in the folder (not `.` and `..`), at most `most` of them:
    /// more is an error.
    pub fn names(&self, most: usize) -> io::Result<Vec<OsString>> {
        self.read_names(most)
    }

    /// Removes `name` and, if it is a folder, everything in it, relative to
    /// this folder all the way down: a link is removed, never followed.
    pub fn remove_all(&self, name: &OsStr) -> io::Result<()> {
        self.remove_all_at(name, 0)
    }

    fn remove_all_at(&self, name: &OsStr, depth: usize) -> io::Result<()> {
        match self.stat(name)? {
            None => Ok(()),
            Some(Stat {
                kind: Kind::Dir, ..
            }) => {
                if depth >= MAX_DEPTH {
                    return Err(io::Error::other(format!(
                        "{} is more than {MAX_DEPTH} folders deep",
                        self.join(name).display()
                    )));
                }
                let inner = self.open_dir(name)?;
                for entry in inner.names(usize::MAX)? {
                    inner.remove_all_at(&entry, depth + 1)?;
                }
                self.remove_dir(name)
            }
            Some(_) => self.remove_file(name),
        }
    }

    /// Reads the file `name` whole if it is a regular file of at most `cap`
    /// bytes, opened as [`open_file`](Self::open_file) opens; `None` when
    /// there is none.
    pub fn read_capped(&self, name: &OsStr, cap: u64) -> io::Result<Option<Vec<u8>>> {
        use std::io::Read;
        let file = match self.open_file(name) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        };
        let size = file.metadata()?.len();
        if size > cap {
            return Err(too_large(cap));
        }
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > cap {
            return Err(too_large(cap));
        }
        Ok(Some(bytes))
    }
}

fn too_large(cap: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("it holds more than {} MiB", cap >> 20),
    )
}

/// Refuses anything but a regular file, in words.
pub(crate) fn regular(file: &File) -> io::Result<()> {
    let meta = file.metadata()?;
    if meta.is_file() {
        return Ok(());
    }
    let kind = if meta.is_dir() {
        "a folder"
    } else if is_fifo(&meta) {
        "a named pipe (FIFO)"
    } else {
        "a device, a socket or another special file"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {kind}, not a regular file"),
    ))
}

#[cfg(unix)]
fn is_fifo(meta: &std::fs::Metadata) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type())
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
mod sys {
    //! The calls, relative to an open folder, through `rustix`.

    use std::ffi::{OsStr, OsString};
    use std::fs::File;
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    use rustix::fs::{AtFlags, FileType, Mode, OFlags, RawMode};

    use crate::dir::{Dir, Identity, Kind, Stat, is_a_link, plain, regular};

    const DIR: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::NOFOLLOW)
        .union(OFlags::CLOEXEC);

    /// A `rustix` error as a std one.
    fn err(errno: rustix::io::Errno) -> io::Error {
        io::Error::from(errno)
    }

    /// The fields of a `stat` this module reads. Their types differ
    /// between systems (`st_mode` is 16 bits on macOS, `st_dev` signed),
    /// hence the casts, which are no-ops on Linux.
    #[allow(clippy::unnecessary_cast)]
    fn stat_of(st: &rustix::fs::Stat) -> (Stat, u32, u32) {
        let kind = match FileType::from_raw_mode(st.st_mode as RawMode) {
            FileType::RegularFile => Kind::File {
                size: st.st_size as u64,
            },
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Link,
            _ => Kind::Other,
        };
        let id = Identity {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
        };
        (
            Stat { kind, id: Some(id) },
            st.st_uid as u32,
            st.st_mode as u32,
        )
    }

    impl Dir {
        pub(super) fn root(path: &Path) -> io::Result<Dir> {
            let fd = rustix::fs::open(path, DIR, Mode::empty()).map_err(err)?;
            Ok(Dir {
                fd,
                path: path.to_path_buf(),
            })
        }

        /// Another handle on the same folder.
        pub fn try_clone(&self) -> io::Result<Dir> {
            Ok(Dir {
                fd: self.fd.try_clone()?,
                path: self.path.clone(),
            })
        }

        /// Opens folder `name` in it, not following a link.
        pub fn open_dir(&self, name: &OsStr) -> io::Result<Dir> {
            let name = plain(name)?;
            match rustix::fs::openat(&self.fd, name, DIR, Mode::empty()) {
                Ok(fd) => Ok(Dir {
                    fd,
                    path: self.path.join(name),
                }),
                Err(errno) => Err(self.why(name, err(errno))),
            }
        }

        /// What `name` is, links not followed; `None` when nothing is there.
        pub fn stat(&self, name: &OsStr) -> io::Result<Option<Stat>> {
            let name = plain(name)?;
            match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) => Ok(Some(stat_of(&st).0)),
                Err(rustix::io::Errno::NOENT) => Ok(None),
                Err(errno) => Err(err(errno)),
            }
        }

        /// The folder's owner and permission bits.
        pub fn owner_and_mode(&self) -> io::Result<(u32, u32)> {
            let st = rustix::fs::fstat(&self.fd).map_err(err)?;
            let (_, uid, mode) = stat_of(&st);
            Ok((uid, mode & 0o7777))
        }

        pub(super) fn read_names(&self, most: usize) -> io::Result<Vec<OsString>> {
            let mut names = Vec::new();
            let entries = rustix::fs::Dir::read_from(&self.fd).map_err(err)?;
            for entry in entries {
                let entry = entry.map_err(err)?;
                let name = entry.file_name().to_bytes();
                if name == b"." || name == b".." {
                    continue;
                }
                if names.len() == most {
                    return Err(io::Error::other(format!(
                        "{} holds more than {most} entries",
                        self.path.display()
                    )));
                }
                names.push(OsStr::from_bytes(name).to_os_string());
            }
            names.sort();
            Ok(names)
        }

        /// The target of link `name`, as written.
        pub fn read_link(&self, name: &OsStr) -> io::Result<PathBuf> {
            let target = rustix::fs::readlinkat(&self.fd, plain(name)?, Vec::new()).map_err(err)?;
            Ok(PathBuf::from(OsStr::from_bytes(target.as_bytes())))
        }

        /// Opens file `name` for reading: a link there is refused, not
        /// followed, a pipe does not block the open, and what was opened
        /// must be a regular file.
        pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
            let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
            self.open_with(name, flags, Mode::empty())
        }

        /// Creates file `name` (never replacing one, never through a link),
        /// for writing, with these permission bits (subject to the umask).
        pub fn create_file(&self, name: &OsStr, mode: u32) -> io::Result<File> {
            let flags =
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            self.open_with(name, flags, Mode::from_raw_mode(mode as RawMode))
        }

        /// Opens file `name` for writing, creating it when missing (mode
        /// 0600), never through a link, never a pipe or device.
        pub fn open_or_create(&self, name: &OsStr) -> io::Result<File> {
            let flags = OFlags::WRONLY
                | OFlags::CREATE
                | OFlags::NOFOLLOW
                | OFlags::NONBLOCK
                | OFlags::CLOEXEC;
            self.open_with(name, flags, Mode::from_raw_mode(0o600))
        }

        fn open_with(&self, name: &OsStr, flags: OFlags, mode: Mode) -> io::Result<File> {
            let name = plain(name)?;
            let fd = rustix::fs::openat(&self.fd, name, flags, mode)
                .map_err(|errno| self.why(name, err(errno)))?;
            let file = File::from(fd);
            regular(&file)?;
            Ok(file)
        }

        /// When an open fails on something other than what was asked for
        /// (a link, a file where a folder goes), says what it is.
        fn why(&self, name: &OsStr, error: io::Error) -> io::Error {
            match self.stat(name) {
                Ok(Some(Stat {
                    kind: Kind::Link, ..
                })) => is_a_link(&self.path.join(name)),
                Ok(Some(Stat {
                    kind: Kind::File { .. } | Kind::Other,
                    ..
                })) if error.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error()) => {
                    io::Error::new(
                        io::ErrorKind::NotADirectory,
                        format!("{} is not a folder", self.path.join(name).display()),
                    )
                }
                _ => error,
            }
        }

        /// Creates folder `name` (permission bits 0777 less the umask).
        pub fn mkdir(&self, name: &OsStr, mode: u32) -> io::Result<()> {
            rustix::fs::mkdirat(&self.fd, plain(name)?, Mode::from_raw_mode(mode as RawMode))
                .map_err(err)
        }

        /// Renames `name` to `to_name` in folder `to`.
        pub fn rename(&self, name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
            rustix::fs::renameat(&self.fd, plain(name)?, &to.fd, plain(to_name)?).map_err(err)
        }

        /// Removes file (or link) `name`.
        pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
            rustix::fs::unlinkat(&self.fd, plain(name)?, AtFlags::empty()).map_err(err)
        }

        /// Removes the empty folder `name`.
        pub fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
            rustix::fs::unlinkat(&self.fd, plain(name)?, AtFlags::REMOVEDIR).map_err(err)
        }

        /// Makes `name` a symbolic link to `target`.
        pub fn symlink(&self, target: &Path, name: &OsStr) -> io::Result<()> {
            rustix::fs::symlinkat(target, &self.fd, plain(name)?).map_err(err)
        }

        /// Makes `to_name` in folder `to` another name for `name` (a link
        /// there is linked as a link, never followed).
        pub fn hard_link(&self, name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
            rustix::fs::linkat(
                &self.fd,
                plain(name)?,
                &to.fd,
                plain(to_name)?,
                AtFlags::empty(),
            )
            .map_err(err)
        }
    }
}

/// The effective user.
#[cfg(unix)]
pub(crate) fn user() -> u32 {
    rustix::process::geteuid().as_raw()
}

#[cfg(not(unix))]
mod sys {
    //! The fallback where there are no calls relative to an open folder
    //! (Windows): each call checks that what it names is no link, then acts
    //! on the path. A folder swapped between the check and the call is not
    //! caught here.

    use std::ffi::{OsStr, OsString};
    use std::fs::{self, File, OpenOptions};
    use std::io;
    use std::path::{Path, PathBuf};

    use crate::dir::{Dir, Kind, Stat, is_a_link, plain, regular};

    fn kind_of(meta: &fs::Metadata) -> Kind {
        let kind = meta.file_type();
        if kind.is_symlink() {
            Kind::Link
        } else if kind.is_dir() {
            Kind::Dir
        } else if kind.is_file() {
            Kind::File { size: meta.len() }
        } else {
            Kind::Other
        }
    }

    impl Dir {
        pub(super) fn root(path: &Path) -> io::Result<Dir> {
            fs::read_dir(path)?;
            Ok(Dir {
                path: path.to_path_buf(),
            })
        }

        pub fn try_clone(&self) -> io::Result<Dir> {
            Ok(Dir {
                path: self.path.clone(),
            })
        }

        pub fn open_dir(&self, name: &OsStr) -> io::Result<Dir> {
            let path = self.path.join(plain(name)?);
            match fs::symlink_metadata(&path)? {
                meta if meta.file_type().is_symlink() => Err(is_a_link(&path)),
                meta if meta.is_dir() => Ok(Dir { path }),
                _ => Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    format!("{} is not a folder", path.display()),
                )),
            }
        }

        pub fn stat(&self, name: &OsStr) -> io::Result<Option<Stat>> {
            match fs::symlink_metadata(self.path.join(plain(name)?)) {
                Ok(meta) => Ok(Some(Stat {
                    kind: kind_of(&meta),
                    id: None,
                })),
                Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(error) => Err(error),
            }
        }

        pub(super) fn read_names(&self, most: usize) -> io::Result<Vec<OsString>> {
            let mut names = Vec::new();
            for item in fs::read_dir(&self.path)? {
                if names.len() == most {
                    return Err(io::Error::other(format!(
                        "{} holds more than {most} entries",
                        self.path.display()
                    )));
                }
                names.push(item?.file_name());
            }
            names.sort();
            Ok(names)
        }

        pub fn read_link(&self, name: &OsStr) -> io::Result<PathBuf> {
            fs::read_link(self.path.join(plain(name)?))
        }

        fn refuse_link(&self, name: &OsStr) -> io::Result<PathBuf> {
            let path = self.path.join(plain(name)?);
            if path
                .symlink_metadata()
                .is_ok_and(|meta| meta.file_type().is_symlink())
            {
                return Err(is_a_link(&path));
            }
            Ok(path)
        }

        pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
            let file = File::open(self.refuse_link(name)?)?;
            regular(&file)?;
            Ok(file)
        }

        pub fn create_file(&self, name: &OsStr, _mode: u32) -> io::Result<File> {
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(self.refuse_link(name)?)
        }

        pub fn open_or_create(&self, name: &OsStr) -> io::Result<File> {
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(self.refuse_link(name)?)?;
            regular(&file)?;
            Ok(file)
        }

        pub fn mkdir(&self, name: &OsStr, _mode: u32) -> io::Result<()> {
            fs::create_dir(self.path.join(plain(name)?))
        }

        pub fn rename(&self, name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
            fs::rename(self.path.join(plain(name)?), to.path.join(plain(to_name)?))
        }

        pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
            let path = self.path.join(plain(name)?);
            match fs::symlink_metadata(&path)?.is_dir() {
                // A link to a folder is removed as a folder on Windows.
                true => fs::remove_dir(path),
                false => fs::remove_file(path),
            }
        }

        pub fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
            fs::remove_dir(self.refuse_link(name)?)
        }

        pub fn symlink(&self, target: &Path, name: &OsStr) -> io::Result<()> {
            #[cfg(windows)]
            return std::os::windows::fs::symlink_dir(target, self.path.join(plain(name)?));
            #[cfg(not(windows))]
            {
                let _ = (target, name);
                Err(io::Error::from(io::ErrorKind::Unsupported))
            }
        }

        pub fn hard_link(&self, name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
            fs::hard_link(self.refuse_link(name)?, to.path.join(plain(to_name)?))
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_followed_and_names_are_plain() {
        let root = std::env::temp_dir().join(format!("install-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::os::unix::fs::symlink(root.join("outside"), root.join("a/link")).unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        let a = Dir::open(&root.join("a")).unwrap();
        assert!(a.open_dir(OsStr::new("b")).is_ok());
        let error = a.open_dir(OsStr::new("link")).unwrap_err();
        assert!(error.to_string().contains("is a link"), "{error}");
        assert!(Dir::open(&root.join("a/link")).is_err());
        assert!(a.open_file(OsStr::new("link")).is_err());
        assert!(a.create_file(OsStr::new("link"), 0o666).is_err());
        for bad in ["..", "b/..", "", ".", "b/c"] {
            assert!(a.stat(OsStr::new(bad)).is_err(), "{bad:?}");
        }
        assert_eq!(
            a.stat(OsStr::new("link")).unwrap().unwrap().kind,
            Kind::Link
        );
        // A removal goes through no link: the folder it points at stays.
        std::fs::write(root.join("outside/keep"), "x").unwrap();
        a.remove_all(OsStr::new("link")).unwrap();
        assert!(root.join("outside/keep").is_file());
        std::fs::write(root.join("a/b/f"), "x").unwrap();
        a.remove_all(OsStr::new("b")).unwrap();
        assert!(a.names(10).unwrap().is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
