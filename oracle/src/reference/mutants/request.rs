//! The request rewrites ([`Behaviour::Request`](super::Behaviour::Request)) on Origin, the
//! protocol version, `_meta` and the retired session headers, and the helpers every request
//! rewrite shares. Each reads the request the way a server with one check missing or wrong
//! would, or refuses a request the reference serves; the header rewrites are in
//! `request_headers.rs`, the `Mcp-Param` and Base64 ones in `request_params.rs`.

use super::super::dispatch::{parse_call, Call};
use super::super::error_body;
use super::super::response::Response;
use crate::annotations::{extract, Extracted, HeaderParam};
use crate::case::{Case, HeaderField, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::client::conformant_case;
use crate::isolation::readings::{reread, Reading};
use crate::surface::Surface;
use serde_json::{json, Value};

/// The standard mirrored headers, in their canonical spelling.
pub(super) const MIRRORED: [&str; 3] = ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"];

pub(super) fn origin_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    // POSTs only: the other methods' Origin is SHTTP-ORIGIN-VALIDATE's (`origin-post-only`
    // is the mirror image), so each mutant breaks one rule
    if case.method.eq_ignore_ascii_case("POST") {
        case.set_header("Origin", None);
    }
    None
}

/// Checks Origin only in its POST handler: every other method is served as if none came.
pub(super) fn origin_checked_on_post_only(case: &mut Case, _: &mut Surface) -> Option<Response> {
    if !case.method.eq_ignore_ascii_case("POST") {
        case.set_header("Origin", None);
    }
    None
}

pub(super) fn pv_mismatch_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    let body_version = meta_version(case);
    if let (HeaderField::One(h), Some(b)) = (case.header("MCP-Protocol-Version"), body_version) {
        if h != b.as_bytes() {
            let h = String::from_utf8_lossy(h).into_owned();
            set_meta(case, META_PROTOCOL_VERSION, json!(h), true);
        }
    }
    None
}

pub(super) fn pv_any_version(case: &mut Case, surface: &mut Surface) -> Option<Response> {
    if let HeaderField::One(h) = case.header("MCP-Protocol-Version") {
        let h = String::from_utf8_lossy(h).into_owned();
        if !surface.supports_version(&h) {
            surface.supported_versions.push(h);
        }
    }
    None
}

pub(super) fn pv_missing_default(case: &mut Case, _: &mut Surface) -> Option<Response> {
    if let (HeaderField::Absent, Some(v)) =
        (case.header("MCP-Protocol-Version"), meta_version(case))
    {
        case.set_header("MCP-Protocol-Version", Some(v.as_bytes()));
    }
    None
}

pub(super) fn meta_unchecked(case: &mut Case, _: &mut Surface) -> Option<Response> {
    set_meta(
        case,
        META_PROTOCOL_VERSION,
        json!(crate::case::MODERN_VERSION),
        false,
    );
    set_meta(case, META_CLIENT_CAPABILITIES, json!({}), false);
    None
}

pub(super) fn session_id_rejected(case: &mut Case, _: &mut Surface) -> Option<Response> {
    refuse_header(case, "Mcp-Session-Id")
}

pub(super) fn last_event_id_rejected(case: &mut Case, _: &mut Surface) -> Option<Response> {
    refuse_header(case, "Last-Event-ID")
}

/// The 400 / -32600 a server gives when it refuses any request carrying `header`.
fn refuse_header(case: &Case, header: &str) -> Option<Response> {
    if case.header(header) == HeaderField::Absent {
        return None;
    }
    let call = parse_call(&case.body);
    let id = call.as_ref().map(|c| &c.id);
    let msg = format!("Invalid Request: {header} is not supported");
    Some(Response::json(400, error_body(id, -32600, &msg, None)))
}

/// The body's `params._meta` protocol version.
fn meta_version(case: &Case) -> Option<String> {
    parse_call(&case.body)?
        .params
        .get("_meta")?
        .get(META_PROTOCOL_VERSION)?
        .as_str()
        .map(str::to_string)
}

/// The 400 / -32020 refusal a mutant gives where the reference server would not.
pub(super) fn mismatch(case: &Case, what: &str) -> Response {
    let call = parse_call(&case.body);
    let id = call.as_ref().map(|c| &c.id);
    let msg = format!("Header mismatch: {what}");
    Response::json(400, error_body(id, -32020, &msg, None))
}

pub(super) fn is_mirrored(n: &[u8]) -> bool {
    MIRRORED
        .iter()
        .any(|m| n.eq_ignore_ascii_case(m.as_bytes()))
}

/// A server that skips the character check but still compares values: it reads the bytes of
/// the headers `which` selects as `reading` and compares that text with the body.
pub(super) fn reread_as(case: &mut Case, reading: Reading, which: fn(&[u8]) -> bool) {
    if let Some(c) = reread(case, reading, which) {
        *case = c;
    }
}

/// The single (OWS-trimmed) value of header `name`, if sent exactly once.
pub(super) fn one(case: &Case, name: &str) -> Option<Vec<u8>> {
    match case.header(name) {
        HeaderField::One(v) => Some(v.to_vec()),
        _ => None,
    }
}

/// Drop the non-ASCII bytes of the headers `which` selects.
pub(super) fn strip_non_ascii(case: &mut Case, which: impl Fn(&[u8]) -> bool) {
    for (n, v) in case.headers.iter_mut() {
        if which(n) {
            v.retain(|b| *b < 0x80);
        }
    }
}

/// What a conformant client would send in header `name` for this request's body.
pub(super) fn conformant_value(case: &Case, surface: &Surface, name: &str) -> Option<Vec<u8>> {
    let call = parse_call(&case.body)?;
    let mut params = call.params.clone();
    params.remove("_meta");
    let c = conformant_case(surface, call.id, &call.method, Value::Object(params));
    let value = c.header_values(name).next().map(<[u8]>::to_vec);
    value
}

/// The annotated parameters of the called tool with the body's argument (`None`: absent).
pub(super) fn params(case: &Case, surface: &Surface) -> Vec<(HeaderParam, Option<Value>)> {
    let call: Option<Call> = parse_call(&case.body);
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
