//! The answer rewrites that break one base-protocol shape rule each (`crate::shape`; issue
//! 23): an error code's type or range, a `_meta` key or trace value, the `resultType`
//! vocabulary, an `InputRequiredResult` where none may be or one missing its members, an id
//! on a notification, an unprefixed extension identifier.

use super::super::response::Response;
use super::answer::{each, Answered};
use serde_json::{json, Map, Value};

/// Apply `f` to the `result` object of every result message of the answer.
fn each_result(r: &mut Response, f: impl Fn(&mut Map<String, Value>)) {
    each(r, "result", |m| {
        if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
            f(res);
        }
    });
}

/// Apply `f` to the `_meta` object of every result (created when missing).
fn each_result_meta(r: &mut Response, f: impl Fn(&mut Map<String, Value>)) {
    each_result(r, |res| {
        let meta = res
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(m) = meta.as_object_mut() {
            f(m);
        }
    });
}

pub(super) fn error_code_string(_: &Answered, r: &mut Response) {
    // parse errors only: their answer sets read the status, not the code
    each(r, "error", |m| {
        if m["error"]["code"] == json!(-32700) {
            m["error"]["code"] = json!("-32700");
        }
    });
}

pub(super) fn reserved_code_32500(_: &Answered, r: &mut Response) {
    each(r, "error", |m| {
        if m["error"]["code"] == json!(-32700) {
            m["error"]["code"] = json!(-32500);
        }
    });
}

pub(super) fn meta_key_malformed(_: &Answered, r: &mut Response) {
    each_result_meta(r, |m| {
        m.insert("example..com/trace id".into(), json!(true));
    });
}

pub(super) fn traceparent_malformed(_: &Answered, r: &mut Response) {
    each_result_meta(r, |m| {
        m.insert("traceparent".into(), json!("trace-1234"));
    });
}

pub(super) fn result_type_unknown(a: &Answered, r: &mut Response) {
    // on list results, whose content checks do not read resultType
    if a.method() == "prompts/list" {
        each_result(r, |res| {
            res.insert("resultType".into(), json!("partial"));
        });
    }
}

pub(super) fn input_required_on_list(a: &Answered, r: &mut Response) {
    if a.method() == "prompts/list" {
        each_result(r, |res| {
            res.insert("resultType".into(), json!("input_required"));
            res.insert("requestState".into(), json!("state-1"));
        });
    }
}

pub(super) fn input_required_bare(a: &Answered, r: &mut Response) {
    if a.method() == "tools/call" {
        each_result(r, |res| {
            res.insert("resultType".into(), json!("input_required"));
        });
    }
}

pub(super) fn input_request_ping(a: &Answered, r: &mut Response) {
    if a.method() == "tools/call" {
        each_result(r, |res| {
            res.insert("resultType".into(), json!("input_required"));
            res.insert(
                "inputRequests".into(),
                json!({"check": {"method": "ping", "params": {}}}),
            );
        });
    }
}

pub(super) fn notification_with_id(_: &Answered, r: &mut Response) {
    for (n, m) in r.messages_mut().into_iter().enumerate() {
        let notification = m
            .get("method")
            .and_then(Value::as_str)
            .is_some_and(|x| x.starts_with("notifications/"));
        if notification && m.get("id").is_none() {
            m["id"] = json!(format!("n-{n}"));
        }
    }
}

pub(super) fn jsonrpc_version_dropped(_: &Answered, r: &mut Response) {
    each(r, "result", |m| {
        if let Some(o) = m.as_object_mut() {
            o.remove("jsonrpc");
        }
    });
}

pub(super) fn extension_id_unprefixed(a: &Answered, r: &mut Response) {
    if a.method() == "server/discover" {
        each_result(r, |res| {
            if let Some(caps) = res.get_mut("capabilities").and_then(Value::as_object_mut) {
                caps.insert("extensions".into(), json!({"tasks": {}}));
            }
        });
    }
}
