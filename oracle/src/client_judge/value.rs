//! Reading one header value a client sent for a body value: the allowed set, and which
//! client rule a value outside it breaks (streamable-http.mdx § Value Encoding).

use crate::annotations::ParamKind;
use crate::encoding::sentinel::{matches_sentinel_pattern, PREFIX, SUFFIX};
use crate::encoding::{decode_header_value, encode_header_value, needs_encoding, DecodedValue};
use crate::rules::client::{
    B64_COLLISION, B64_FORMAT, B64_MARKERS, B64_REQUIRED, BOOL_LOWER, HDR_NAME, INT_DECIMAL,
    NAME_B64, PARAM_MIRROR,
};
use crate::rules::RuleId;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::Value;

/// Which header the value is in: an `Mcp-Param-*` of a declared type, or `Mcp-Name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Param(ParamKind),
    Name,
}

/// The header values a conforming client may send for `text` (the type-converted body
/// value): the canonical encoding, the sentinel form of any value (D-38), the plain form
/// where the spec is ambiguous about encoding (internal HTAB, D-39), and `42.0` beside `42`
/// for an integral float body (D-41). The overlap `=?base64?=` "starts with `=?base64?` and
/// ends with `?=`", so it must be encoded (D-40, narrowed).
pub fn allowed_values(text: &str, body: &Value) -> Vec<String> {
    let mut out = vec![encode_header_value(text)];
    let sentinel = format!("{PREFIX}{}{SUFFIX}", STANDARD.encode(text.as_bytes()));
    if !out.contains(&sentinel) {
        out.push(sentinel);
    }
    let edge_ws = text.starts_with([' ', '\t']) || text.ends_with([' ', '\t']);
    let only_htab = text
        .bytes()
        .all(|b| b == b'\t' || (0x20..=0x7E).contains(&b));
    if needs_encoding(text) && only_htab && !edge_ws && !matches_sentinel_pattern(text.as_bytes()) {
        out.push(text.to_string());
    }
    if let Some(f) = body.as_f64().filter(|_| body.is_f64()) {
        if f.fract() == 0.0 && f.abs() < 9.0e15 {
            out.push(format!("{}", f as i64));
        }
    }
    out
}

/// Judge `raw` (the header value as received) against `text` / `body`. `Ok` when it is one
/// of [`allowed_values`]; else the rule it breaks and the allowed set.
pub fn judge_value(
    kind: ValueKind,
    text: &str,
    body: &Value,
    raw: &[u8],
) -> Result<(), (RuleId, Vec<String>)> {
    let allowed = allowed_values(text, body);
    if allowed.iter().any(|a| a.as_bytes() == raw) {
        return Ok(());
    }
    let is_name = kind == ValueKind::Name;
    let rule = classify(kind, text, body, raw);
    let rule = match rule {
        B64_REQUIRED | B64_COLLISION if is_name => NAME_B64,
        PARAM_MIRROR if is_name => HDR_NAME,
        r => r,
    };
    Err((rule, allowed))
}

/// The rule a value outside the allowed set breaks, most specific first.
fn classify(kind: ValueKind, text: &str, body: &Value, raw: &[u8]) -> RuleId {
    // Sent plain although it had to be encoded (HTTP parsers strip edge whitespace, so the
    // trimmed text counts as the plain form too).
    if raw == text.as_bytes() || raw == text.trim_matches([' ', '\t']).as_bytes() {
        return if matches_sentinel_pattern(text.as_bytes()) {
            B64_COLLISION
        } else {
            B64_REQUIRED
        };
    }
    if raw == text.as_bytes().escape_ascii().to_string().as_bytes() {
        return B64_REQUIRED;
    }
    match decode_header_value(raw) {
        DecodedValue::Lenient(s) if s == text => return B64_FORMAT,
        DecodedValue::Plain(_) => {
            if let Some(s) = decode_with_any_case_markers(raw) {
                if s == text {
                    return B64_MARKERS;
                }
            }
        }
        _ => {}
    }
    match kind {
        ValueKind::Param(ParamKind::Integer) => {
            let sent = std::str::from_utf8(raw)
                .ok()
                .and_then(|s| s.trim().parse::<f64>().ok());
            if let (Some(sent), Some(want)) = (sent, body.as_f64()) {
                if sent == want {
                    return INT_DECIMAL;
                }
            }
        }
        ValueKind::Param(ParamKind::Boolean) => {
            let sent = String::from_utf8_lossy(raw);
            let same = sent.eq_ignore_ascii_case(text)
                || (text == "true" && sent == "1")
                || (text == "false" && sent == "0");
            if same {
                return BOOL_LOWER;
            }
        }
        _ => {}
    }
    PARAM_MIRROR
}

/// The payload of a sentinel written with markers in the wrong case (`=?BASE64?...?=`).
fn decode_with_any_case_markers(raw: &[u8]) -> Option<String> {
    let n = PREFIX.len();
    if raw.len() < n + SUFFIX.len()
        || !raw[..n].eq_ignore_ascii_case(PREFIX.as_bytes())
        || !raw.ends_with(SUFFIX.as_bytes())
    {
        return None;
    }
    let bytes = STANDARD.decode(&raw[n..raw.len() - SUFFIX.len()]).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(kind: ParamKind, text: &str, body: Value, raw: &str) -> Result<(), RuleId> {
        judge_value(ValueKind::Param(kind), text, &body, raw.as_bytes()).map_err(|e| e.0)
    }

    #[test]
    fn spec_examples_are_accepted() {
        let s = ParamKind::String;
        assert_eq!(p(s, "us-west1", json!("us-west1"), "us-west1"), Ok(()));
        let g = "Hello, 世界";
        assert_eq!(p(s, g, json!(g), "=?base64?SGVsbG8sIOS4lueVjA==?="), Ok(()));
        let c = "=?base64?literal?=";
        assert_eq!(
            p(s, c, json!(c), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
            Ok(())
        );
        // unnecessary encoding (D-38), internal HTAB plain (D-39)
        assert_eq!(p(s, "ab", json!("ab"), "=?base64?YWI=?="), Ok(()));
        assert_eq!(p(s, "a\tb", json!("a\tb"), "a\tb"), Ok(()));
        assert_eq!(p(ParamKind::Integer, "42.0", json!(42.0), "42"), Ok(()));
    }

    #[test]
    fn each_defect_has_its_rule() {
        let s = ParamKind::String;
        assert_eq!(
            p(s, "Hello, 世界", json!("Hello, 世界"), "Hello, 世界"),
            Err(B64_REQUIRED)
        );
        assert_eq!(
            p(s, " padded ", json!(" padded "), "padded"),
            Err(B64_REQUIRED)
        );
        let c = "=?base64?literal?=";
        assert_eq!(p(s, c, json!(c), c), Err(B64_COLLISION));
        assert_eq!(p(s, "é", json!("é"), "=?base64?w6k?="), Err(B64_FORMAT));
        assert_eq!(p(s, "é", json!("é"), "=?BASE64?w6k=?="), Err(B64_MARKERS));
        assert_eq!(p(s, "a", json!("a"), "b"), Err(PARAM_MIRROR));
        assert_eq!(
            p(ParamKind::Integer, "42", json!(42), "42.0"),
            Err(INT_DECIMAL)
        );
        assert_eq!(
            p(ParamKind::Boolean, "true", json!(true), "True"),
            Err(BOOL_LOWER)
        );
        let n = judge_value(ValueKind::Name, "café", &json!("café"), "café".as_bytes());
        assert_eq!(n.map_err(|e| e.0), Err(NAME_B64));
        let n = judge_value(ValueKind::Name, "a", &json!("a"), b"b");
        assert_eq!(n.map_err(|e| e.0), Err(HDR_NAME));
    }
}
