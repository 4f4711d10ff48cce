//! The `skills` command on inputs a new user produces by accident: typos,
//! empty and binary files, huge values, deep trees, symlink loops. Each
//! gives a clear message and a failing status, never a panic.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support;
use support::tree;

fn scratch(name: &str) -> PathBuf {
    tree::scratch("new-user", name)
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Runs `skills ARGS` in `dir`: (status, stdout, stderr).
fn skills(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic on {args:?}: {stderr}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

#[test]
fn typos_get_suggestions() {
    let dir = scratch("typos");
    let (code, _, err) = skills(&dir, &["chek", "."]);
    assert_eq!(code, 2);
    assert!(
        err.contains("No such command 'chek'. Did you mean 'check'?"),
        "{err}"
    );
    let (code, _, err) = skills(&dir, &["check", "--fromat", "json", "."]);
    assert_eq!(code, 2);
    assert!(err.contains("Did you mean '--format'?"), "{err}");
    let (code, _, err) = skills(&dir, &["check", "--format", "yaml", "."]);
    assert_eq!(code, 2);
    assert!(
        err.contains("'yaml' is not one of 'human', 'json'"),
        "{err}"
    );
}

#[test]
fn empty_binary_and_huge_files_are_reported() {
    let dir = scratch("files");
    write(&dir.join("empty/SKILL.md"), "");
    write(
        &dir.join("binary/SKILL.md"),
        [0x89, b'P', b'N', b'G', 0, 0, 0xff],
    );
    let huge = format!(
        "---\nname: huge\ndescription: {}\n---\n",
        "x".repeat(3_000_000)
    );
    write(&dir.join("huge/SKILL.md"), huge);
    // The report is on stdout; nothing goes to stderr.
    let (code, err, out) = skills(&dir, &["check", "."]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("empty/SKILL.md:1:1\n") || err.contains("--> ./empty/SKILL.md:1:1"),
        "{err}"
    );
    assert!(
        err.contains("SKILL.md must start with YAML frontmatter (---)"),
        "{err}"
    );
    assert!(
        err.contains("SKILL.md is not valid UTF-8: byte 0x89 at line 1, column 1"),
        "{err}"
    );
    assert!(
        err.contains("Description exceeds 1024 character limit (3000000 chars)"),
        "{err}"
    );
    assert!(err.contains("error: checked 3 skills: 3 errors"), "{err}");
}

#[test]
fn deep_trees_and_symlink_loops_give_errors() {
    let dir = scratch("loops");
    std::os::unix::fs::symlink("loop", dir.join("loop")).unwrap();
    let (code, _, err) = skills(&dir, &["validate", "loop"]);
    assert_eq!(code, 2);
    assert!(err.contains("Path 'loop' does not exist."), "{err}");

    let mut deep = dir.join("deep");
    for i in 0..60 {
        deep = deep.join(format!("d{i}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    let (code, err, _) = skills(&dir, &["check", "deep"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[no-skills]: no skill found in deep: neither deep/SKILL.md nor deep/*/SKILL.md exists"),
        "{err}"
    );

    write(
        &dir.join("self/SKILL.md"),
        "---\nname: self\ndescription: d\n---\n",
    );
    std::os::unix::fs::symlink(".", dir.join("self/again")).unwrap();
    let (code, out, _) = skills(&dir, &["validate", "self"]);
    assert_eq!((code, out.as_str()), (0, "Valid skill: self\n"));
}

#[test]
fn a_skill_file_that_is_a_directory_is_named() {
    let dir = scratch("dir-file");
    std::fs::create_dir_all(dir.join("odd/SKILL.md")).unwrap();
    let (code, out, err) = skills(&dir, &["read-properties", "odd"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "Error: cannot read SKILL.md: it is a directory, not a file\n"
    );
}

// Issue 20, finding 10: the CLI's small lies.

/// `pack` of a folder of skills says so, names the folder as given, and
/// suggests packing each skill (not "no skill found in" its parent, with a
/// hint to pass what was passed).
#[test]
fn pack_of_a_folder_of_skills_says_what_it_is() {
    let dir = scratch("pack-collection");
    for name in ["alpha", "beta"] {
        write(
            &dir.join(format!("skills/{name}/SKILL.md")),
            format!("---\nname: {name}\ndescription: Does {name}.\n---\n"),
        );
    }
    let (code, _, err) = skills(&dir.join("skills"), &["pack", "."]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(". is a folder of 2 skills, not a skill folder"),
        "{err}"
    );
    assert!(err.contains("skills pack ./alpha"), "{err}");
    assert!(!err.contains("no skill found"), "{err}");
    let (code, _, err) = skills(&dir, &["pack", "skills"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("skills is a folder of 2 skills"), "{err}");
    // A folder with no skill at all is named as given.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let (code, _, err) = skills(&dir, &["pack", "empty"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no skill found in empty"), "{err}");
    assert!(!dir.join("skills.skill").exists() && !dir.join("..skill").exists());
}

/// `skills help --help` prints the help command's own help.
#[test]
fn help_help_prints_the_help_of_help() {
    let dir = scratch("help-help");
    for flag in ["--help", "-h"] {
        let (code, out, err) = skills(&dir, &["help", flag]);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("Usage: skills help [COMMAND]\n"), "{out}");
    }
    let (code, out, _) = skills(&dir, &["help", "pack"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Usage: skills pack"), "{out}");
}

/// `skills mcp --help` names both transports.
#[test]
fn mcp_help_names_both_transports() {
    let dir = scratch("mcp-help");
    let (code, out, _) = skills(&dir, &["--help"]);
    assert_eq!(code, 0);
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("mcp "))
        .unwrap();
    assert!(line.contains("(stdio or HTTP)"), "{line}");
    let (_, out, _) = skills(&dir, &["mcp", "--help"]);
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("over MCP (stdio or HTTP)") && words.contains("(or over HTTP with --http)"),
        "{out}"
    );
    assert!(out.contains("--http ADDR"), "{out}");
}

/// What an output path test makes at a path: `/dev/null`'s like (a
/// character device made with `mknod` in the scratch folder, where the
/// system allows it, else a link to `/dev/null`), a FIFO, a link to a
/// file, a directory, a dangling link.
#[cfg(unix)]
mod output_paths {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::FileTypeExt as _;
    use std::path::Path;

    fn c_path(path: &Path) -> CString {
        CString::new(path.as_os_str().as_bytes()).unwrap()
    }

    /// A character device like `/dev/null` at `path`: made with `mknod`
    /// (major 1, minor 3) when allowed, else a symbolic link to
    /// `/dev/null`. Returns the device file to check stays a device.
    #[allow(unsafe_code)]
    pub fn null_device(path: &Path) -> std::path::PathBuf {
        let name = c_path(path);
        // SAFETY: `name` is a NUL-terminated path; mknod reads it only.
        let made =
            unsafe { libc::mknod(name.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) };
        match made == 0 && std::fs::write(path, b"probe").is_ok() {
            true => path.to_path_buf(),
            false => {
                let _ = std::fs::remove_file(path);
                std::os::unix::fs::symlink("/dev/null", path).unwrap();
                "/dev/null".into()
            }
        }
    }

    /// A FIFO at `path`.
    #[allow(unsafe_code)]
    pub fn fifo(path: &Path) {
        let name = c_path(path);
        // SAFETY: `name` is a NUL-terminated path; mkfifo reads it only.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    }

    pub fn is_char_device(path: &Path) -> bool {
        std::fs::symlink_metadata(path)
            .unwrap()
            .file_type()
            .is_char_device()
    }

    pub fn is_fifo(path: &Path) -> bool {
        std::fs::symlink_metadata(path)
            .unwrap()
            .file_type()
            .is_fifo()
    }
}

/// Issue 40, item 1: every command that writes a path renames only over a
/// regular file or nothing; a character device (`-o /dev/null` as root)
/// and a FIFO are written through and stay what they are, a link to a
/// file stays a link, and a directory or a dangling link is refused with
/// a message naming it.
#[cfg(unix)]
#[test]
fn output_paths_are_replaced_only_when_they_are_files() {
    use output_paths::{fifo, is_char_device, is_fifo, null_device};
    let dir = scratch("output-paths");
    let skills_dir = support::testdata("skills");
    let skills_arg = skills_dir.to_str().unwrap();
    let (code, _, err) = skills(&dir, &["keygen", "k.pem"]);
    assert_eq!(code, 0, "{err}");
    support::build_bundle(&skills_dir, &dir.join("b.bin"));
    let pdf = skills_dir.join("pdf-forms");
    let pdf = pdf.to_str().unwrap();
    // Each command, with OUT where its output goes.
    let commands: [(&str, Vec<&str>); 4] = [
        ("build", vec!["build", skills_arg, "-o", "OUT"]),
        ("pack", vec!["pack", pdf, "-o", "OUT"]),
        (
            "sign (detached)",
            vec![
                "sign", "--key", "k.pem", "--origin", "acme", skills_arg, "-o", "OUT",
            ],
        ),
        (
            "sign (bundle)",
            vec![
                "sign", "--key", "k.pem", "--origin", "acme", "b.bin", "-o", "OUT",
            ],
        ),
    ];
    for (n, (what, args)) in commands.iter().enumerate() {
        let with = |out: &str| -> Vec<String> {
            args.iter()
                .map(|arg| match *arg {
                    "OUT" => out.to_string(),
                    other => other.to_string(),
                })
                .collect()
        };
        let run = |out: &str| {
            let args = with(out);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            skills(&dir, &args)
        };
        // A character device: written through, still a device.
        let device = dir.join(format!("null-{n}"));
        let real = null_device(&device);
        let (code, _, err) = run(device.to_str().unwrap());
        assert_eq!(code, 0, "{what} to a device: {err}");
        assert!(
            is_char_device(&real),
            "{what} replaced the device {}",
            real.display()
        );
        if real != device {
            assert!(
                std::fs::symlink_metadata(&device)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
        }
        // A FIFO: a reader gets the bytes, the FIFO stays.
        let pipe = dir.join(format!("fifo-{n}"));
        fifo(&pipe);
        let reader = {
            let pipe = pipe.clone();
            std::thread::spawn(move || std::fs::read(pipe).unwrap())
        };
        let (code, _, err) = run(pipe.to_str().unwrap());
        assert_eq!(code, 0, "{what} to a FIFO: {err}");
        let through = reader.join().unwrap();
        assert!(!through.is_empty(), "{what}: nothing came through the FIFO");
        assert!(is_fifo(&pipe), "{what} replaced the FIFO");
        // A link to a file: the file gets the same bytes, the link stays.
        let file = dir.join(format!("file-{n}"));
        std::fs::write(&file, "old").unwrap();
        let link = dir.join(format!("link-{n}"));
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let (code, _, err) = run(link.to_str().unwrap());
        assert_eq!(code, 0, "{what} to a link: {err}");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read(&file).unwrap(),
            through,
            "{what}: the link's file"
        );
        // A directory and a dangling link: refused, named, left alone.
        let folder = dir.join(format!("folder-{n}"));
        std::fs::create_dir(&folder).unwrap();
        let (code, _, err) = run(folder.to_str().unwrap());
        assert_eq!(code, 1, "{what} to a directory");
        assert!(err.contains("it is a directory"), "{what}: {err}");
        assert!(folder.is_dir());
        let dangling = dir.join(format!("dangling-{n}"));
        std::os::unix::fs::symlink("nowhere", &dangling).unwrap();
        let (code, _, err) = run(dangling.to_str().unwrap());
        assert_eq!(code, 1, "{what} to a dangling link");
        assert!(err.contains("a symbolic link to nowhere"), "{what}: {err}");
        assert_eq!(std::fs::read_link(&dangling).unwrap(), Path::new("nowhere"));
    }
    // Nothing was staged beside a device or left in the scratch folder.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            name.contains(".tmp") || name.contains("-partial") || name.contains("encodings")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // --keep-going writes a report beside the bundle: not beside a device.
    let device = dir.join("null-keep-going");
    null_device(&device);
    let (code, _, err) = skills(
        &dir,
        &[
            "build",
            skills_arg,
            "--keep-going",
            "-o",
            device.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a file"), "{err}");
    // keygen and new write new files only: whatever is there is named and kept.
    let device = dir.join("null-key");
    let real = null_device(&device);
    let (code, _, err) = skills(&dir, &["keygen", device.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("refusing to overwrite a key"), "{err}");
    assert!(is_char_device(&real));
    std::os::unix::fs::symlink("nowhere", dir.join("dangling.pem")).unwrap();
    let (code, _, err) = skills(&dir, &["keygen", "dangling.pem"]);
    assert_eq!(code, 1);
    assert!(err.contains("exists (a symbolic link)"), "{err}");
    fifo(&dir.join("taken"));
    let (code, _, err) = skills(&dir, &["new", "taken"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("already exists (a named pipe (FIFO))"),
        "{err}"
    );
    assert!(is_fifo(&dir.join("taken")));
    // extract into a device: refused, named.
    let device = dir.join("null-extract");
    let real = null_device(&device);
    let (code, _, err) = skills(&dir, &["extract", "b.bin", device.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("it is a character device, not a folder"),
        "{err}"
    );
    assert!(is_char_device(&real));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 40, item 2: a command whose stdout cannot be written (a full
/// disk: `/dev/full`) fails with status 1 and says so, whatever the
/// command; a closed pipe (`| head -1`) just ends the output.
#[cfg(target_os = "linux")]
#[test]
fn stdout_write_errors_fail_the_command() {
    let dir = scratch("stdout-full");
    let skills_dir = support::testdata("skills");
    let skills_arg = skills_dir.to_str().unwrap();
    let pdf = skills_dir.join("pdf-forms");
    let pdf = pdf.to_str().unwrap();
    let (code, _, err) = skills(&dir, &["keygen", "k.pem"]);
    assert_eq!(code, 0, "{err}");
    support::build_bundle(&skills_dir, &dir.join("b.bin"));
    let commands: Vec<Vec<&str>> = vec![
        vec!["inspect", "b.bin"],
        vec!["audit", "--format", "sarif", skills_arg],
        vec!["check", "--format", "json", skills_arg],
        vec!["check", "--format", "github", skills_arg],
        vec!["to-prompt", pdf],
        vec!["validate", pdf],
        vec!["read-properties", pdf],
        vec!["sign", "--key", "k.pem", "--origin", "acme", skills_arg],
        vec!["revision", skills_arg],
        vec!["catalog", skills_arg],
        vec!["outline", skills_arg],
        vec![
            "verify",
            "--origin",
            "acme",
            "--require-signature",
            "no",
            "b.bin",
        ],
        vec!["keygen", "k2.pem"],
        vec!["extract", "b.bin", "extracted"],
        vec!["--help"],
    ];
    for args in &commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_skills"))
            .args(args)
            .current_dir(&dir)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write to standard output: No space left on device"),
            "{args:?}: {err}"
        );
    }
    // A reader that has gone: not a failure.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_skills"))
        .args(["revision", skills_arg])
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
