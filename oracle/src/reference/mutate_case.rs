//! Mutants that act *before* the judge: they rewrite the request the way a server with one
//! check missing or wrong would read it (then the judge and the renderer run as usual), or
//! they refuse a request the reference server would serve. Each arm breaks one rule; see the
//! mutant table in `mutants.rs` for the list.

use super::dispatch::{parse_call, Call};
use super::error_body;
use super::response::Response;
use crate::annotations::{extract, header_text, Extracted, HeaderParam, ParamKind};
use crate::case::{trim_ows, Case, HeaderField, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::client::conformant_case;
use crate::encoding::{decode_header_value, DecodedValue};
use crate::isolation::readings::{is_name_header, is_param_header, reread, Reading};
use crate::surface::Surface;
use serde_json::{json, Value};

/// The standard mirrored headers, in their canonical spelling.
const MIRRORED: [&str; 3] = ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"];

/// Rewrite `case`/`surface` for mutant `name`, or answer directly (`Some`).
pub(super) fn before(name: &str, case: &mut Case, surface: &mut Surface) -> Option<Response> {
    let call = parse_call(&case.body);
    match name {
        "origin-unchecked" => case.set_header("Origin", None),
        "pv-mismatch-unchecked" => {
            let body_version = call
                .as_ref()
                .and_then(|c| c.params.get("_meta"))
                .and_then(|m| m.get(META_PROTOCOL_VERSION))
                .and_then(Value::as_str);
            if let (HeaderField::One(h), Some(b)) =
                (case.header("MCP-Protocol-Version"), body_version)
            {
                if h != b.as_bytes() {
                    let h = String::from_utf8_lossy(h).into_owned();
                    set_meta(case, META_PROTOCOL_VERSION, json!(h), true);
                }
            }
        }
        "pv-any-version" => {
            if let HeaderField::One(h) = case.header("MCP-Protocol-Version") {
                let h = String::from_utf8_lossy(h).into_owned();
                if !surface.supports_version(&h) {
                    surface.supported_versions.push(h);
                }
            }
        }
        "pv-missing-default" => {
            let body_version = call
                .as_ref()
                .and_then(|c| c.params.get("_meta"))
                .and_then(|m| m.get(META_PROTOCOL_VERSION))
                .and_then(Value::as_str)
                .map(str::to_string);
            if let (HeaderField::Absent, Some(v)) =
                (case.header("MCP-Protocol-Version"), body_version)
            {
                case.set_header("MCP-Protocol-Version", Some(v.as_bytes()));
            }
        }
        "meta-unchecked" => {
            set_meta(
                case,
                META_PROTOCOL_VERSION,
                json!(crate::case::MODERN_VERSION),
                false,
            );
            set_meta(case, META_CLIENT_CAPABILITIES, json!({}), false);
        }
        "mcp-method-prefix" => {
            if let (HeaderField::One(raw), Some(c)) = (case.header("Mcp-Method"), &call) {
                let ns = |s: &[u8]| s.split(|b| *b == b'/').next().map(<[u8]>::to_vec);
                if raw != c.method.as_bytes() && ns(raw) == ns(c.method.as_bytes()) {
                    case.set_header("Mcp-Method", Some(c.method.as_bytes()));
                }
            }
        }
        "mcp-name-optional" if case.header("Mcp-Name") == HeaderField::Absent => {
            if let Some(v) = conformant_value(case, surface, "Mcp-Name") {
                case.set_header("Mcp-Name", Some(&v));
            }
        }
        "hdr-non-ascii-stripped" => strip_non_ascii(case, is_mirrored),
        // a server that skips the character check but still compares values: it reads the
        // bytes as UTF-8 or as ISO-8859-1 and compares that text with the body
        "hdr-chars-unchecked" | "hdr-latin1" | "param-chars-unchecked" | "param-latin1" => {
            let reading = if name.ends_with("latin1") {
                Reading::Latin1
            } else {
                Reading::Utf8
            };
            let which = if name.starts_with("hdr") {
                is_name_header
            } else {
                is_param_header
            };
            if let Some(c) = reread(case, reading, which) {
                *case = c;
            }
        }
        "param-non-ascii-stripped" => strip_non_ascii(case, is_param_name),
        "header-names-case-sensitive" => case.headers.retain(|(n, _)| {
            let exact = MIRRORED.iter().any(|m| n.as_slice() == m.as_bytes());
            let odd_param = is_param_name(n) && !n.starts_with(b"Mcp-Param-");
            exact || !is_mirrored(n) && !odd_param
        }),
        "mcp-name-case-insensitive" => {
            if let (HeaderField::One(raw), Some(v)) = (
                case.header("Mcp-Name"),
                conformant_value(case, surface, "Mcp-Name"),
            ) {
                if raw != v.as_slice() && raw.eq_ignore_ascii_case(&v) {
                    case.set_header("Mcp-Name", Some(&v));
                }
            }
        }
        "ows-not-trimmed" => {
            let padded = case
                .headers
                .iter()
                .any(|(n, v)| (is_mirrored(n) || is_param_name(n)) && trim_ows(v).len() != v.len());
            if padded {
                return Some(mismatch(&call, "header value has surrounding whitespace"));
            }
        }
        "param-int-unchecked" => {
            for (p, arg) in params(&call, surface) {
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
        }
        "param-optional" => {
            for (p, arg) in params(&call, surface) {
                let name = p.header_name();
                if arg.is_some_and(|v| !v.is_null()) && case.header(&name) == HeaderField::Absent {
                    if let Some(v) = conformant_value(case, surface, &name) {
                        case.set_header(&name, Some(&v));
                    }
                }
            }
        }
        "param-null-expected" => {
            for (p, arg) in params(&call, surface) {
                if arg == Some(Value::Null) && case.header(&p.header_name()) == HeaderField::Absent
                {
                    return Some(mismatch(
                        &call,
                        "Mcp-Param header missing for a null argument",
                    ));
                }
            }
        }
        "param-absent-expected" => {
            // only the first annotated parameter, so calls that merely leave optional
            // arguments out (every other probe) are unaffected
            if let Some((p, None)) = params(&call, surface).into_iter().next() {
                if case.header(&p.header_name()) == HeaderField::Absent {
                    return Some(mismatch(&call, "Mcp-Param header missing"));
                }
            }
        }
        "int-string-compare" | "bool-case-insensitive" => {
            let kind = if name == "int-string-compare" {
                ParamKind::Integer
            } else {
                ParamKind::Boolean
            };
            for (p, arg) in params(&call, surface) {
                let (Some(raw), Some(text)) = (
                    one(case, &p.header_name()),
                    arg.as_ref().and_then(header_text),
                ) else {
                    continue;
                };
                // a sentinel is decoded first: this mutant breaks only the comparison
                let decoded = decode_header_value(&raw);
                let raw = crate::encoding::sentinel::decoded_text(&decoded)
                    .map_or(raw.clone(), |t| t.as_bytes().to_vec());
                if p.kind != kind || raw == text.as_bytes() {
                    continue;
                }
                if kind == ParamKind::Integer {
                    return Some(mismatch(&call, "integer Mcp-Param differs as a string"));
                }
                if raw.eq_ignore_ascii_case(text.as_bytes()) {
                    case.set_header(&p.header_name(), Some(text.as_bytes()));
                }
            }
        }
        "no-base64-decode" => {
            let decoded = case.headers.iter().any(|(n, v)| {
                (n.eq_ignore_ascii_case(b"Mcp-Name") || is_param_name(n))
                    && matches!(decode_header_value(trim_ows(v)), DecodedValue::Decoded(_))
            });
            if decoded {
                return Some(mismatch(&call, "header value does not match (not decoded)"));
            }
        }
        "base64-markers-stripped" | "base64-malformed-ignored" => {
            let names: Vec<String> = case
                .headers
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(b"Mcp-Name") || is_param_name(n))
                .map(|(n, _)| String::from_utf8_lossy(n).into_owned())
                .collect();
            for n in names {
                let Some(raw) = one(case, &n) else { continue };
                let d = decode_header_value(&raw);
                let hit = if name == "base64-markers-stripped" {
                    matches!(d, DecodedValue::Plain(_))
                        && raw.starts_with(b"=?")
                        && raw.ends_with(b"?=")
                } else {
                    d == DecodedValue::Malformed
                };
                if let (true, Some(v)) = (hit, conformant_value(case, surface, &n)) {
                    case.set_header(&n, Some(&v));
                }
            }
        }
        "base64-markers-any-case" => {
            // reads `=?BASE64?...?=` (any case) as the sentinel
            for (n, v) in case.headers.iter_mut() {
                let t = trim_ows(v);
                let odd = t.len() >= 11
                    && t[..9].eq_ignore_ascii_case(b"=?base64?")
                    && &t[..9] != b"=?base64?"
                    && t.ends_with(b"?=");
                if odd && (n.eq_ignore_ascii_case(b"Mcp-Name") || is_param_name(n)) {
                    let lower = [b"=?base64?".as_slice(), &t[9..]].concat();
                    *v = lower;
                }
            }
        }
        "base64-method-decoded" => {
            if let Some(DecodedValue::Decoded(s)) =
                one(case, "Mcp-Method").map(|r| decode_header_value(&r))
            {
                case.set_header("Mcp-Method", Some(s.as_bytes()));
            }
        }
        "session-id-rejected" | "last-event-id-rejected" => {
            let header = if name == "session-id-rejected" {
                "Mcp-Session-Id"
            } else {
                "Last-Event-ID"
            };
            if case.header(header) != HeaderField::Absent {
                let id = call.as_ref().map(|c| &c.id);
                let msg = format!("Invalid Request: {header} is not supported");
                return Some(Response::json(400, error_body(id, -32600, &msg, None)));
            }
        }
        _ => {}
    }
    None
}

/// The 400 / -32020 refusal a mutant gives where the reference server would not.
fn mismatch(call: &Option<Call>, what: &str) -> Response {
    let id = call.as_ref().map(|c| &c.id);
    let msg = format!("Header mismatch: {what}");
    Response::json(400, error_body(id, -32020, &msg, None))
}

fn is_mirrored(n: &[u8]) -> bool {
    MIRRORED
        .iter()
        .any(|m| n.eq_ignore_ascii_case(m.as_bytes()))
}

fn is_param_name(n: &[u8]) -> bool {
    n.len() > 10 && n[..10].eq_ignore_ascii_case(b"mcp-param-")
}

/// The single (OWS-trimmed) value of header `name`, if sent exactly once.
fn one(case: &Case, name: &str) -> Option<Vec<u8>> {
    match case.header(name) {
        HeaderField::One(v) => Some(v.to_vec()),
        _ => None,
    }
}

fn strip_non_ascii(case: &mut Case, which: impl Fn(&[u8]) -> bool) {
    for (n, v) in case.headers.iter_mut() {
        if which(n) {
            v.retain(|b| *b < 0x80);
        }
    }
}

/// What a conformant client would send in header `name` for this request's body.
fn conformant_value(case: &Case, surface: &Surface, name: &str) -> Option<Vec<u8>> {
    let call = parse_call(&case.body)?;
    let mut params = call.params.clone();
    params.remove("_meta");
    let c = conformant_case(surface, call.id, &call.method, Value::Object(params));
    let value = c.header_values(name).next().map(<[u8]>::to_vec);
    value
}

/// The annotated parameters of the called tool with the body's argument (`None`: absent).
fn params(call: &Option<Call>, surface: &Surface) -> Vec<(HeaderParam, Option<Value>)> {
    let Some(c) = call.as_ref().filter(|c| c.method == "tools/call") else {
        return Vec::new();
    };
    let tool = c
        .params
        .get("name")
        .and_then(Value::as_str)
        .and_then(|n| surface.tool(n));
    let Some(Ok(list)) = tool.map(|t| &t.header_params) else {
        return Vec::new();
    };
    let args = c.params.get("arguments");
    list.iter()
        .map(|p| {
            let v = match extract(args, &p.path) {
                Extracted::Absent => None,
                Extracted::Null => Some(Value::Null),
                Extracted::Value(v) => Some(v.clone()),
            };
            (p.clone(), v)
        })
        .collect()
}

/// Set `params._meta[key]` (creating `params`/`_meta` as needed); with `overwrite` false only
/// when it is missing or (for capabilities) not an object.
fn set_meta(case: &mut Case, key: &str, value: Value, overwrite: bool) {
    let Ok(mut body) = serde_json::from_slice::<Value>(&case.body) else {
        return;
    };
    let Some(obj) = body.as_object_mut() else {
        return;
    };
    let params = obj.entry("params").or_insert_with(|| json!({}));
    if !params.is_object() {
        *params = json!({});
    }
    let meta = &mut params["_meta"];
    if !meta.is_object() {
        *meta = json!({});
    }
    let present = meta
        .get(key)
        .is_some_and(|v| v.is_string() || v.is_object());
    if overwrite || !present {
        meta[key] = value;
    }
    if let Ok(bytes) = serde_json::to_vec(&body) {
        case.body = bytes;
    }
}
