//! `Response`: what the reference server (or a mutant) sends, before any bytes exist, and its
//! conversion to the `Observation` the oracle checks (so tests can score in-process without
//! HTTP, and the HTTP shell and the in-process path cannot disagree on content).

use crate::observation::{Body, HttpAnswer, Observation, SseMessage, WireFields};
use serde_json::Value;

/// The body of an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ResponseBody {
    /// No body bytes.
    Empty,
    /// One JSON document.
    Json(Value),
    /// A `text/event-stream`: `events` are sent as `data:` events in order; with `keep_open`
    /// the stream then stays open (keep-alive comments) until the client goes away.
    Sse { events: Vec<Value>, keep_open: bool },
    /// Bytes as they are (the legacy mutant that breaks L-BASE-UTF8 sends bytes no JSON
    /// value serializes to).
    Raw(Vec<u8>),
    /// A `text/event-stream` whose events carry SSE fields beside `data` (ids, `retry`, an
    /// empty priming `data`): the legacy reference's streams (2025-11-25 resumability).
    Stream {
        events: Vec<SseEvent>,
        keep_open: bool,
    },
}

/// One event of a [`ResponseBody::Stream`].
#[derive(Clone, Debug, PartialEq)]
pub struct SseEvent {
    /// The `id` field, if any.
    pub id: Option<String>,
    /// The `data`: a JSON message, or `None` for an empty `data` field (a priming event).
    pub data: Option<Value>,
    /// A `retry` field (milliseconds), if any.
    pub retry_ms: Option<u32>,
}

impl SseEvent {
    /// An event carrying `message` with event id `id`.
    pub fn message(id: Option<String>, message: Value) -> SseEvent {
        SseEvent {
            id,
            data: Some(message),
            retry_ms: None,
        }
    }

    /// A priming event: an id and an empty `data` field (2025-11-25 L-SHTTP-SSE-PRIME).
    pub fn prime(id: String) -> SseEvent {
        SseEvent {
            id: Some(id),
            data: None,
            retry_ms: None,
        }
    }

    /// The event as `text/event-stream` text (compact JSON has no newlines).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(id) = &self.id {
            out.push_str(&format!("id: {id}\n"));
        }
        if let Some(ms) = self.retry_ms {
            out.push_str(&format!("retry: {ms}\n"));
        }
        match &self.data {
            Some(v) => out.push_str(&format!("event: message\ndata: {v}\n\n")),
            None => out.push_str("data:\n\n"),
        }
        out
    }
}

/// A complete answer: status, headers in order, body.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: ResponseBody,
}

impl Response {
    /// A bodiless answer.
    pub fn empty(status: u16) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body: ResponseBody::Empty,
        }
    }

    /// An `application/json` answer.
    pub fn json(status: u16, value: Value) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: ResponseBody::Json(value),
        }
    }

    /// A `200 text/event-stream` answer. `X-Accel-Buffering: no` keeps reverse proxies from
    /// buffering the stream (streamable-http.mdx, SHTTP-SSE-XACCEL).
    pub fn sse(events: Vec<Value>, keep_open: bool) -> Response {
        Response {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/event-stream".into()),
                ("Cache-Control".into(), "no-cache".into()),
                ("X-Accel-Buffering".into(), "no".into()),
            ],
            body: ResponseBody::Sse { events, keep_open },
        }
    }

    /// The first value of header `name` (ASCII case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Replace every header `name` by one `name: value`; `None` removes it.
    pub fn set_header(&mut self, name: &str, value: Option<&str>) {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        if let Some(v) = value {
            self.headers.push((name.to_string(), v.to_string()));
        }
    }

    /// Every JSON message of the body (the document, or each SSE event), mutably.
    pub fn messages_mut(&mut self) -> Vec<&mut Value> {
        match &mut self.body {
            ResponseBody::Empty => Vec::new(),
            ResponseBody::Json(v) => vec![v],
            ResponseBody::Sse { events, .. } => events.iter_mut().collect(),
            ResponseBody::Stream { events, .. } => {
                events.iter_mut().filter_map(|e| e.data.as_mut()).collect()
            }
            ResponseBody::Raw(_) => Vec::new(),
        }
    }
}

/// The Observation a client reading `r` would build (an open stream reads as not closed).
pub fn to_observation(r: &Response) -> Observation {
    let content_type = r.header("Content-Type").map(|v| {
        let media = v.split(';').next().unwrap_or(v);
        media.trim().to_ascii_lowercase()
    });
    let mut wire = WireFields::default();
    let body = match &r.body {
        ResponseBody::Empty => Body::Empty,
        // as the transport classifies bytes: JSON if they parse, else a lossy prefix
        ResponseBody::Raw(bytes) => {
            wire.invalid_utf8 = std::str::from_utf8(bytes).is_err();
            wire.duplicate_input_keys =
                crate::shape::input_keys::duplicate_input_request_keys(bytes);
            match serde_json::from_slice(bytes) {
                Ok(value) => Body::Json { value },
                Err(_) => Body::Other {
                    len: bytes.len(),
                    prefix: String::from_utf8_lossy(bytes).chars().take(80).collect(),
                },
            }
        }
        ResponseBody::Stream { events, keep_open } => {
            wire.event_ids = events.iter().map(|e| e.id.clone()).collect();
            wire.retry = events.iter().any(|e| e.retry_ms.is_some());
            Body::Sse {
                // an empty `data` field reads as the empty non-JSON text, as the transport
                // reads it
                messages: events
                    .iter()
                    .map(|e| match &e.data {
                        Some(v) => SseMessage::Json(v.clone()),
                        None => SseMessage::NotJson(String::new()),
                    })
                    .collect(),
                closed: !keep_open,
            }
        }
        ResponseBody::Json(v) => Body::Json { value: v.clone() },
        ResponseBody::Sse { events, keep_open } => Body::Sse {
            messages: events.iter().cloned().map(SseMessage::Json).collect(),
            closed: !keep_open,
        },
    };
    Observation::Http(HttpAnswer {
        status: r.status,
        content_type,
        session_id: r.header("Mcp-Session-Id").map(str::to_string),
        x_accel_buffering: r.header("X-Accel-Buffering").map(str::to_string),
        allow: r.header("Allow").map(str::to_string),
        www_authenticate: r.header("WWW-Authenticate").map(str::to_string),
        body,
        wire: Box::new(wire),
    })
}
