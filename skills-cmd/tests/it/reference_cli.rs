//! Conformance of the `skills` CLI with the reference CLI `agentskills`
//! (PyPI skills-ref 0.1.1) for `validate`, `read-properties` and `to-prompt`.
//!
//! Every directory under `testdata/reference/` is one case:
//!
//! * `cmd`: the arguments after the program name, one per line;
//! * `tree/`: the working directory of the run;
//! * `stdout`, `stderr`, `status`: what the reference printed and its exit
//!   code, recorded by `scripts/record/reference.sh`, with the canonical path of
//!   `tree/` written as `{TREE}`;
//! * `divergence` (optional): the reference crashes there and we deliberately
//!   do better; the expectation then comes from the hand-written
//!   `ours.stdout`, `ours.stderr` and `ours.status`.
//!
//! The binary runs with argv[0] `agentskills`, stdin from /dev/null and
//! stdout/stderr piped (never a terminal). Every case runs, then the test
//! fails once with a report of every mismatch.
//!
//! Environment knobs:
//!
//! * `SKILLS_CLI_UNDER_TEST=/path/to/program` runs that program instead of
//!   our binary, e.g. `.venv-ref/bin/agentskills` to check the harness and
//!   the recordings against the reference itself;
//! * `SKILLS_REFERENCE_CASES=substring[,substring...]` runs only the cases
//!   whose name contains one of the substrings.

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support;

/// Fixtures must not silently disappear.
const MIN_CASES: usize = 130;

/// How many differing lines to show per stream.
const MAX_DIFF_LINES: usize = 6;

fn cases_root() -> PathBuf {
    support::testdata("reference")
        .canonicalize()
        .expect("testdata/reference exists")
}

fn program() -> OsString {
    std::env::var_os("SKILLS_CLI_UNDER_TEST")
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| OsString::from(env!("CARGO_BIN_EXE_skills")))
}

fn case_filter() -> Vec<String> {
    std::env::var("SKILLS_REFERENCE_CASES")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// The arguments of a case: one per line, the final newline optional.
fn read_args(cmd: &[u8]) -> Vec<OsString> {
    let cmd = cmd.strip_suffix(b"\n").unwrap_or(cmd);
    if cmd.is_empty() {
        return Vec::new();
    }
    cmd.split(|&b| b == b'\n')
        .map(|line| OsStr::from_bytes(line).to_os_string())
        .collect()
}

fn replace_all(haystack: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut rest = haystack;
    while let Some(at) = rest.windows(needle.len()).position(|w| w == needle) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(with);
        rest = &rest[at + needle.len()..];
    }
    out.extend_from_slice(rest);
    out
}

struct Expected {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    status: Vec<u8>,
}

/// The expectation of a case, or why there is none.
fn expected(dir: &Path, tree: &Path) -> Result<Expected, String> {
    let prefix = if dir.join("divergence").exists() {
        "ours."
    } else {
        ""
    };
    let read = |stream: &str| {
        let file = dir.join(format!("{prefix}{stream}"));
        fs::read(&file).map_err(|e| {
            if prefix.is_empty() {
                format!("cannot read {}: {e}", file.display())
            } else {
                format!(
                    "no expectation yet: the reference crashes here (see `divergence`) \
                     and {} is missing",
                    file.display()
                )
            }
        })
    };
    let tree = tree.as_os_str().as_bytes();
    let fill = |bytes: Vec<u8>| replace_all(&bytes, b"{TREE}", tree);
    Ok(Expected {
        stdout: fill(read("stdout")?),
        stderr: fill(read("stderr")?),
        status: read("status")?,
    })
}

fn show(line: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(line))
}

/// A short line diff: the first differing line and a few after it.
fn describe_diff(stream: &str, expected: &[u8], actual: &[u8], out: &mut String) {
    let exp: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let act: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let first = exp
        .iter()
        .zip(&act)
        .position(|(e, a)| e != a)
        .unwrap_or(exp.len().min(act.len()));
    let _ = writeln!(
        out,
        "  {stream}: differs from line {} ({} expected lines, {} actual, {} vs {} bytes)",
        first + 1,
        exp.len(),
        act.len(),
        expected.len(),
        actual.len()
    );
    for i in first..(first + MAX_DIFF_LINES).min(exp.len().max(act.len())) {
        match (exp.get(i), act.get(i)) {
            (Some(e), Some(a)) if e == a => {
                let _ = writeln!(out, "      {:>4}   {}", i + 1, show(e));
            }
            (e, a) => {
                if let Some(e) = e {
                    let _ = writeln!(out, "    - {:>4}   {}", i + 1, show(e));
                }
                if let Some(a) = a {
                    let _ = writeln!(out, "    + {:>4}   {}", i + 1, show(a));
                }
            }
        }
    }
}

/// Runs one case; returns a report of the mismatches, or None if it passes.
fn run_case(program: &OsStr, name: &str, dir: &Path) -> Option<String> {
    let mut report = String::new();
    let fail = |why: String| Some(format!("{name}: {why}\n"));

    let cmd = match fs::read(dir.join("cmd")) {
        Ok(cmd) => cmd,
        Err(e) => return fail(format!("cannot read cmd: {e}")),
    };
    let tree = match dir.join("tree").canonicalize() {
        Ok(tree) => tree,
        Err(e) => return fail(format!("cannot resolve tree/: {e}")),
    };
    let expected = match expected(dir, &tree) {
        Ok(expected) => expected,
        Err(why) => return fail(why),
    };

    let output = Command::new(program)
        .arg0("agentskills")
        .args(read_args(&cmd))
        .current_dir(&tree)
        .stdin(Stdio::null())
        .env("LC_ALL", "C.UTF-8")
        .env("PYTHONHASHSEED", "0")
        .env("COLUMNS", "80")
        .env_remove("PYTHONPATH")
        .env_remove("PYTHONHOME")
        .env_remove("PYTHONIOENCODING")
        .env_remove("PYTHONUTF8")
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => return fail(format!("cannot run {}: {e}", Path::new(program).display())),
    };

    let status = match output.status.code() {
        Some(code) => format!("{code}\n"),
        None => format!("{}\n", output.status),
    };
    if status.as_bytes() != expected.status.as_slice() {
        let _ = writeln!(
            report,
            "  status: expected {}, got {}",
            String::from_utf8_lossy(&expected.status).trim_end(),
            status.trim_end()
        );
    }
    if output.stdout != expected.stdout {
        describe_diff("stdout", &expected.stdout, &output.stdout, &mut report);
    }
    if output.stderr != expected.stderr {
        describe_diff("stderr", &expected.stderr, &output.stderr, &mut report);
    }

    if report.is_empty() {
        None
    } else {
        let args: String = read_args(&cmd)
            .iter()
            .map(|a| format!(" {:?}", a.to_string_lossy()))
            .collect();
        Some(format!("{name}: agentskills{args}\n{report}"))
    }
}

#[test]
fn reference_cli_conformance() {
    let root = cases_root();
    let mut cases: Vec<(String, PathBuf)> = fs::read_dir(&root)
        .expect("read testdata/reference")
        .map(|entry| entry.expect("read a directory entry").path())
        .filter(|path| path.is_dir())
        .map(|path| {
            let name = path
                .file_name()
                .expect("a case directory has a name")
                .to_string_lossy()
                .into_owned();
            (name, path)
        })
        .collect();
    cases.sort();
    assert!(
        cases.len() >= MIN_CASES,
        "expected at least {MIN_CASES} cases in {}, found {}",
        root.display(),
        cases.len()
    );

    let filter = case_filter();
    let program = program();
    let mut ran = 0;
    let mut failures = Vec::new();
    for (name, dir) in &cases {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        ran += 1;
        if let Some(report) = run_case(&program, name, dir) {
            failures.push(report);
        }
    }

    assert!(
        failures.is_empty(),
        "{} of {ran} reference cases failed (program: {}):\n\n{}",
        failures.len(),
        Path::new(&program).display(),
        failures.join("\n")
    );
}
