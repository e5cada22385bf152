//! What one legacy rule allows of one answer, and the check of an answer against it.

use crate::observation::{Body, HttpAnswer, SseMessage};
use serde_json::Value;
use std::fmt;

/// The answers one `L-*` rule allows at one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Demand {
    /// `202` with no body, or an HTTP error status (L-SHTTP-NOTIF-202 / -REJECT).
    AcceptedOrError,
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
            Demand::AcceptedOrError => {
                (a.status == 202 && matches!(a.body, Body::Empty)) || a.status >= 400
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
        }
    }
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
            Demand::AcceptedOrError => {
                f.write_str("202 Accepted with no body, or an HTTP error status")
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
        }
    }
}
