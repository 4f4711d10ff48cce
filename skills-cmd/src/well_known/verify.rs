//! Checking a published tree against its artifacts: the 0.2.0 index's
//! form, each entry's URL fetched and its digest recomputed over the bytes
//! served, each archive unpacked as a client unpacks it (at its root, no
//! `..`, no link), the skill read back and judged as `skills check` judges
//! a folder, its name the entry's; over HTTP also the methods and types
//! the format asks for; and the 0.1 layout's files, when it is there,
//! against the same skill's.

use serde_json::Value;
use skills_build::problem::{Code, Problem};
use skills_build::source::MemorySource;
use skills_build::unstable::archive::{Limits, unpack_root};

use super::fetch::{Answer, Origin};
use super::{INDEX_DIR, INDEX_FILE, LEGACY_DIR, MAX_DESCRIPTION, SCHEMA, digest, is_index_name};
use crate::packing::untar::{MAX_INFLATED, gunzip, unsafe_path, untar};

/// What was checked: how many entries, and every problem found.
#[derive(Debug, Default)]
pub struct Verified {
    /// The entries read.
    pub skills: usize,
    /// The problems, in the index's order.
    pub problems: Vec<Problem>,
    /// One line per entry that passed: `name  type  digest`.
    pub lines: Vec<String>,
}

fn problem(at: &str, message: impl Into<String>) -> Problem {
    Problem::new(Code::WellKnownInvalid, message).with_file(at.to_string())
}

/// Resolves `url` against the index at `index` (an absolute path), as a
/// URL reference resolves (RFC 3986 §5.2), on the same origin only.
pub fn resolve(origin: &Origin, index: &str, url: &str) -> Result<String, String> {
    if url.contains(['?', '#']) {
        return Err(format!("{url:?}: a query or fragment is not a file"));
    }
    // The path goes into a request line: no space or control character
    // may end it early or start a header.
    if url.chars().any(|c| c == ' ' || c.is_control()) {
        return Err(format!(
            "{url:?}: a space or control character in a URL (write it percent-encoded)"
        ));
    }
    let path = if let Some(rest) = url.strip_prefix("http://").or(url.strip_prefix("https://")) {
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        match origin {
            Origin::Http {
                authority: ours, ..
            } if ours == authority => path.to_string(),
            _ => {
                return Err(format!(
                    "{url:?} is on another origin than the index; artifacts are checked on the index's own"
                ));
            }
        }
    } else if url.starts_with('/') {
        url.to_string()
    } else {
        format!("{}/{url}", &index[..index.rfind('/').unwrap_or(0)])
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/').skip(1) {
        match part {
            "." => {}
            ".." => {
                parts
                    .pop()
                    .ok_or_else(|| format!("{url:?} climbs above the origin's root"))?;
            }
            part => parts.push(part),
        }
    }
    Ok(format!("/{}", parts.join("/")))
}

fn type_is(answer: &Answer, expected: &[&str]) -> bool {
    let media = answer
        .content_type
        .as_deref()
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    expected.contains(&media.as_str())
}

/// The files of an artifact as a client unpacks them, `(path, bytes)`.
fn unpack(kind: &str, url: &str, bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    if kind == "skill-md" {
        return Ok(vec![("SKILL.md".to_string(), bytes.to_vec())]);
    }
    let files = if bytes.starts_with(b"PK") || url.ends_with(".zip") {
        unpack_root(bytes, &Limits::default()).map_err(|error| error.to_string())?
    } else if bytes.starts_with(&[0x1f, 0x8b]) {
        untar(&gunzip(bytes, MAX_INFLATED)?)?
    } else {
        return Err("the archive is neither a .tar.gz nor a .zip".into());
    };
    if !files.iter().any(|(path, _)| path == "SKILL.md") {
        let wrapped = files
            .first()
            .and_then(|(path, _)| path.split_once('/'))
            .map(|(folder, _)| folder.to_string());
        return Err(match wrapped {
            Some(folder)
                if files
                    .iter()
                    .all(|(p, _)| p.starts_with(&format!("{folder}/"))) =>
            {
                format!(
                    "the archive wraps the skill in a folder {folder:?}: the format puts its files at the root (`skills pack` archives are FOLDER/PATH; `skills publish` writes root-layout ones)"
                )
            }
            _ => "the archive holds no SKILL.md at its root".into(),
        });
    }
    Ok(files)
}

/// The check of the tree at `origin`.
pub fn verify(origin: &Origin) -> Verified {
    let mut out = Verified::default();
    let index_path = format!("/{INDEX_DIR}/{INDEX_FILE}");
    let shown = origin.show(&index_path);
    let answer = match origin.request(&index_path, false) {
        Ok(answer) if answer.status == 200 => answer,
        Ok(answer) => {
            out.problems.push(problem(
                &shown,
                format!("the index answers {} instead of 200", answer.status),
            ));
            return out;
        }
        Err(message) => {
            out.problems.push(problem(&shown, message));
            return out;
        }
    };
    let http = matches!(origin, Origin::Http { .. });
    if http {
        if !type_is(&answer, &["application/json"]) {
            out.problems.push(problem(
                &shown,
                format!(
                    "the index is served as {:?}, not application/json",
                    answer.content_type.as_deref().unwrap_or("")
                ),
            ));
        }
        match origin.request(&index_path, true) {
            Ok(head) if head.status == 200 && head.bytes.is_empty() => {}
            Ok(head) => out.problems.push(problem(
                &shown,
                format!(
                    "HEAD answers {} with {} bytes of body, not 200 and none",
                    head.status,
                    head.bytes.len()
                ),
            )),
            Err(message) => out.problems.push(problem(&shown, message)),
        }
        // A path no index lists: the format asks for a 404.
        let missing = format!("/{INDEX_DIR}/.skills-verify-no-such-file");
        match origin.request(&missing, false) {
            Ok(none) if none.status == 404 => {}
            Ok(none) => out.problems.push(problem(
                &origin.show(&missing),
                format!("a missing file answers {}, not 404", none.status),
            )),
            Err(message) => out.problems.push(problem(&origin.show(&missing), message)),
        }
    }
    let text_of_index = String::from_utf8_lossy(&answer.bytes).into_owned();
    let index: Value = match serde_json::from_slice(&answer.bytes) {
        Ok(index) => index,
        Err(error) => {
            out.problems
                .push(problem(&shown, format!("the index is not JSON: {error}")));
            return out;
        }
    };
    if index.get("$schema").and_then(Value::as_str) != Some(SCHEMA) {
        out.problems.push(problem(
            &shown,
            format!("`$schema` must be {SCHEMA:?} (a 0.2.0 client ignores an index without it)"),
        ));
    }
    let Some(entries) = index.get("skills").and_then(Value::as_array) else {
        out.problems
            .push(problem(&shown, "`skills` must be an array of entries"));
        return out;
    };
    let mut names = std::collections::BTreeSet::new();
    for (at, entry) in entries.iter().enumerate() {
        out.skills += 1;
        let text = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or("");
        let (name, description, kind, url, sum) = (
            text("name"),
            text("description"),
            text("type"),
            text("url"),
            text("digest"),
        );
        // Located at the entry's name in the index's text.
        let here = |message: String| {
            problem(&shown, format!("skills[{at}]: {message}"))
                .at(crate::plugin::locate_value(&text_of_index, name))
        };
        let mut bad = Vec::new();
        if !is_index_name(name) {
            bad.push(format!(
                "`name` {name:?} is not 1 to 64 of a-z, 0-9 and single hyphens"
            ));
        }
        if description.is_empty() || description.chars().count() > MAX_DESCRIPTION {
            bad.push(format!(
                "`description` must be 1 to {MAX_DESCRIPTION} characters"
            ));
        }
        if !matches!(kind, "skill-md" | "archive") {
            bad.push(format!(
                "`type` {kind:?} is neither \"skill-md\" nor \"archive\""
            ));
        }
        let hex = sum.strip_prefix("sha256:").unwrap_or("");
        if hex.len() != 64
            || !hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            bad.push(format!(
                "`digest` {sum:?} is not sha256: and 64 lowercase hex digits"
            ));
        }
        if url.is_empty() {
            bad.push("`url` is missing".to_string());
        }
        if !names.insert(name.to_string()) {
            bad.push(format!("{name:?} is listed twice"));
        }
        if !bad.is_empty() {
            out.problems.extend(bad.into_iter().map(here));
            continue;
        }
        let path = match resolve(origin, &index_path, url) {
            Ok(path) => path,
            Err(message) => {
                out.problems.push(here(message));
                continue;
            }
        };
        let artifact = origin.show(&path);
        let answer = match origin.request(&path, false) {
            Ok(answer) if answer.status == 200 => answer,
            Ok(answer) => {
                out.problems.push(problem(
                    &artifact,
                    format!("{name}: the artifact answers {}", answer.status),
                ));
                continue;
            }
            Err(message) => {
                out.problems.push(problem(&artifact, message));
                continue;
            }
        };
        let types: &[&str] = match (kind, path.ends_with(".zip")) {
            ("skill-md", _) => &["text/markdown"],
            (_, true) => &["application/zip"],
            _ => &["application/gzip", "application/x-gzip"],
        };
        if http && !type_is(&answer, types) {
            out.problems.push(problem(
                &artifact,
                format!(
                    "{name}: served as {:?}, not {}",
                    answer.content_type.as_deref().unwrap_or(""),
                    types[0]
                ),
            ));
        }
        let actual = digest(&answer.bytes);
        if actual != sum {
            out.problems.push(problem(
                &artifact,
                format!("{name}: the index says {sum} but the bytes served are {actual}"),
            ));
            continue;
        }
        let files = match unpack(kind, &path, &answer.bytes) {
            Ok(files) => files,
            Err(message) => {
                out.problems
                    .push(problem(&artifact, format!("{name}: {message}")));
                continue;
            }
        };
        let problems = judge(name, &artifact, &files);
        if problems.is_empty() {
            out.lines.push(format!("ok  {name}  {kind}  {sum}"));
        }
        out.problems.extend(problems);
        legacy(origin, name, &files, &mut out.problems);
    }
    out
}

/// The check's verdict on the skill an artifact holds, read as the folder
/// `NAME/` (so its `name` must be the entry's).
fn judge(name: &str, artifact: &str, files: &[(String, Vec<u8>)]) -> Vec<Problem> {
    let mut source = MemorySource::new(artifact.to_string());
    for (path, bytes) in files {
        if let Some(why) = unsafe_path(path) {
            return vec![problem(artifact, format!("{name}: {path:?}: {why}"))];
        }
        source.insert(format!("{name}/{path}"), bytes.clone());
    }
    match skills_build::compile_sources(&[&source]) {
        Ok(compiled) => compiled
            .warnings
            .into_iter()
            .filter(Problem::is_error)
            .collect(),
        Err(error) => error.problems,
    }
}

/// The 0.1 layout's copy of the skill, when its index lists it: every
/// file it names must be served with the bytes the artifact holds.
fn legacy(origin: &Origin, name: &str, files: &[(String, Vec<u8>)], problems: &mut Vec<Problem>) {
    let index_path = format!("/{LEGACY_DIR}/{INDEX_FILE}");
    let Ok(answer) = origin.request(&index_path, false) else {
        return;
    };
    if answer.status != 200 {
        return;
    }
    let shown = origin.show(&index_path);
    let Ok(index) = serde_json::from_slice::<Value>(&answer.bytes) else {
        problems.push(problem(&shown, "the 0.1 index is not JSON"));
        return;
    };
    let entry = index
        .get("skills")
        .and_then(Value::as_array)
        .and_then(|all| {
            all.iter()
                .find(|e| e.get("name").and_then(Value::as_str) == Some(name))
        });
    let Some(entry) = entry else {
        problems.push(problem(&shown, format!("{name}: not in the 0.1 index")));
        return;
    };
    let listed: Vec<&str> = entry
        .get("files")
        .and_then(Value::as_array)
        .map(|files| files.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let expected: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    let mut wanted = expected.clone();
    wanted.sort_unstable();
    if sorted != wanted {
        problems.push(problem(
            &shown,
            format!("{name}: the 0.1 index lists {listed:?}, the artifact holds {expected:?}"),
        ));
        return;
    }
    for (path, bytes) in files {
        let at = format!("/{LEGACY_DIR}/{name}/{path}");
        match origin.request(&at, false) {
            Ok(answer) if answer.status == 200 && &answer.bytes == bytes => {}
            Ok(answer) => problems.push(problem(
                &origin.show(&at),
                format!(
                    "{name}: the 0.1 copy answers {} with other bytes than the artifact's",
                    answer.status
                ),
            )),
            Err(message) => problems.push(problem(&origin.show(&at), message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_resolve_against_the_index_and_stay_on_its_origin() {
        let dir = Origin::Dir("out".into());
        let index = "/.well-known/agent-skills/index.json";
        assert_eq!(
            resolve(&dir, index, "pdf.tar.gz").unwrap(),
            "/.well-known/agent-skills/pdf.tar.gz"
        );
        assert_eq!(
            resolve(&dir, index, "../skills/pdf/SKILL.md").unwrap(),
            "/.well-known/skills/pdf/SKILL.md"
        );
        assert_eq!(resolve(&dir, index, "/a/b").unwrap(), "/a/b");
        assert!(resolve(&dir, index, "../../../../x").is_err());
        assert!(resolve(&dir, index, "https://elsewhere.example/x").is_err());
        // Nothing that would end the request line or start a header.
        for url in ["a b.tar.gz", "x\r\nHost: elsewhere", "x\nX-Injected: 1"] {
            assert!(resolve(&dir, index, url).is_err(), "{url:?}");
        }
        let http = Origin::parse("http://127.0.0.1:9/").unwrap();
        assert_eq!(resolve(&http, index, "http://127.0.0.1:9/x").unwrap(), "/x");
        assert!(Origin::parse("http://example.com/").is_err());
        assert!(Origin::parse("https://127.0.0.1/").is_err());
    }
}
