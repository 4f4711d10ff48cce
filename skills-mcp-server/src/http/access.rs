//! Who may call the endpoint: a bearer token (or an explicit choice of
//! none) beyond loopback, the `Host` and `Origin` checks that keep a web
//! page from reaching a loopback server through the browser (DNS
//! rebinding), and the origins a user trusts.

/// How requests to the endpoint are authenticated. [`bind`](super::bind)
/// listens on an address beyond loopback only with [`Auth::Bearer`] or
/// [`Auth::NoAuth`]: serving the network is a choice, never a default.
///
/// ```
/// use skills_mcp_server::http::{Auth, BearerToken};
/// let auth = Auth::Bearer(BearerToken::new("0123456789abcdef0123")?);
/// assert!(matches!(Auth::default(), Auth::LoopbackOnly));
/// # let _ = auth;
/// # Ok::<(), skills_mcp_server::http::TokenError>(())
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub enum Auth {
    /// No token is asked for, and the server listens on loopback only.
    #[default]
    LoopbackOnly,
    /// Every request to the endpoint carries `Authorization: Bearer
    /// <token>`; one without it, or with another token, is answered `401`
    /// with `WWW-Authenticate: Bearer`.
    Bearer(BearerToken),
    /// No token, on any address: whoever reaches the port is served (the
    /// network in front is trusted to decide who that is).
    NoAuth,
}

/// Who may call the endpoint: the [`Auth`], and the browser origins
/// trusted beyond this machine's own.
///
/// A request with an `Origin` header (a browser's) is served only from an
/// origin in `allowed_origins`, or, when the server listens on loopback,
/// from a loopback one (`http://localhost:6274`); others get `403`. A
/// served origin gets the CORS headers a browser needs to read the reply.
///
/// ```
/// use skills_mcp_server::http::{Access, Auth};
/// let access = Access {
///     auth: Auth::LoopbackOnly,
///     allowed_origins: vec!["https://console.example.com".into()],
/// };
/// # let _ = access;
/// ```
#[derive(Debug, Clone, Default)]
pub struct Access {
    /// How requests are authenticated.
    pub auth: Auth,
    /// Origins (`scheme://host[:port]`) whose pages may call the endpoint.
    pub allowed_origins: Vec<String>,
}

/// A bearer token, held as its SHA-256 digest: what a request presents is
/// hashed and compared in constant time, and the token itself is never
/// kept, shown or logged (`{:?}` prints no part of it).
///
/// ```
/// use skills_mcp_server::http::BearerToken;
/// let token = BearerToken::new("s3cret-token-of-32-characters-xx")?;
/// assert_eq!(format!("{token:?}"), "BearerToken(..)");
/// assert!(BearerToken::new("short").is_err());
/// assert!(BearerToken::new("has spaces in the token, 40 characters").is_err());
/// # Ok::<(), skills_mcp_server::http::TokenError>(())
/// ```
#[derive(Clone)]
pub struct BearerToken {
    digest: [u8; 32],
}

/// The fewest characters a bearer token has.
pub const MIN_TOKEN_CHARS: usize = 16;

/// The largest token file a host reads: a token is tens of characters, so
/// a file over 4 KiB is not one. The file is the host's to read (`skills
/// mcp --bearer-token-file` reads it as every file it is given is read: a
/// regular file under the limit, opened without blocking), then
/// [`BearerToken::new`] takes its text, surrounding whitespace (the final
/// newline) left out: the form a Kubernetes Secret or a container secret is
/// mounted in.
///
/// ```
/// assert_eq!(skills_mcp_server::http::MAX_TOKEN_FILE_BYTES, 4096);
/// ```
pub const MAX_TOKEN_FILE_BYTES: u64 = 4096;

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

/// Why a bearer token is refused. The message names the file, never the
/// token.
#[derive(Debug)]
#[non_exhaustive]
pub enum TokenError {
    /// The token is shorter than [`MIN_TOKEN_CHARS`].
    TooShort {
        /// Its length in characters.
        chars: usize,
    },
    /// The token has a character a bearer token cannot have (RFC 6750:
    /// letters, digits, `-._~+/`, then `=` padding).
    BadCharacter,
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let make = "make one with `openssl rand -hex 32`";
        match self {
            TokenError::TooShort { chars } => write!(
                f,
                "the bearer token is {chars} characters; use at least {MIN_TOKEN_CHARS} ({make})"
            ),
            TokenError::BadCharacter => write!(
                f,
                "the bearer token may hold only letters, digits and -._~+/ (then = padding) ({make})"
            ),
        }
    }
}

impl std::error::Error for TokenError {}

impl BearerToken {
    /// A token from its text, which must be at least [`MIN_TOKEN_CHARS`]
    /// characters of RFC 6750's token alphabet.
    pub fn new(token: &str) -> Result<Self, TokenError> {
        let chars = token.chars().count();
        if chars < MIN_TOKEN_CHARS {
            return Err(TokenError::TooShort { chars });
        }
        let body = token.trim_end_matches('=');
        if body.is_empty()
            || !body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
        {
            return Err(TokenError::BadCharacter);
        }
        Ok(BearerToken {
            digest: skills_core::sha256::digest(token.as_bytes()),
        })
    }

    /// Whether `presented` is this token, in time that does not depend on
    /// where the two differ.
    fn matches(&self, presented: &[u8]) -> bool {
        let digest = skills_core::sha256::digest(presented);
        let difference = digest
            .iter()
            .zip(&self.digest)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        std::hint::black_box(difference) == 0
    }
}

/// What a request's credentials come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Credentials {
    /// No token is asked for, or the right one came.
    Accepted,
    /// A token is asked for and none came.
    Missing,
    /// A token came and it is not the one.
    Wrong,
}

/// The checks a request to the endpoint passes, as the listener was bound.
#[derive(Debug, Clone)]
pub(crate) struct Gate {
    access: Access,
    /// The listener is on a loopback address: `Host` is checked, and
    /// loopback origins are trusted.
    loopback: bool,
}

impl Gate {
    pub(crate) fn new(access: Access, loopback: bool) -> Self {
        Gate { access, loopback }
    }

    /// Whether a request for `authority` (the target's, or the `Host`
    /// header) is one this server answers: any, beyond loopback (a load
    /// balancer's name is not known here); a loopback name on loopback, so
    /// that a page whose domain was rebound to 127.0.0.1 is refused.
    pub(crate) fn host_allowed(&self, authority: Option<&str>) -> bool {
        !self.loopback || authority.is_some_and(|authority| is_loopback_host(host_of(authority)))
    }

    /// Whether a browser page from `origin` may call the endpoint.
    pub(crate) fn origin_allowed(&self, origin: &str) -> bool {
        let listed = self
            .access
            .allowed_origins
            .iter()
            .any(|allowed| allowed.trim_end_matches('/').eq_ignore_ascii_case(origin));
        listed
            || (self.loopback
                && origin
                    .split_once("://")
                    .filter(|(scheme, _)| matches!(*scheme, "http" | "https"))
                    .is_some_and(|(_, authority)| is_loopback_host(host_of(authority))))
    }

    /// What the `Authorization` header (if any) comes to.
    pub(crate) fn credentials(&self, authorization: Option<&[u8]>) -> Credentials {
        let Auth::Bearer(token) = &self.access.auth else {
            return Credentials::Accepted;
        };
        let Some(value) = authorization else {
            return Credentials::Missing;
        };
        let presented = value
            .split_first_chunk::<7>()
            .filter(|(scheme, _)| scheme[..6].eq_ignore_ascii_case(b"bearer") && scheme[6] == b' ')
            .map(|(_, rest)| rest.trim_ascii());
        match presented {
            Some(presented) if token.matches(presented) => Credentials::Accepted,
            _ => Credentials::Wrong,
        }
    }
}

/// The host of `host[:port]` (`[v6]:port` included), or of an origin's
/// `host[:port][/...]`.
fn host_of(authority: &str) -> &str {
    match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split([':', '/']).next().unwrap_or_default(),
    }
}

/// `localhost` or a loopback IP address.
fn is_loopback_host(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(auth: Auth, origins: &[&str], loopback: bool) -> Gate {
        let allowed_origins = origins.iter().map(|o| o.to_string()).collect();
        Gate::new(
            Access {
                auth,
                allowed_origins,
            },
            loopback,
        )
    }

    #[test]
    fn hosts_on_loopback_are_loopback_names() {
        let local = gate(Auth::LoopbackOnly, &[], true);
        for host in [
            "localhost:8080",
            "127.0.0.1",
            "[::1]:9",
            "LOCALHOST",
            "127.1.2.3:80",
        ] {
            assert!(local.host_allowed(Some(host)), "{host}");
        }
        for host in ["evil.example", "localhost.evil.example:80", "10.0.0.1", ""] {
            assert!(!local.host_allowed(Some(host)), "{host}");
        }
        assert!(!local.host_allowed(None));
        let open = gate(Auth::NoAuth, &[], false);
        assert!(open.host_allowed(Some("skills.internal:8080")) && open.host_allowed(None));
    }

    #[test]
    fn origins_are_loopback_ones_or_listed() {
        let local = gate(Auth::LoopbackOnly, &["https://console.example.com/"], true);
        for origin in [
            "http://localhost:3000",
            "http://127.0.0.1",
            "https://[::1]:8443",
            "https://console.example.com",
            "HTTPS://CONSOLE.EXAMPLE.COM",
        ] {
            assert!(local.origin_allowed(origin), "{origin}");
        }
        for origin in [
            "http://evil.example",
            "http://localhost.evil.example",
            "null",
            "http://10.0.0.1",
            "file://localhost",
            "https://console.example.com.evil",
        ] {
            assert!(!local.origin_allowed(origin), "{origin}");
        }
        let remote = gate(Auth::NoAuth, &[], false);
        assert!(!remote.origin_allowed("http://localhost:3000"));
    }

    #[test]
    fn tokens_are_compared_whole() {
        let token = BearerToken::new("0123456789abcdef0123").unwrap();
        let bearer = gate(Auth::Bearer(token), &[], false);
        let check = |value: &str| bearer.credentials(Some(value.as_bytes()));
        assert_eq!(check("Bearer 0123456789abcdef0123"), Credentials::Accepted);
        assert_eq!(
            check("bearer   0123456789abcdef0123 "),
            Credentials::Accepted
        );
        assert_eq!(check("Bearer 0123456789abcdef012"), Credentials::Wrong);
        assert_eq!(check("Bearer 0123456789abcdef01234"), Credentials::Wrong);
        assert_eq!(check("Basic 0123456789abcdef0123"), Credentials::Wrong);
        assert_eq!(check("Bearer"), Credentials::Wrong);
        assert_eq!(bearer.credentials(None), Credentials::Missing);
        let open = gate(Auth::NoAuth, &[], false);
        assert_eq!(open.credentials(None), Credentials::Accepted);
    }

    #[test]
    fn token_rules() {
        assert!(matches!(
            BearerToken::new("abc"),
            Err(TokenError::TooShort { chars: 3 })
        ));
        assert!(matches!(
            BearerToken::new("0123456789abcdef\n0123"),
            Err(TokenError::BadCharacter)
        ));
        assert!(BearerToken::new("AbC-._~+/0123456789==").is_ok());
        assert!(matches!(
            BearerToken::new("================"),
            Err(TokenError::BadCharacter)
        ));
        let shown = TokenError::TooShort { chars: 3 }.to_string();
        assert!(shown.contains("at least 16"), "{shown}");
    }
}
