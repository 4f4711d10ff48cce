//! URLs worth a second look: to a raw IP address (no name to check, often
//! a throwaway server) or to a paste site (content that can change after
//! review). Notes: they are common in honest skills too.

use std::net::{Ipv4Addr, Ipv6Addr};

use super::findings::{Findings, Tally};
use super::skill::{Skill, TextFile};
use crate::problem::Code;

/// Paste sites and anonymous file drops, by host (a subdomain counts).
const PASTE_HOSTS: [&str; 19] = [
    "pastebin.com",
    "paste.ee",
    "hastebin.com",
    "hastebin.skyra.pw",
    "ghostbin.com",
    "ghostbin.co",
    "rentry.co",
    "rentry.org",
    "dpaste.org",
    "dpaste.com",
    "paste.rs",
    "termbin.com",
    "0x0.st",
    "transfer.sh",
    "controlc.com",
    "justpaste.it",
    "pastie.org",
    "ix.io",
    "sprunge.us",
];

/// The host of the URL whose `://` is at `at` (its scheme is an HTTP or
/// FTP one), and where the URL starts.
fn host_at(text: &str, at: usize) -> Option<(usize, &str)> {
    let head = &text[..at];
    let scheme_start = head
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let scheme = head[scheme_start..].to_ascii_lowercase();
    if !matches!(
        scheme.as_str(),
        "http" | "https" | "ftp" | "ftps" | "ws" | "wss"
    ) {
        return None;
    }
    let rest = &text[at + 3..];
    let authority = &rest[..rest
        .find(|c: char| {
            matches!(c, '/' | '?' | '#')
                || c.is_whitespace()
                || matches!(c, '"' | '\'' | '<' | '>' | ')' | '`')
        })
        .unwrap_or(rest.len())];
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => &v6[..v6.find(']')?],
        None => host_port.split(':').next().unwrap_or(host_port),
    };
    Some((scheme_start, host))
}

/// A public address, or the cloud metadata address: not loopback, not
/// private, not a documentation range, not unspecified.
fn worth_noting(host: &str) -> Option<String> {
    if let Ok(v4) = host.parse::<Ipv4Addr>() {
        let [a, b, c, _] = v4.octets();
        let documentation = matches!((a, b, c), (192, 0, 2) | (198, 51, 100) | (203, 0, 113));
        let quiet = v4.is_loopback()
            || v4.is_private()
            || v4.is_unspecified()
            || documentation
            || v4.is_broadcast();
        let metadata = v4 == Ipv4Addr::new(169, 254, 169, 254);
        return (metadata || (!quiet && !v4.is_link_local())).then(|| host.to_string());
    }
    if let Ok(v6) = host.parse::<Ipv6Addr>() {
        let quiet = v6.is_loopback()
            || v6.is_unspecified()
            || v6.segments()[0] == 0x2001 && v6.segments()[1] == 0xdb8;
        return (!quiet).then(|| host.to_string());
    }
    None
}

fn paste_site(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    PASTE_HOSTS
        .iter()
        .any(|paste| host == *paste || host.ends_with(&format!(".{paste}")))
        || host == "gist.githubusercontent.com"
}

/// URLs to raw IP addresses and to paste sites in a text file.
pub(super) fn suspicious(skill: &Skill<'_>, file: &TextFile<'_>, findings: &mut Findings<'_>) {
    if !findings.wants_any(&[Code::UrlRawIp, Code::UrlPasteSite]) {
        return;
    }
    let text = file.text.text;
    let (mut raw, mut paste) = (Tally::new(), Tally::new());
    for &at in &file.marks.schemes {
        let Some((start, host)) = host_at(text, at) else {
            continue;
        };
        if let Some(address) = worth_noting(host) {
            raw.add(start, || address);
        } else if paste_site(host) {
            paste.add(start, || host.to_string());
        }
    }
    let place = (skill, file.path, &file.text);
    raw.report(
        findings,
        place,
        (
            Code::UrlRawIp,
            "use the service's name, or bundle what it serves",
        ),
        |address| {
            format!("a URL points at the raw IP address {address}: no name says whose server it is")
        },
    );
    paste.report(
        findings,
        place,
        (Code::UrlPasteSite, "bundle the content in the skill"),
        |host| {
            format!("a URL points at the paste site {host}, whose content can change after review")
        },
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::content::tests::{codes, skill_md};

    #[test]
    fn raw_addresses_and_paste_sites() {
        assert_eq!(
            codes(&skill_md("Fetch http://45.33.32.156:8080/x.sh first."), &[]),
            ["url-raw-ip"]
        );
        assert_eq!(
            codes(
                &skill_md("Read http://169.254.169.254/latest/meta-data/"),
                &[]
            ),
            ["url-raw-ip"]
        );
        assert_eq!(
            codes(&skill_md("See https://pastebin.com/raw/abc123"), &[]),
            ["url-paste-site"]
        );
        // A letter of more than one byte before a scheme is no scheme.
        assert_eq!(
            codes(
                &skill_md("é://45.33.32.156/ then éhttp://45.33.32.156/"),
                &[]
            ),
            ["url-raw-ip"]
        );
        // Local and documentation addresses, names, versions and prose.
        for body in [
            "Open http://127.0.0.1:8080/ or http://localhost:3000",
            "The router is at http://192.168.1.1/ and http://10.0.0.2/",
            "Example: https://203.0.113.5/api and http://[::1]:8000/",
            "Version 1.2.3.4 of https://example.com",
        ] {
            assert!(codes(&skill_md(body), &[]).is_empty(), "{body}");
        }
    }
}
