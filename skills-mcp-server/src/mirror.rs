//! The HTTP headers that mirror a 2026-07-28 request's body, and the
//! checks a server that reads the body makes of them (SEP-2243, and
//! SEP-2575's protocol-version rule): `MCP-Protocol-Version` must equal
//! `_meta`'s `io.modelcontextprotocol/protocolVersion`, `Mcp-Method` the
//! `method` (values are case-sensitive), and `Mcp-Name` the `params.name`
//! (`tools/call`, `prompts/get`) or `params.uri` (`resources/read`), after
//! the `=?base64?…?=` form is decoded. A header that is missing, malformed
//! or different is a `HeaderMismatch` (-32020), which the transport sends
//! with `400 Bad Request`.
//!
//! Requests of the `initialize` era are not checked: their clients send
//! none of these headers but the protocol version.

use serde_json::Value;

use crate::wire::{RpcError, capped, code};

/// What a request's HTTP headers say, as the transport read them (`None`:
/// the header was not sent; a value that is not visible ASCII is kept as
/// `U+FFFD`, which matches no body value).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Mirrored<'h> {
    /// `MCP-Protocol-Version`.
    pub(crate) protocol_version: Option<&'h str>,
    /// `Mcp-Method`.
    pub(crate) method: Option<&'h str>,
    /// `Mcp-Name`.
    pub(crate) name: Option<&'h str>,
}

/// The body member `Mcp-Name` mirrors for `method`, if it has one.
fn name_member(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// A header value as compared: without the optional whitespace around it
/// (RFC 9110 §5.5), and decoded when it has the Base64 sentinel form.
fn header_value(raw: &str) -> Option<String> {
    let value = raw.trim_matches([' ', '\t']);
    match value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => skills_core::encoding::base64::decode(encoded)
            .and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_owned()),
    }
}

fn mismatch(message: String) -> RpcError {
    RpcError::new(code::HEADER_MISMATCH, message)
}

/// Checks the protocol-version header against the body's `_meta` version
/// (`body_version`, present: the envelope was checked first).
pub(crate) fn check_version(headers: &Mirrored<'_>, body_version: &Value) -> Result<(), RpcError> {
    let Some(header) = headers.protocol_version else {
        return Err(mismatch(
            "Header mismatch: the MCP-Protocol-Version header is missing".to_owned(),
        ));
    };
    let header = header.trim_matches([' ', '\t']);
    if body_version.as_str() != Some(header) {
        return Err(mismatch(format!(
            "Header mismatch: MCP-Protocol-Version header value {:?} does not match the body's io.modelcontextprotocol/protocolVersion {}",
            capped(header),
            capped(&body_version.to_string())
        )));
    }
    Ok(())
}

/// Checks `Mcp-Method` and `Mcp-Name` against the body's `method` and
/// `params`.
pub(crate) fn check_names(
    headers: &Mirrored<'_>,
    method: &str,
    params: Option<&Value>,
) -> Result<(), RpcError> {
    match headers.method.map(header_value) {
        None => {
            return Err(mismatch(
                "Header mismatch: the Mcp-Method header is missing".to_owned(),
            ));
        }
        Some(value) if value.as_deref() != Some(method) => {
            return Err(mismatch(format!(
                "Header mismatch: Mcp-Method header value {:?} does not match body method {:?}",
                capped(value.as_deref().unwrap_or("\u{fffd}")),
                capped(method)
            )));
        }
        Some(_) => {}
    }
    let body = name_member(method)
        .and_then(|member| params.and_then(|p| p.get(member)))
        .and_then(Value::as_str);
    let header = headers.name.map(header_value);
    match (header, body) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(mismatch(
            "Header mismatch: the Mcp-Name header is missing".to_owned(),
        )),
        (Some(header), body) if header.as_deref() == body => Ok(()),
        (Some(header), body) => Err(mismatch(format!(
            "Header mismatch: Mcp-Name header value {:?} does not match body value {:?}",
            capped(header.as_deref().unwrap_or("\u{fffd}")),
            capped(body.unwrap_or_default())
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers<'h>(method: Option<&'h str>, name: Option<&'h str>) -> Mirrored<'h> {
        Mirrored {
            protocol_version: Some("2026-07-28"),
            method,
            name,
        }
    }

    #[test]
    fn sep_2243_names_are_compared_exactly_after_trimming_and_decoding() {
        let call = json!({"name": "skill"});
        let ok = |h: Mirrored<'_>| check_names(&h, "tools/call", Some(&call)).is_ok();
        assert!(ok(headers(Some("tools/call"), Some("skill"))));
        assert!(ok(headers(Some(" tools/call\t"), Some("  skill  "))));
        assert!(ok(headers(Some("tools/call"), Some("=?base64?c2tpbGw=?="))));
        assert!(!ok(headers(Some("TOOLS/CALL"), Some("skill"))));
        assert!(!ok(headers(None, Some("skill"))));
        assert!(!ok(headers(Some("tools/call"), None)));
        assert!(!ok(headers(Some("tools/call"), Some("other"))));
        assert!(!ok(headers(Some("tools/call"), Some("=?base64?!!?="))));
        // No name in the body: no header expected, and none accepted.
        let list = |h: Mirrored<'_>| check_names(&h, "tools/list", None).is_ok();
        assert!(list(headers(Some("tools/list"), None)));
        assert!(!list(headers(Some("tools/list"), Some("x"))));
        let error =
            check_names(&headers(Some("prompts/list"), None), "tools/list", None).unwrap_err();
        assert_eq!(error.code, code::HEADER_MISMATCH);
        assert!(error.message.contains("prompts/list"), "{}", error.message);
    }

    #[test]
    fn sep_2575_the_version_header_matches_the_body() {
        let h = headers(None, None);
        assert!(check_version(&h, &json!("2026-07-28")).is_ok());
        assert!(check_version(&h, &json!("v999.0.0")).is_err());
        let missing = Mirrored::default();
        assert_eq!(
            check_version(&missing, &json!("2026-07-28"))
                .unwrap_err()
                .code,
            code::HEADER_MISMATCH
        );
    }
}
