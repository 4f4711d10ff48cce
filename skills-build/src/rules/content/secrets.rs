//! Secrets in a skill's files: private key blocks and credentials in the
//! formats their issuers give them, which a bundle would hand to every
//! agent that loads it (and a signature would vouch for).
//!
//! The formats are checked strictly, to find real secrets and not the
//! placeholders documentation is full of: a private key block must hold
//! key material (a `...` is no key), a token must look random (no
//! `ghp_xxxx...`, no `EXAMPLE`), an AWS access key id counts only with a
//! secret key beside it, and AWS's documented example keys are examples.
//! The secret itself is never printed: a problem names its kind and
//! prefix.

use super::findings::{Findings, Tally};
use super::skill::{Skill, TextFile};
use crate::problem::Code;

/// Private key blocks: `-----BEGIN <label> PRIVATE KEY-----` (PEM, PKCS#8,
/// OpenSSH, encrypted) and `-----BEGIN PGP PRIVATE KEY BLOCK-----`, whose
/// lines up to the matching `-----END` line are base64 (bar the header
/// lines of an encrypted key and blank lines), at least [`KEY_MATERIAL`]
/// characters of it. The lines end with line breaks, or with `\n`
/// escapes: a key in a JSON or code string (a cloud service account's
/// file). A block stops at its first line that is neither, at the next
/// BEGIN line, or at the end of the file without an END line: no key. So
/// each line is read for one block at most, and prose that quotes the
/// header line is none.
pub(crate) fn private_keys(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::PrivateKey) {
        return;
    }
    let text = file.text.text;
    let mut found = Tally::new();
    for &at in &file.marks.pem {
        if let Some(label) = key_block(&text[at..]) {
            found.add(at, || label.to_string());
        }
    }
    found.report(
        findings,
        (skill, file.path, &file.text),
        (
            Code::PrivateKey,
            "remove the key and revoke it; a skill that needs a key reads it from the environment at run time",
        ),
        |label| format!("a private key ({label}) is embedded here: whoever gets the bundle gets the key"),
    );
}

/// The fewest base64 characters a block must hold to be a key: an
/// Ed25519 OpenSSH key, the shortest common one, holds about 400.
const KEY_MATERIAL: usize = 100;

/// The longest label a BEGIN line is read for (`ENCRYPTED PRIVATE KEY`,
/// `OPENSSH PRIVATE KEY`, `PGP PRIVATE KEY BLOCK` are far shorter).
const LABEL_MAX: usize = 64;

/// The label of the private key block that `block` (from its
/// `-----BEGIN `) opens, when it is one: see [`private_keys`].
fn key_block(block: &str) -> Option<&str> {
    let rest = block.strip_prefix("-----BEGIN ")?;
    let head = &rest.as_bytes()[..rest.len().min(LABEL_MAX + 5)];
    let close = memchr::memmem::find(head, b"-----")?;
    let label = &rest[..close];
    if label.contains(['\n', '\\'])
        || !label.ends_with("PRIVATE KEY") && !label.ends_with("PRIVATE KEY BLOCK")
    {
        return None;
    }
    let body = &rest[close + 5..];
    // Lines end with a line break, or with a `\n` escape (in a string).
    let escaped = body.starts_with("\\n") || body.starts_with("\\r\\n");
    let mut material = 0;
    let mut remaining = body;
    // The BEGIN line's own end.
    let first = next_line(&mut remaining, escaped)?;
    if !first.trim().is_empty() {
        return None;
    }
    loop {
        let line = next_line(&mut remaining, escaped)?;
        let line = line.trim_matches([' ', '\t', '\r']);
        if line.starts_with("-----END ") {
            return (material >= KEY_MATERIAL).then_some(label);
        }
        if line.starts_with("-----") {
            return None;
        }
        let base64 = line
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
        // Header lines (`Proc-Type: 4,ENCRYPTED`, `Comment: ...`) come
        // before the material.
        let header = material == 0 && line.contains(':') && !line.contains("-----");
        if base64 {
            material += line.len();
        } else if !header {
            return None;
        }
    }
}

/// The next line of `rest` (without its end), moving `rest` past it; `None`
/// at the end of the text. With `escaped`, lines end at `\n` escapes (and
/// a real line break or a quote ends the string, and so the block).
fn next_line<'t>(rest: &mut &'t str, escaped: bool) -> Option<&'t str> {
    if rest.is_empty() {
        return None;
    }
    let bytes = rest.as_bytes();
    let (line, next) = if escaped {
        let end = memchr::memchr3(b'\\', b'\n', b'"', bytes).unwrap_or(bytes.len());
        match bytes.get(end..end + 2) {
            Some(b"\\n") => (&rest[..end], end + 2),
            Some(b"\\r") if bytes.get(end + 2..end + 4) == Some(b"\\n") => (&rest[..end], end + 4),
            // A line break, a quote or another escape: the string's text
            // is no base64 there.
            _ if end < bytes.len() => (&rest[..end + 1], bytes.len()),
            _ => (&rest[..end], end),
        }
    } else {
        let end = memchr::memchr(b'\n', bytes).unwrap_or(bytes.len());
        (&rest[..end], (end + 1).min(bytes.len()))
    };
    *rest = &rest[next..];
    Some(line)
}

/// A kind of credential, by the prefix its issuer gives it.
#[derive(Clone, Copy)]
struct Kind {
    /// What it is, in words.
    name: &'static str,
    /// The prefix, searched for.
    prefix: &'static str,
    /// Whether the text after the prefix (the token's characters that
    /// follow) is one: a length and randomness check.
    check: fn(&str) -> bool,
}

/// Token characters: ASCII letters, digits, `_` and `-`.
fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn alnum_exactly(rest: &str, len: usize) -> bool {
    rest.len() == len && rest.bytes().all(|b| b.is_ascii_alphanumeric()) && looks_random(rest)
}

const KINDS: &[Kind] = &[
    Kind {
        name: "a GitHub personal access token",
        prefix: "ghp_",
        check: |r| alnum_exactly(r, 36),
    },
    Kind {
        name: "a GitHub OAuth token",
        prefix: "gho_",
        check: |r| alnum_exactly(r, 36),
    },
    Kind {
        name: "a GitHub user-to-server token",
        prefix: "ghu_",
        check: |r| alnum_exactly(r, 36),
    },
    Kind {
        name: "a GitHub server-to-server token",
        prefix: "ghs_",
        check: |r| alnum_exactly(r, 36),
    },
    Kind {
        name: "a GitHub refresh token",
        prefix: "ghr_",
        check: |r| alnum_exactly(r, 36),
    },
    Kind {
        name: "a GitHub fine-grained personal access token",
        prefix: "github_pat_",
        check: |r| r.len() >= 70 && !r.contains('-') && looks_random(r),
    },
    Kind {
        name: "a GitLab personal access token",
        prefix: "glpat-",
        check: |r| r.len() >= 20 && looks_random(r),
    },
    Kind {
        name: "a GitLab deploy token",
        prefix: "gldt-",
        check: |r| r.len() >= 20 && looks_random(r),
    },
    Kind {
        name: "a GitLab runner token",
        prefix: "glrt-",
        check: |r| r.len() >= 20 && looks_random(r),
    },
    Kind {
        name: "a Slack bot token",
        prefix: "xoxb-",
        check: slack,
    },
    Kind {
        name: "a Slack user token",
        prefix: "xoxp-",
        check: slack,
    },
    Kind {
        name: "a Slack app token",
        prefix: "xapp-",
        check: slack,
    },
    Kind {
        name: "a Slack token",
        prefix: "xoxa-",
        check: slack,
    },
    Kind {
        name: "a Slack token",
        prefix: "xoxr-",
        check: slack,
    },
    Kind {
        name: "a Slack token",
        prefix: "xoxs-",
        check: slack,
    },
    Kind {
        name: "an Anthropic API key",
        prefix: "sk-ant-",
        check: anthropic,
    },
    Kind {
        name: "an OpenAI project key",
        prefix: "sk-proj-",
        check: |r| r.len() >= 40 && looks_random(r),
    },
    Kind {
        name: "an OpenAI service account key",
        prefix: "sk-svcacct-",
        check: |r| r.len() >= 40 && looks_random(r),
    },
    Kind {
        name: "an OpenAI admin key",
        prefix: "sk-admin-",
        check: |r| r.len() >= 40 && looks_random(r),
    },
    // OpenAI's older user keys: `sk-`, 20 characters, `T3BlbkFJ` (base64
    // of "OpenAI"), 20 characters.
    Kind {
        name: "an OpenAI API key",
        prefix: "sk-",
        check: |r| r.len() >= 40 && r.contains("T3BlbkFJ") && looks_random(r),
    },
];

/// Slack tokens: numeric parts, then a random one (`xoxb-<digits>-<digits>-<24 characters>`).
fn slack(rest: &str) -> bool {
    let parts: Vec<&str> = rest.split('-').collect();
    let numeric = parts
        .iter()
        .filter(|p| p.len() >= 6 && p.bytes().all(|b| b.is_ascii_digit()))
        .count();
    let last = parts.last().copied().unwrap_or("");
    numeric >= 1 && parts.len() >= 3 && last.len() >= 20 && looks_random(last)
}

/// Anthropic keys: `sk-ant-<kind><version>-` and about 95 characters,
/// ending in `AA`.
fn anthropic(rest: &str) -> bool {
    let Some((kind, key)) = rest.split_once('-') else {
        return false;
    };
    kind.bytes().any(|b| b.is_ascii_digit())
        && kind.bytes().all(|b| b.is_ascii_alphanumeric())
        && key.len() >= 80
        && key.ends_with("AA")
        && looks_random(key)
}

/// Whether a token's characters look drawn at random rather than typed as
/// a placeholder: many distinct characters, no long runs of one character
/// or of a counting sequence, none of the placeholder words, and (past 30
/// characters) letters and digits both.
pub(super) fn looks_random(token: &str) -> bool {
    let bytes = token.as_bytes();
    let mut seen = [false; 256];
    for &b in bytes {
        seen[usize::from(b)] = true;
    }
    let distinct = seen.iter().filter(|s| **s).count();
    if distinct < (bytes.len() / 3).clamp(4, 12) {
        return false;
    }
    let mut run = 1;
    let mut counting = 1;
    for pair in bytes.windows(2) {
        run = if pair[0] == pair[1] { run + 1 } else { 1 };
        counting = if pair[1] == pair[0].wrapping_add(1) {
            counting + 1
        } else {
            1
        };
        if run >= 4 || counting >= 5 {
            return false;
        }
    }
    let lower = token.to_ascii_lowercase();
    const PLACEHOLDERS: [&str; 8] = [
        "example",
        "xxxx",
        "your",
        "placeholder",
        "redacted",
        "dummy",
        "fake",
        "token",
    ];
    if PLACEHOLDERS.iter().any(|word| lower.contains(word)) {
        return false;
    }
    bytes.len() < 30
        || (bytes.iter().any(u8::is_ascii_digit) && bytes.iter().any(u8::is_ascii_alphabetic))
}

/// Credentials in a text file: the token formats of [`KINDS`], AWS key
/// pairs, Slack webhooks, and in a `.env` file a secret-named variable set
/// to a random-looking value.
pub(crate) fn credentials(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::Credential) {
        return;
    }
    let text = file.text.text;
    let bytes = text.as_bytes();
    let mut found: Vec<(usize, &'static str, String)> = Vec::new();
    // Every prefix ends in `_` or `-`: the marked ones are matched against
    // the prefixes that end there.
    for &end in &file.marks.token_ends {
        for kind in KINDS {
            let prefix = kind.prefix.as_bytes();
            let Some(at) = (end + 1).checked_sub(prefix.len()) else {
                continue;
            };
            // The first byte rules out nearly every `-` of prose at once.
            if bytes[at] != prefix[0]
                || &bytes[at..=end] != prefix
                || (at > 0 && token_char(bytes[at - 1]))
            {
                continue;
            }
            let start = end + 1;
            let stop = start
                + bytes[start..]
                    .iter()
                    .take_while(|b| token_char(**b))
                    .count();
            if (kind.check)(&text[start..stop]) && !found.iter().any(|(other, _, _)| *other == at) {
                found.push((at, kind.name, kind.prefix.to_string()));
            }
        }
    }
    aws_pairs(text, &file.marks.aws, &mut found);
    slack_webhooks(text, &file.marks.schemes, &mut found);
    if is_env_file(file.path) {
        env_assignments(text, &mut found);
    }
    found.sort_by_key(|(at, _, _)| *at);
    let mut tally = Tally::new();
    for (at, name, prefix) in found {
        tally.add(at, || (name, prefix));
    }
    tally.report(
        findings,
        (skill, file.path, &file.text),
        (
            Code::Credential,
            "remove it and revoke it; a skill that needs a credential reads it from the environment at run time",
        ),
        |(name, prefix)| format!("{name} ({prefix}...) is written here: whoever gets the bundle can use it"),
    );
}

/// An AWS access key id (`AKIA`/`ASIA` and 16 base32 characters) with a
/// secret access key (40 base64 characters) within three lines of it. AWS's
/// documented example keys end in `EXAMPLE` and `EXAMPLEKEY`.
fn aws_pairs(text: &str, marked: &[usize], found: &mut Vec<(usize, &'static str, String)>) {
    let bytes = text.as_bytes();
    // The secrets are found once, on the first id that needs them.
    let mut secrets: Option<Vec<usize>> = None;
    for &at in marked {
        let id = &bytes[at..];
        let bounded = (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
            && id.len() >= 20
            && id[4..20]
                .iter()
                .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(b))
            && id.get(20).is_none_or(|b| !b.is_ascii_alphanumeric());
        if !bounded || !looks_random(&text[at + 4..at + 20]) {
            continue;
        }
        let secrets = secrets.get_or_insert_with(|| secret_keys(bytes));
        if secret_near(bytes, secrets, at) {
            found.push((at, "an AWS access key pair", text[at..at + 4].to_string()));
        }
    }
}

/// How far from an access key id, in bytes either way, its secret is
/// looked for (and no farther than three lines): the window is bounded on
/// one long line too.
const PAIR_WINDOW: usize = 400;

/// Where the text's secret access keys start: runs of exactly 40 base64
/// characters, with lower case, upper case and a digit or `/` or `+`, that
/// look random. One pass.
fn secret_keys(bytes: &[u8]) -> Vec<usize> {
    let is_b64 = |b: u8| b.is_ascii_alphanumeric() || b == b'/' || b == b'+';
    let mut keys = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_b64(bytes[i]) {
            i += 1;
            continue;
        }
        let run = bytes[i..].iter().take_while(|b| is_b64(**b)).count();
        if run == 40
            && let Ok(candidate) = std::str::from_utf8(&bytes[i..i + 40])
            && candidate.bytes().any(|b| b.is_ascii_lowercase())
            && candidate.bytes().any(|b| b.is_ascii_uppercase())
            && candidate
                .bytes()
                .any(|b| b.is_ascii_digit() || b == b'/' || b == b'+')
            && looks_random(candidate)
        {
            keys.push(i);
        }
        i += run;
    }
    keys
}

/// Whether one of `secrets` (offsets, in order) sits within three lines
/// and [`PAIR_WINDOW`] bytes of the byte offset `at`.
fn secret_near(bytes: &[u8], secrets: &[usize], at: usize) -> bool {
    let low = at.saturating_sub(PAIR_WINDOW);
    let high = at + PAIR_WINDOW;
    let first = secrets.partition_point(|&secret| secret < low);
    secrets[first..]
        .iter()
        .take_while(|&&secret| secret <= high)
        .any(|&secret| {
            let (from, to) = (at.min(secret), at.max(secret));
            memchr::memchr_iter(b'\n', &bytes[from..to]).count() <= 3
        })
}

/// `https://hooks.slack.com/services/T.../B.../<secret>`.
fn slack_webhooks(text: &str, schemes: &[usize], found: &mut Vec<(usize, &'static str, String)>) {
    let needle = "hooks.slack.com/services/";
    for &scheme in schemes {
        let at = scheme + 3;
        let Some(rest) = text.get(at..).and_then(|rest| rest.strip_prefix(needle)) else {
            continue;
        };
        let path: Vec<&str> = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '/'))
            .next()
            .unwrap_or("")
            .split('/')
            .collect();
        if let [team, channel, secret, ..] = path.as_slice()
            && team.starts_with('T')
            && channel.starts_with('B')
            && secret.len() >= 20
            && looks_random(secret)
        {
            found.push((
                at,
                "a Slack webhook URL",
                "hooks.slack.com/services/".to_string(),
            ));
        }
    }
}

/// `.env`, `.env.local`, `.env.production`...; not the templates
/// (`.env.example`, `.env.sample`, `.env.template`, `.env.dist`).
fn is_env_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.strip_prefix(".env") {
        Some("") => true,
        Some(suffix) => {
            suffix.starts_with('.')
                && ![
                    "example", "sample", "template", "dist", "defaults", "schema",
                ]
                .iter()
                .any(|word| suffix.to_ascii_lowercase().contains(word))
        }
        None => false,
    }
}

/// In a `.env` file, `NAME=value` where the name says secret and the
/// value, unquoted, is 16 or more characters that look random.
fn env_assignments(text: &str, found: &mut Vec<(usize, &'static str, String)>) {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let trimmed = line.trim();
        let assignment = trimmed.strip_prefix("export ").unwrap_or(trimmed);
        let Some((name, value)) = assignment.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        let upper = name.to_ascii_uppercase();
        let secret_name = [
            "SECRET",
            "TOKEN",
            "PASSWORD",
            "PASSWD",
            "API_KEY",
            "APIKEY",
            "PRIVATE_KEY",
            "ACCESS_KEY",
        ]
        .iter()
        .any(|word| upper.contains(word));
        let random_value = value.len() >= 16
            && value
                .bytes()
                .all(|b| b.is_ascii_graphic() && !matches!(b, b'$' | b'<' | b'>' | b'{' | b'}'))
            && looks_random(value);
        // A line whose value is a token of a known kind is reported as that.
        let known = found.iter().any(|(at, _, _)| (here..offset).contains(at));
        if secret_name && random_value && !name.starts_with('#') && !known {
            let name_at = here + line.find(name).unwrap_or(0);
            found.push((name_at, "a secret in a .env file", format!("{name}=")));
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::rules::content::tests::{codes, skill_md};

    pub(crate) use skills_test_support::fake_secrets::noise;

    #[test]
    fn private_key_blocks_with_material_are_errors() {
        let key = format!(
            "-----BEGIN {}-----\n{}\n{}\n-----END {}-----\n",
            "OPENSSH PRIVATE KEY",
            noise(64),
            noise(64),
            "OPENSSH PRIVATE KEY"
        );
        assert_eq!(
            codes(&skill_md("Go."), &[("deploy/id_ed25519", &key)]),
            ["private-key"]
        );
        // A placeholder in documentation is no key; a public key is none.
        let placeholder = "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n";
        let public = format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
            noise(200)
        );
        assert!(codes(&skill_md(placeholder), &[("key.pub", &public)]).is_empty());
    }

    #[test]
    fn tokens_in_their_formats_are_errors_placeholders_are_not() {
        let github = format!("ghp_{}", noise(36));
        assert_eq!(
            codes(&skill_md(&format!("export GH={github}")), &[]),
            ["credential"]
        );
        let anthropic = format!("sk-ant-api03-{}AA", noise(93));
        assert_eq!(
            codes(
                &skill_md("Go."),
                &[("run.sh", &format!("KEY={anthropic}\n"))]
            ),
            ["credential"]
        );
        let slack = format!("xoxb-{}-{}-{}", "123456789012", "1234567890123", noise(24));
        assert_eq!(codes(&skill_md(&slack), &[]), ["credential"]);
        for placeholder in [
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "GITHUB_TOKEN=ghp_your_token_here",
            "sk-ant-api03-...",
            "xoxb-your-bot-token",
            "Set OPENAI_API_KEY=sk-...",
            "the task-list and a risk-free desk-top",
        ] {
            assert!(
                codes(&skill_md(placeholder), &[]).is_empty(),
                "{placeholder}"
            );
        }
    }

    #[test]
    fn aws_ids_need_a_secret_beside_them_and_examples_are_examples() {
        let id = format!("AKIA{}", "Q7RZ2KP3WMX4VN6B");
        let secret = format!("{}/{}", noise(20), noise(19));
        let pair = format!("aws_access_key_id = {id}\naws_secret_access_key = {secret}\n");
        assert_eq!(
            codes(&skill_md("Go."), &[("creds.ini", &pair)]),
            ["credential"]
        );
        // The id alone is no credential; AWS's documented example pair is
        // an example.
        assert!(codes(&skill_md(&format!("Key id: {id}")), &[]).is_empty());
        let example = "AKIAIOSFODNN7EXAMPLE\nwJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n";
        assert!(codes(&skill_md(example), &[]).is_empty());
    }

    #[test]
    fn env_files_with_secret_values_are_errors_templates_are_not() {
        let env = format!(
            "DATABASE_URL=postgres://localhost/db\nSTRIPE_SECRET={}\n",
            noise(32)
        );
        assert_eq!(codes(&skill_md("Go."), &[(".env", &env)]), ["credential"]);
        assert!(codes(&skill_md("Go."), &[(".env.example", &env)]).is_empty());
        assert!(
            codes(
                &skill_md("Go."),
                &[(".env", "API_KEY=changeme\nTOKEN=${TOKEN}\n")]
            )
            .is_empty()
        );
    }

    /// Issue 39, item 2: a file of BEGIN lines is one read (each line is
    /// read for one block at most), and none is a key.
    #[test]
    fn item_2_private_keys_are_linear() {
        let lines = "-----BEGIN RSA PRIVATE KEY-----\n".repeat(32_000);
        assert!(codes(&skill_md("Go."), &[("keys.txt", &lines)]).is_empty());
        let letters = format!("{}\n", "A".repeat(60)).repeat(16_000);
        let open = format!("-----BEGIN RSA PRIVATE KEY-----\n{letters}");
        // No END line: no key (and one read of the letters).
        assert!(codes(&skill_md("Go."), &[("open.pem", &open.repeat(2))]).is_empty());
    }

    /// Issue 39, item 2: a security auditor's SKILL.md quotes the header
    /// line, then prose: no key.
    #[test]
    fn item_2_a_quoted_header_then_prose_is_no_key() {
        let body = "- Private keys: look for `-----BEGIN RSA PRIVATE KEY-----` in the\nrepository and in its history; rotate any key found there, since whoever\ncloned the repository has it. Then check the deploy scripts and CI settings.\n-----END of checklist-----\n";
        assert!(codes(&skill_md(body), &[]).is_empty());
        // A block that holds prose before its END line is none either; one
        // cut short by the next BEGIN is none.
        let prose = format!(
            "-----BEGIN PRIVATE KEY-----\nthis is not base64 at all {}\n-----END PRIVATE KEY-----\n",
            noise(100)
        );
        let cut = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----BEGIN PRIVATE KEY-----\n",
            noise(100)
        );
        assert!(codes(&skill_md("Go."), &[("a.txt", &prose), ("b.txt", &cut)]).is_empty());
    }

    /// Issue 39, item 8: a key inside a JSON or code string, its lines
    /// ending in `\n` escapes (every cloud service account's file).
    #[test]
    fn item_8_a_key_in_a_json_string() {
        let json = format!(
            "{{\n  \"type\": \"service_account\",\n  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{}\\n{}\\n-----END PRIVATE KEY-----\\n\",\n  \"client_email\": \"x@y.iam.gserviceaccount.com\"\n}}\n",
            noise(64),
            noise(64)
        );
        assert_eq!(
            codes(&skill_md("Go."), &[("sa.json", &json)]),
            ["private-key"]
        );
        let code = format!(
            "KEY = \"-----BEGIN EC PRIVATE KEY-----\\r\\n{}\\r\\n-----END EC PRIVATE KEY-----\"\n",
            noise(120)
        );
        assert_eq!(codes(&skill_md("Go."), &[("k.py", &code)]), ["private-key"]);
        // A placeholder in a string is none.
        let placeholder =
            "\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n\"";
        assert!(codes(&skill_md(placeholder), &[]).is_empty());
    }

    /// Issue 39, item 3: AWS key ids on one long line: each looks for its
    /// secret within a bounded window, not along the whole line.
    #[test]
    fn item_3_aws_pairs_are_linear_on_long_lines() {
        let id = format!("AKIA{} ", "Q7RZ2KP3WMX4VN6B");
        let line = id.repeat(50_000);
        assert!(codes(&skill_md("Go."), &[("ids.txt", &line)]).is_empty());
        // A secret far along the line is not beside an id at its start.
        let secret = format!("{}/{}", noise(20), noise(19));
        let far = format!("{id}{}{secret}\n", " ".repeat(2_000));
        assert!(codes(&skill_md("Go."), &[("far.txt", &far)]).is_empty());
        let near = format!("{id} {secret}\n");
        assert_eq!(
            codes(&skill_md("Go."), &[("near.txt", &near)]),
            ["credential"]
        );
    }
}
