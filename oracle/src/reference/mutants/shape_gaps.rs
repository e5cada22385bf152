//! The answer rewrites that break one of the base-protocol and multi-round shape rules judged
//! after the first issue-23 batch (`crate::shape`; mu1): a result response without its
//! `result` member, an `inputRequests` naming a key twice, a -32021 refusal naming a
//! declared capability, a -32021 refusal listing no capability, an input request for a capability
//! the request did not declare.

use super::super::response::{Response, ResponseBody};
use super::answer::{each, Answered};
use crate::case::META_CLIENT_CAPABILITIES;
use crate::fixture::PLAIN_TOOL;
use serde_json::{json, Map, Value};

pub(super) fn result_member_dropped(a: &Answered, r: &mut Response) {
    // on a list discovery does not read, so only the member's absence is judged
    if a.method() == "resources/templates/list" {
        each(r, "result", |m| {
            if let Some(o) = m.as_object_mut() {
                o.remove("result");
            }
        });
    }
}

/// The request's declared client capabilities (`params._meta`'s
/// `io.modelcontextprotocol/clientCapabilities`), if an object.
fn declared<'a>(a: &'a Answered) -> Option<&'a Map<String, Value>> {
    a.call()?
        .params
        .get("_meta")?
        .get(META_CLIENT_CAPABILITIES)?
        .as_object()
}

/// A `get_weather` call's result turned into an `InputRequiredResult` asking for `requests`.
fn ask_on_weather(a: &Answered, r: &mut Response, requests: Value) {
    let weather = a
        .call()
        .and_then(|c| c.params.get("name"))
        .and_then(Value::as_str)
        == Some(PLAIN_TOOL);
    if a.method() == "tools/call" && weather {
        each(r, "result", |m| {
            if let Some(res) = m.get_mut("result").and_then(Value::as_object_mut) {
                res.insert("resultType".into(), json!("input_required"));
                res.insert("inputRequests".into(), requests.clone());
            }
        });
    }
}

pub(super) fn input_keys_repeated(a: &Answered, r: &mut Response) {
    // only where the request declared `roots`, so the two requests are ones it may get
    if !declared(a).is_some_and(|c| c.contains_key("roots")) {
        return;
    }
    let roots = json!({"method": "roots/list"});
    ask_on_weather(a, r, json!({"roots_a": roots, "roots_b": roots}));
    if let ResponseBody::Json(v) = &r.body {
        // a JSON value cannot hold a member twice: rename the second in the text
        let text = v.to_string().replace("\"roots_b\":", "\"roots_a\":");
        r.body = ResponseBody::Raw(text.into_bytes());
    }
}

/// A get_weather call answered with a -32021 refusal (`status`) naming `required`.
fn refuse_weather(a: &Answered, r: &mut Response, status: u16, required: Value) {
    let weather = a
        .call()
        .and_then(|c| c.params.get("name"))
        .and_then(Value::as_str)
        == Some(PLAIN_TOOL);
    let served = r.messages_mut().iter().any(|m| m.get("result").is_some());
    if let (Some(call), true, true) = (a.call(), weather, served) {
        *r = Response::json(
            status,
            json!({"jsonrpc": "2.0", "id": call.id, "error": {
                "code": -32021,
                "message": "Missing required client capability",
                "data": {"requiredCapabilities": required}}}),
        );
    }
}

pub(super) fn missing_cap_declared(a: &Answered, r: &mut Response) {
    // only where the request declared elicitation: the refusal names it anyway
    if declared(a).is_some_and(|c| c.contains_key("elicitation")) {
        refuse_weather(a, r, 400, json!({"elicitation": {}}));
    }
}

pub(super) fn missing_cap_listed_none(a: &Answered, r: &mut Response) {
    // only where the request declared sampling: a 400/-32021 whose requiredCapabilities is
    // empty (it lists none of the missing capabilities)
    if declared(a).is_some_and(|c| c.contains_key("sampling")) {
        refuse_weather(a, r, 400, json!({}));
    }
}

pub(super) fn input_request_undeclared(a: &Answered, r: &mut Response) {
    // only where the request declared roots and not elicitation: it asks for elicitation
    let Some(caps) = declared(a) else { return };
    if caps.contains_key("roots") && !caps.contains_key("elicitation") {
        let ask = json!({"method": "elicitation/create", "params": {
            "mode": "form",
            "message": "Which city?",
            "requestedSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}});
        ask_on_weather(a, r, json!({"city": ask}));
    }
}
