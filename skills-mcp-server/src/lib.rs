//! Serve a compiled skills catalog over MCP, on stdio, or over stateless
//! Streamable HTTP with the `http` feature (the `http` module, on hyper).
//!
//! A [`Server`] answers what agentskills-mcp-server 0.7.0 (the Python
//! reference server of the MCP Skills extension) answers over the same
//! skills: `resources/list` and `resources/read` for every file of every
//! skill, `skills/list` and `skills/get` with the extension's manifest
//! entries, the same error codes and messages. It adds our `skill` tool
//! (`tools/list`, `tools/call`), so a host that knows tools but not the
//! Skills extension can use the skills too.
//!
//! Both protocol eras are served, decided by the client's first request as
//! the reference decides it: `server/discover`, or a request carrying a key
//! of the 2026-07-28 `_meta` envelope, opens a new-era connection, where
//! every request must carry the whole envelope; anything else (the
//! `initialize` handshake) opens an `initialize`-era connection, where
//! `skills/*` are not served (their -32601 says, in its `data`, how to
//! reach them). Over HTTP each request is of its own era, and a new-era
//! one follows the revision's HTTP rules (the `http` module).
//!
//! Listings are made a page at a time from the bundle's listing order
//! (`skills/list`, `resources/list`, and `resources/directory/read`, which
//! the server offers with `directoryRead: true` in the extension's
//! capabilities), and a URI is resolved through the bundle's name index,
//! so each request reads only the skills it names or lists: nothing is
//! made when the server starts, and its memory does not grow with the
//! catalog.
//!
//! ```
//! # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
//! let catalog = skills_core::Catalog::from_bytes(&bytes)?;
//! let mut server = skills_mcp_server::Server::new(&catalog, skills_mcp_server::Options::default())?;
//! let reply = server
//!     .handle(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"doc","version":"1"}}}"#)
//!     .unwrap();
//! assert!(reply.contains(r#""protocolVersion":"2025-11-25""#));
//! let reply = server
//!     .handle(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"skill","arguments":{"name":"pdf","path":"reference.md"}}}"#)
//!     .unwrap();
//! assert!(reply.contains(r#""text":"Use pdfplumber""#));
//! // In a program: skills_mcp_server::serve_stdio(&catalog, Default::default())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
// docs.rs (nightly, `--cfg docsrs`): "Available on crate feature …" on
// every feature-gated item, worked out from its `#[cfg]`.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(feature = "document-features", doc = "# Features")]
#![cfg_attr(feature = "document-features", doc = "")]
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

#[cfg(feature = "http")]
pub mod http;
mod listings;
mod mirror;
mod resources;
mod tools;
mod uris;
mod wire;

use std::io::{self, BufRead, Write};

use serde_json::{Map, Value, json};
use skills_core::Catalog;
use skills_core::features::manifest::{manifest_entry, manifest_files};
use skills_core::trust::revision::{Revision, bundle_revision};

pub use resources::TableError;
pub use wire::{DEFAULT_MAX_REQUEST_BYTES, MAX_ECHO_BYTES, capped};

use listings::{Listings, Page, cursor_param};
use mirror::Mirrored;
use resources::Verdicts;
use wire::{Answer, Line, RpcError, Status, code, error_line, id_text, result_line};

/// The new-era protocol version this server speaks.
pub const MODERN_PROTOCOL_VERSION: &str = "2026-07-28";

/// The `initialize`-era versions this server accepts, oldest first; a
/// client asking for another gets the newest.
pub const HANDSHAKE_PROTOCOL_VERSIONS: [&str; 4] =
    ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The Skills extension's identifier.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The default page of `skills/list` (100 entries, as the reference's),
/// `resources/list` and `resources/directory/read`.
pub const DEFAULT_PAGE_SIZE: usize = 100;

const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// The keys of the new era's `_meta` envelope.
const ENVELOPE_KEYS: [&str; 3] = [
    VERSION_KEY,
    CAPABILITIES_KEY,
    "io.modelcontextprotocol/clientInfo",
];
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// How a [`Server`] serves. A program serving its own skills names itself
/// in `serverInfo`:
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// let options = skills_mcp_server::Options {
///     name: "team-skills".into(),
///     version: "2.1.0".into(),
///     ..Default::default()
/// };
/// let mut server = skills_mcp_server::Server::new(&catalog, options).unwrap();
/// let reply = server
///     .handle(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"doc","version":"1"}}}"#)
///     .unwrap();
/// assert!(reply.contains(r#""serverInfo":{"name":"team-skills","version":"2.1.0"}"#));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The server's name in `serverInfo`.
    pub name: String,
    /// The server's version in `serverInfo`.
    pub version: String,
    /// Entries per page of `skills/list`, `resources/list` and
    /// `resources/directory/read` (at least 1).
    pub page_size: usize,
    /// The largest request line read; a longer one is answered with an
    /// `Invalid Request` error and skipped.
    pub max_request_bytes: usize,
    /// Also offer agentskills-core's tools (`get_skill_body`,
    /// `get_skill_section`, `get_skill_reference`, `list_skill_resources`,
    /// ...; see `skills_core::features::core_tools`), the vocabulary of the outline
    /// and fast-path texts, beside `skill`.
    pub core_tools: bool,
    /// The caching hints new-era results carry (`ttlMs`, `cacheScope`);
    /// by default none: `0` and `private`.
    pub caching: Caching,
}

/// The caching hints (SEP-2549) of the new era's cacheable results
/// (`server/discover`, the listings, `skills/get`, `resources/read`): how
/// long a client may keep one (`ttlMs`) and whether a shared cache may
/// hold it (`cacheScope`). The default, `0` and `private`, promises
/// nothing. A catalog never changes while it is served, so a server of a
/// published, immutable bundle may let every client and proxy keep its
/// answers:
///
/// ```
/// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
/// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
/// use skills_mcp_server::{Caching, Options, Server};
/// let options = Options { caching: Caching { public: true, ttl_ms: 3_600_000 }, ..Default::default() };
/// let server = Server::new(&catalog, options).unwrap();
/// let envelope = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
/// let reply = server
///     .handle_stateless(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{{{envelope}}}}}"#).as_bytes())
///     .unwrap();
/// assert!(reply.contains(r#""ttlMs":3600000,"cacheScope":"public""#));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Caching {
    /// `cacheScope: "public"` (any cache, shared ones too, may keep the
    /// result) rather than `"private"` (only the client that asked).
    pub public: bool,
    /// `ttlMs`: how many milliseconds a result stays fresh.
    pub ttl_ms: u64,
}

impl Caching {
    /// The members `"ttlMs":N,"cacheScope":"…"` of a result.
    fn members(self) -> String {
        let scope = if self.public { "public" } else { "private" };
        format!("\"ttlMs\":{},\"cacheScope\":\"{scope}\"", self.ttl_ms)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            name: "skills-mcp-server".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            page_size: DEFAULT_PAGE_SIZE,
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            core_tools: false,
            caching: Caching::default(),
        }
    }
}

/// Which era the connection is in, once its first request said so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Era {
    /// `server/discover` and the per-request `_meta` envelope.
    Modern,
    /// The `initialize` handshake.
    Handshake,
}

/// An MCP server over one catalog, for one connection (its era is the
/// connection's).
#[derive(Debug)]
pub struct Server<'s, 'a> {
    catalog: &'s Catalog<'a>,
    options: Options,
    era: Option<Era>,
    /// `"_meta":{"io.modelcontextprotocol/serverInfo":{…}}` members, for
    /// new-era results.
    server_meta: String,
    /// What a trust policy established for each skill; `None`: every skill
    /// unsigned under `unconfigured`.
    verdicts: Option<Verdicts>,
    /// The `_meta` of a listing: the catalog's generation and the server's
    /// info, made on first use.
    listing_meta: std::sync::OnceLock<String>,
    /// The caching hints' members of a new-era result.
    cache_members: String,
}

impl<'s, 'a> Server<'s, 'a> {
    /// A server that checks first that every skill can be served under the
    /// Skills extension's rules (too many files or bytes, two skills under
    /// one URI, a skill that does not decode): it reads each skill once,
    /// keeping none. Serving then makes each reply when it is asked for
    /// (see [`lazy`](Self::lazy)).
    pub fn new(catalog: &'s Catalog<'a>, options: Options) -> Result<Self, TableError> {
        let server = Self::lazy(catalog, options);
        server.listings().check()?;
        Ok(server)
    }

    /// A server that answers at once, checking nothing first: every reply
    /// is made when it is asked for, a page of a listing from the pages'
    /// skills alone, so a replica over a lazily opened catalog
    /// ([`Catalog::open`], [`Catalog::paged`]) of a bundle file reads a
    /// skill's bytes only when it lists or serves the skill. A skill that
    /// cannot be served (see [`new`](Self::new)) is reported to the request
    /// that finds it, as an internal error naming it.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// let catalog = skills_core::Catalog::open(&bytes).unwrap();
    /// let mut server = skills_mcp_server::Server::lazy(&catalog, Default::default());
    /// let reply = server.handle(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#).unwrap();
    /// assert!(reply.contains("serverInfo"));
    /// ```
    pub fn lazy(catalog: &'s Catalog<'a>, options: Options) -> Self {
        let page_size = options.page_size.max(1);
        let server_info = json!({ "name": options.name, "version": options.version });
        let server_meta = json!({ SERVER_INFO_KEY: server_info }).to_string();
        let cache_members = options.caching.members();
        Server {
            catalog,
            options: Options {
                page_size,
                ..options
            },
            era: None,
            server_meta,
            verdicts: None,
            listing_meta: std::sync::OnceLock::new(),
            cache_members,
        }
    }

    /// Checks the bundle against `policy` first (signatures by trusted
    /// keys, pins, re-hashing, as the policy says: the exact bytes when the
    /// catalog has them) and serves only if it holds and every skill can
    /// be served (as [`new`](Self::new) checks), with each skill's
    /// publication record saying what was established: the policy's
    /// origin, `verified` and the key id for a skill signed by a trusted
    /// key, `unsigned` otherwise.
    ///
    /// ```
    /// let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.bin")).to_vec();
    /// let public_key: [u8; 32] = *include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/signed.pub"));
    /// let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let policy = skills_core::trust::verify::TrustPolicy::new("https://example.com/skills")?
    ///     .trust("release-2026", public_key)?;
    /// let mut server = skills_mcp_server::Server::verified(&catalog, Default::default(), &policy)?;
    /// let reply = server.handle(br#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#).unwrap();
    /// assert!(reply.contains(r#""sourceStatus":"verified""#) && reply.contains(r#""publisher":"release-2026""#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "verify")]
    pub fn verified(
        catalog: &'s Catalog<'a>,
        options: Options,
        policy: &skills_core::trust::verify::TrustPolicy,
    ) -> Result<Self, ServeError> {
        // The exact bytes when there are any: a signature binds them.
        let verified = match catalog.bytes() {
            Some(bytes) => policy.verify_bytes(bytes),
            None => policy.verify(catalog.bundle()),
        }
        .map_err(ServeError::Verify)?;
        let server = Self::from_verified(catalog, options, policy, &verified)?;
        server.listings().check().map_err(ServeError::Catalog)?;
        Ok(server)
    }

    /// Serves `catalog` with the publication records of `verified`, what
    /// `policy` established about the very bytes the catalog serves (for a
    /// bundle file, verified when read at start and then served through a
    /// [`PagedBundle::pinned`](skills_core::serve::paged::PagedBundle::pinned)
    /// catalog, which serves a skill only if its bytes are those verified).
    /// Answers at once, as [`lazy`](Self::lazy) does; refuses a verdict on
    /// other skills than the catalog's.
    #[cfg(feature = "verify")]
    pub fn from_verified(
        catalog: &'s Catalog<'a>,
        options: Options,
        policy: &skills_core::trust::verify::TrustPolicy,
        verified: &skills_core::trust::verify::Verified<'_>,
    ) -> Result<Self, ServeError> {
        use skills_core::trust::verify::Status;
        let same = verified.skills.len() == catalog.len()
            && verified
                .skills
                .iter()
                .zip(catalog.names())
                .all(|(identity, name)| identity.skill == name);
        if !same {
            return Err(ServeError::OtherSkills);
        }
        let skills = verified
            .skills
            .iter()
            .map(|identity| {
                let publisher = match identity.status {
                    Status::Verified => identity.publisher.map(Box::from),
                    Status::Unsigned => None,
                };
                (identity.revision.0, publisher)
            })
            .collect();
        let mut server = Self::lazy(catalog, options);
        server.verdicts = Some(Verdicts {
            origin: policy.origin().to_owned(),
            skills,
        });
        Ok(server)
    }

    /// What listings are made over: the catalog, the page size and what
    /// a trust policy said of each skill.
    fn listings(&self) -> Listings<'_, 'a> {
        Listings {
            catalog: self.catalog,
            page_size: self.options.page_size,
            verdicts: self.verdicts.as_ref(),
        }
    }

    /// The `_meta` of a listing: `io.agentskills/catalog` (the catalog's
    /// generation: the bundle revision) and the server's info.
    fn listing_meta(&self) -> &str {
        self.listing_meta.get_or_init(|| {
            // The recorded bundle revision, or (a bundle made without one)
            // computed once here.
            let generation = match Revision(self.catalog.recorded_revision()) {
                recorded if !recorded.is_unset() => recorded.to_string(),
                _ => bundle_revision(self.catalog.bundle()).to_string(),
            };
            let catalog_meta = json!({ "generation": generation, "stale": false }).to_string();
            format!(
                "{{\"io.agentskills/catalog\":{catalog_meta},{}",
                &self.server_meta[1..]
            )
        })
    }

    /// The names of the tools `tools/list` offers.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let server = skills_mcp_server::Server::new(&catalog, Default::default()).unwrap();
    /// assert_eq!(server.tool_names(), ["skill"]);
    /// let options = skills_mcp_server::Options { core_tools: true, ..Default::default() };
    /// let server = skills_mcp_server::Server::new(&catalog, options).unwrap();
    /// assert!(server.tool_names().contains(&"get_skill_section"));
    /// ```
    pub fn tool_names(&self) -> Vec<&'static str> {
        tools::names(self.options.core_tools)
    }

    /// Answers one message (one line, newline excluded): `Some(reply)` for
    /// a request or a malformed message, `None` for a notification or a
    /// client's response.
    pub fn handle(&mut self, line: &[u8]) -> Option<String> {
        let mut era = self.era;
        let reply = self.handle_in(&mut era, line, None);
        self.era = era;
        reply.map(|answer| answer.line)
    }

    /// Answers one message on its own, as a stateless transport does
    /// (Streamable HTTP without sessions, the `http` module): the message's era is
    /// read from the message itself (the 2026-07-28 `_meta` envelope, or
    /// not), and nothing is remembered, so any number of threads (or
    /// replicas) may answer requests in any order.
    ///
    /// ```
    /// # let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/doc-bundles/example.bin")).to_vec();
    /// # let catalog = skills_core::Catalog::from_bytes(&bytes).unwrap();
    /// let server = skills_mcp_server::Server::new(&catalog, Default::default()).unwrap();
    /// let reply = server.handle_stateless(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#).unwrap();
    /// assert!(reply.starts_with(r#"{"jsonrpc":"2.0","id":7,"result":{"tools":["#));
    /// ```
    pub fn handle_stateless(&self, message: &[u8]) -> Option<String> {
        self.handle_in(&mut None, message, None)
            .map(|answer| answer.line)
    }

    /// Answers one message on its own, as [`handle_stateless`](Self::handle_stateless)
    /// does, with what its HTTP headers mirror of it checked against it
    /// (for a 2026-07-28 request), and the status the reply goes out with.
    #[cfg(feature = "http")]
    pub(crate) fn handle_http(&self, message: &[u8], headers: &Mirrored<'_>) -> Option<Answer> {
        self.handle_in(&mut None, message, Some(headers))
    }

    fn handle_in(
        &self,
        era: &mut Option<Era>,
        line: &[u8],
        http: Option<&Mirrored<'_>>,
    ) -> Option<Answer> {
        let refused = |id: &str, error: RpcError| Answer {
            line: error_line(id, &error),
            status: Status::BadRequest,
        };
        let message: Value = match serde_json::from_slice(line) {
            Ok(message) => message,
            Err(_) => {
                return Some(refused(
                    "null",
                    RpcError::new(code::PARSE_ERROR, "Parse error"),
                ));
            }
        };
        let Value::Object(mut message) = message else {
            return Some(refused(
                "null",
                RpcError::new(code::INVALID_REQUEST, "Invalid Request"),
            ));
        };
        let id = message.remove("id");
        let method = match message.remove("method") {
            Some(Value::String(method)) => method,
            _ if id.is_some()
                && (message.contains_key("result") || message.contains_key("error")) =>
            {
                return None; // a response to a request we never send
            }
            _ => {
                return Some(refused(
                    &id.map_or_else(|| "null".to_owned(), |id| id_text(&id, line)),
                    RpcError::new(code::INVALID_REQUEST, "Invalid Request"),
                ));
            }
        };
        let params = message.remove("params");
        let id = match id {
            None => return None, // a notification: nothing to answer
            Some(id @ (Value::Number(_) | Value::String(_))) => id_text(&id, line),
            Some(_) => {
                return Some(refused(
                    "null",
                    RpcError::new(code::INVALID_REQUEST, "Invalid Request"),
                ));
            }
        };
        let header_version = http.and_then(|headers| headers.protocol_version);
        let era = *era.get_or_insert_with(|| {
            if opens_modern(&method, params.as_ref(), header_version) {
                Era::Modern
            } else {
                Era::Handshake
            }
        });
        let (reply, status) = match era {
            Era::Modern => match self.modern_checks(&method, params.as_ref(), http) {
                Err(error) => (Err(error), Status::BadRequest),
                Ok(()) => {
                    let reply = self.modern(&method, params.as_ref());
                    let status = match &reply {
                        Err(error) if error.code == code::METHOD_NOT_FOUND => Status::NotFound,
                        _ => Status::Ok,
                    };
                    (reply, status)
                }
            },
            Era::Handshake => (self.handshake(&method, params.as_ref()), Status::Ok),
        };
        Some(Answer {
            line: match reply {
                Ok(result) => result_line(&id, &result),
                Err(error) => error_line(&id, &error),
            },
            status,
        })
    }

    /// What a new-era request must be before it is served, each refusal a
    /// malformed request (`400` over HTTP): a protocol-version header this
    /// server does not speak; an `initialize` handshake from an older
    /// client; the `_meta` envelope incomplete; over HTTP, the headers that
    /// mirror the body missing or different (SEP-2243, -32020); a protocol
    /// version other than 2026-07-28 (-32022).
    fn modern_checks(
        &self,
        method: &str,
        params: Option<&Value>,
        http: Option<&Mirrored<'_>>,
    ) -> Result<(), RpcError> {
        if let Some(header) = http.and_then(|headers| headers.protocol_version)
            && !is_spoken(header)
        {
            return Err(RpcError::new(
                code::UNSUPPORTED_PROTOCOL_VERSION,
                format!(
                    "Unsupported protocol version {:?}: this server speaks {MODERN_PROTOCOL_VERSION}, and {} through the initialize handshake",
                    capped(header),
                    HANDSHAKE_PROTOCOL_VERSIONS.join(", ")
                ),
            )
            .with_data(unsupported_data(Some(&Value::from(header)))));
        }
        if method == "initialize" && !has_modern_envelope(params) {
            return Err(RpcError::new(
                code::UNSUPPORTED_PROTOCOL_VERSION,
                "connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted",
            )
            .with_data(unsupported_data(
                params.and_then(|p| p.get("protocolVersion")),
            )));
        }
        let version = check_envelope(params)?;
        if let Some(headers) = http {
            mirror::check_version(headers, version)?;
        }
        if version.as_str() != Some(MODERN_PROTOCOL_VERSION) {
            return Err(RpcError::new(
                code::UNSUPPORTED_PROTOCOL_VERSION,
                "Unsupported protocol version",
            )
            .with_data(unsupported_data(Some(version))));
        }
        if let Some(headers) = http {
            mirror::check_names(headers, method, params)?;
        }
        Ok(())
    }

    /// A request on a new-era connection, its envelope checked.
    fn modern(&self, method: &str, params: Option<&Value>) -> Result<String, RpcError> {
        let meta = &self.server_meta;
        let cache = &self.cache_members;
        let listed = |key: &str, items: &str| {
            format!("{{\"resultType\":\"complete\",\"{key}\":{items},{cache},\"_meta\":{meta}}}")
        };
        match method {
            "server/discover" => Ok(format!(
                "{{\"resultType\":\"complete\",\"supportedVersions\":[\"{MODERN_PROTOCOL_VERSION}\"],\"capabilities\":{},{cache},\"_meta\":{meta}}}",
                json!({
                    "extensions": { SKILLS_EXTENSION: { "directoryRead": true } },
                    "prompts": { "listChanged": false },
                    "resources": { "listChanged": false, "subscribe": false },
                    "tools": { "listChanged": false },
                })
            )),
            "skills/list" => {
                let page = self.listings().skills_page(cursor_param(params)?)?;
                Ok(paged("skills", &page, cache, self.listing_meta()))
            }
            "skills/get" => {
                let entry = self.skill_entry(string_param(params, "uri")?)?;
                let meta = self.listing_meta();
                Ok(format!(
                    "{{\"resultType\":\"complete\",\"skill\":{entry},{cache},\"_meta\":{meta}}}"
                ))
            }
            "resources/list" => {
                let page = self.listings().resources_page(cursor_param(params)?)?;
                Ok(paged("resources", &page, cache, meta))
            }
            "resources/directory/read" => {
                let uri = string_param(params, "uri")?;
                let page = self.listings().directory_page(uri, cursor_param(params)?)?;
                Ok(paged("resources", &page, cache, meta))
            }
            "resources/read" => {
                let contents = self.read(params)?;
                Ok(listed("contents", &contents))
            }
            "resources/templates/list" => Ok(listed("resourceTemplates", "[]")),
            "prompts/list" => Ok(listed("prompts", "[]")),
            "tools/list" => Ok(listed(
                "tools",
                &tools::list(self.options.core_tools).to_string(),
            )),
            "tools/call" => {
                let (content, is_error) = self.call(params)?;
                Ok(format!(
                    "{{\"resultType\":\"complete\",\"content\":{content},\"isError\":{is_error},\"_meta\":{meta}}}"
                ))
            }
            _ => Err(RpcError::method_not_found(method)),
        }
    }

    /// A request on an `initialize`-era connection.
    fn handshake(&self, method: &str, params: Option<&Value>) -> Result<String, RpcError> {
        if has_modern_envelope(params) {
            return Err(RpcError::new(
                code::INVALID_REQUEST,
                "this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it",
            ));
        }
        let object = |key: &str, items: &str| format!("{{\"{key}\":{items}}}");
        match method {
            "initialize" => {
                let asked = params
                    .and_then(|p| p.get("protocolVersion"))
                    .and_then(Value::as_str);
                let version = asked
                    .filter(|v| HANDSHAKE_PROTOCOL_VERSIONS.contains(v))
                    .unwrap_or(HANDSHAKE_PROTOCOL_VERSIONS[HANDSHAKE_PROTOCOL_VERSIONS.len() - 1]);
                Ok(json!({
                    "capabilities": {
                        "prompts": { "listChanged": false },
                        "resources": { "listChanged": false, "subscribe": false },
                        "tools": { "listChanged": false },
                    },
                    "protocolVersion": version,
                    "serverInfo": { "name": self.options.name, "version": self.options.version },
                })
                .to_string())
            }
            "ping" => Ok("{}".to_owned()),
            "resources/list" => {
                let page = self.listings().resources_page(cursor_param(params)?)?;
                let mut result = format!("{{\"resources\":[{}]", page.entries.join(","));
                if let Some(next) = &page.next {
                    result.push_str(",\"nextCursor\":");
                    result.push_str(&Value::from(next.as_str()).to_string());
                }
                result.push('}');
                Ok(result)
            }
            "resources/read" => Ok(object("contents", &self.read(params)?)),
            "resources/templates/list" => Ok(object("resourceTemplates", "[]")),
            "prompts/list" => Ok(object("prompts", "[]")),
            "tools/list" => Ok(object(
                "tools",
                &tools::list(self.options.core_tools).to_string(),
            )),
            "tools/call" => {
                let (content, is_error) = self.call(params)?;
                Ok(format!("{{\"content\":{content},\"isError\":{is_error}}}"))
            }
            "skills/list" | "skills/get" => Err(RpcError::skills_need_modern_era(method)),
            _ => Err(RpcError::method_not_found(method)),
        }
    }

    /// The `skills/get` entry of the skill whose `SKILL.md` is at `uri`.
    fn skill_entry(&self, uri: &str) -> Result<String, RpcError> {
        for reading in uris::readings(self.catalog, uri) {
            let Some(path) = reading.path.as_deref() else {
                continue;
            };
            let entry = self
                .catalog
                .with_skill(reading.at, |skill| {
                    (path == skill.skill_file.as_str()
                        && resources::file_uri(&reading.root, path) == uri)
                        .then(|| manifest_entry(skill, None))
                })
                .map_err(|error| self.listings().unreadable(reading.at, error))?;
            if let Some(entry) = entry {
                return entry.map_err(|error| self.listings().manifest_failure(reading.at, error));
            }
        }
        Err(RpcError::new(code::INVALID_PARAMS, "Unknown skill URI"))
    }

    /// The `resources/read` contents of the file at `uri`, from the skill
    /// as kept (read once, served from memory after).
    fn read(&self, params: Option<&Value>) -> Result<String, RpcError> {
        let uri = string_param(params, "uri")?;
        for reading in uris::readings(self.catalog, uri) {
            let Some(path) = reading.path.as_deref() else {
                continue;
            };
            if resources::file_uri(&reading.root, path) != uri {
                continue;
            }
            let skill = self
                .catalog
                .skill_at(reading.at)
                .map_err(|error| self.listings().unreadable(reading.at, error))?;
            let files = manifest_files(skill);
            if let Some(file) = files.iter().find(|file| file.path == path) {
                let publication = self.listings().publication(reading.at, skill);
                return Ok(resources::contents(
                    skill,
                    &reading.root,
                    file,
                    &publication,
                ));
            }
        }
        // SEP-2164: the URI asked for, in the error's data.
        Err(
            RpcError::new(code::INVALID_PARAMS, "Unknown skill resource")
                .with_data(json!({ "uri": capped(uri) })),
        )
    }

    fn call(&self, params: Option<&Value>) -> Result<(Value, bool), RpcError> {
        let name = string_param(params, "name")?;
        let arguments = match params.and_then(|p| p.get("arguments")) {
            None | Some(Value::Null) => None,
            Some(arguments @ Value::Object(_)) => Some(arguments),
            Some(_) => return Err(RpcError::invalid_params()),
        };
        Ok(tools::call(
            self.catalog,
            self.options.core_tools,
            name,
            arguments,
        ))
    }

    /// Serves one connection: reads requests line by line from `input`,
    /// writes each reply as one line to `output`, in the order the requests
    /// came (a pipelining client gets its replies in order), and returns
    /// when the input ends (the client hung up). Each reply is flushed as
    /// soon as it is written.
    pub fn serve(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            let reply =
                match wire::read_line(&mut input, &mut line, self.options.max_request_bytes)? {
                    Line::End => break,
                    Line::Complete if line.iter().all(u8::is_ascii_whitespace) => None,
                    Line::Complete => self.handle(&line),
                    Line::TooLong => Some(error_line(
                        &wire::leading_id(&line),
                        &RpcError::new(
                            code::INVALID_REQUEST,
                            format!(
                                "Request too large: the limit is {} bytes a line",
                                self.options.max_request_bytes
                            ),
                        ),
                    )),
                };
            if let Some(reply) = reply {
                output.write_all(reply.as_bytes())?;
                output.write_all(b"\n")?;
                output.flush()?;
            }
        }
        output.flush()
    }
}

/// Serves `catalog` over this process's stdin and stdout until the client
/// closes stdin. A client that goes away mid-reply (a closed stdout) ends
/// the serving without an error.
///
/// ```no_run
/// // With `static SKILLS: Embedded = include_skills!("skills");` the
/// // catalog is `SKILLS.catalog()?`; here, a bundle file from `skills build`.
/// let bytes = std::fs::read("skills.bin")?;
/// let catalog = skills_core::Catalog::from_bytes(&bytes)?;
/// skills_mcp_server::serve_stdio(&catalog, Default::default())?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn serve_stdio(catalog: &Catalog<'_>, options: Options) -> Result<(), ServeError> {
    let server = Server::new(catalog, options).map_err(ServeError::Catalog)?;
    serve_server_stdio(server)
}

/// Serves a [`Server`] made by hand (for example with
/// [`Server::verified`]) over stdin and stdout, as [`serve_stdio`] does.
pub fn serve_server_stdio(mut server: Server<'_, '_>) -> Result<(), ServeError> {
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    match server.serve(stdin, stdout) {
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(ServeError::Io),
    }
}

/// Why serving stopped with an error.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The catalog cannot be served (see [`TableError`]).
    Catalog(TableError),
    /// The bundle does not hold under the trust policy.
    #[cfg(feature = "verify")]
    Verify(skills_core::trust::verify::VerifyError),
    /// A trust policy's verdict given to [`Server::from_verified`] is about
    /// other skills than the catalog's.
    #[cfg(feature = "verify")]
    OtherSkills,
    /// Reading stdin or writing stdout failed.
    Io(io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Catalog(error) => error.fmt(f),
            #[cfg(feature = "verify")]
            ServeError::Verify(error) => write!(f, "the skills are not served: {error}"),
            #[cfg(feature = "verify")]
            ServeError::OtherSkills => f.write_str(
                "the skills are not served: the trust policy's verdict is about other skills than the catalog's",
            ),
            ServeError::Io(error) => write!(f, "MCP stdio transport: {error}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// Whether `params._meta` carries the new era's protocol-version key: the
/// sign the reference reads a request's era by.
fn has_modern_envelope(params: Option<&Value>) -> bool {
    params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object)
        .is_some_and(|meta| meta.contains_key(VERSION_KEY))
}

/// The new era's envelope rules, with the reference's messages: the
/// envelope's protocol version, once both required keys are there.
fn check_envelope(params: Option<&Value>) -> Result<&Value, RpcError> {
    let Some(meta) = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object)
    else {
        return Err(RpcError::new(
            code::INVALID_PARAMS,
            "params._meta must be an object carrying the required 'io.modelcontextprotocol/protocolVersion' and 'io.modelcontextprotocol/clientCapabilities' envelope keys",
        ));
    };
    let missing: Vec<&str> = [VERSION_KEY, CAPABILITIES_KEY]
        .into_iter()
        .filter(|key| !meta.contains_key(*key))
        .collect();
    if !missing.is_empty() {
        return Err(RpcError::new(
            code::INVALID_PARAMS,
            format!(
                "params._meta is missing the required envelope key(s): {}",
                missing.join(", ")
            ),
        ));
    }
    Ok(&meta[VERSION_KEY])
}

/// Whether a connection (stdio), or a request on its own (HTTP), is of the
/// new era: it carries any of the `_meta` envelope's keys, or is
/// `server/discover`, or its `MCP-Protocol-Version` header names a version
/// other than an `initialize`-era one. So a request with an incomplete
/// envelope is refused as the new era refuses it (-32602), and an
/// `initialize` without one opens the handshake.
fn opens_modern(method: &str, params: Option<&Value>, header_version: Option<&str>) -> bool {
    let envelope = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object)
        .is_some_and(|meta| ENVELOPE_KEYS.iter().any(|key| meta.contains_key(*key)));
    envelope
        || method == "server/discover"
        || header_version.is_some_and(|version| {
            !HANDSHAKE_PROTOCOL_VERSIONS.contains(&version.trim_matches([' ', '\t']))
        })
}

/// Whether `version` (an `MCP-Protocol-Version` header) is one this server
/// speaks, in either era.
fn is_spoken(version: &str) -> bool {
    let version = version.trim_matches([' ', '\t']);
    version == MODERN_PROTOCOL_VERSION || HANDSHAKE_PROTOCOL_VERSIONS.contains(&version)
}

/// `{"supported": [...], "requested": ...}` for a -32022 reply.
fn unsupported_data(requested: Option<&Value>) -> Value {
    let mut data = Map::new();
    data.insert("supported".into(), json!([MODERN_PROTOCOL_VERSION]));
    if let Some(Value::String(requested)) = requested {
        data.insert("requested".into(), Value::from(capped(requested)));
    }
    Value::Object(data)
}

/// The string parameter `key`, or the reference's invalid-parameters error.
fn string_param<'v>(params: Option<&'v Value>, key: &str) -> Result<&'v str, RpcError> {
    params
        .and_then(|p| p.get(key))
        .and_then(Value::as_str)
        .ok_or_else(RpcError::invalid_params)
}

/// A listing's result: the page's entries under `key`, its `nextCursor`
/// if there is a next page, the caching hints `cache` and `meta`.
fn paged(key: &str, page: &Page, cache: &str, meta: &str) -> String {
    let mut out = format!(
        "{{\"resultType\":\"complete\",\"{key}\":[{}],{cache}",
        page.entries.join(",")
    );
    if let Some(next) = &page.next {
        out.push_str(",\"nextCursor\":");
        out.push_str(&Value::from(next.as_str()).to_string());
    }
    out.push_str(",\"_meta\":");
    out.push_str(meta);
    out.push('}');
    out
}
