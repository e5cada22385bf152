//! Comparing a decoded `Mcp-Param-*` header value with the body value at the annotated path.
//!
//! The body value is converted the way a client must convert it (string as-is, integer in
//! decimal, boolean lowercase) and compared exactly; integers are also compared numerically,
//! which the spec asks for at SHOULD level (`42.0` equals `42`).

use serde_json::Value;

/// The outcome of one comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamMatch {
    /// Equal under the client conversion.
    Equal,
    /// Equal only numerically, in the form the spec names (`42.0` vs `42`): a server SHOULD
    /// accept (SHTTP-INT-NUMERIC).
    NumericEqual,
    /// Equal only under a numeric syntax the spec does not address (`+42`, `042`, `4.2e1`):
    /// accept either outcome (AMB-18).
    SyntaxAmbiguous,
    /// Different.
    Mismatch,
    /// The body value is an object or array: not a primitive, the annotation does not apply
    /// cleanly (the arguments are invalid anyway).
    NotPrimitive,
}

/// Compare the decoded header text with the body value.
pub fn compare_param(header: &str, body: &Value) -> ParamMatch {
    match body {
        Value::String(s) => eq(header == s),
        Value::Bool(b) => eq(header == if *b { "true" } else { "false" }),
        Value::Number(n) => compare_number(header, n),
        Value::Null => ParamMatch::Mismatch,
        Value::Array(_) | Value::Object(_) => ParamMatch::NotPrimitive,
    }
}

fn eq(b: bool) -> ParamMatch {
    if b {
        ParamMatch::Equal
    } else {
        ParamMatch::Mismatch
    }
}

fn compare_number(header: &str, n: &serde_json::Number) -> ParamMatch {
    if header == n.to_string() {
        return ParamMatch::Equal;
    }
    let Some(body) = n.as_f64() else {
        return ParamMatch::Mismatch;
    };
    if let Some(h) = plain_decimal(header) {
        // `42.0` / `42.00` / `-7.0`: the spec's own example of numeric equality
        return if h == body {
            ParamMatch::NumericEqual
        } else {
            ParamMatch::Mismatch
        };
    }
    match header.parse::<f64>() {
        Ok(h) if h == body && header.bytes().all(|b| b.is_ascii_graphic()) => {
            ParamMatch::SyntaxAmbiguous
        }
        _ => ParamMatch::Mismatch,
    }
}

/// `-?[1-9][0-9]*(\.[0-9]+)?` or `-?0(\.[0-9]+)?` parsed as f64: integers and plain decimal
/// fractions without sign `+`, leading zeros or exponent.
fn plain_decimal(s: &str) -> Option<f64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let int_ok = int == "0"
        || (!int.is_empty() && !int.starts_with('0') && int.bytes().all(|b| b.is_ascii_digit()));
    let frac_ok = frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    if int_ok && frac_ok {
        s.parse().ok()
    } else {
        None
    }
}
