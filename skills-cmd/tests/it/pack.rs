//! `skills pack`: an archive a build reads as it reads the folder, the same
//! bytes from the same folder whatever the timestamps, the Claude
//! packager's junk left out, and a folder that fails `check` refused.

use std::path::{Path, PathBuf};

use skills_build::Builder;

use crate::support;
use support::tree::{copy_tree, scratch};
use support::{run_skills, workspace};

/// The bundle of one source, as a build script's `Builder` makes it.
fn bundle(source: &Path) -> Vec<u8> {
    match Builder::new().source(source).compile() {
        Ok(compiled) => compiled.bytes,
        Err(error) => panic!("{} does not compile: {error}", source.display()),
    }
}

/// `skills pack DIR -o OUT`: the archive's bytes, or the failed output.
fn pack(dir: &Path, out: &Path) -> Result<Vec<u8>, String> {
    let run = run_skills(
        None,
        &["pack", dir.to_str().unwrap(), "-o", out.to_str().unwrap()],
    );
    match run.status.code() {
        Some(0) => Ok(std::fs::read(out).unwrap()),
        _ => Err(String::from_utf8_lossy(&run.stderr).into_owned()),
    }
}

/// Every skill folder the repository holds.
fn skill_folders() -> Vec<PathBuf> {
    let root = workspace();
    let mut found = Vec::new();
    for parent in [
        "testdata/skills",
        "testdata/archive/skills",
        "examples/serve-skills/skills",
    ] {
        for entry in std::fs::read_dir(root.join(parent)).unwrap() {
            let path = entry.unwrap().path();
            if path.join("SKILL.md").is_file() {
                found.push(path);
            }
        }
    }
    found.sort();
    assert!(found.len() >= 5, "{found:?}");
    found
}

#[test]
fn pack_then_build_gives_the_folders_bundle() {
    let tmp = scratch("pack", "roundtrip");
    for folder in skill_folders() {
        let name = folder.file_name().unwrap().to_str().unwrap();
        let alone = tmp.join(name);
        copy_tree(&folder, &alone.join(name));
        let archive = alone.join(format!("{name}.skill"));
        let packed = pack(&alone.join(name), &archive).unwrap();
        assert_eq!(
            bundle(&archive),
            bundle(&alone),
            "{name}: the archive builds another bundle"
        );
        // The same folder gives the same bytes, whatever the timestamps.
        let again = tmp.join(format!("{name}-again"));
        copy_tree(&folder, &again.join(name));
        let repacked = pack(&again.join(name), &tmp.join("again.skill")).unwrap();
        assert_eq!(repacked, packed, "{name}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn pack_leaves_out_what_the_claude_packager_leaves_out() {
    let tmp = scratch("pack", "junk");
    let folder = tmp.join("report-writer");
    copy_tree(
        &workspace().join("testdata/archive/skills/report-writer"),
        &folder,
    );
    let clean = pack(&folder, &tmp.join("clean.skill")).unwrap();
    for junk in [
        "scripts/__pycache__/render.cpython-312.pyc",
        "node_modules/left-pad/index.js",
        "stale.pyc",
        ".DS_Store",
        "references/.DS_Store",
    ] {
        let path = folder.join(junk);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "junk").unwrap();
    }
    let run = run_skills(
        None,
        &[
            "pack",
            folder.to_str().unwrap(),
            "-o",
            tmp.join("junk.skill").to_str().unwrap(),
        ],
    );
    assert_eq!(run.status.code(), Some(0));
    assert_eq!(std::fs::read(tmp.join("junk.skill")).unwrap(), clean);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("packed 5 files of report-writer"), "{said}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn pack_refuses_a_folder_that_fails_check() {
    let tmp = scratch("pack", "refuse");
    let folder = tmp.join("Bad_Name");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("SKILL.md"),
        "---\nname: Bad_Name\ndescription: x\n---\n",
    )
    .unwrap();
    let out = tmp.join("Bad_Name.skill");
    let error = pack(&folder, &out).unwrap_err();
    assert!(error.contains("must be lowercase"), "{error}");
    assert!(!out.exists(), "nothing is written");
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// A skill with one of Claude Code's fields: the reference refuses it, Claude
/// Code's profile accepts it.
const DEPLOY_SKILL: &str = "---\nname: deploy\ndescription: Deploy the app. Use when the user asks to ship.\ndisable-model-invocation: true\n---\nRun it.\n";

/// Every file under `dir`, by its `/`-separated path.
fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// A copy of `from` whose files and folders are created in the reverse of
/// their sorted order (so a folder lists them in another order where the
/// file system keeps creation order).
fn reversed_copy(from: &Path, to: &Path) {
    for (rel, bytes) in files_under(from).into_iter().rev() {
        let path = to.join(&rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        // The same modes: a bundle and an archive carry the executable bit.
        let mode = std::fs::metadata(from.join(&rel)).unwrap().permissions();
        std::fs::set_permissions(&path, mode).unwrap();
    }
}

fn ok(run: &std::process::Output, what: &str) {
    assert!(
        run.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// Compares `actual` with the recording under testdata/`rel`, or with
/// SKILLS_BLESS=1 writes it.
fn recorded(rel: &str, actual: &[u8]) {
    let path = workspace().join("testdata").join(rel);
    if std::env::var_os("SKILLS_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
    }
    let expected =
        std::fs::read(&path).unwrap_or_else(|_| panic!("{rel}: rerun with SKILLS_BLESS=1"));
    assert!(
        expected == actual,
        "{rel} differs from what the command writes (SKILLS_BLESS=1 rewrites it):\n{}",
        String::from_utf8_lossy(actual)
    );
}

#[test]
fn a_published_index_and_a_plugin_are_the_same_bytes_across_runs_and_file_orders() {
    let tmp = scratch("pack", "well-known-determinism");
    let skills = workspace().join("testdata/skills");
    let reversed = tmp.join("reversed");
    reversed_copy(&skills, &reversed);
    let folders: Vec<String> = {
        let mut all: Vec<String> = std::fs::read_dir(&reversed)
            .unwrap()
            .map(|e| e.unwrap().path().to_str().unwrap().to_string())
            .collect();
        all.sort();
        all.reverse();
        all
    };
    let mut sources = [
        vec![skills.to_str().unwrap().to_string()],
        vec![skills.to_str().unwrap().to_string()],
        vec![reversed.to_str().unwrap().to_string()],
        folders,
    ];
    let mut trees = Vec::new();
    let mut plugins = Vec::new();
    for (at, srcs) in sources.iter_mut().enumerate() {
        let out = tmp.join(format!("site{at}"));
        let mut args = vec!["publish", "--well-known", out.to_str().unwrap(), "--legacy"];
        args.extend(srcs.iter().map(String::as_str));
        ok(&run_skills(None, &args), "publish");
        trees.push(files_under(&out));
        let out = tmp.join(format!("plugin{at}"));
        // A plugin is built from one source: the folder of skills.
        let src = match srcs.len() {
            1 => srcs[0].clone(),
            _ => reversed.to_str().unwrap().to_string(),
        };
        let run = run_skills(
            None,
            &[
                "plugin",
                "build",
                &src,
                "-o",
                out.to_str().unwrap(),
                "--name",
                "test-skills",
                "--version",
                "1.0.0",
                "--description",
                "The test skills",
                "--author",
                "Skills",
                "--keyword",
                "demo",
                "--license",
                "MIT",
                "--adapter",
                "claude-code",
                "--adapter",
                "codex",
                "--marketplace",
            ],
        );
        ok(&run, "plugin build");
        plugins.push(files_under(&out));
    }
    for other in &trees[1..] {
        assert_eq!(other, &trees[0]);
    }
    for other in &plugins[1..] {
        assert_eq!(other, &plugins[0]);
    }
    let index = &trees[0][".well-known/agent-skills/index.json"];
    recorded("publish/index.json", index);
    recorded(
        "publish/legacy-index.json",
        &trees[0][".well-known/skills/index.json"],
    );
    for file in [
        "plugin.json",
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        ".codex-plugin/plugin.json",
        ".agents/plugins/marketplace.json",
    ] {
        recorded(&format!("plugin/{file}"), &plugins[0][file]);
    }
    // The artifacts' digests are of the bytes written.
    let text = String::from_utf8_lossy(index);
    for (path, bytes) in &trees[0] {
        if path.ends_with(".tar.gz")
            || path.ends_with("/SKILL.md") && path.starts_with(".well-known/agent-skills/")
        {
            let digest: String = sha2_hex(bytes);
            assert!(text.contains(&format!("sha256:{digest}")), "{path}");
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

fn sha2_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn verify_well_known_finds_a_changed_artifact_a_wrapped_archive_and_a_missing_one() {
    let tmp = scratch("pack", "well-known-verify");
    let skills = workspace().join("testdata/skills");
    let site = tmp.join("site");
    let site_arg = site.to_str().unwrap();
    ok(
        &run_skills(
            None,
            &[
                "publish",
                "--well-known",
                site_arg,
                "--archive",
                "zip",
                skills.to_str().unwrap(),
            ],
        ),
        "publish",
    );
    ok(
        &run_skills(None, &["verify", "--well-known", site_arg]),
        "verify",
    );
    let dir = site.join(".well-known/agent-skills");
    // A `skills pack` archive (FOLDER/PATH) in place of the root-layout one,
    // with the index's digest made to match: the layout is what fails.
    let packed = tmp.join("pdf-forms.skill");
    ok(
        &run_skills(
            None,
            &[
                "pack",
                skills.join("pdf-forms").to_str().unwrap(),
                "-o",
                packed.to_str().unwrap(),
            ],
        ),
        "pack",
    );
    let wrapped = std::fs::read(&packed).unwrap();
    let index_path = dir.join("index.json");
    let index = std::fs::read_to_string(&index_path).unwrap();
    let old = sha2_hex(&std::fs::read(dir.join("pdf-forms.zip")).unwrap());
    std::fs::write(dir.join("pdf-forms.zip"), &wrapped).unwrap();
    std::fs::write(&index_path, index.replace(&old, &sha2_hex(&wrapped))).unwrap();
    // A changed SKILL.md, its digest left as it was.
    std::fs::write(
        dir.join("git-rebase/SKILL.md"),
        "---\nname: git-rebase\ndescription: changed.\n---\n",
    )
    .unwrap();
    // And a missing archive.
    std::fs::remove_file(dir.join("csv-report.zip")).unwrap();
    let run = run_skills(
        None,
        &["verify", "--well-known", site_arg, "--format", "json"],
    );
    assert_eq!(run.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let messages: Vec<String> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                p["file"].as_str().unwrap_or(""),
                p["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    let has = |what: &str| messages.iter().any(|m| m.contains(what));
    assert!(
        has("wraps the skill in a folder \"pdf-forms\""),
        "{messages:?}"
    );
    assert!(
        has("git-rebase/SKILL.md git-rebase: the index says sha256:"),
        "{messages:?}"
    );
    assert!(
        has("csv-report.zip csv-report: the artifact answers 404"),
        "{messages:?}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn plugin_check_locates_manifest_mcp_and_skill_problems_in_every_format() {
    let tmp = scratch("pack", "plugin-check");
    let plugin = tmp.join("plugin");
    let token = concat!("ghp_", "Zq8Yw3Lm0Pn4Rt7Vx1Bc5Df9Gh2Jk6Ms0Qa7");
    support::tree::write(
        &plugin,
        "plugin.json",
        "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\",\n  \"skills\": \"./skills/\"\n}\n",
    );
    support::tree::write(
        &plugin,
        "mcp.json",
        format!(
            "{{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {{\n    \"run\": {{\"type\": \"stdio\", \"command\": \"npx -y thing\", \"env\": {{\"GITHUB_TOKEN\": \"{token}\"}}}},\n    \"web\": {{\"type\": \"sse\", \"url\": \"http://mcp.example.com/sse\"}}\n  }}\n}}\n"
        ),
    );
    support::tree::write(&plugin, "skills/deploy/SKILL.md", DEPLOY_SKILL);
    support::tree::copy_tree(
        &workspace().join("testdata/skills/git-rebase"),
        &plugin.join("skills/git-rebase"),
    );
    let dir = plugin.to_str().unwrap();
    let run = run_skills(None, &["plugin", "check", dir]);
    assert_eq!(run.status.code(), Some(1));
    let human = String::from_utf8_lossy(&run.stderr);
    assert!(
        human.contains("`skills` is not a key of the Agent Plugins manifest"),
        "{human}"
    );
    assert!(human.contains("plugin.json:4:3"), "{human}");
    assert!(human.contains("is a shell string"), "{human}");
    assert!(
        human.contains("plain HTTP to a host that is not loopback"),
        "{human}"
    );
    assert!(human.contains("GitHub personal access token"), "{human}");
    assert!(human.contains("deploy: a conforming client will skip this skill because of Unexpected fields in frontmatter: disable-model-invocation"), "{human}");
    assert!(
        !human.contains("git-rebase: a conforming client"),
        "{human}"
    );
    let with_host = run_skills(None, &["plugin", "check", dir, "--host", "claude-code"]);
    let text = String::from_utf8_lossy(&with_host.stderr);
    assert!(text.contains("Claude Code accepts it: its adapter (.claude-plugin/plugin.json) should carry it as com.anthropic.claude-code/skills/deploy"), "{text}");
    let json = run_skills(None, &["plugin", "check", dir, "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let codes: Vec<&str> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"plugin-invalid") && codes.contains(&"plugin-skill-skipped"),
        "{codes:?}"
    );
    let sarif = run_skills(None, &["plugin", "check", dir, "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert!(log["runs"][0]["results"].as_array().unwrap().len() >= 5);
    let github = run_skills(None, &["plugin", "check", dir, "--format", "github"]);
    assert!(String::from_utf8_lossy(&github.stdout).contains("title=plugin-skill-skipped"));
    // A skill folder linked from outside the plugin is refused, not read.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            workspace().join("testdata/skills/csv-report"),
            plugin.join("skills/csv-report"),
        )
        .unwrap();
        let linked = run_skills(None, &["plugin", "check", dir]);
        let text = String::from_utf8_lossy(&linked.stderr);
        assert!(
            text.contains("skills/csv-report resolves to") && text.contains("outside the plugin"),
            "{text}"
        );
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn plugin_build_carries_a_host_only_skill_in_its_adapter_and_check_catches_drift() {
    let tmp = scratch("pack", "plugin-build");
    let src = tmp.join("src");
    support::tree::copy_tree(
        &workspace().join("testdata/skills/git-rebase"),
        &src.join("git-rebase"),
    );
    support::tree::write(&src, "deploy/SKILL.md", DEPLOY_SKILL);
    support::tree::write(
        &src,
        "git-rebase/scripts/continue.sh",
        "#!/bin/sh\ngit rebase --continue\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = src.join("git-rebase/scripts/continue.sh");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = tmp.join("out");
    let (s, o) = (src.to_str().unwrap(), out.to_str().unwrap());
    // Without a host whose adapter would carry it, the skill is refused and
    // nothing is written.
    let refused = run_skills(None, &["plugin", "build", s, "-o", o, "--name", "demo"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("a conforming client will skip this skill")
    );
    assert!(!out.exists());
    let args = [
        "plugin",
        "build",
        s,
        "-o",
        o,
        "--name",
        "demo",
        "--host",
        "claude-code",
        "--adapter",
        "claude-code",
    ];
    ok(&run_skills(None, &args), "plugin build");
    let files = files_under(&out);
    assert!(files.contains_key("com.anthropic.claude-code/skills/deploy/SKILL.md"));
    assert!(
        files.contains_key("skills/git-rebase/SKILL.md")
            && !files.contains_key("skills/deploy/SKILL.md")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |rel: &str| {
            std::fs::metadata(out.join(rel))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("skills/git-rebase/scripts/continue.sh"), 0o755);
        assert_eq!(mode("skills/git-rebase/SKILL.md") & 0o111, 0);
    }
    let adapter = String::from_utf8_lossy(&files[".claude-plugin/plugin.json"]).into_owned();
    assert!(
        adapter.contains("\"./com.anthropic.claude-code/skills/deploy\""),
        "{adapter}"
    );
    ok(&run_skills(None, &["plugin", "check", o]), "plugin check");
    let mut check_args = args.to_vec();
    check_args.push("--check");
    ok(&run_skills(None, &check_args), "plugin build --check");
    // An mcp.json is checked before it is carried, and translated for the
    // adapter.
    let schema = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
    let bad = tmp.join("bad-mcp.json");
    std::fs::write(&bad, format!(r#"{{"$schema":"{schema}","mcpServers":{{"a":{{"type":"stdio","command":"npx -y a"}}}}}}"#)).unwrap();
    let with_mcp = tmp.join("with-mcp");
    let mcp_args = |file: &Path| {
        let mut all: Vec<String> = [
            "plugin",
            "build",
            s,
            "-o",
            with_mcp.to_str().unwrap(),
            "--name",
            "demo",
            "--host",
            "claude-code",
            "--adapter",
            "claude-code",
            "--mcp",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        all.push(file.to_str().unwrap().to_string());
        all
    };
    let refused = run_skills(
        None,
        &mcp_args(&bad)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is a shell string"));
    assert!(!with_mcp.exists());
    let good = tmp.join("mcp.json");
    std::fs::write(&good, format!(r#"{{"$schema":"{schema}","mcpServers":{{"docs":{{"type":"streamable-http","url":"https://docs.example.com/mcp"}}}}}}"#)).unwrap();
    ok(
        &run_skills(
            None,
            &mcp_args(&good)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        ),
        "plugin build --mcp",
    );
    let carried = std::fs::read_to_string(with_mcp.join(".mcp.json")).unwrap();
    assert!(carried.contains("\"type\": \"http\""), "{carried}");
    assert!(
        std::fs::read_to_string(with_mcp.join("mcp.json"))
            .unwrap()
            .contains("streamable-http")
    );
    assert!(
        std::fs::read_to_string(with_mcp.join(".claude-plugin/plugin.json"))
            .unwrap()
            .contains("\"mcpServers\": \"./.mcp.json\"")
    );
    std::fs::write(out.join("plugin.json"), "{}").unwrap();
    support::tree::write(&out, "skills/stale/SKILL.md", "left over");
    let drift = run_skills(None, &check_args);
    assert_eq!(drift.status.code(), Some(1));
    let text = String::from_utf8_lossy(&drift.stderr);
    assert!(
        text.contains("plugin.json: differs")
            && text.contains("skills/stale/SKILL.md: not part of this build"),
        "{text}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}
