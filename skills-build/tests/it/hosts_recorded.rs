//! Recordings of every host field's accepted and refused values, under
//! each profile.
//!
//! `testdata/hosts/fields/` holds one skill per case (a host field and a
//! value, named `<field>-<what>`, a near miss, Codex's sidecar), and
//! `testdata/hosts/budget/` a catalog past Codex's listing budget. Each is
//! run through the one pipeline (`Builder`, keep-going, so every skill is
//! judged) with no profile, with each profile alone and with every
//! profile; every problem is rendered as `skills check` prints it, into
//! `testdata/hosts/recorded/<profile>.txt`. A case missing from a
//! recording (no line names its folder) was accepted without a word.
//!
//! `SKILLS_BLESS=1` rewrites the recordings; review the diff.

use std::path::Path;

use skills_build::{Builder, Host, diagnostic};

use crate::support;

/// The profiles recorded, each a file name and its hosts.
fn profiles() -> Vec<(String, Vec<Host>)> {
    let mut profiles = vec![("none".to_string(), Vec::new())];
    profiles.extend(Host::ALL.map(|host| (host.id().to_string(), vec![host])));
    profiles.push(("all".to_string(), Host::ALL.to_vec()));
    profiles
}

fn record(hosts: &[Host]) -> String {
    // Relative paths, so the recording is the same on every machine.
    let root = Path::new("../testdata/hosts");
    let mut text = String::new();
    for source in ["fields", "budget"] {
        // The lints' notes on the fixtures' terse descriptions, and the
        // audit's word on every hook command, are not the hosts' business:
        // allowed here, by name.
        let mut builder = Builder::new()
            .source(root.join(source))
            .keep_going(true)
            .threads(1)
            .allow("description-without-when")
            .allow("hook-command");
        for host in hosts {
            builder = builder.host(*host);
        }
        let outcome = builder.run();
        text.push_str(&format!(
            "== {source}: {} skills, {}\n",
            outcome.skills,
            diagnostic::count(outcome.problems())
        ));
        text.push_str(&diagnostic::render_all(outcome.problems()));
    }
    text
}

#[test]
fn every_host_field_value_is_recorded_under_every_profile() {
    let bless = std::env::var_os("SKILLS_BLESS").is_some();
    let dir = support::testdata("hosts/recorded");
    let mut stale = Vec::new();
    for (name, hosts) in profiles() {
        let recorded = record(&hosts);
        let path = dir.join(format!("{name}.txt"));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &recorded).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != recorded {
            let line = expected
                .lines()
                .zip(recorded.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            stale.push(format!(
                "{}: differs from line {}: {:?} now {:?}",
                path.display(),
                line + 1,
                expected.lines().nth(line),
                recorded.lines().nth(line)
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "recordings out of date (SKILLS_BLESS=1 rewrites them):\n{}",
        stale.join("\n")
    );
}

/// Every fixture case is judged: under its field's profile, a `-<what>`
/// case whose name says it is refused has an error, and one accepted has
/// none (the recordings hold the wording; this holds the verdicts).
#[test]
fn accepted_cases_pass_and_refused_ones_fail_under_all_profiles() {
    let root = support::testdata("hosts/fields");
    let mut builder = Builder::new().source(&root).keep_going(true).threads(1);
    for host in Host::ALL {
        builder = builder.host(host);
    }
    let outcome = builder.run();
    let failed: std::collections::BTreeSet<String> = outcome
        .dropped()
        .iter()
        .map(|dropped| dropped.dir.clone())
        .collect();
    let accepted = [
        "when-to-use-text",
        "argument-hint-text",
        "arguments-text",
        "arguments-list",
        "disable-model-invocation-true",
        "disable-model-invocation-cap-true",
        "user-invocable-false",
        "user-invokable-false",
        "allowed-tools-text",
        "allowed-tools-list",
        "disallowed-tools-text",
        "disallowed-tools-list",
        "model-alias",
        "model-id",
        "model-inherit",
        "model-other",
        "effort-high",
        "effort-xhigh",
        "context-fork",
        "agent-explore",
        "agent-custom",
        "background-true",
        "hooks-valid",
        "hooks-other-event",
        "hooks-other-hook-key",
        "paths-text",
        "paths-list",
        "shell-bash",
        "shell-powershell",
        "version-text",
        "near-user-invokable",
        "short-description-ok",
        "listing-entry-long",
        "spec-only",
        "sidecar-valid",
        // Codex ignores a key it does not read: a warning.
        "sidecar-unknown-key",
    ];
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let should_pass = accepted.contains(&name.as_str());
        if should_pass == failed.contains(&name) {
            wrong.push(format!(
                "{name}: {}",
                if should_pass { "refused" } else { "accepted" }
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// Codex ignores a sidecar key it does not read, so a program's own host
/// can add a field: a warning, silenced by allowing its code; a key Codex
/// reads, of the wrong type, stays an error whatever is allowed.
#[test]
fn an_unknown_sidecar_key_is_a_warning_a_wrong_type_an_error() {
    let root = std::env::temp_dir().join(format!("sidecar-keys-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let skill = root.join("ship");
    std::fs::create_dir_all(skill.join("agents")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: ship\ndescription: Ship a build. Use when the user asks to release.\n---\nBody.\n",
    )
    .unwrap();
    let sidecar = skill.join("agents/openai.yaml");
    let codes = |allow: bool| {
        let mut builder = Builder::new().source(&skill).host(Host::Codex);
        if allow {
            builder = builder.allow("codex-sidecar-unknown-key");
        }
        let outcome = builder.run();
        let codes: Vec<String> = outcome
            .problems()
            .iter()
            .map(|problem| problem.code.to_string())
            .collect();
        (outcome.failed(false), codes)
    };
    std::fs::write(
        &sidecar,
        "interface:\n  display_name: Ship\n  x_mytool_theme: dark\n",
    )
    .unwrap();
    let (failed, found) = codes(false);
    assert!(!failed, "{found:?}");
    assert_eq!(found, ["codex-sidecar-unknown-key"]);
    let (failed, found) = codes(true);
    assert!(!failed && found.is_empty(), "{found:?}");
    std::fs::write(
        &sidecar,
        "interface:\n  display_name: [Ship]\n  x_mytool_theme: dark\n",
    )
    .unwrap();
    let (failed, found) = codes(true);
    assert!(failed, "{found:?}");
    assert!(
        found.contains(&"codex-sidecar-invalid".to_string()),
        "{found:?}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
