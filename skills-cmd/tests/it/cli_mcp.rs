//! `skills mcp` as a host runs it: a process that serves on stdio, refuses
//! bad sources before serving, and exits cleanly when the host hangs up.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;

const HANDSHAKE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

fn skills() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skills"));
    command.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    command
}

/// Runs `skills ARGS` over stdio, sends the handshake and one
/// `resources/list`, hangs up, and gives what it printed and its status.
fn list_resources(args: &[&str]) -> std::process::Output {
    exchange(
        args,
        &[
            HANDSHAKE,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{}}"#,
        ],
    )
}

/// Runs `skills ARGS` over stdio, sends `requests` one a line, hangs up,
/// and gives what it printed and its status.
fn exchange(args: &[&str], requests: &[&str]) -> std::process::Output {
    let mut child = skills()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A server that refused its sources has exited: writes may fail.
    for request in requests {
        let _ = writeln!(stdin, "{request}");
    }
    drop(stdin);
    child.wait_with_output().unwrap()
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
    let dir = std::env::temp_dir().join(format!("skills-cmd-mcp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let signed = support::signed_bundle(&dir, &["testdata/skills"], "https://example.com/skills");
    let (key_id, trust) = (&signed.key_id, &signed.trust);
    let serve = |origin: &str| {
        list_resources(&[
            "mcp",
            "--bundle",
            &signed.bundle,
            "--origin",
            origin,
            "--trust",
            trust,
        ])
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
    let dir = std::env::temp_dir().join(format!("skills-cmd-mcp-keep-{}", std::process::id()));
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
    let folder = dir.to_str().unwrap();
    let strict = list_resources(&["mcp", folder]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(strict.stdout.is_empty());
    let kept = list_resources(&["mcp", "--keep-going", folder]);
    let stderr = String::from_utf8_lossy(&kept.stderr);
    assert_eq!(kept.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("error[name-lowercase]"), "{stderr}");
    let stdout = String::from_utf8_lossy(&kept.stdout);
    assert!(stdout.contains("skill://good/SKILL.md"), "{stdout}");
    assert!(!stdout.contains("skill://Bad"), "{stdout}");
    let none = list_resources(&["mcp", "--keep-going", dir.join("Bad").to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("error[no-valid-skill]"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `skills mcp --http` as a process, talked to over a socket: one request
/// on a new connection, the reply's status and body.
fn http_request(addr: &str, raw: &str) -> (u16, String) {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(addr).expect("the server listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(raw.as_bytes()).unwrap();
    let mut reply = String::new();
    let _ = stream.read_to_string(&mut reply);
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a response: {reply:?}"));
    let body = reply
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

fn mcp_post(body: &str, extra: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Starts `skills mcp --http ...` and reads the address from its first
/// line on stderr, which must be the one documented.
fn start_http(args: &[&str]) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = skills()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let url = first
        .strip_prefix("skills mcp: serving http://")
        .and_then(|rest| rest.trim_end().strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("the first stderr line: {first:?}"))
        .to_owned();
    // Keep reading stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (child, url)
}

/// Waits for the process to exit (it must), and gives its status.
fn exit_of(child: &mut std::process::Child) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the server did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &std::process::Child, name: &str) {
    let sent = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skills-cmd-mcp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn beyond_loopback_the_http_server_needs_a_token_or_no_auth() {
    let run = |args: &[&str]| skills().args(args).stdin(Stdio::null()).output().unwrap();
    let refused = run(&["mcp", "--http", "0.0.0.0:0", "testdata/skills"]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("not a loopback address")
            && message.contains("--bearer-token-file FILE")
            && message.contains("--no-auth"),
        "{message}"
    );
    let both = run(&[
        "mcp",
        "--http",
        "0.0.0.0:0",
        "--no-auth",
        "--bearer-token-file",
        "x",
        "testdata/skills",
    ]);
    assert_eq!(both.status.code(), Some(2));
    let without_http = run(&["mcp", "--no-auth", "testdata/skills"]);
    assert_eq!(without_http.status.code(), Some(2));
    let dir = scratch("short-token");
    let file = dir.join("token");
    std::fs::write(&file, "short\n").unwrap();
    let short = run(&[
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--bearer-token-file",
        file.to_str().unwrap(),
        "testdata/skills",
    ]);
    assert_eq!(short.status.code(), Some(2));
    let message = String::from_utf8_lossy(&short.stderr);
    assert!(
        message.contains("at least 16") && !message.contains("short\n"),
        "{message}"
    );
    let origin = run(&[
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--allow-origin",
        "console.example.com",
        "testdata/skills",
    ]);
    assert_eq!(origin.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A token "file" that is a named pipe (or a device) is refused at once
/// with a clear error, not opened: opening a pipe blocks until someone
/// writes to it, and `skills mcp` hung at start with no output (issue 28,
/// finding 6).
#[test]
fn a_token_file_that_is_a_pipe_or_a_device_is_refused_at_start() {
    let dir = scratch("fifo-token");
    let fifo = dir.join("token");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for (file, kind) in [
        (fifo.to_str().unwrap(), "a named pipe (FIFO)"),
        ("/dev/zero", "a character device"),
    ] {
        let mut child = skills()
            .args([
                "mcp",
                "--http",
                "127.0.0.1:0",
                "--bearer-token-file",
                file,
                "testdata/skills",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Waits for the exit; a server that hangs in `open` never gets there
        // and is stopped, failing the test.
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("skills mcp hung on the token file {file}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{file}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(
            message.contains("Invalid value for '--bearer-token-file': cannot read the token file")
                && message.contains(kind)
                && message.contains("not a regular file"),
            "{message}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// With a token: 401 without it, 200 with it, /healthz open; SIGTERM
/// stops accepting, the request in flight is answered, and the process
/// exits 0.
#[test]
fn the_http_server_checks_its_token_and_stops_cleanly_on_sigterm() {
    use std::io::{BufRead, Read};
    let dir = scratch("token");
    let token = "cli-test-token-0123456789";
    let file = dir.join("token");
    std::fs::write(&file, format!("{token}\n")).unwrap();
    let (mut child, addr) = start_http(&[
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--bearer-token-file",
        file.to_str().unwrap(),
        "testdata/skills",
    ]);
    let (status, _) = http_request(&addr, &mcp_post(HANDSHAKE, ""));
    assert_eq!(status, 401);
    let (status, body) = http_request(
        &addr,
        &mcp_post(HANDSHAKE, &format!("Authorization: Bearer {token}\r\n")),
    );
    assert_eq!(status, 200);
    assert!(body.contains(r#""protocolVersion":"2025-11-25""#), "{body}");
    let (status, body) = http_request(
        &addr,
        "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    // A request in flight: its head is in and hyper asked for the body.
    let mut in_flight = std::net::TcpStream::connect(&addr).unwrap();
    in_flight
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        in_flight,
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        HANDSHAKE.len()
    )
    .unwrap();
    let mut reader = std::io::BufReader::new(in_flight.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 100 "), "{line}");
    reader.read_line(&mut line).unwrap();
    signal(&child, "TERM");
    let started = Instant::now();
    while std::net::TcpStream::connect(&addr).is_ok() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "still accepting after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    in_flight.write_all(HANDSHAKE.as_bytes()).unwrap();
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert!(rest.starts_with("HTTP/1.1 200 OK"), "{rest}");
    assert!(rest.contains(r#""protocolVersion":"2025-11-25""#), "{rest}");
    let status = exit_of(&mut child);
    assert_eq!(status.code(), Some(0), "{status}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--no-auth` on every interface: served without a token (reached here
/// over loopback only), and SIGINT exits 0.
#[test]
fn no_auth_serves_every_interface_and_sigint_exits_0() {
    let (mut child, url_addr) =
        start_http(&["mcp", "--http", "0.0.0.0:0", "--no-auth", "testdata/skills"]);
    assert!(url_addr.starts_with("0.0.0.0:"), "{url_addr}");
    let port = url_addr.rsplit(':').next().unwrap();
    let addr = format!("127.0.0.1:{port}");
    let (status, body) = http_request(&addr, &mcp_post(HANDSHAKE, ""));
    assert_eq!(status, 200, "{body}");
    // Beyond loopback no Host is checked (a load balancer's name is not
    // known), but a browser origin still needs --allow-origin.
    let (status, _) = http_request(
        &addr,
        &mcp_post(HANDSHAKE, "").replace("Host: localhost", "Host: skills.internal"),
    );
    assert_eq!(status, 200);
    let (status, _) = http_request(
        &addr,
        &mcp_post(HANDSHAKE, "Origin: http://localhost:3000\r\n"),
    );
    assert_eq!(status, 403);
    signal(&child, "INT");
    assert_eq!(exit_of(&mut child).code(), Some(0));
}

/// Issue 30: a skill built for a host keeps its host fields, and
/// `skills/list` and `skills/get` carry its frontmatter as written (every
/// key, in file order); issue 44: each scalar typed as YAML 1.2 reads it
/// (SEP-2640's "identical in content": the plain `true` is a boolean, the
/// quoted `"[environment]"` text); its `evals/` folder is not served.
#[test]
fn mcp_serves_host_fields_in_the_frontmatter_typed() {
    let dir = std::env::temp_dir().join(format!("skills-cmd-mcp-hosts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("deploy-helper/evals")).unwrap();
    std::fs::write(
        dir.join("deploy-helper/SKILL.md"),
        "---\nname: deploy-helper\ndescription: Deploys the app to staging.\ndisable-model-invocation: true\nargument-hint: \"[environment]\"\nallowed-tools: Bash(git:*) Read\nmodel: sonnet\n---\nDeploy.\n",
    )
    .unwrap();
    std::fs::write(dir.join("deploy-helper/evals/evals.json"), "[]").unwrap();
    let folder = dir.to_str().unwrap();
    let envelope = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let output = exchange(
        &["mcp", "--host", "claude-code", folder],
        &[
            &format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{{{envelope}}}}}"#
            ),
            &format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"skills/get","params":{{"uri":"skill://deploy-helper/SKILL.md",{envelope}}}}}"#
            ),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // Issue 40, item 8: the notes are counted, not listed, at a start.
    assert!(stderr.contains(" not shown; `skills check "), "{stderr}");
    assert!(!stderr.contains("note[evals-skipped]"), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let frontmatter = r#""frontmatter":{"name":"deploy-helper","description":"Deploys the app to staging.","disable-model-invocation":true,"argument-hint":"[environment]","allowed-tools":"Bash(git:*) Read","model":"sonnet"}"#;
    let replies: Vec<&str> = stdout.lines().collect();
    assert_eq!(replies.len(), 2, "{stdout}");
    for reply in replies {
        assert!(reply.contains(frontmatter), "{reply}");
        assert!(!reply.contains("evals"), "{reply}");
    }
    // Without the profile, the same skill is not served at all.
    let refused = list_resources(&["mcp", folder]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--host claude-code"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 44: `--public-cache-ttl MS` lets every cache keep the new era's
/// results (`cacheScope: "public"`, `ttlMs: MS`); without it they say
/// `private` and `0`; a value that is not a number is a usage error.
#[test]
fn mcp_public_cache_ttl_sets_the_caching_hints() {
    let envelope = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let list =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{{{envelope}}}}}"#);
    let read = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{{"uri":"skill://pdf-forms/reference.md",{envelope}}}}}"#
    );
    for (args, hints) in [
        (
            &["mcp", "--public-cache-ttl", "86400000", "testdata/skills"][..],
            r#""ttlMs":86400000,"cacheScope":"public""#,
        ),
        (
            &["mcp", "testdata/skills"][..],
            r#""ttlMs":0,"cacheScope":"private""#,
        ),
    ] {
        let output = exchange(args, &[&list, &read]);
        assert_eq!(output.status.code(), Some(0));
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 2, "{stdout}");
        for reply in stdout.lines() {
            assert!(reply.contains(hints), "{args:?}: {reply}");
        }
    }
    let refused = exchange(
        &["mcp", "--public-cache-ttl", "a day", "testdata/skills"],
        &[],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--public-cache-ttl"));
}

#[test]
fn the_published_tree_is_served_beside_mcp_and_verifies_over_http() {
    let dir = scratch("well-known");
    let site = dir.join("site");
    let published = skills()
        .args([
            "publish",
            "--well-known",
            site.to_str().unwrap(),
            "--legacy",
            "testdata/skills",
        ])
        .output()
        .unwrap();
    assert!(
        published.status.success(),
        "{}",
        String::from_utf8_lossy(&published.stderr)
    );
    // Served with a token required for /mcp: the tree is public all the same.
    let token = dir.join("token");
    std::fs::write(&token, "a-token-of-enough-length-0123456789").unwrap();
    let (mut child, addr) = start_http(&[
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--bearer-token-file",
        token.to_str().unwrap(),
        "--well-known",
        site.to_str().unwrap(),
        "testdata/skills",
    ]);
    let get = |method: &str, path: &str| {
        http_request(
            &addr,
            &format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
        )
    };
    let index = std::fs::read_to_string(site.join(".well-known/agent-skills/index.json")).unwrap();
    assert_eq!(
        get("GET", "/.well-known/agent-skills/index.json"),
        (200, index)
    );
    assert_eq!(
        get("HEAD", "/.well-known/agent-skills/index.json"),
        (200, String::new())
    );
    assert_eq!(
        get("GET", "/.well-known/agent-skills/nothing.tar.gz").0,
        404
    );
    assert_eq!(get("DELETE", "/.well-known/agent-skills/index.json").0, 405);
    assert_eq!(
        get("GET", "/.well-known/skills/pdf-forms/reference.md").0,
        200
    );
    // /mcp still wants its token.
    assert_eq!(http_request(&addr, &mcp_post("{}", "")).0, 401);
    let verified = skills()
        .args(["verify", "--well-known", &format!("http://{addr}/")])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&verified.stderr);
    assert!(verified.status.success(), "{text}");
    assert!(
        text.contains("ok  pdf-forms  archive  sha256:") && text.contains("ok: verified 3 skills"),
        "{text}"
    );
    // A remote origin is refused by name, not fetched.
    let remote = skills()
        .args(["verify", "--well-known", "http://example.com/"])
        .output()
        .unwrap();
    assert_eq!(remote.status.code(), Some(2));
    signal(&child, "TERM");
    assert!(exit_of(&mut child).success());
    std::fs::remove_dir_all(&dir).unwrap();
}
