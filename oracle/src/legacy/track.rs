//! The session state a legacy sequence implies, read from the target's own answers.

use serde::{Deserialize, Serialize};

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

/// The state before a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Track {
    pub session: SessionTrack,
    /// The `protocolVersion` of the `initialize` result.
    pub negotiated: Option<String>,
}

impl Track {
    /// Before the first step.
    pub fn start() -> Track {
        Track {
            session: SessionTrack::NotOpened,
            negotiated: None,
        }
    }
}
