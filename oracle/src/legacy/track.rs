//! The session state a legacy sequence implies, read from the target's own answers.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the earlier steps say about the session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state", content = "id")]
pub enum SessionTrack {
    /// No `initialize` answered yet.
    NotOpened,
    /// `initialize` was answered without an `MCP-Session-Id`: the target uses no sessions.
    Sessionless,
    /// The target assigned this id and has not ended it.
    Live(String),
    /// The target accepted a DELETE of this id (or answered it 404): it is over.
    Terminated(String),
    /// An answer that could not be read leaves the state open: nothing that depends on it
    /// is judged.
    Unsure(Option<String>),
}

impl SessionTrack {
    /// The session id a `Current` step sends.
    pub fn id(&self) -> Option<&str> {
        match self {
            SessionTrack::Live(id) | SessionTrack::Terminated(id) => Some(id),
            SessionTrack::Unsure(id) => id.as_deref(),
            SessionTrack::NotOpened | SessionTrack::Sessionless => None,
        }
    }
}

/// The first SSE stream a request of the session was answered with that carried an event
/// id: where the [`Resume`](super::LegacyStep::Resume) step resumes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResumePoint {
    /// The stream's first event id (sent as `Last-Event-ID`).
    pub last_event_id: String,
    /// The server closed the stream without the request's response on it: a resumption
    /// owes it (L-SHTTP-SSE-RESPONSE, D-L16).
    pub owes_response: bool,
}

/// The state before a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Track {
    pub session: SessionTrack,
    /// The `protocolVersion` of the `initialize` result.
    pub negotiated: Option<String>,
    /// `notifications/initialized` was accepted in this session: the operation phase
    /// (L-LIFE-NO-REQUESTS-BEFORE-INITIALIZED before it, L-LIFE-OPERATION after, D-L14).
    #[serde(default)]
    pub initialized: bool,
    /// Every SSE event id the session's answers carried so far (L-SHTTP-EVENTID-UNIQUE).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub event_ids: Vec<String>,
    /// The stream a `Resume` step resumes, once one was seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<ResumePoint>,
    /// The ids of JSON-RPC responses read on answers other than the resume point's stream:
    /// a resumed stream replaying one of them replays another stream's message
    /// (L-SHTTP-RESUME-SAME-STREAM).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answered_elsewhere: Vec<Value>,
}

impl Track {
    /// Before the first step.
    pub fn start() -> Track {
        Track {
            session: SessionTrack::NotOpened,
            negotiated: None,
            initialized: false,
            event_ids: Vec::new(),
            resume: None,
            answered_elsewhere: Vec::new(),
        }
    }
}
