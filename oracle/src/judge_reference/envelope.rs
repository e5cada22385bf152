//! The JSON-RPC envelope of a POST body: a request, a notification, or something the spec
//! gives no server rule for (not JSON, a batch array, a response, a malformed object).

use crate::verdict::Canonical;
use serde_json::{Map, Value};

/// A readable request.
pub(crate) struct Request {
    pub id: Value,
    pub method: String,
    /// `params` when it is an object.
    pub params: Option<Map<String, Value>>,
    /// `params` is present but not an object.
    pub params_malformed: bool,
    /// An integer id beyond ±(2^53−1): RFC 8259 §9 lets a reader limit numbers (D-48).
    pub strict_refusable: bool,
}

pub(crate) enum Envelope {
    Request(Request),
    Notification,
    /// US-PARSE / US-BATCH / US-NOTRPC / US-RESPONSE-BODY, with the conventional answer.
    Unusable(Canonical),
}

fn reject(code: i64, id: Option<Value>, message: &str) -> Envelope {
    Envelope::Unusable(Canonical::Reject {
        status: 400,
        code: Some(code),
        id,
        data: None,
        message: message.to_string(),
    })
}

pub(crate) fn parse(body: &[u8]) -> Envelope {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(_) => return reject(-32700, None, "Parse error"),
    };
    let Value::Object(obj) = value else {
        return reject(
            -32600,
            None,
            "Invalid Request: not a single JSON-RPC object",
        );
    };
    let id = match obj.get("id") {
        None => None,
        Some(v @ Value::String(_)) => Some(v.clone()),
        Some(v @ Value::Number(n)) if n.is_i64() || n.is_u64() => Some(v.clone()),
        // null, fractional, or non-scalar ids: the id is unreadable (AMB-27, AMB-39)
        Some(_) => return reject(-32600, None, "Invalid Request: bad id"),
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return reject(-32600, id, "Invalid Request: jsonrpc must be \"2.0\"");
    }
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return reject(-32600, id, "Invalid Request: no method");
    };
    if obj.contains_key("result") || obj.contains_key("error") {
        return reject(-32600, id, "Invalid Request: not a request");
    }
    let (params, params_malformed) = match obj.get("params") {
        None => (None, false),
        Some(Value::Object(m)) => (Some(m.clone()), false),
        Some(_) => (None, true),
    };
    let max_safe = 9_007_199_254_740_991_f64;
    let unsafe_id = id
        .as_ref()
        .and_then(Value::as_number)
        .is_some_and(|n| !n.is_f64() && n.as_f64().is_some_and(|x| x.abs() > max_safe));
    match id {
        None => Envelope::Notification,
        Some(id) => Envelope::Request(Request {
            strict_refusable: unsafe_id,
            id,
            method: method.to_string(),
            params,
            params_malformed,
        }),
    }
}
