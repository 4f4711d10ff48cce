//! Issue 28, finding 4: served bytes are verified bytes. A replica
//! (`skills mcp --bundle FILE`, with or without `--origin` and `--trust`)
//! whose bundle file is rewritten in place or truncated after it started
//! serves what it checked or answers an error for the affected skill: never
//! the new bytes under a verified status or the old revision, never a crash
//! (a mapped file cut short ended the process with SIGBUS).

#![cfg(unix)]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::support;

const ORIGIN: &str = "https://example.com/skills";

fn skills() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skills"));
    command.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    command
}

/// A scratch folder with the bundle of `testdata/skills` and
/// `testdata/mcp/skills`, signed.
struct Signed {
    dir: PathBuf,
    signed: support::SignedBundle,
}

impl Signed {
    fn new(name: &str) -> Signed {
        let dir = std::env::temp_dir().join(format!("skills-served-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let signed =
            support::signed_bundle(&dir, &["testdata/skills", "testdata/mcp/skills"], ORIGIN);
        Signed { dir, signed }
    }

    fn bundle(&self) -> PathBuf {
        PathBuf::from(&self.signed.bundle)
    }

    /// `skills mcp --bundle FILE`, verified with the key when `verified`.
    fn serve(&self, verified: bool) -> Replica {
        let mut args = vec!["mcp", "--bundle", &self.signed.bundle];
        if verified {
            args.extend(["--origin", ORIGIN, "--trust", &self.signed.trust]);
        }
        Replica::start(&args)
    }
}

impl Drop for Signed {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A running replica over stdio.
struct Replica {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Everything it answered.
    said: String,
}

impl Replica {
    fn start(args: &[&str]) -> Replica {
        let mut child = skills()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("skills starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut replica = Replica {
            child,
            stdin,
            stdout,
            said: String::new(),
        };
        let hello = replica.ask("initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}));
        assert!(hello.get("result").is_some(), "{hello}");
        replica
    }

    /// Sends an `initialize`-era request and gives the reply; panics when
    /// the replica is gone (a crash).
    fn ask(&mut self, method: &str, params: Value) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        writeln!(self.stdin.as_mut().unwrap(), "{request}").expect("the replica is running");
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert!(
            !line.is_empty(),
            "the replica ended without answering {method}: {:?}",
            self.child.wait()
        );
        self.said.push_str(&line);
        serde_json::from_str(&line).unwrap()
    }

    fn read(&mut self, uri: &str) -> Value {
        self.ask("resources/read", json!({ "uri": uri }))
    }

    /// Hangs up; the replica must exit 0.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the replica ended with {status}");
        self.said
    }
}

/// Rewrites `from` with `to` (of the same length) inside the file, in place.
fn rewrite_in_place(path: &Path, from: &str, to: &str) {
    assert_eq!(from.len(), to.len());
    let bytes = std::fs::read(path).unwrap();
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("{from:?} is in the bundle"));
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.write_all_at(to.as_bytes(), at as u64).unwrap();
}

const CSV: &str = "skill://csv-report/SKILL.md";
const GIT: &str = "skill://git-rebase/SKILL.md";

/// The skill read before the rewrite is served as it was checked; the one
/// rewritten before its first read is an error, not its new bytes under
/// `verified` and the old revision. Unsigned, the same: the file changed
/// under the replica, so the skill not read yet is an error.
#[test]
fn finding_4_rewrite_after_start_is_not_served_as_verified() {
    let signed = Signed::new("rewrite");
    for verified in [true, false] {
        let mut replica = signed.serve(verified);
        let before = replica.read(CSV);
        let text = before["result"]["contents"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(text.contains("Keep the report under a page."), "{before}");
        let status =
            before["result"]["contents"][0]["_meta"]["io.agentskills/publication"]["sourceStatus"]
                .clone();
        assert_eq!(status, if verified { "verified" } else { "unsigned" });

        rewrite_in_place(&signed.bundle(), "Keep the report", "Drop the report");
        rewrite_in_place(&signed.bundle(), "Never rebase", "Always rebas");

        // Read before: the copy checked then.
        let again = replica.read(CSV);
        assert_eq!(again, before, "the checked copy, unchanged");
        // Not read before: an error, whatever the replica was asked.
        let read = replica.read(GIT);
        let message = read["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("{read}"));
        assert!(message.contains("git-rebase"), "{message}");
        let expected = if verified {
            "changed after it was verified"
        } else {
            "changed after the server started"
        };
        assert!(message.contains(expected), "{message}");
        let call = replica.ask(
            "tools/call",
            json!({"name": "skill", "arguments": {"name": "git-rebase"}}),
        );
        assert_eq!(call["result"]["isError"], true, "{call}");
        let listed = replica.ask("resources/list", json!({}));
        assert!(listed.get("error").is_some(), "{listed}");
        let said = replica.finish();
        assert!(
            !said.contains("Always rebas") && !said.contains("Drop the report"),
            "{said}"
        );
        // Back as it was, for the next round.
        rewrite_in_place(&signed.bundle(), "Drop the report", "Keep the report");
        rewrite_in_place(&signed.bundle(), "Always rebas", "Never rebase");
    }
}

/// A bundle file cut short while served: the skills past the cut are
/// errors, the replica goes on answering and exits 0 when the host hangs
/// up (a mapped file ended the process with SIGBUS at the first read past
/// the new end).
#[test]
fn finding_4_truncate_after_start_is_an_error_not_a_crash() {
    let signed = Signed::new("truncate");
    let bundle = signed.bundle();
    let whole = std::fs::read(&bundle).unwrap();
    for verified in [true, false] {
        std::fs::write(&bundle, &whole).unwrap();
        let mut replica = signed.serve(verified);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&bundle)
            .unwrap();
        // After the first page, which holds the head: a mapping of the file
        // has no page left to read the later skills from.
        assert!(whole.len() > 5000, "{} bytes", whole.len());
        file.set_len(4096).unwrap();
        drop(file);
        let (mut served, mut errors) = (0, 0);
        for uri in [
            CSV,
            GIT,
            "skill://pdf-forms/SKILL.md",
            "skill://pdf-forms/assets/logo.png",
            "skill://media-kit/SKILL.md",
            "skill://media-kit/assets/form.pdf",
        ] {
            let read = replica.read(uri);
            if let Some(message) = read["error"]["message"].as_str() {
                assert!(message.contains("cannot be"), "{message}");
                errors += 1;
            } else {
                assert_eq!(read["result"]["contents"][0]["uri"], uri, "{read}");
                served += 1;
            }
        }
        assert!(
            errors >= 1,
            "the skills past the cut are errors ({served} served)"
        );
        for name in ["csv-report", "git-rebase", "pdf-forms", "media-kit"] {
            replica.ask(
                "tools/call",
                json!({"name": "skill", "arguments": {"name": name}}),
            );
        }
        assert_eq!(replica.ask("ping", json!({}))["result"], json!({}));
        replica.finish();
    }
}
