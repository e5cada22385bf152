//! The legacy reference's session table, as a plain value.

use serde_json::Value;

/// Sessions kept at most; beyond it the oldest is forgotten (its id then answers 404, as an
/// unknown one does), so a long fuzz run cannot grow the table without bound.
pub const MAX_SESSIONS: usize = 1024;

/// One session the reference minted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The `MCP-Session-Id` value (visible ASCII only).
    pub id: String,
    /// The protocol version negotiated by `initialize`.
    pub version: String,
    /// `notifications/initialized` was received.
    pub initialized: bool,
    /// Ended by DELETE: every later request carrying the id gets 404.
    pub terminated: bool,
    /// Every SSE stream the session's requests were answered with, as (event id, data)
    /// events in order (`None`: the empty priming `data`): what a `GET` with
    /// `Last-Event-ID` replays from (2025-11-25 § Resumability and Redelivery). Bounded by
    /// [`MAX_STREAMS`].
    pub streams: Vec<Vec<(String, Option<Value>)>>,
    /// Streams opened so far (event ids are numbered from it, so they stay unique in the
    /// session after old streams are forgotten).
    pub streams_opened: u64,
}

/// Streams kept per session; beyond it the oldest is forgotten (resuming it then opens a
/// plain stream), so a long run cannot grow a session without bound.
pub const MAX_STREAMS: usize = 64;

/// Every session the reference knows, and what it mints ids from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegacyState {
    /// Session ids are `{nonce}-{n}`: the shell passes an unguessable nonce (pure tests a
    /// fixed one), which keeps ids globally unique across restarts.
    nonce: String,
    minted: u64,
    sessions: Vec<Session>,
}

impl LegacyState {
    /// An empty table minting ids from `nonce` (visible ASCII; anything else is dropped).
    pub fn new(nonce: &str) -> LegacyState {
        LegacyState {
            nonce: nonce
                .bytes()
                .filter(|b| (0x21..=0x7e).contains(b))
                .map(char::from)
                .collect(),
            minted: 0,
            sessions: Vec::new(),
        }
    }

    /// The session `id` names, if the reference minted it and still remembers it.
    pub fn session(&self, id: &str) -> Option<&Session> {
        self.sessions.iter().find(|s| s.id == id)
    }

    pub(super) fn session_mut(&mut self, id: &str) -> Option<&mut Session> {
        self.sessions.iter_mut().find(|s| s.id == id)
    }

    /// Open a session at `version`; returns its id.
    pub(super) fn open(&mut self, version: &str) -> String {
        self.minted += 1;
        let id = format!("{}-{}", self.nonce, self.minted);
        if self.sessions.len() >= MAX_SESSIONS {
            self.sessions.remove(0);
        }
        self.sessions.push(Session {
            id: id.clone(),
            version: version.to_string(),
            initialized: false,
            terminated: false,
            streams: Vec::new(),
            streams_opened: 0,
        });
        id
    }

    /// How many sessions are remembered (live or terminated).
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// No session was opened (or all were forgotten).
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }
}
