//! The request rewrites on `Mcp-Param` headers and header-value encoding (the Base64
//! sentinel, integer and boolean comparison): how a server that validates or compares them
//! wrongly would read the request, or the refusal it gives where the reference serves.

use super::super::response::Response;
use super::request::{conformant_value, mismatch, one, params, reread_as, strip_non_ascii};
use crate::annotations::{header_text, ParamKind};
use crate::case::{trim_ows, Case, HeaderField};
use crate::encoding::{decode_header_value, DecodedValue};
use crate::isolation::readings::{is_param_header, Reading};
use crate::surface::Surface;
use serde_json::Value;

/// `Mcp-Name` or an `Mcp-Param-*` header: the ones whose values may carry the sentinel.
fn is_encodable(n: &[u8]) -> bool {
    n.eq_ignore_ascii_case(b"Mcp-Name") || is_param_header(n)
}

pub(super) fn param_int_unchecked(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    for (p, arg) in params(case, surface) {
        let raw = one(case, &p.header_name());
        let is_int = raw
            .as_deref()
            .and_then(|r| std::str::from_utf8(r).ok())
            .is_some_and(|t| t.parse::<i64>().is_ok());
        if let (ParamKind::Integer, Some(v), true) = (p.kind, arg, is_int) {
            let text = header_text(&v).unwrap_or_default();
            case.set_header(&p.header_name(), Some(text.as_bytes()));
        }
    }
    None
}

pub(super) fn param_non_ascii_stripped(case: &mut Case, _: &mut Surface) -> Option<Response> {
    strip_non_ascii(case, is_param_header);
    None
}

pub(super) fn param_chars_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    reread_as(case, Reading::Utf8, is_param_header);
    None
}

pub(super) fn param_latin1(case: &mut Case, _: &mut Surface) -> Option<Response> {
    reread_as(case, Reading::Latin1, is_param_header);
    None
}

pub(super) fn param_optional(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    for (p, arg) in params(case, surface) {
        let name = p.header_name();
        if arg.is_some_and(|v| !v.is_null()) && case.header(&name) == HeaderField::Absent {
            if let Some(v) = conformant_value(case, surface, &name) {
                case.set_header(&name, Some(&v));
            }
        }
    }
    None
}

pub(super) fn param_null_expected(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    let missing = params(case, surface).into_iter().any(|(p, arg)| {
        arg == Some(Value::Null) && case.header(&p.header_name()) == HeaderField::Absent
    });
    missing.then(|| mismatch(case, "Mcp-Param header missing for a null argument"))
}

pub(super) fn param_absent_expected(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    // only the first annotated parameter, so calls that merely leave optional arguments out
    // (every other probe) are unaffected
    match params(case, surface).into_iter().next() {
        Some((p, None)) if case.header(&p.header_name()) == HeaderField::Absent => {
            Some(mismatch(case, "Mcp-Param header missing"))
        }
        _ => None,
    }
}

pub(super) fn int_string_compare(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    compare_as_text(case, surface, ParamKind::Integer)
}

pub(super) fn bool_case_insensitive(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    compare_as_text(case, surface, ParamKind::Boolean)
}

/// A server that compares `kind` values wrongly: integers as strings (`42.0` is refused),
/// booleans ignoring case (`True` passes). A sentinel is decoded first, so only the
/// comparison is broken.
fn compare_as_text(case: &mut Case, surface: &Surface, kind: ParamKind) -> Option<Response> {
    for (p, arg) in params(case, surface) {
        let (Some(raw), Some(text)) = (
            one(case, &p.header_name()),
            arg.as_ref().and_then(header_text),
        ) else {
            continue;
        };
        let decoded = decode_header_value(&raw);
        let raw = crate::encoding::sentinel::decoded_text(&decoded)
            .map_or(raw.clone(), |t| t.as_bytes().to_vec());
        if p.kind != kind || raw == text.as_bytes() {
            continue;
        }
        if kind == ParamKind::Integer {
            return Some(mismatch(case, "integer Mcp-Param differs as a string"));
        }
        if raw.eq_ignore_ascii_case(text.as_bytes()) {
            case.set_header(&p.header_name(), Some(text.as_bytes()));
        }
    }
    None
}

pub(super) fn no_base64_decode(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let decoded = case.headers.iter().any(|(n, v)| {
        is_encodable(n) && matches!(decode_header_value(trim_ows(v)), DecodedValue::Decoded(_))
    });
    decoded.then(|| mismatch(case, "header value does not match (not decoded)"))
}

pub(super) fn base64_markers_stripped(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    fill_conformant_where(case, surface, |raw, d| {
        matches!(d, DecodedValue::Plain(_)) && raw.starts_with(b"=?") && raw.ends_with(b"?=")
    });
    None
}

pub(super) fn base64_malformed_ignored(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    fill_conformant_where(case, surface, |_, d| *d == DecodedValue::Malformed);
    None
}

/// Replace each encodable header whose value `hit` selects by what a conformant client sends
/// (the server never looks at it, so it passes as if it were right).
fn fill_conformant_where(
    case: &mut Case,
    surface: &Surface,
    hit: impl Fn(&[u8], &DecodedValue) -> bool,
) {
    let names: Vec<String> = case
        .headers
        .iter()
        .filter(|(n, _)| is_encodable(n))
        .map(|(n, _)| String::from_utf8_lossy(n).into_owned())
        .collect();
    for n in names {
        let Some(raw) = one(case, &n) else { continue };
        let d = decode_header_value(&raw);
        if let (true, Some(v)) = (hit(&raw, &d), conformant_value(case, surface, &n)) {
            case.set_header(&n, Some(&v));
        }
    }
}

pub(super) fn base64_markers_any_case(case: &mut Case, _: &mut Surface) -> Option<Response> {
    // reads `=?BASE64?...?=` (any case) as the sentinel
    for (n, v) in case.headers.iter_mut() {
        let t = trim_ows(v);
        let odd = t.len() >= 11
            && t[..9].eq_ignore_ascii_case(b"=?base64?")
            && &t[..9] != b"=?base64?"
            && t.ends_with(b"?=");
        if odd && is_encodable(n) {
            *v = [b"=?base64?".as_slice(), &t[9..]].concat();
        }
    }
    None
}

/// A server that reads a nested annotated parameter by its last key at the top level of the
/// arguments (`region` for `target.region`), not at its exact property path (D-180): the
/// header is compared with the value there, so a header mirroring the nested value is
/// refused when the two differ, and one mirroring the top-level value passes.
pub(super) fn param_wrong_path(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    let call = super::super::dispatch::parse_call(&case.body)?;
    let args = call.params.get("arguments");
    for (p, arg) in params(case, surface) {
        let Some(last) = p.path.last().filter(|_| p.path.len() > 1) else {
            continue;
        };
        let wrong = args.and_then(|a| a.get(last)).and_then(header_text);
        let (Some(wrong), Some(raw)) = (wrong, one(case, &p.header_name())) else {
            continue;
        };
        let decoded = decode_header_value(&raw);
        let seen = crate::encoding::sentinel::decoded_text(&decoded)
            .map_or(raw.clone(), |t| t.as_bytes().to_vec());
        let right = arg.as_ref().and_then(header_text);
        if seen == wrong.as_bytes() {
            // it passes: served as if the header mirrored the exact path
            if right.as_deref().map(str::as_bytes) != Some(seen.as_slice()) {
                let v = conformant_value(case, surface, &p.header_name());
                case.set_header(&p.header_name(), v.as_deref());
            }
        } else if right.as_deref().map(str::as_bytes) == Some(seen.as_slice()) {
            return Some(mismatch(
                case,
                "Mcp-Param header does not match the argument",
            ));
        }
    }
    None
}
