//! The stream rewrites: each takes the reference's SSE answer and adds (or keeps open) what
//! one stream rule forbids (`crate::stream`), leaving every other answer as the reference
//! gives it. An event is inserted before the final response unless the rule is about what
//! follows it.

use super::answer::Answered;
use crate::reference::response::{Response, ResponseBody};
use crate::soft_params::level_at;
use serde_json::{json, Value};

/// The events of a request's SSE answer (not a listen stream's), if it is one.
fn request_stream<'r>(a: &Answered, r: &'r mut Response) -> Option<&'r mut Vec<Value>> {
    let call = a.call()?;
    if call.method == "subscriptions/listen" {
        return None;
    }
    match &mut r.body {
        ResponseBody::Sse { events, .. } => Some(events),
        _ => None,
    }
}

/// Insert `event` just before the final response (the last event).
fn before_response(events: &mut Vec<Value>, event: Value) {
    events.insert(events.len().saturating_sub(1), event);
}

/// The request's `_meta.progressToken` when it is a string or an integer.
fn token(a: &Answered) -> Option<Value> {
    let meta = a.call()?.params.get("_meta")?;
    meta.get("progressToken")
        .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
        .cloned()
}

fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn progress(token: Value, progress: u64) -> Value {
    notification(
        "notifications/progress",
        json!({"progressToken": token, "progress": progress}),
    )
}

pub(super) fn sse_left_open(a: &Answered, r: &mut Response) {
    if request_stream(a, r).is_some() {
        if let ResponseBody::Sse { keep_open, .. } = &mut r.body {
            *keep_open = true;
        }
    }
}

pub(super) fn sse_foreign_ack(a: &Answered, r: &mut Response) {
    let Some(id) = a.call().map(|c| c.id.clone()) else {
        return;
    };
    if let Some(events) = request_stream(a, r) {
        let ack = notification(
            "notifications/subscriptions/acknowledged",
            json!({"_meta": {"io.modelcontextprotocol/subscriptionId": id}, "notifications": {}}),
        );
        before_response(events, ack);
    }
}

pub(super) fn progress_foreign_token(a: &Answered, r: &mut Response) {
    // a token no probe and no generated case sends
    let foreign = match token(a) {
        Some(Value::String(t)) => json!(format!("{t}-other")),
        Some(t) => json!(t.as_u64().map_or(1, |n| n.wrapping_add(1))),
        None => json!("mcpdiff-foreign"),
    };
    if let Some(events) = request_stream(a, r) {
        before_response(events, progress(foreign, 1));
    }
}

pub(super) fn progress_repeated(a: &Answered, r: &mut Response) {
    let Some(events) = request_stream(a, r) else {
        return;
    };
    let last = events
        .iter()
        .rev()
        .find(|e| e.get("method").and_then(Value::as_str) == Some("notifications/progress"))
        .cloned();
    if let Some(last) = last {
        before_response(events, last);
    }
}

pub(super) fn progress_after_response(a: &Answered, r: &mut Response) {
    let Some(token) = token(a) else {
        return;
    };
    if let Some(events) = request_stream(a, r) {
        events.push(progress(token, 1_000));
    }
}

pub(super) fn log_without_level(a: &Answered, r: &mut Response) {
    let asked = a
        .call()
        .and_then(|c| c.params.get("_meta"))
        .is_some_and(|m| m.get(crate::case::META_LOG_LEVEL).is_some());
    if asked {
        return;
    }
    if let Some(events) = request_stream(a, r) {
        let log = json!({"level": "emergency", "logger": "mutant", "data": "unasked"});
        before_response(events, notification("notifications/message", log));
    }
}

/// `log-below-level`, served on `fixture::with_logging` (its discover declares `logging`): a
/// request that set one of the eight levels above `debug` gets one `notifications/message` a
/// level below it on its stream, before the response (LOG-LEVEL-THRESHOLD).
pub(super) fn log_below_level(a: &Answered, r: &mut Response) {
    let below = a.log_level().and_then(|i| i.checked_sub(1));
    let Some(below) = below.and_then(level_at) else {
        return;
    };
    if let Some(events) = request_stream(a, r) {
        let log = json!({"level": below, "logger": "mutant", "data": "below the asked level"});
        before_response(events, notification("notifications/message", log));
    }
}

pub(super) fn log_on_listen(a: &Answered, r: &mut Response) {
    if a.call().is_some_and(|c| c.method == "subscriptions/listen") {
        if let ResponseBody::Sse { events, .. } = &mut r.body {
            let log = json!({"level": "emergency", "logger": "mutant", "data": "on listen"});
            events.push(notification("notifications/message", log));
        }
    }
}

pub(super) fn cancel_on_request_stream(a: &Answered, r: &mut Response) {
    let Some(id) = a.call().map(|c| c.id.clone()) else {
        return;
    };
    if let Some(events) = request_stream(a, r) {
        let cancel = notification(
            "notifications/cancelled",
            json!({"requestId": id, "reason": "mutant"}),
        );
        before_response(events, cancel);
    }
}

/// The events of a `subscriptions/listen` SSE answer, with the request's id.
fn listen_stream<'r>(a: &Answered, r: &'r mut Response) -> Option<(Value, &'r mut Vec<Value>)> {
    let call = a.call().filter(|c| c.method == "subscriptions/listen")?;
    match &mut r.body {
        ResponseBody::Sse { events, .. } => Some((call.id.clone(), events)),
        _ => None,
    }
}

pub(super) fn ack_without_subscription_id(a: &Answered, r: &mut Response) {
    if let Some((_, events)) = listen_stream(a, r) {
        for e in events.iter_mut() {
            if e.get("method").and_then(Value::as_str)
                == Some("notifications/subscriptions/acknowledged")
            {
                if let Some(p) = e.get_mut("params").and_then(Value::as_object_mut) {
                    p.remove("_meta");
                }
            }
        }
    }
}

pub(super) fn notification_before_ack(a: &Answered, r: &mut Response) {
    if let Some((id, events)) = listen_stream(a, r) {
        let change = notification(
            "notifications/tools/list_changed",
            json!({"_meta": {"io.modelcontextprotocol/subscriptionId": id}}),
        );
        events.insert(0, change);
    }
}

pub(super) fn listen_notification_without_id(a: &Answered, r: &mut Response) {
    if let Some((_, events)) = listen_stream(a, r) {
        events.push(notification("notifications/tools/list_changed", json!({})));
    }
}

/// The listen request's filter bits, when `a` answers one.
fn listen_filter(a: &Answered) -> Option<u8> {
    let call = a.call().filter(|c| c.method == "subscriptions/listen")?;
    Some(crate::listen_filter::filter_of(
        call.params.get("notifications"),
    ))
}

pub(super) fn listen_unrequested_type(a: &Answered, r: &mut Response) {
    use crate::stream::{FILTER_PROMPTS, FILTER_RESOURCES, FILTER_TOOLS};
    let Some(filter) = listen_filter(a) else {
        return;
    };
    // the first list_changed type the filter left out (a filter asking for all three gets
    // none: the mutant then answers like the reference)
    let unasked = [
        (FILTER_TOOLS, "notifications/tools/list_changed"),
        (FILTER_PROMPTS, "notifications/prompts/list_changed"),
        (FILTER_RESOURCES, "notifications/resources/list_changed"),
    ]
    .into_iter()
    .find(|(bit, _)| filter & bit == 0);
    if let (Some((_, method)), Some((id, events))) = (unasked, listen_stream(a, r)) {
        let change = notification(
            method,
            json!({"_meta": {"io.modelcontextprotocol/subscriptionId": id}}),
        );
        events.push(change);
    }
}

/// Close a listen stream after its events (the reference keeps it open).
fn close_listen(r: &mut Response) {
    if let ResponseBody::Sse { keep_open, .. } = &mut r.body {
        *keep_open = false;
    }
}

pub(super) fn listen_cancelled_abruptly(a: &Answered, r: &mut Response) {
    if let Some((id, events)) = listen_stream(a, r) {
        let cancel = notification(
            "notifications/cancelled",
            json!({"requestId": id, "reason": "mutant: shutting down"}),
        );
        events.push(cancel);
        close_listen(r);
    }
}
