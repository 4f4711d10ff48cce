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
/// OpenSSH, encrypted) and `-----BEGIN PGP PRIVATE KEY BLOCK-----`, with at
/// least [`KEY_MATERIAL`] characters of base64 before the end line.
pub(super) fn private_keys(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants(Code::PrivateKey) {
        return;
    }
    let text = file.text.text;
    let mut found = Tally::new();
    for &at in &file.marks.pem {
        let rest = &text[at + 11..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let Some(label) = rest[..line_end].trim_end().strip_suffix("-----") else {
            continue;
        };
        if !(label.ends_with("PRIVATE KEY") || label.ends_with("PRIVATE KEY BLOCK")) {
            continue;
        }
        let body = &rest[line_end..];
        let body = &body[..body.find("-----END").unwrap_or(body.len())];
        if key_material(body) >= KEY_MATERIAL {
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

/// Base64 characters in the body of a block, header lines (`Proc-Type:`,
/// `Version:`) not counted.
fn key_material(body: &str) -> usize {
    body.lines()
        .filter(|line| !line.contains(':'))
        .flat_map(str::bytes)
        .filter(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        .count()
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
pub(super) fn credentials(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
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
        if secret_near(text, at) {
            found.push((at, "an AWS access key pair", text[at..at + 4].to_string()));
        }
    }
}

/// Whether a 40-character secret access key sits within three lines of
/// the byte offset `at`.
fn secret_near(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let mut start = at;
    for _ in 0..4 {
        match text[..start].rfind('\n') {
            Some(newline) => start = newline,
            None => {
                start = 0;
                break;
            }
        }
    }
    let mut end = at;
    for _ in 0..4 {
        match text[end..].find('\n') {
            Some(newline) => end += newline + 1,
            None => {
                end = text.len();
                break;
            }
        }
    }
    let is_b64 = |b: u8| b.is_ascii_alphanumeric() || b == b'/' || b == b'+';
    let window = &bytes[start..end];
    let mut i = 0;
    while i < window.len() {
        if !is_b64(window[i]) {
            i += 1;
            continue;
        }
        let run = window[i..].iter().take_while(|b| is_b64(**b)).count();
        let candidate = &text[start + i..start + i + run];
        if run == 40
            && candidate.bytes().any(|b| b.is_ascii_lowercase())
            && candidate.bytes().any(|b| b.is_ascii_uppercase())
            && candidate
                .bytes()
                .any(|b| b.is_ascii_digit() || b == b'/' || b == b'+')
            && looks_random(candidate)
        {
            return true;
        }
        i += run;
    }
    false
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
}
