//! What YAML readers other than ours make of a plain scalar.
//!
//! Our reader (strictyaml's) reads every scalar as text. Most readers
//! resolve some plain scalars to other types: PyYAML (YAML 1.1, which
//! agentskills-core uses) and the YAML 1.2 core schema (ruamel.yaml, and
//! most readers written since). A plain `true`, `1.10`, `007`, `~` or
//! `2024-01-01` is text to us and a boolean, a float, an int, null or a
//! date to them. [`resolves_elsewhere`] says which plain scalars a common
//! reader takes for something other than the same text, so that the
//! canonical form quotes them: the union of
//!
//! * YAML 1.1's types as PyYAML resolves them, plus the single-letter
//!   booleans (`y`, `n`) the 1.1 type repository lists;
//! * the YAML 1.2 core schema as ruamel.yaml resolves it (`0o17`, `1e3`);
//! * both schemas' null, merge key (`<<`) and timestamps, and PyYAML's
//!   value key (`=`).
//!
//! The rule is checked against the two real readers' verdicts, recorded
//! in `testdata/yaml-readers/` by `scripts/record/yaml-readers.sh`.

/// The type a common YAML reader gives the plain scalar `text`, when it is
/// not text: `"null"`, `"bool"`, `"int"`, `"float"`, `"timestamp"`,
/// `"merge"` or `"value"`.
///
/// ```ignore
/// assert_eq!(resolves_elsewhere("NO"), Some("bool"));
/// assert_eq!(resolves_elsewhere("1.10"), Some("float"));
/// assert_eq!(resolves_elsewhere("pdf"), None);
/// ```
pub fn resolves_elsewhere(text: &str) -> Option<&'static str> {
    if is_null(text) {
        Some("null")
    } else if is_bool(text) {
        Some("bool")
    } else if is_int(text) {
        Some("int")
    } else if is_float(text) {
        Some("float")
    } else if is_timestamp(text) {
        Some("timestamp")
    } else if text == "<<" {
        Some("merge")
    } else if text == "=" {
        Some("value")
    } else {
        None
    }
}

/// A word in one of the three casings YAML's schemas accept: all lower,
/// capitalised, all upper.
fn any_casing(text: &str, word: &str) -> bool {
    let mut capital = word.to_string();
    capital[..1].make_ascii_uppercase();
    text == word || text == capital || text == word.to_ascii_uppercase()
}

fn is_null(text: &str) -> bool {
    text.is_empty() || text == "~" || any_casing(text, "null")
}

fn is_bool(text: &str) -> bool {
    ["true", "false", "yes", "no", "on", "off", "y", "n"]
        .iter()
        .any(|word| any_casing(text, word))
}

/// `text` without one leading `+` or `-`.
fn unsigned(text: &str) -> &str {
    text.strip_prefix(['+', '-']).unwrap_or(text)
}

/// Every character is in `set` or `_`, and there is at least one.
fn digits_in(text: &str, set: impl Fn(char) -> bool) -> bool {
    !text.is_empty() && text.chars().all(|c| c == '_' || set(c))
}

fn is_int(text: &str) -> bool {
    let body = unsigned(text);
    if let Some(bits) = body.strip_prefix("0b") {
        return digits_in(bits, |c| matches!(c, '0' | '1'));
    }
    if let Some(hex) = body.strip_prefix("0x") {
        return digits_in(hex, |c| c.is_ascii_hexdigit());
    }
    if let Some(octal) = body.strip_prefix("0o") {
        return digits_in(octal, |c| matches!(c, '0'..='7'));
    }
    // Decimal, and 1.1's octal (`0` then octal digits): digits and
    // underscores. Readers try a type only on scalars starting with one
    // of its first characters (a sign or a digit for ints), so `_1` is
    // text while `+_` is an int (which then fails to build).
    let signed = body.len() < text.len();
    if (signed || body.starts_with(|c: char| c.is_ascii_digit()))
        && digits_in(body, |c| c.is_ascii_digit())
    {
        return true;
    }
    sexagesimal(body, false)
}

/// 1.1's base 60: `1:20`, `190:20:30` (ints), `1:20.5` (floats): digits
/// first, then `:` and one or two digits (the first at most 5), repeated.
fn sexagesimal(body: &str, float: bool) -> bool {
    let (whole, fraction) = match float {
        true => match body.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => return false,
        },
        false => (body, None),
    };
    let mut parts = whole.split(':');
    let first = parts.next().unwrap_or("");
    // An int's first part starts with 1-9, a float's with any digit.
    let lead = |c: char| c.is_ascii_digit() && (float || c != '0');
    if !first.starts_with(lead) || !digits_in(first, |c| c.is_ascii_digit()) {
        return false;
    }
    let mut sixties = 0;
    for part in parts {
        let ok = match part.as_bytes() {
            [d] => d.is_ascii_digit(),
            [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
            _ => false,
        };
        if !ok {
            return false;
        }
        sixties += 1;
    }
    sixties > 0 && fraction.is_none_or(|f| f.chars().all(|c| c == '_' || c.is_ascii_digit()))
}

fn is_float(text: &str) -> bool {
    let body = unsigned(text);
    if [".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"].contains(&body) {
        return true;
    }
    if sexagesimal(body, true) {
        return true;
    }
    // Mantissa, then an optional exponent; a dot or an exponent makes it
    // a float (digits alone are an int, above).
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        // `1.`, `1.5`, `1_0.5_`: digits first.
        Some((whole, fraction)) if !whole.is_empty() => {
            whole.starts_with(|c: char| c.is_ascii_digit())
                && digits_in(whole, |c| c.is_ascii_digit())
                && fraction.chars().all(|c| c == '_' || c.is_ascii_digit())
        }
        // `.5`, `._` (1.2 takes `\.[0-9_]+`).
        Some((_, fraction)) => digits_in(fraction, |c| c.is_ascii_digit()),
        None => {
            exponent.is_some()
                && mantissa.starts_with(|c: char| c.is_ascii_digit())
                && digits_in(mantissa, |c| c.is_ascii_digit())
        }
    };
    // After a mantissa that starts with its dot, the exponent is signed.
    let dot_first = mantissa.starts_with('.');
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = unsigned(e);
        (!dot_first || digits.len() < e.len())
            && !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

/// `n` ASCII digits at the start of `text`, and the rest.
fn take_digits(text: &str, min: usize, max: usize) -> Option<&str> {
    let count = text
        .bytes()
        .take(max)
        .take_while(u8::is_ascii_digit)
        .count();
    (count >= min).then(|| &text[count..])
}

/// A date (`2001-12-14`) or a date and time in YAML's timestamp forms
/// (`2001-12-14t21:59:43.10-05:00`, `2001-12-14 21:59:43.10 -5`), whether
/// or not the numbers make a real date: a reader that resolves it and
/// fails to build it reports an error, which is no more the same text.
fn is_timestamp(text: &str) -> bool {
    let date = || -> Option<(&str, bool)> {
        let rest = take_digits(text, 4, 4)?.strip_prefix('-')?;
        let month = take_digits(rest, 1, 2)?;
        let short_month = rest.len() - month.len() == 1;
        let rest = month.strip_prefix('-')?;
        let day = take_digits(rest, 1, 2)?;
        let short = short_month || rest.len() - day.len() == 1;
        Some((day, short))
    };
    let Some((rest, short)) = date() else {
        return false;
    };
    if rest.is_empty() {
        // A date alone needs two-digit month and day.
        return !short;
    }
    let Some(rest) = rest
        .strip_prefix(['T', 't'])
        .or_else(|| (rest.starts_with([' ', '\t'])).then(|| rest.trim_start_matches([' ', '\t'])))
    else {
        return false;
    };
    let time = || -> Option<&str> {
        let rest = take_digits(rest, 1, 2)?.strip_prefix(':')?;
        let rest = take_digits(rest, 2, 2)?.strip_prefix(':')?;
        let mut rest = take_digits(rest, 2, 2)?;
        if let Some(fraction) = rest.strip_prefix('.') {
            rest = fraction.trim_start_matches(|c: char| c.is_ascii_digit());
        }
        Some(rest)
    };
    let Some(zone) = time() else {
        return false;
    };
    let zone = zone.trim_start_matches([' ', '\t']);
    if zone.is_empty() || zone == "Z" {
        return true;
    }
    let Some(offset) = zone.strip_prefix(['+', '-']) else {
        return false;
    };
    match take_digits(offset, 1, 2) {
        Some("") => true,
        Some(minutes) => minutes
            .strip_prefix(':')
            .and_then(|m| take_digits(m, 2, 2))
            .is_some_and(str::is_empty),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_findings_spellings_resolve_elsewhere() {
        for (text, kind) in [
            ("true", "bool"),
            ("NO", "bool"),
            ("yes", "bool"),
            ("null", "null"),
            ("~", "null"),
            ("1.10", "float"),
            ("007", "int"),
            ("0o17", "int"),
            ("0x1F", "int"),
            ("1_000", "int"),
            ("1:20", "int"),
            ("1e3", "float"),
            (".inf", "float"),
            ("-.INF", "float"),
            (".NaN", "float"),
            ("190:20:30.15", "float"),
            ("2001-12-14", "timestamp"),
            ("2001-12-14t21:59:43.10-05:00", "timestamp"),
            ("2001-12-14 21:59:43.10 -5", "timestamp"),
            ("<<", "merge"),
            ("=", "value"),
        ] {
            assert_eq!(resolves_elsewhere(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn plain_words_and_versions_stay_text() {
        for text in [
            "pdf",
            "MIT",
            "1.2.3",
            "v1",
            "yes please",
            "nope",
            "trUe",
            "2024-1",
            "1:2:3x",
            ".",
            "-",
            "e5",
            "0x",
            "0b2",
            "12:60",
            "Fills PDF forms.",
            "1.0-beta",
        ] {
            assert_eq!(resolves_elsewhere(text), None, "{text}");
        }
    }
}
