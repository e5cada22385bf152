//! `Observation`: what a target actually did with one `Case`, normalized.
//!
//! The transport (in the CLI crate) builds these from bytes; the reference server's tests
//! build them from their own HTTP answers. The oracle only ever reads them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why no complete HTTP answer was read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportFailure {
    /// TCP connect refused or failed.
    Refused,
    /// Connection closed or reset before a complete status line and headers.
    Reset,
    /// No (complete) answer within the per-case time limit.
    Timeout,
    /// Bytes that are not an HTTP/1.x response.
    Garbage,
    /// Headers larger than the per-case limit.
    OversizeHeaders,
}

/// One event of an SSE response (only `data` matters to the oracle).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SseMessage {
    /// `data:` that parsed as JSON.
    Json(Value),
    /// `data:` that did not parse as JSON (kept short).
    NotJson(String),
}

/// What the wire showed beside the parsed body, for the 2025-11-25 rules: the SSE fields
/// beside `data` (event ids, `retry`: resumability and priming) and whether some body bytes
/// were not UTF-8; and, for MRTR-KEYS-UNIQUE, whether a message's text named an
/// `inputRequests` member twice (a parsed value keeps one). Empty for most answers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireFields {
    /// `event_ids[i]` is the `id` field of the event that carried message `i` of the body
    /// (`None`: that event had no `id` field). As long as the messages, when kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub event_ids: Vec<Option<String>>,
    /// Some event of the stream had a `retry` field.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retry: bool,
    /// Some body bytes (the whole body, or an SSE event's `data`) are not valid UTF-8
    /// (2025-11-25 L-BASE-UTF8); the body then holds their lossy prefix.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invalid_utf8: bool,
    /// The text of the JSON body, or of an SSE event's `data`, holds a `result.inputRequests`
    /// object naming one member twice (`shape::input_keys`; MRTR-KEYS-UNIQUE, D-171).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duplicate_input_keys: bool,
}

impl WireFields {
    /// Nothing recorded (no event id, no `retry`, valid UTF-8, no repeated input key).
    pub fn is_empty(&self) -> bool {
        !self.retry
            && !self.invalid_utf8
            && !self.duplicate_input_keys
            && self.event_ids.iter().all(Option::is_none)
    }

    /// The `id` of the event that carried message `i`, if it had one.
    pub fn id_of(&self, i: usize) -> Option<&str> {
        self.event_ids.get(i).and_then(|v| v.as_deref())
    }
}

/// `skip_serializing_if` for [`HttpAnswer::wire`] (serde hands it the field itself).
#[allow(clippy::borrowed_box)]
fn no_wire_fields(f: &Box<WireFields>) -> bool {
    f.is_empty()
}

/// The body of an HTTP answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Body {
    /// No body bytes.
    Empty,
    /// A JSON value (any content type; `content_type` says what the server claimed).
    Json { value: Value },
    /// A `text/event-stream` answer.
    Sse {
        messages: Vec<SseMessage>,
        /// The server closed the stream itself (false: mcpdiff stopped reading at a limit).
        closed: bool,
    },
    /// Bytes that are neither empty, nor JSON, nor SSE (a short prefix is kept).
    Other { len: usize, prefix: String },
    /// The body exceeded the size limit; reading stopped.
    Oversize { read: usize },
}

/// A complete (or bounded) HTTP answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HttpAnswer {
    pub status: u16,
    /// Media type, lowercased, parameters removed (`application/json`).
    pub content_type: Option<String>,
    /// Value of an `Mcp-Session-Id` response header, if any.
    pub session_id: Option<String>,
    /// Value of `X-Accel-Buffering`, if any.
    pub x_accel_buffering: Option<String>,
    /// Value of `Allow`, if any.
    pub allow: Option<String>,
    /// Value of `WWW-Authenticate` (repeated fields joined with `, `), if any; read by the
    /// server-card scan, which counts a 401 only when its challenge names `resource_metadata`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub www_authenticate: Option<String>,
    pub body: Body,
    /// SSE event ids, `retry`, broken UTF-8 (boxed: most answers have none, and an
    /// `Observation` stays small).
    #[serde(default, skip_serializing_if = "no_wire_fields")]
    pub wire: Box<WireFields>,
}

/// What a target did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
// (an answer is ~200 bytes, a transport failure one: the answer is built once per case and
// moved a handful of times, and boxing it would reach every one of the ~45 places that build
// or match one; the 2025-11-25 wire fields already sit behind a box)
#[allow(clippy::large_enum_variant)]
pub enum Observation {
    Http(HttpAnswer),
    Transport { failure: TransportFailure },
}

impl HttpAnswer {
    /// A plain answer with no headers of interest.
    pub fn new(status: u16, content_type: Option<&str>, body: Body) -> HttpAnswer {
        HttpAnswer {
            status,
            content_type: content_type.map(str::to_string),
            session_id: None,
            x_accel_buffering: None,
            allow: None,
            www_authenticate: None,
            body,
            wire: Box::default(),
        }
    }

    /// The JSON-RPC response this answer carries: the JSON body if it is a response object,
    /// or for SSE the first message that is a response (has `result` or `error`).
    pub fn rpc_response(&self) -> Option<&Value> {
        match &self.body {
            Body::Json { value } if is_response(value) => Some(value),
            Body::Sse { messages, .. } => messages.iter().find_map(|m| match m {
                SseMessage::Json(v) if is_response(v) => Some(v),
                _ => None,
            }),
            _ => None,
        }
    }

    /// The error code of the JSON-RPC error response, if the answer is one with an integer code.
    pub fn error_code(&self) -> Option<i64> {
        self.rpc_response()?.get("error")?.get("code")?.as_i64()
    }

    /// Whether the answer carries a JSON-RPC success response.
    pub fn is_result(&self) -> bool {
        self.rpc_response()
            .is_some_and(|r| r.get("result").is_some())
    }

    /// Whether the body is an SSE stream.
    pub fn is_sse(&self) -> bool {
        matches!(self.body, Body::Sse { .. })
    }

    /// All JSON messages of an SSE body (empty otherwise).
    pub fn sse_json(&self) -> impl Iterator<Item = &Value> {
        let msgs: &[SseMessage] = match &self.body {
            Body::Sse { messages, .. } => messages,
            _ => &[],
        };
        msgs.iter().filter_map(|m| match m {
            SseMessage::Json(v) => Some(v),
            SseMessage::NotJson(_) => None,
        })
    }
}

fn is_response(v: &Value) -> bool {
    v.is_object() && (v.get("result").is_some() || v.get("error").is_some())
}

impl Observation {
    pub fn http(&self) -> Option<&HttpAnswer> {
        match self {
            Observation::Http(a) => Some(a),
            Observation::Transport { .. } => None,
        }
    }

    /// Whether the connection was refused: the target was never reached (a replay counts the
    /// targets it reached).
    pub fn is_refused(&self) -> bool {
        matches!(
            self,
            Observation::Transport {
                failure: TransportFailure::Refused
            }
        )
    }

    /// One line for reports: `400 application/json error -32020`, `timeout`, ...
    pub fn summary(&self) -> String {
        match self {
            Observation::Transport { failure } => failure.to_string(),
            Observation::Http(a) => {
                let ct = a.content_type.as_deref().unwrap_or("-");
                let what = match (&a.body, a.rpc_response()) {
                    (_, Some(r)) if r.get("error").is_some() => match a.error_code() {
                        Some(c) => format!("error {c}"),
                        None => "error (no integer code)".to_string(),
                    },
                    (Body::Sse { .. }, Some(_)) => "sse result".to_string(),
                    (_, Some(_)) => "result".to_string(),
                    (Body::Empty, None) => "empty".to_string(),
                    (Body::Json { .. }, None) => "json (not a response)".to_string(),
                    (Body::Sse { messages, closed }, None) => format!(
                        "sse {} message(s), {}",
                        messages.len(),
                        if *closed { "closed" } else { "open" }
                    ),
                    (Body::Other { len, .. }, None) => format!("{len} non-JSON bytes"),
                    (Body::Oversize { read }, None) => format!("oversize body (>{read} bytes)"),
                };
                format!("{} {} {}", a.status, ct, what)
            }
        }
    }
}
