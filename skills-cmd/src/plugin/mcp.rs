//! `mcp.json` (§7.2.1): `$schema` and `mcpServers` and nothing else, each
//! server one closed variant on `type`, a stdio `command` one token (a
//! bare name or `./path`), remote URLs HTTPS unless the host is loopback,
//! and no secret in `env` or `headers` (the audit's own rules, run over
//! the file's text). And its translation into the `.mcp.json` the Claude
//! Code and Codex adapters read.

use serde_json::{Map, Value};
use skills_build::problem::{Code, Problem};
use skills_build::unstable::content::secrets_in;

use super::{MCP_SCHEMA, locate};
use crate::well_known::fetch::{host_of, is_loopback_host};

/// Header names whose value is a credential whatever it looks like.
const CREDENTIAL_HEADERS: [&str; 4] = [
    "authorization",
    "proxy-authorization",
    "cookie",
    "x-api-key",
];

/// What is wrong with a remote server's `url`, if anything.
fn url_problem(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Some(format!(
            "`url` {url:?} is not an absolute HTTP or HTTPS URL"
        ));
    }
    if url.contains('#') {
        return Some(format!("`url` {url:?} holds a fragment"));
    }
    let authority = rest.split(['/', '?']).next().unwrap_or("");
    if authority.contains('@') {
        return Some(format!("`url` {url:?} holds user information"));
    }
    let host = host_of(authority);
    if host.is_empty() {
        return Some(format!("`url` {url:?} has no host"));
    }
    if scheme == "http" && !is_loopback_host(host) {
        return Some(format!(
            "`url` {url:?} is plain HTTP to a host that is not loopback: use HTTPS"
        ));
    }
    None
}

fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn strings_only(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|map| map.values().all(Value::is_string))
}

/// Every problem of the `mcp.json` `text`, located as `location`.
pub fn check(location: &str, text: &str) -> Vec<Problem> {
    let at = |key: &str, message: String| {
        Problem::new(Code::PluginInvalid, message)
            .with_file(location.to_string())
            .at(locate(text, key))
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => {
            return vec![
                Problem::new(
                    Code::PluginInvalid,
                    format!("mcp.json is not JSON: {error}"),
                )
                .with_file(location.to_string())
                .at(super::error_at(&error)),
            ];
        }
    };
    let Some(top) = value.as_object() else {
        return vec![at("", "mcp.json must hold one JSON object".into())];
    };
    let mut problems = Vec::new();
    for key in top
        .keys()
        .filter(|k| !matches!(k.as_str(), "$schema" | "mcpServers"))
    {
        problems.push(at(
            key,
            format!("`{key}` is not a key of mcp.json (only `$schema` and `mcpServers`)"),
        ));
    }
    if top.get("$schema").and_then(Value::as_str) != Some(MCP_SCHEMA) {
        problems.push(at("$schema", format!("`$schema` must be {MCP_SCHEMA:?}")));
    }
    match top.get("mcpServers").map(|v| v.as_object()) {
        Some(Some(servers)) => {
            for (name, server) in servers {
                for message in server_problems(server) {
                    problems.push(at(name, format!("server {name:?}: {message}")));
                }
                if let Some(env) = server.get("env").and_then(Value::as_object) {
                    let dotenv: String = env
                        .iter()
                        .map(|(k, v)| format!("{k}={}\n", v.as_str().unwrap_or("")))
                        .collect();
                    // Tokens of a known kind are found in the whole text
                    // below; this adds the secret-named variables.
                    let named = secrets_in(location, ".env", &dotenv)
                        .into_iter()
                        .filter(|found| found.message.contains(".env file"));
                    for found in named {
                        let key = dotenv
                            .lines()
                            .nth(found.position.map_or(0, |p| p.line as usize - 1));
                        let key = key.and_then(|l| l.split('=').next()).unwrap_or(name);
                        problems.push(at(key, format!("server {name:?}: `env`: {}", found.message)).with_hint(
                            "a secret in env is package data every user can read: let the client prompt for it or read it from the user's environment",
                        ));
                    }
                }
            }
        }
        Some(None) => problems.push(at("mcpServers", "`mcpServers` must be an object".into())),
        None => problems.push(at("", "mcp.json has no `mcpServers`".into())),
    }
    // The audit's rules over the whole text: a token in a header, an
    // argument or anywhere else, located where it is written.
    problems.extend(
        secrets_in(location, "mcp.json", text)
            .into_iter()
            .map(|found| {
                Problem::new(
                    Code::PluginInvalid,
                    format!("a secret is written in mcp.json: {}", found.message),
                )
                .with_file(location.to_string())
                .at_opt(found.position)
            }),
    );
    problems
}

/// Why `server` is not one closed variant of §7.2.1.
fn server_problems(server: &Value) -> Vec<String> {
    let Some(map) = server.as_object() else {
        return vec!["a server must be an object".into()];
    };
    let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
    let allowed: &[&str] = match kind {
        "stdio" => &["type", "command", "args", "env", "cwd"],
        "streamable-http" | "sse" => &["type", "url", "headers"],
        "" => return vec!["`type` is missing: it is one of stdio, streamable-http, sse".into()],
        other => {
            return vec![format!(
                "`type` {other:?} is none of stdio, streamable-http, sse"
            )];
        }
    };
    let mut out: Vec<String> = map
        .keys()
        .filter(|k| !allowed.contains(&k.as_str()))
        .map(|k| format!("`{k}` is not a field of a {kind} server"))
        .collect();
    match kind {
        "stdio" => stdio(map, &mut out),
        _ => remote(map, &mut out),
    }
    out
}

fn stdio(map: &Map<String, Value>, out: &mut Vec<String>) {
    match map.get("command").and_then(Value::as_str) {
        None | Some("") => out.push("`command` is missing or empty".into()),
        Some(command) if command.chars().any(char::is_whitespace) => out.push(format!(
            "`command` {command:?} is a shell string: give one executable token and the rest in `args`"
        )),
        Some(command) if command.contains("${") => {
            out.push(format!("`command` {command:?} holds a placeholder, which is not expanded there"))
        }
        Some(command)
            if command.contains('/')
                && (!command.starts_with("./") || command.split('/').any(|p| p == "..")) =>
        {
            out.push(format!(
                "`command` {command:?} is neither a bare name nor a plugin-relative `./` path inside the plugin"
            ))
        }
        Some(_) => {}
    }
    if let Some(args) = map.get("args")
        && !args
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string))
    {
        out.push("`args` must be an array of strings".into());
    }
    if let Some(env) = map.get("env") {
        if !strings_only(env) {
            out.push("`env` must be an object of strings".into());
        }
        for reserved in ["PLUGIN_ROOT", "PLUGIN_DATA"] {
            if env.get(reserved).is_some() {
                out.push(format!(
                    "`env` may not set {reserved}, which the client sets"
                ));
            }
        }
    }
    if let Some(cwd) = map.get("cwd") {
        let ok = cwd.as_str().is_some_and(|cwd| {
            let rooted = ["./", "${PLUGIN_ROOT}", "${PLUGIN_DATA}"]
                .iter()
                .any(|root| {
                    cwd.strip_prefix(root).is_some_and(|rest| {
                        root.ends_with('/') || rest.is_empty() || rest.starts_with('/')
                    })
                });
            rooted && !cwd.split('/').any(|p| p == "..")
        });
        if !ok {
            out.push("`cwd` must be `./...`, `${PLUGIN_ROOT}[/...]` or `${PLUGIN_DATA}[/...]`, without `..`".into());
        }
    }
}

fn remote(map: &Map<String, Value>, out: &mut Vec<String>) {
    match map.get("url").and_then(Value::as_str) {
        None | Some("") => out.push("`url` is missing or empty".into()),
        Some(url) => match url_problem(url) {
            Some(problem) => out.push(problem),
            None if !url.contains("://") => out.push(format!("`url` {url:?} is not absolute")),
            None => {}
        },
    }
    if let Some(headers) = map.get("headers") {
        if !strings_only(headers) {
            out.push("`headers` must be an object of strings".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        for name in headers.as_object().into_iter().flat_map(|h| h.keys()) {
            let lower = name.to_ascii_lowercase();
            if !is_token(name) {
                out.push(format!("header {name:?} is not a valid header name"));
            }
            if !seen.insert(lower.clone()) {
                out.push(format!(
                    "header {name:?} is given twice (names are case-insensitive)"
                ));
            }
            if CREDENTIAL_HEADERS.contains(&lower.as_str()) {
                out.push(format!(
                    "header {name:?} carries a credential, and headers are visible package data: leave authorization to the client"
                ));
            }
        }
    }
}

/// The `.mcp.json` the Claude Code and Codex adapters read, from a valid
/// `mcp.json`: `streamable-http` is `http` there, and the portable
/// placeholders are Claude Code's.
pub fn adapter_config(value: &Value) -> Value {
    fn placeholders(value: &Value) -> Value {
        match value {
            Value::String(s) => Value::String(
                s.replace("${PLUGIN_ROOT}", "${CLAUDE_PLUGIN_ROOT}")
                    .replace("${PLUGIN_DATA}", "${CLAUDE_PLUGIN_DATA}"),
            ),
            Value::Array(items) => Value::Array(items.iter().map(placeholders).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), placeholders(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    let mut servers = Map::new();
    if let Some(all) = value.get("mcpServers").and_then(Value::as_object) {
        for (name, server) in all {
            let mut server = placeholders(server);
            if let Some(map) = server.as_object_mut()
                && map.get("type").and_then(Value::as_str) == Some("streamable-http")
            {
                map.insert("type".into(), Value::String("http".into()));
            }
            servers.insert(name.clone(), server);
        }
    }
    let mut top = Map::new();
    top.insert("mcpServers".into(), Value::Object(servers));
    Value::Object(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<String> {
        check("mcp.json", text)
            .into_iter()
            .map(|p| p.message)
            .collect()
    }

    #[test]
    fn the_transport_union_is_closed_and_commands_are_one_token() {
        let ok = format!(
            r#"{{"$schema":"{MCP_SCHEMA}","mcpServers":{{"a":{{"type":"stdio","command":"./bin/s","cwd":"${{PLUGIN_ROOT}}"}},"b":{{"type":"streamable-http","url":"http://127.0.0.1:8/mcp","headers":{{"X-Tenant":"public"}}}}}}}}"#
        );
        assert!(codes(&ok).is_empty(), "{:?}", codes(&ok));
        let bad = format!(
            r#"{{"$schema":"{MCP_SCHEMA}","mcpServers":{{"a":{{"type":"stdio","command":"npx -y server"}},"b":{{"type":"sse","url":"http://example.com/sse"}},"c":{{"type":"websocket"}},"d":{{"type":"stdio","command":"../x","url":"u"}}}}}}"#
        );
        let found = codes(&bad);
        assert!(
            found.iter().any(|m| m.contains("shell string")),
            "{found:?}"
        );
        assert!(found.iter().any(|m| m.contains("use HTTPS")), "{found:?}");
        assert!(found.iter().any(|m| m.contains("websocket")), "{found:?}");
        assert!(
            found.iter().any(|m| m.contains("`url` is not a field")),
            "{found:?}"
        );
        assert!(
            found.iter().any(|m| m.contains("neither a bare name")),
            "{found:?}"
        );
    }

    #[test]
    fn secrets_in_env_and_headers_are_found_by_the_audits_rules() {
        let token = concat!("ghp_", "Zq8Yw3Lm0Pn4Rt7Vx1Bc5Df9Gh2Jk6Ms0Qa7");
        let text = format!(
            "{{\"$schema\":\"{MCP_SCHEMA}\",\"mcpServers\":{{\n\"a\":{{\"type\":\"stdio\",\"command\":\"s\",\"env\":{{\"GITHUB_TOKEN\":\"{token}\"}}}},\n\"b\":{{\"type\":\"streamable-http\",\"url\":\"https://x.example/mcp\",\"headers\":{{\"Authorization\":\"Bearer abc\"}}}}}}}}"
        );
        let found = check("p/mcp.json", &text);
        assert!(
            found
                .iter()
                .any(|p| p.message.contains("GitHub") && p.position.is_some_and(|at| at.line == 2)),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.message.contains("carries a credential")),
            "{found:?}"
        );
    }

    #[test]
    fn the_adapter_config_uses_claude_codes_names() {
        let value: Value = serde_json::from_str(
            r#"{"mcpServers":{"a":{"type":"streamable-http","url":"https://x"},"b":{"type":"stdio","command":"./s","args":["${PLUGIN_ROOT}/c"]}}}"#,
        )
        .unwrap();
        let out = adapter_config(&value);
        assert_eq!(out["mcpServers"]["a"]["type"], "http");
        assert_eq!(out["mcpServers"]["b"]["args"][0], "${CLAUDE_PLUGIN_ROOT}/c");
    }
}
