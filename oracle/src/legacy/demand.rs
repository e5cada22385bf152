//! What one legacy rule allows of one answer, and the check of an answer against it.

use crate::observation::{Body, HttpAnswer, SseMessage};
use serde_json::Value;
use std::fmt;

/// The answers one `L-*` rule allows at one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Demand {
    /// An accepted notification or response (a 2xx that is no JSON-RPC error) is `202` with
    /// no body (L-SHTTP-NOTIF-202, D-L12).
    AcceptedIs202,
    /// A notification or response that is not accepted gets an HTTP error status: no 1xx or
    /// 3xx, no 2xx carrying a JSON-RPC error (L-SHTTP-NOTIF-REJECT, D-L12).
    RefusalIsError,
    /// A request from a foreign `Origin` is not served (no 2xx) (L-SHTTP-ORIGIN-VALIDATE,
    /// D-L11).
    NotServed,
    /// A request from a foreign `Origin` that is refused is refused with `403`
    /// (L-SHTTP-ORIGIN-403, D-L11).
    ServedOr403,
    /// A result to an unsupported requested version names no version older than `latest`,
    /// the newest legacy version the target is known to support (L-LIFE-VERSION-LATEST,
    /// D-L13); echoing the request is L-LIFE-VERSION-OTHER's.
    OffersLatest { requested: String, latest: String },
    /// No JSON-RPC request other than `ping` (L-LIFE-NO-REQUESTS-BEFORE-INITIALIZED).
    OnlyPingRequests,
    /// No server request needing a client capability (`roots/list`,
    /// `sampling/createMessage`, `elicitation/create`): the client declared none
    /// (L-LIFE-OPERATION, D-L14).
    NoUndeclaredCapability,
    /// A 2xx SSE answer opens with an event carrying an id and an empty `data`
    /// (L-SHTTP-SSE-PRIME, D-L15).
    Primed,
    /// A 2xx SSE answer carrying the response is ended by the server (L-SHTTP-SSE-TERMINATE,
    /// D-L15).
    TerminatedAfterResponse,
    /// A 2xx SSE answer the server closed without the response sent a `retry` field
    /// (L-SHTTP-SSE-RETRY, D-L16).
    RetryBeforeClose,
    /// Every event id of the answer is new in the session (L-SHTTP-EVENTID-UNIQUE, D-L17).
    FreshEventIds(Vec<String>),
    /// No JSON-RPC response with one of these ids (answered elsewhere) on the resumed
    /// stream (L-SHTTP-RESUME-SAME-STREAM, D-L18).
    NoResponseFrom(Vec<Value>),
    /// A JSON or SSE body is valid UTF-8 (L-BASE-UTF8, D-L19).
    Utf8,
    /// The resumed stream carries the response the broken stream owed (one whose id is none
    /// of these, answered elsewhere), or stays open (L-SHTTP-SSE-RESPONSE, D-L16).
    DeliversOwedResponse(Vec<Value>),
    /// Exactly this status.
    Status(u16),
    /// One of these statuses.
    StatusIn(&'static [u16]),
    /// Served (2xx), or refused with exactly `400` (L-SHTTP-SESSION-MISSING-400, D-L3).
    ServedOr400,
    /// A 2xx answer is `application/json` or `text/event-stream` (L-SHTTP-REQ-CT).
    JsonOrSseWhenServed,
    /// A JSON-RPC result carries `protocolVersion` (string), `capabilities` and `serverInfo`
    /// (objects) (L-LIFE-INIT-RESULT).
    InitResult,
    /// A JSON-RPC result whose `protocolVersion` is this (L-LIFE-VERSION-SAME).
    VersionIs(String),
    /// No result, or a result whose `protocolVersion` is not this (L-LIFE-VERSION-OTHER, D-L2).
    VersionIsNot(String),
    /// An `MCP-Session-Id`, if any, has only bytes 0x21-0x7E (L-SHTTP-SESSION-ID-CHARS).
    SessionIdVisible,
    /// `405`, or a 2xx `text/event-stream` (L-SHTTP-GET-SSE-OR-405).
    SseOr405,
    /// No JSON-RPC response among the stream's messages (L-SHTTP-GET-NO-RESPONSE).
    NoResponseOnStream,
    /// A POSTed request is not refused as a method the endpoint does not support: no `405`
    /// or `501` (L-SHTTP-EP-POST-GET, D-L50).
    PostSupported,
}

/// The JSON-RPC result of an answer (the JSON body, or the first SSE message with one).
fn result(a: &HttpAnswer) -> Option<&Value> {
    a.rpc_response()?.get("result")
}

fn is_response(v: &Value) -> bool {
    v.get("id").is_some()
        && v.get("method").is_none()
        && (v.get("result").is_some() || v.get("error").is_some())
}

impl Demand {
    /// Whether answer `a` is one this demand allows.
    pub fn holds(&self, a: &HttpAnswer) -> bool {
        let served = (200..300).contains(&a.status);
        match self {
            Demand::AcceptedIs202 => {
                !served || is_rpc_error(a) || (a.status == 202 && matches!(a.body, Body::Empty))
            }
            Demand::RefusalIsError => a.status >= 400 || (served && !is_rpc_error(a)),
            Demand::NotServed => !served,
            Demand::ServedOr403 => served || a.status == 403,
            Demand::OffersLatest { requested, latest } => none_or(result(a), |r| {
                match r.get("protocolVersion").and_then(Value::as_str) {
                    Some(v) => v == requested || v >= latest.as_str(),
                    None => true,
                }
            }),
            Demand::OnlyPingRequests => !server_requests(a).any(|m| m != "ping"),
            Demand::NoUndeclaredCapability => !server_requests(a).any(|m| {
                matches!(
                    m,
                    "roots/list" | "sampling/createMessage" | "elicitation/create"
                )
            }),
            Demand::Primed => match &a.body {
                Body::Sse { messages, .. } if served => {
                    matches!(messages.first(), Some(SseMessage::NotJson(d)) if d.is_empty())
                        && a.wire.id_of(0).is_some()
                }
                _ => true,
            },
            Demand::TerminatedAfterResponse => match &a.body {
                Body::Sse { closed, .. } => *closed || a.rpc_response().is_none(),
                _ => true,
            },
            Demand::RetryBeforeClose => match &a.body {
                Body::Sse { closed: true, .. } if served && a.rpc_response().is_none() => {
                    a.wire.retry
                }
                _ => true,
            },
            Demand::FreshEventIds(seen) => {
                let ids: Vec<&str> = a
                    .wire
                    .event_ids
                    .iter()
                    .flatten()
                    .map(String::as_str)
                    .collect();
                ids.iter()
                    .enumerate()
                    .all(|(i, id)| !seen.iter().any(|s| s == id) && !ids[..i].contains(id))
            }
            Demand::NoResponseFrom(elsewhere) => !responses(a).any(|id| elsewhere.contains(id)),
            Demand::Utf8 => {
                !a.wire.invalid_utf8
                    || !matches!(
                        a.content_type.as_deref(),
                        Some("application/json" | "text/event-stream")
                    )
            }
            Demand::DeliversOwedResponse(elsewhere) => {
                responses(a).any(|id| !elsewhere.contains(id))
                    || matches!(a.body, Body::Sse { closed: false, .. })
            }
            Demand::Status(s) => a.status == *s,
            Demand::StatusIn(set) => set.contains(&a.status),
            Demand::ServedOr400 => served || a.status == 400,
            Demand::JsonOrSseWhenServed => {
                !served
                    || matches!(
                        a.content_type.as_deref(),
                        Some("application/json" | "text/event-stream")
                    )
            }
            Demand::InitResult => none_or(result(a), |r| {
                r.get("protocolVersion").is_some_and(Value::is_string)
                    && r.get("capabilities").is_some_and(Value::is_object)
                    && r.get("serverInfo").is_some_and(Value::is_object)
            }),
            Demand::VersionIs(v) => {
                result(a)
                    .and_then(|r| r.get("protocolVersion"))
                    .and_then(Value::as_str)
                    == Some(v.as_str())
            }
            Demand::VersionIsNot(v) => none_or(result(a), |r| {
                r.get("protocolVersion").and_then(Value::as_str) != Some(v.as_str())
            }),
            Demand::SessionIdVisible => none_or(a.session_id.as_deref(), |s| {
                !s.is_empty() && s.bytes().all(|b| (0x21..=0x7e).contains(&b))
            }),
            Demand::SseOr405 => {
                a.status == 405
                    || (served && a.content_type.as_deref() == Some("text/event-stream"))
            }
            Demand::NoResponseOnStream => match &a.body {
                Body::Sse { messages, .. } => !messages.iter().any(|m| match m {
                    SseMessage::Json(v) => is_response(v),
                    SseMessage::NotJson(_) => false,
                }),
                _ => true,
            },
            Demand::PostSupported => !matches!(a.status, 405 | 501),
        }
    }
}

/// Whether the answer's JSON-RPC response is an error.
fn is_rpc_error(a: &HttpAnswer) -> bool {
    a.rpc_response().is_some_and(|r| r.get("error").is_some())
}

/// Every JSON message of the answer: the JSON body, or each SSE message.
fn messages(a: &HttpAnswer) -> Box<dyn Iterator<Item = &Value> + '_> {
    match &a.body {
        Body::Json { value } => Box::new(std::iter::once(value)),
        _ => Box::new(a.sse_json()),
    }
}

/// The methods of the JSON-RPC requests (a method and an id) the answer carries.
fn server_requests(a: &HttpAnswer) -> impl Iterator<Item = &str> {
    messages(a)
        .filter(|v| v.get("id").is_some())
        .filter_map(|v| v.get("method").and_then(Value::as_str))
}

/// The ids of the JSON-RPC responses the answer carries.
fn responses(a: &HttpAnswer) -> impl Iterator<Item = &Value> {
    messages(a)
        .filter(|v| is_response(v))
        .filter_map(|v| v.get("id"))
}

/// `Option::is_none_or`, which is newer than the workspace's rust-version.
fn none_or<T>(o: Option<T>, f: impl FnOnce(T) -> bool) -> bool {
    match o {
        None => true,
        Some(v) => f(v),
    }
}

impl fmt::Display for Demand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Demand::AcceptedIs202 => f.write_str("an accepted input answered 202 with no body"),
            Demand::RefusalIsError => {
                f.write_str("an input it does not accept refused with an HTTP error status")
            }
            Demand::NotServed => f.write_str("a request from a foreign Origin not served"),
            Demand::ServedOr403 => f.write_str("a foreign Origin refused with HTTP 403"),
            Demand::OffersLatest { latest, .. } => write!(
                f,
                "another version no older than {latest:?} (its latest known legacy version)"
            ),
            Demand::OnlyPingRequests => {
                f.write_str("no server request but ping before notifications/initialized")
            }
            Demand::NoUndeclaredCapability => f.write_str(
                "no roots/list, sampling/createMessage or elicitation/create (client declared no capabilities)",
            ),
            Demand::Primed => {
                f.write_str("an SSE stream opening with an event of an id and empty data")
            }
            Demand::TerminatedAfterResponse => {
                f.write_str("the SSE stream ended by the server after the response")
            }
            Demand::RetryBeforeClose => {
                f.write_str("a retry field before closing a stream that carried no response")
            }
            Demand::FreshEventIds(seen) => write!(
                f,
                "SSE event ids unique in the session ({} seen before)",
                seen.len()
            ),
            Demand::Utf8 => f.write_str("a JSON or SSE body of valid UTF-8"),
            Demand::NoResponseFrom(_) => {
                f.write_str("no response of another stream replayed on the resumed stream")
            }
            Demand::DeliversOwedResponse(_) => {
                f.write_str("the resumed stream carrying the response the broken stream owed")
            }
            Demand::Status(s) => write!(f, "HTTP {s}"),
            Demand::StatusIn(set) => {
                let list: Vec<String> = set.iter().map(u16::to_string).collect();
                write!(f, "HTTP {}", list.join(" or "))
            }
            Demand::ServedOr400 => f.write_str("served, or refused with HTTP 400"),
            Demand::JsonOrSseWhenServed => {
                f.write_str("Content-Type application/json or text/event-stream")
            }
            Demand::InitResult => {
                f.write_str("a result with protocolVersion, capabilities and serverInfo")
            }
            Demand::VersionIs(v) => write!(f, "a result with protocolVersion {v:?}"),
            Demand::VersionIsNot(v) => {
                write!(
                    f,
                    "no result with protocolVersion {v:?} (another version it supports)"
                )
            }
            Demand::SessionIdVisible => {
                f.write_str("an MCP-Session-Id of visible ASCII only (0x21-0x7E)")
            }
            Demand::SseOr405 => f.write_str("a text/event-stream answer, or HTTP 405"),
            Demand::NoResponseOnStream => f.write_str("no JSON-RPC response on the GET stream"),
            Demand::PostSupported => {
                f.write_str("a POSTed request not refused as an unsupported method (no HTTP 405 or 501)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_is_unsupported_only_when_refused_405_or_501() {
        let answer = |status| HttpAnswer::new(status, None, Body::Empty);
        for s in [405, 501] {
            assert!(!Demand::PostSupported.holds(&answer(s)), "{s}");
        }
        for s in [200, 202, 400, 403, 404, 406, 415, 500] {
            assert!(Demand::PostSupported.holds(&answer(s)), "{s}");
        }
    }
}
