//! The simple reading of a request: the body parsed into a `serde_json::Value` and its
//! members looked up in the tree, the headers looked up one by one with `Case::header`.
//!
//! The body reading is also the fast reader's own for bodies outside the scanner's subset;
//! the header reading exists only as the fast one's differential twin
//! (`props/tests/judge_differential.rs` compares the two views).

use super::arguments::Arguments;
use crate::case::{
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROGRESS_TOKEN,
    META_PROTOCOL_VERSION,
};
use crate::judge::rare::CONFORMANT_CLIENT;
use crate::judge::view::{
    BodyView, CompletionView, CursorView, InputResponsesView, Modern, ParamsView, RequestBody,
    Unusable, BAD_ID, BAD_JSONRPC, NOT_OBJECT, NOT_REQUEST, NO_METHOD, PARSE_ERROR,
};
use crate::request_id::RequestId;
use crate::soft_params::LogLevel;
use serde_json::{Map, Value};
use std::borrow::Cow;

fn unusable<'b>(code: i32, id: Option<RequestId>, message: &'static str) -> BodyView<'b> {
    BodyView::Unusable(Unusable { code, id, message })
}

/// Whether `body` is one JSON value, checked without building it. `serde_json` reads
/// `IgnoredAny` with the same grammar as `Value` but more leniently (numbers out of range,
/// lone surrogates and invalid UTF-8 in strings pass), so a body this refuses would not
/// parse into a `Value` either.
pub(crate) fn is_json(body: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok()
}

/// The nesting depth at which `serde_json` refuses to parse a value (its recursion limit).
pub(crate) const PARSE_DEPTH: usize = 128;

/// Read `body` through a full parse, kept in `holder` (the view borrows it).
pub(crate) fn read_body<'b>(body: &[u8], holder: &'b mut Option<Value>) -> BodyView<'b> {
    let value: &'b Value = match serde_json::from_slice(body) {
        Ok(v) => holder.insert(v),
        Err(_) => return unusable(-32700, None, PARSE_ERROR),
    };
    let Value::Object(obj) = value else {
        return unusable(-32600, None, NOT_OBJECT);
    };
    let id = match obj.get("id").map(RequestId::of) {
        None => None,
        Some(Some(id)) => Some(id),
        // null, fractional, or non-scalar ids: the id is unreadable (AMB-27, AMB-39)
        Some(None) => return unusable(-32600, None, BAD_ID),
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return unusable(-32600, id, BAD_JSONRPC);
    }
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return unusable(-32600, id, NO_METHOD);
    };
    if obj.contains_key("result") || obj.contains_key("error") {
        return unusable(-32600, id, NOT_REQUEST);
    }
    let (mut params, params_malformed) = match obj.get("params") {
        None => (None, false),
        Some(Value::Object(m)) => (Some(params(m)), false),
        Some(_) => (None, true),
    };
    if let (Some(p), Some(Value::Object(m))) = (params.as_mut(), obj.get("params")) {
        if Modern::of(method) == Some(Modern::Listen) {
            p.listen_filter = crate::listen_filter::filter_of(m.get("notifications"));
        }
        if Modern::of(method) == Some(Modern::Complete) {
            p.completion = Some(CompletionView::of(m));
        }
    }
    match id {
        None => BodyView::Notification,
        Some(id) => BodyView::Request(RequestBody {
            id,
            method: Cow::Borrowed(method),
            kind: Modern::of(method),
            params,
            params_malformed,
        }),
    }
}

fn string(v: &Value) -> Option<Cow<'_, str>> {
    v.as_str().map(Cow::Borrowed)
}

/// Whether `info` is the schema's `Implementation`: an object with string `name` and `version`.
fn implementation(info: &Value) -> bool {
    info.get("name").is_some_and(Value::is_string)
        && info.get("version").is_some_and(Value::is_string)
}

fn params(p: &Map<String, Value>) -> ParamsView<'_> {
    let meta = p.get("_meta").and_then(Value::as_object);
    let meta_member = |key: &str| meta.and_then(|m| m.get(key));
    ParamsView {
        name: p.get("name").and_then(string),
        uri: p.get("uri").and_then(string),
        version: meta_member(META_PROTOCOL_VERSION).and_then(string),
        capabilities: meta_member(META_CLIENT_CAPABILITIES).is_some_and(Value::is_object),
        input_caps: meta_member(META_CLIENT_CAPABILITIES)
            .and_then(Value::as_object)
            .map_or(0, crate::shape::capabilities::declared),
        client_info_malformed: meta_member(META_CLIENT_INFO)
            .is_some_and(|info| !implementation(info)),
        client_info_foreign: meta_member(META_CLIENT_INFO).is_some_and(|info| {
            implementation(info)
                && info.get("name").and_then(Value::as_str) != Some(CONFORMANT_CLIENT)
        }),
        input_responses: p
            .get("inputResponses")
            .map_or(InputResponsesView::Absent, InputResponsesView::of),
        completion: None,
        arguments: p.get("arguments").map(Arguments::Parsed),
        cursor: match p.get("cursor") {
            None => CursorView::Absent,
            Some(Value::Null) => CursorView::Null,
            Some(Value::String(c)) => CursorView::Text(Cow::Borrowed(c)),
            Some(_) => CursorView::Other,
        },
        log_level: LogLevel::of(meta_member(META_LOG_LEVEL)),
        progress_token: meta_member(META_PROGRESS_TOKEN).and_then(RequestId::of),
        listen_filter: 0,
    }
}

#[cfg(any(test, feature = "judge-reference"))]
pub(crate) use headers::read_headers;

#[cfg(any(test, feature = "judge-reference"))]
mod headers {
    use crate::case::{trim_ows, Case};
    use crate::judge::view::{HeaderQuirk, HeaderView};

    /// The headers whose values the server validates against the body, as the spec spells
    /// their names.
    const MIRRORED: [&str; 3] = ["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"];

    pub(crate) fn read_headers(case: &Case) -> HeaderView<'_> {
        let mut quirks = smallvec::SmallVec::new();
        let mut quirk = |q: HeaderQuirk| {
            if !quirks.contains(&q) {
                quirks.push(q);
            }
        };
        let mut params = smallvec::SmallVec::new();
        let mut parser_refusable = false;
        let mut mirrored_visible = true;
        for (name, value) in &case.headers {
            parser_refusable |= name.is_empty()
                || !name.iter().all(|b| crate::annotations::is_tchar(*b))
                || value
                    .iter()
                    .any(|b| (*b < 0x20 && *b != b'\t') || *b == 0x7f);
            let mirrored = MIRRORED
                .iter()
                .find(|m| name.eq_ignore_ascii_case(m.as_bytes()))
                .map(|m| m.as_bytes());
            let is_param = name.len() > 10 && name[..10].eq_ignore_ascii_case(b"mcp-param-");
            if is_param {
                params.push((name.as_slice(), trim_ows(value)));
            }
            if let Some(canonical_name) = mirrored {
                if name.as_slice() != canonical_name {
                    quirk(HeaderQuirk::NameCase);
                }
            } else if is_param && !name.starts_with(b"Mcp-Param-") {
                quirk(HeaderQuirk::NameCase);
            }
            if mirrored.is_some() || is_param {
                let class = crate::encoding::field_value_class(trim_ows(value));
                mirrored_visible &= class == crate::encoding::FieldValueClass::Valid;
            }
            if (mirrored.is_some() || is_param) && trim_ows(value).len() != value.len() {
                quirk(HeaderQuirk::Padding);
            }
        }
        HeaderView {
            origin: case.header("Origin"),
            content_type: case.header("Content-Type"),
            accept: case.header("Accept"),
            protocol_version: case.header("MCP-Protocol-Version"),
            method: case.header("Mcp-Method"),
            name: case.header("Mcp-Name"),
            session_id: case.header("Mcp-Session-Id"),
            last_event_id: case.header("Last-Event-ID"),
            params,
            parser_refusable,
            mirrored_visible,
            quirks,
        }
    }
}
