//! `skills mcp` as a host runs it: a process that serves on stdio, refuses
//! bad sources before serving, and exits cleanly when the host hangs up.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HANDSHAKE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

fn skills() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skills"));
    command.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    command
}

#[test]
fn the_binary_ends_cleanly_when_the_client_hangs_up() {
    let mut child = skills()
        .args(["mcp", "testdata/skills"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("skills starts");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{HANDSHAKE}").unwrap();
    drop(stdin); // the client goes away
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        // A generous bound: the failure mode is a server that never exits.
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not exit after stdin closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let reply = String::from_utf8(output.stdout).unwrap();
    assert!(
        reply.starts_with(r#"{"jsonrpc":"2.0","id":0,"result":{"#),
        "{reply}"
    );
    assert!(
        reply.contains(r#""protocolVersion":"2025-11-25""#) && reply.ends_with("}\n"),
        "{reply}"
    );
}

#[test]
fn a_source_with_errors_is_not_served() {
    let output = skills()
        .args(["mcp", "testdata/reference/does-not-exist"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output.stdout.is_empty(),
        "nothing may reach the protocol stream"
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("error: nothing served"));
}

#[test]
fn bundle_takes_one_file() {
    let output = skills()
        .args(["mcp", "--bundle"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_signed_bundle_is_served_as_verified_and_a_wrong_origin_is_refused() {
    let dir = std::env::temp_dir().join(format!("skills-cli-mcp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let run = |args: &[&str]| {
        let output = skills().args(args).stdin(Stdio::null()).output().unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    };
    let keygen = run(&["keygen", &path("k.pem")]);
    let key_id = keygen
        .lines()
        .find_map(|line| line.strip_prefix("key id: "))
        .expect("keygen prints the key id")
        .to_owned();
    run(&["build", "testdata/skills", "-o", &path("b.bin")]);
    run(&[
        "sign",
        "--key",
        &path("k.pem"),
        "--origin",
        "https://example.com/skills",
        &path("b.bin"),
    ]);
    let trust = format!("{key_id}={}", path("k.pub.pem"));
    let serve = |origin: &str| {
        let mut child = skills()
            .args([
                "mcp",
                "--bundle",
                &path("b.bin"),
                "--origin",
                origin,
                "--trust",
                &trust,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let _ = writeln!(stdin, "{HANDSHAKE}");
        let _ = writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":1,"method":"resources/list"}}"#
        );
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    let served = serve("https://example.com/skills");
    assert!(served.status.success());
    let listed = String::from_utf8(served.stdout).unwrap();
    assert!(listed.contains(r#""sourceStatus":"verified""#), "{listed}");
    assert!(
        listed.contains(&format!(r#""publisher":"{key_id}""#)),
        "{listed}"
    );
    assert!(
        listed.contains(r#""origin":"https://example.com/skills""#),
        "{listed}"
    );
    let refused = serve("https://elsewhere.example");
    assert_eq!(refused.status.code(), Some(1));
    assert!(refused.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("Publisher signature verification failed")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20, finding 3: `skills mcp --keep-going` serves the valid skills
/// of a folder where one is invalid (without it, nothing is served), and
/// still serves nothing when no skill is valid.
#[test]
fn mcp_keep_going_serves_the_valid_skills() {
    let dir = std::env::temp_dir().join(format!("skills-cli-mcp-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (folder, text) in [
        ("good", "name: good\ndescription: Does good."),
        ("Bad", "name: Bad\ndescription: x"),
    ] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(
            dir.join(folder).join("SKILL.md"),
            format!("---\n{text}\n---\nBody.\n"),
        )
        .unwrap();
    }
    let serve = |args: &[&str]| {
        let mut child = skills()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // A server that refused its sources has exited: writes may fail.
        let _ = writeln!(stdin, "{HANDSHAKE}");
        let _ = writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{{}}}}"#
        );
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    let folder = dir.to_str().unwrap();
    let strict = serve(&["mcp", folder]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(strict.stdout.is_empty());
    let kept = serve(&["mcp", "--keep-going", folder]);
    let stderr = String::from_utf8_lossy(&kept.stderr);
    assert_eq!(kept.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("error[name-lowercase]"), "{stderr}");
    let stdout = String::from_utf8_lossy(&kept.stdout);
    assert!(stdout.contains("skill://good/SKILL.md"), "{stdout}");
    assert!(!stdout.contains("skill://Bad"), "{stdout}");
    let none = serve(&["mcp", "--keep-going", dir.join("Bad").to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("error[no-valid-skill]"));
    std::fs::remove_dir_all(&dir).unwrap();
}
