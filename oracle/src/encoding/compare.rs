//! Comparing a decoded `Mcp-Param-*` header value with the body value at the annotated path.
//!
//! The body value is converted the way a client must convert it (string as-is, integer in
//! decimal, boolean lowercase) and compared exactly; integers are also compared numerically,
//! which the spec asks for at SHOULD level (`42.0` equals `42`).
//!
//! This file owns the comparison only; decoding the header is `sentinel`. Numeric equality
//! is exact decimal equality (no `f64` rounding: `42.00000000000000001` is not `42`, and
//! `9007199254740993` is not `9007199254740992`).

use super::field_words::same_bytes;
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
    compare_param_bytes(header.as_bytes(), body)
}

/// `compare_param` of the decoded header bytes: bytes that are not UTF-8 equal no body value
/// (every body value's text is UTF-8), so the judge compares before it validates.
pub fn compare_param_bytes(header: &[u8], body: &Value) -> ParamMatch {
    match body {
        Value::String(s) => compare_param_text(header, s),
        Value::Bool(b) => compare_param_bool(header, *b),
        Value::Number(n) => compare_number(header, n),
        Value::Null => ParamMatch::Mismatch,
        Value::Array(_) | Value::Object(_) => ParamMatch::NotPrimitive,
    }
}

/// `compare_param_bytes` for a string body value.
pub fn compare_param_text(header: &[u8], body: &str) -> ParamMatch {
    eq(same_bytes(header, body.as_bytes()))
}

/// `compare_param_bytes` for a boolean body value (its lowercase JSON text).
pub fn compare_param_bool(header: &[u8], body: bool) -> ParamMatch {
    eq(header == if body { b"true".as_slice() } else { b"false" })
}

fn eq(b: bool) -> ParamMatch {
    if b {
        ParamMatch::Equal
    } else {
        ParamMatch::Mismatch
    }
}

fn compare_number(header: &[u8], n: &serde_json::Number) -> ParamMatch {
    // written on the stack: the judge compares a number on most tool calls
    let mut text = NumberText {
        bytes: [0; 40],
        len: 0,
    };
    let owned;
    let body_text = if std::fmt::write(&mut text, format_args!("{n}")).is_ok() {
        text.as_str()
    } else {
        owned = n.to_string();
        owned.as_str()
    };
    compare_number_text(header, body_text)
}

/// `compare_param_bytes` for a number body value whose text, as `serde_json` writes it, is
/// `body_text` (an integer's text is the body's own, when it has no leading zero, no sign
/// `+` and fits an `i64` or `u64`: the judge compares it without parsing it).
pub fn compare_number_text(header: &[u8], body_text: &str) -> ParamMatch {
    if same_bytes(header, body_text.as_bytes()) {
        return ParamMatch::Equal;
    }
    // (not UTF-8: no decimal syntax)
    let Ok(header) = std::str::from_utf8(header) else {
        return ParamMatch::Mismatch;
    };
    let (Some((body, _)), Some((h, syntax))) = (parse_decimal(body_text), parse_decimal(header))
    else {
        return ParamMatch::Mismatch;
    };
    match (h == body, syntax) {
        (false, _) => ParamMatch::Mismatch,
        // `42.0` / `42.00` / `-7.0`: the spec's own example of numeric equality
        (true, Syntax::Plain) => ParamMatch::NumericEqual,
        // AMB-18: `+42`, `042`, `4.2e1`, `-0`, `.5`, `42.` are not addressed by the spec
        (true, Syntax::Other) => ParamMatch::SyntaxAmbiguous,
    }
}

/// A number's text in a fixed buffer (`Number`'s `Display` writes at most about 25 bytes).
struct NumberText {
    bytes: [u8; 40],
    len: usize,
}

impl NumberText {
    fn as_str(&self) -> &str {
        // only whole `&str`s are copied in, so the bytes are UTF-8; the fallback is never taken
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl std::fmt::Write for NumberText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// How a numeric text is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, and not a negative zero.
    Plain,
    /// Any other decimal syntax: sign `+`, leading zeros, exponent, bare `.`, `-0`.
    Other,
}

/// An exact decimal `(-1)^neg * digits * 10^exp` in canonical form: `digits` has no leading
/// or trailing zeros, and zero is `digits == ""`, `exp == 0`, `neg == false`.
#[derive(Debug, PartialEq, Eq)]
struct Decimal {
    neg: bool,
    digits: String,
    exp: i64,
}

/// Exponents beyond this are clamped (no JSON number the body can hold comes close).
const EXP_LIMIT: i64 = 1 << 40;

/// Parse `[+-]?[0-9]*(\.[0-9]*)?([eE][+-]?[0-9]+)?` with at least one mantissa digit.
fn parse_decimal(s: &str) -> Option<(Decimal, Syntax)> {
    let (neg, signed, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, false, &s[1..]),
        Some(b'+') => (false, true, &s[1..]),
        _ => (false, false, s),
    };
    let (mantissa, exp_text) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) || !frac.is_none_or(all_digits) {
        return None;
    }
    let frac_digits = frac.unwrap_or("");
    if int.is_empty() && frac_digits.is_empty() {
        return None;
    }
    let exp = match exp_text {
        None => 0,
        Some(e) => parse_exponent(e)?,
    };
    let mut digits: String = int.chars().chain(frac_digits.chars()).collect();
    let mut exp = exp.saturating_sub(frac_digits.len() as i64);
    let leading = digits.len() - digits.trim_start_matches('0').len();
    digits.drain(..leading);
    while digits.ends_with('0') {
        digits.pop();
        exp = exp.saturating_add(1);
    }
    let zero = digits.is_empty();
    let int_plain = int == "0" || (!int.is_empty() && !int.starts_with('0'));
    let frac_plain = frac.is_none_or(|f| !f.is_empty());
    let plain = !signed && exp_text.is_none() && int_plain && frac_plain && !(neg && zero);
    let value = if zero {
        Decimal {
            neg: false,
            digits,
            exp: 0,
        }
    } else {
        Decimal { neg, digits, exp }
    };
    Some((value, if plain { Syntax::Plain } else { Syntax::Other }))
}

fn parse_exponent(e: &str) -> Option<i64> {
    let (neg, digits) = match e.as_bytes().first() {
        Some(b'-') => (true, &e[1..]),
        Some(b'+') => (false, &e[1..]),
        _ => (false, e),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().fold(0i64, |acc, b| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(b - b'0'))
            .min(EXP_LIMIT)
    });
    Some(if neg { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use ParamMatch::*;

    #[test]
    fn strings_and_booleans_compare_exactly() {
        assert_eq!(compare_param("us-west1", &json!("us-west1")), Equal);
        assert_eq!(compare_param("us-west1", &json!("US-WEST1")), Mismatch);
        assert_eq!(compare_param("", &json!("")), Equal);
        assert_eq!(compare_param("true", &json!(true)), Equal);
        assert_eq!(compare_param("false", &json!(false)), Equal);
        // AMB-18: booleans are defined by the lowercase client conversion
        assert_eq!(compare_param("True", &json!(true)), Mismatch);
        assert_eq!(compare_param("TRUE", &json!(true)), Mismatch);
        assert_eq!(compare_param("1", &json!(true)), Mismatch);
        assert_eq!(compare_param("false", &json!(true)), Mismatch);
        assert_eq!(compare_param("null", &json!(null)), Mismatch);
        assert_eq!(compare_param("[]", &json!([])), NotPrimitive);
        assert_eq!(compare_param("{}", &json!({})), NotPrimitive);
    }

    /// ENCODING.md §2.6 numeric rows and SHTTP-INT-NUMERIC.
    #[test]
    fn integers() {
        assert_eq!(compare_param("42", &json!(42)), Equal);
        assert_eq!(compare_param("-7", &json!(-7)), Equal);
        assert_eq!(compare_param("42.0", &json!(42)), NumericEqual);
        assert_eq!(compare_param("42.00", &json!(42)), NumericEqual);
        assert_eq!(compare_param("42", &json!(42.0)), NumericEqual);
        assert_eq!(compare_param("-7.0", &json!(-7)), NumericEqual);
        assert_eq!(compare_param("43", &json!(42)), Mismatch);
        assert_eq!(compare_param("42.5", &json!(42)), Mismatch);
        assert_eq!(compare_param("", &json!(42)), Mismatch);
        assert_eq!(compare_param(" 42", &json!(42)), Mismatch);
        assert_eq!(compare_param("4 2", &json!(42)), Mismatch);
        assert_eq!(compare_param("0x2a", &json!(42)), Mismatch);
        assert_eq!(compare_param("inf", &json!(42)), Mismatch);
        assert_eq!(compare_param("NaN", &json!(42)), Mismatch);
    }

    #[test]
    fn ambiguous_syntaxes() {
        for h in ["+42", "042", "4.2e1", "4.2E+1", "420e-1", "42.", "042.0"] {
            assert_eq!(compare_param(h, &json!(42)), SyntaxAmbiguous, "{h}");
        }
        assert_eq!(compare_param(".5", &json!(0.5)), SyntaxAmbiguous);
        assert_eq!(compare_param("-0", &json!(0)), SyntaxAmbiguous);
        assert_eq!(compare_param("-0.0", &json!(0)), SyntaxAmbiguous);
        assert_eq!(compare_param("0.0", &json!(0)), NumericEqual);
        assert_eq!(compare_param("4.3e1", &json!(42)), Mismatch);
        assert_eq!(compare_param("1e99999999999999999999", &json!(1)), Mismatch);
    }

    #[test]
    fn numeric_equality_is_exact() {
        let big = json!(9_007_199_254_740_992_i64);
        assert_eq!(compare_param("9007199254740992", &big), Equal);
        assert_eq!(compare_param("9007199254740993", &big), Mismatch);
        assert_eq!(compare_param("9007199254740992.0", &big), NumericEqual);
        assert_eq!(compare_param("42.00000000000000001", &json!(42)), Mismatch);
        assert_eq!(
            compare_param("-9007199254740991", &json!(-9_007_199_254_740_991_i64)),
            Equal
        );
        assert_eq!(
            compare_param("18446744073709551615", &json!(u64::MAX)),
            Equal
        );
        assert_eq!(
            compare_param("100000000000000000000", &json!(1e20)),
            NumericEqual
        );
    }
}
