//! The JSON-RPC envelope of a POST body: a request, a notification, or something the spec
//! gives no server rule for (not JSON, a batch array, a response, a malformed object).
//!
//! The body is read in place by `scan` when it is in the scanner's subset (nearly every
//! generated case); otherwise it is parsed into a `Value` kept in the caller's `holder`, and
//! the same questions are answered from that tree. Both readings give the same answers.

use super::scan::{self, Kind, ParamsIdx, Top};
use crate::case::{META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION};
use crate::verdict::Canonical;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A readable request.
pub(crate) struct Request<'b> {
    pub id: Value,
    pub method: Cow<'b, str>,
    /// `params` when it is an object.
    pub params: Option<Params<'b>>,
    /// `params` is present but not an object.
    pub params_malformed: bool,
    /// A reader with limits may refuse it as Invalid Request: an integer id outside
    /// ±(2^53−1), "An implementation may set limits on the range and precision of numbers"
    /// (RFC 8259 §9; D-48). Deep nesting is the judge's own check (`case::nesting_beyond`).
    pub strict_refusable: bool,
}

/// An integer id a double-based reader cannot hold exactly.
fn id_unsafe(id: &Value) -> bool {
    let n = match id {
        Value::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
        _ => None,
    };
    // the largest integer every JSON reader holds exactly (RFC 8259 §6)
    let max = i128::from(crate::annotations::MAX_SAFE_INTEGER);
    n.is_some_and(|n| !(-max..=max).contains(&n))
}

/// The `params` object of a request.
#[derive(Clone, Copy)]
pub(crate) enum Params<'b> {
    /// Where the members are in the validated text (scanner subset).
    Raw(ParamsIdx<'b>),
    /// The fully parsed object.
    Parsed(&'b Map<String, Value>),
}

/// The `arguments` member of the params (any JSON type).
#[derive(Clone, Copy)]
pub(crate) enum Arguments<'b> {
    Raw(&'b str),
    Parsed(&'b Value),
}

impl<'b> Params<'b> {
    /// Member `key` (`name` or `uri`) when it is a string.
    pub fn get_str(self, key: &str) -> Option<Cow<'b, str>> {
        match self {
            Params::Raw(p) => {
                let v = match key {
                    "name" => p.name,
                    "uri" => p.uri,
                    _ => None,
                };
                v.and_then(scan::as_str)
            }
            Params::Parsed(m) => m.get(key).and_then(Value::as_str).map(Cow::Borrowed),
        }
    }

    /// From `_meta` (when it is an object): the protocol version when it is a string, and
    /// whether the client capabilities are an object.
    pub fn meta(self) -> (Option<Cow<'b, str>>, bool) {
        match self {
            Params::Raw(p) => match p.meta.filter(|m| scan::kind(m) == Kind::Object) {
                Some(_) => (
                    p.version.and_then(scan::as_str),
                    p.capabilities
                        .is_some_and(|c| scan::kind(c) == Kind::Object),
                ),
                None => (None, false),
            },
            Params::Parsed(p) => {
                let meta = p.get("_meta").and_then(Value::as_object);
                (
                    meta.and_then(|m| m.get(META_PROTOCOL_VERSION))
                        .and_then(Value::as_str)
                        .map(Cow::Borrowed),
                    meta.and_then(|m| m.get(META_CLIENT_CAPABILITIES))
                        .is_some_and(Value::is_object),
                )
            }
        }
    }

    /// `_meta` is an object holding an `io.modelcontextprotocol/clientInfo` that is not the
    /// schema's `Implementation` (an object with string `name` and `version`).
    pub fn client_info_malformed(self) -> bool {
        match self {
            Params::Raw(p) => {
                // both members found in one walk; the last of a repeated key counts, as
                // with `scan::get`
                let implementation = |info: &str| {
                    let (mut name, mut version) = (None, None);
                    for (k, v) in scan::members(info) {
                        match k {
                            "name" => name = Some(scan::kind(v)),
                            "version" => version = Some(scan::kind(v)),
                            _ => {}
                        }
                    }
                    name == Some(Kind::String) && version == Some(Kind::String)
                };
                p.meta.is_some_and(|m| scan::kind(m) == Kind::Object)
                    && p.client_info.is_some_and(|info| !implementation(info))
            }
            Params::Parsed(p) => p
                .get("_meta")
                .and_then(Value::as_object)
                .and_then(|m| m.get(META_CLIENT_INFO))
                .is_some_and(|info| {
                    !(info.get("name").is_some_and(Value::is_string)
                        && info.get("version").is_some_and(Value::is_string))
                }),
        }
    }

    pub fn arguments(self) -> Option<Arguments<'b>> {
        match self {
            Params::Raw(p) => p.arguments.map(Arguments::Raw),
            Params::Parsed(m) => m.get("arguments").map(Arguments::Parsed),
        }
    }
}

pub(crate) enum Envelope<'b> {
    Request(Request<'b>),
    Notification,
    /// US-PARSE / US-BATCH / US-NOTRPC / US-RESPONSE-BODY, with the conventional answer.
    Unusable(Canonical),
}

fn reject<'b>(code: i64, id: Option<Value>, message: &'static str) -> Envelope<'b> {
    Envelope::Unusable(Canonical::Reject {
        status: 400,
        code: Some(code),
        id,
        data: None,
        message: message.to_string(),
    })
}

const NOT_OBJECT: &str = "Invalid Request: not a single JSON-RPC object";
const BAD_ID: &str = "Invalid Request: bad id";
const BAD_JSONRPC: &str = "Invalid Request: jsonrpc must be \"2.0\"";
const NO_METHOD: &str = "Invalid Request: no method";
const NOT_REQUEST: &str = "Invalid Request: not a request";

/// Read `body`; a full parse, when needed, is stored in `holder` (the request borrows it).
pub(crate) fn parse<'b>(body: &'b [u8], holder: &'b mut Option<Value>) -> Envelope<'b> {
    match scan::read(body) {
        Some(top) => parse_raw(top),
        None => parse_full(body, holder),
    }
}

/// An integer or string id as a `Value`; `Err` for any other id (AMB-27, AMB-39).
fn read_id(v: &str) -> Result<Value, ()> {
    match scan::kind(v) {
        Kind::String => scan::as_str(v)
            .map(|s| Value::String(s.into_owned()))
            .ok_or(()),
        Kind::Number => match serde_json::from_str::<Value>(v) {
            Ok(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(Value::Number(n)),
            _ => Err(()),
        },
        _ => Err(()),
    }
}

fn parse_raw(top: Top<'_>) -> Envelope<'_> {
    if !top.is_object {
        return reject(-32600, None, NOT_OBJECT);
    }
    let id = match top.id.map(read_id) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(())) => return reject(-32600, None, BAD_ID),
    };
    if top.jsonrpc.and_then(scan::as_str).as_deref() != Some("2.0") {
        return reject(-32600, id, BAD_JSONRPC);
    }
    let Some(method) = top.method.and_then(scan::as_str) else {
        return reject(-32600, id, NO_METHOD);
    };
    if top.response {
        return reject(-32600, id, NOT_REQUEST);
    }
    let (params, params_malformed) = match top.params {
        None => (None, false),
        Some(p) if scan::kind(p) == Kind::Object => (Some(Params::Raw(top.p)), false),
        Some(_) => (None, true),
    };
    match id {
        None => Envelope::Notification,
        Some(id) => Envelope::Request(Request {
            strict_refusable: id_unsafe(&id),
            id,
            method,
            params,
            params_malformed,
        }),
    }
}

/// The full parse, for bodies outside the scanner's subset.
fn parse_full<'b>(body: &'b [u8], holder: &'b mut Option<Value>) -> Envelope<'b> {
    let value: &'b Value = match serde_json::from_slice(body) {
        Ok(v) => holder.insert(v),
        Err(_) => return reject(-32700, None, "Parse error"),
    };
    let Value::Object(obj) = value else {
        return reject(-32600, None, NOT_OBJECT);
    };
    let id = match obj.get("id") {
        None => None,
        Some(v @ Value::String(_)) => Some(v.clone()),
        Some(v @ Value::Number(n)) if n.is_i64() || n.is_u64() => Some(v.clone()),
        // null, fractional, or non-scalar ids: the id is unreadable (AMB-27, AMB-39)
        Some(_) => return reject(-32600, None, BAD_ID),
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return reject(-32600, id, BAD_JSONRPC);
    }
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return reject(-32600, id, NO_METHOD);
    };
    if obj.contains_key("result") || obj.contains_key("error") {
        return reject(-32600, id, NOT_REQUEST);
    }
    let (params, params_malformed) = match obj.get("params") {
        None => (None, false),
        Some(Value::Object(m)) => (Some(Params::Parsed(m)), false),
        Some(_) => (None, true),
    };
    match id {
        None => Envelope::Notification,
        Some(id) => Envelope::Request(Request {
            strict_refusable: id_unsafe(&id),
            id,
            method: Cow::Borrowed(method),
            params,
            params_malformed,
        }),
    }
}
