//! YAML 1.2's core schema (YAML 1.2.2 §10.3.2) for the scalars of a
//! skill's frontmatter, as JSON: what the MCP Skills extension's entries,
//! `Catalog::manifest` and `get_skill_metadata` carry, so that a plain
//! `disable-model-invocation: true` is the boolean the file says and the
//! readers of the hosts and of the MCP conformance suite (JavaScript's
//! `yaml`, a YAML 1.2 reader) find (SEP-2640: "identical in content").
//! Validation keeps strictyaml's reading, where every scalar is text.
//!
//! A plain scalar is `null` (`null`, `Null`, `NULL`, `~`, empty), a
//! boolean (`true`, `True`, `TRUE`, `false`, `False`, `FALSE`), an integer
//! (`[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`) or a float
//! (`[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`), else text;
//! quoted and block scalars are always text. YAML 1.1's other forms (what
//! PyYAML reads) are text here: `yes`, `no`, `on`, `off`, `y`, `n`, `1_000`,
//! `1:20`, `0b101`, and `0777` is the decimal 777, not octal. Numbers are
//! written in JSON's form of the same number, without going through a
//! float: `+1` is `1`, `0777` is `777`, `.5` is `0.5`, `1.` is `1.0`, `0x1F`
//! is `31`, `1e3` stays `1e3`. JSON has no infinity or NaN, so `.inf`,
//! `-.inf` and `.nan` stay text, as do hexadecimal and octal integers too
//! large for 128 bits.

use alloc::string::{String, ToString};
use core::fmt::{self, Write};

use crate::encoding::json::JsonWriter;

/// A plain scalar as the core schema resolves it, numbers as JSON text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreScalar<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer or a float, as the JSON text of that number.
    Number(String),
    /// Text: the scalar as written.
    Text(&'a str),
}

/// How the core schema resolves the plain scalar `text`.
///
/// ```
/// use skills_core::encoding::yaml_core::{CoreScalar, resolve_plain};
/// assert_eq!(resolve_plain("true"), CoreScalar::Bool(true));
/// assert_eq!(resolve_plain("~"), CoreScalar::Null);
/// assert_eq!(resolve_plain("0777"), CoreScalar::Number("777".into()));
/// assert_eq!(resolve_plain("-.5e3"), CoreScalar::Number("-0.5e3".into()));
/// assert_eq!(resolve_plain("yes"), CoreScalar::Text("yes"));
/// assert_eq!(resolve_plain("1_000"), CoreScalar::Text("1_000"));
/// ```
pub fn resolve_plain(text: &str) -> CoreScalar<'_> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return CoreScalar::Null,
        "true" | "True" | "TRUE" => return CoreScalar::Bool(true),
        "false" | "False" | "FALSE" => return CoreScalar::Bool(false),
        _ => {}
    }
    let number = if let Some(hex) = text.strip_prefix("0x") {
        radix_integer(hex, 16)
    } else if let Some(octal) = text.strip_prefix("0o") {
        radix_integer(octal, 8)
    } else {
        decimal(text)
    };
    number.map_or(CoreScalar::Text(text), CoreScalar::Number)
}

/// Writes a scalar of the frontmatter: typed by [`resolve_plain`] when it
/// was written `plain`, else as the string it is.
///
/// ```
/// use skills_core::encoding::json::{JsonWriter, Style};
/// use skills_core::encoding::yaml_core::write_scalar;
/// let mut json = JsonWriter::new(String::new(), Style::COMPACT);
/// json.begin_array().unwrap();
/// write_scalar(&mut json, "true", true).unwrap();
/// write_scalar(&mut json, "true", false).unwrap();
/// json.end().unwrap();
/// assert_eq!(json.into_inner(), r#"[true,"true"]"#);
/// ```
pub fn write_scalar<W: Write>(json: &mut JsonWriter<W>, text: &str, plain: bool) -> fmt::Result {
    if !plain {
        return json.string(text);
    }
    match resolve_plain(text) {
        CoreScalar::Null => json.null(),
        CoreScalar::Bool(value) => json.value(value),
        CoreScalar::Number(number) => json.value(number),
        CoreScalar::Text(text) => json.string(text),
    }
}

/// `0x`/`0o` digits in decimal, if they are digits of `radix` and the
/// number fits 128 bits.
fn radix_integer(digits: &str, radix: u32) -> Option<String> {
    if digits.is_empty() {
        return None;
    }
    let mut value: u128 = 0;
    for c in digits.chars() {
        let digit = c.to_digit(radix)?;
        value = value
            .checked_mul(u128::from(radix))?
            .checked_add(u128::from(digit))?;
    }
    Some(value.to_string())
}

/// A decimal integer or float of the core schema, in JSON's form.
fn decimal(text: &str) -> Option<String> {
    let (sign, unsigned) = match text.as_bytes().first()? {
        b'-' => ("-", &text[1..]),
        b'+' => ("", &text[1..]),
        _ => ("", text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    // `.5`, `1.`, `1.5` and `1` are numbers; `.` and `` are not.
    if !digits(whole)
        || !fraction.is_none_or(digits)
        || whole.is_empty() && fraction.is_none_or(str::is_empty)
    {
        return None;
    }
    let exponent_ok = exponent.is_none_or(|exponent| {
        let unsigned = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !unsigned.is_empty() && digits(unsigned)
    });
    if !exponent_ok {
        return None;
    }
    // A number no JSON reader holds (`1e400` overflows a double, and
    // serde_json refuses the whole reply) stays text.
    if !text.parse::<f64>().is_ok_and(f64::is_finite) {
        return None;
    }
    // JSON: no leading zeros, a digit on both sides of the point.
    let whole = whole.trim_start_matches('0');
    let mut out = String::with_capacity(text.len() + 2);
    out.push_str(sign);
    out.push_str(if whole.is_empty() { "0" } else { whole });
    if let Some(fraction) = fraction {
        out.push('.');
        out.push_str(if fraction.is_empty() { "0" } else { fraction });
    }
    if let Some(exponent) = exponent {
        out.push('e');
        out.push_str(exponent);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Option<String> {
        match resolve_plain(text) {
            CoreScalar::Number(number) => Some(number),
            _ => None,
        }
    }

    #[test]
    fn numbers_of_the_core_schema_in_json_form() {
        for (yaml, json) in [
            ("0", "0"),
            ("-0", "-0"),
            ("+12", "12"),
            ("007", "7"),
            ("0777", "777"),
            ("1.0", "1.0"),
            ("1.", "1.0"),
            (".5", "0.5"),
            ("-.5", "-0.5"),
            ("00.25", "0.25"),
            ("1e3", "1e3"),
            ("1.5E-3", "1.5e-3"),
            ("2.e+5", "2.0e+5"),
            ("0x1F", "31"),
            ("0xff", "255"),
            ("0o17", "15"),
            (
                "123456789012345678901234567890",
                "123456789012345678901234567890",
            ),
        ] {
            assert_eq!(number(yaml).as_deref(), Some(json), "{yaml}");
        }
        for text in [
            "1_000",
            "1:20",
            "0b101",
            "0x",
            "0o8",
            "0xg",
            ".",
            "+",
            "-",
            "e3",
            "1e",
            "1e+",
            // Past a double's range: serde_json would refuse the reply.
            "1e400",
            "-1e999999",
            "1.2.3",
            ".inf",
            "-.inf",
            ".nan",
            "0X1F",
            "1,000",
            " 1",
            "1 ",
            "١",
            "0x1000000000000000000000000000000000",
        ] {
            assert_eq!(number(text), None, "{text}");
        }
    }

    #[test]
    fn null_and_booleans_in_their_three_spellings_only() {
        for text in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(resolve_plain(text), CoreScalar::Null, "{text:?}");
        }
        for text in ["true", "True", "TRUE"] {
            assert_eq!(resolve_plain(text), CoreScalar::Bool(true));
        }
        for text in ["false", "False", "FALSE"] {
            assert_eq!(resolve_plain(text), CoreScalar::Bool(false));
        }
        for text in ["yes", "No", "on", "OFF", "y", "n", "tRUE", "nULL"] {
            assert_eq!(resolve_plain(text), CoreScalar::Text(text), "{text}");
        }
    }
}
